"""Fuzzer for the cache's trust: whatever a cache file holds, a run reports what
``--no-cache`` reports and never fails.

Every file of a warm cache (whatever its layout: pickled records, marshal columns, the
replay record) is, one at a time, truncated, flipped without a seal (a forgery), swapped
with another store's file of the same kind, or unsealed, decoded and changed so that
one value somewhere in it has another type, or one sequence another length, and sealed
again under the user's key: what the validation behind the MAC sees if memlint itself
ever wrote such a file. A whole-store run and a run naming two files, both on that
cache, then report exactly what ``--no-cache`` does, and so does the run after them
(which rewrote the cache). ``MEMLINT_FUZZ_STEPS`` and ``MEMLINT_FUZZ_SEED`` run it
longer or elsewhere."""

from __future__ import annotations

import marshal
import os
import pickle
import random
import shutil
import time
from pathlib import Path

import pytest

from memlint.cachedir import HEADER_SIZE, MAGIC, _mac, _secret, folder_name, user_cache_home
from tests.helpers import check_json, generate_store, write_files

STEPS = int(os.environ.get("MEMLINT_FUZZ_STEPS", "40"))
SEED = int(os.environ.get("MEMLINT_FUZZ_SEED", "20261204"))
OLD = time.time_ns() - 3600 * 10**9  # an mtime the cache trusts (well before the run)
NAMED = ["a/m8.md", "c/MEMORY.md"]


def user_secret() -> bytes:
    os.makedirs(user_cache_home(), exist_ok=True)
    secret = _secret(user_cache_home(), create=True)
    assert secret is not None
    return secret


def memory(name: str, body: str, link: str = "") -> str:
    return (
        f"---\nname: {name}\ndescription: fact about {name}\nmetadata:\n  type: project\n---\n"
        f"{body}\n{link}\n"
    )


def build(top: Path) -> None:
    """Two stores of near-duplicate, linked, indexed memories in one project."""
    body = (
        "The deploy of the billing service needs the cache flag set before the build "
        "step runs, or the release stalls and someone restarts the job by hand. When the "
        "tests fail on the staging runner, clear the cache folder first and run them again."
    )
    for store in ("a", "b"):
        files = {f"{store}/MEMORY.md": "# Index\n\n"}
        for i in range(12):
            name = f"m{i}"
            files[f"{store}/{name}.md"] = memory(
                name, body + (" again" * (i % 3)), f"See [[m{(i * 5) % 14}]]."
            )
            if i % 4:
                files[f"{store}/MEMORY.md"] += f"- [{name}]({name}.md) — fact about {name}\n"
        write_files(top, files)
    generate_store(top / "c", 30, seed=3, defect_rate=0.4, notes=5)
    for path in [top, *top.rglob("*")]:
        os.utime(path, ns=(OLD, OLD))


# -- decoding and changing a sealed file's body ------------------------------------


def decode(body: bytes):
    """(codec, value) of a sealed body memlint wrote, or (None, None)."""
    try:
        return "marshal", marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        pass
    try:
        return "pickle", pickle.loads(body)
    except Exception:
        return None, None


def encode(codec: str, value) -> bytes:
    return marshal.dumps(value) if codec == "marshal" else pickle.dumps(value)


def nodes(value, path=()):
    """Every (path, value) in a nested structure of tuples, lists and dicts."""
    yield path, value
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from nodes(item, (*path, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, (*path, ("key", key)))


def replaced(value, path, new):
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(step, tuple):  # a dict key
        copy = dict(value)
        copy[step[1]] = replaced(value[step[1]], rest, new)
        return copy
    items = list(value)
    items[step] = replaced(items[step], rest, new)
    return tuple(items) if isinstance(value, tuple) else items


STRANGERS = [None, -1, 2**70, 1.5, "x", b"\x00" * 3, (), [], {}, ("x", 1), [None], {"x": 1}]


def resizable(old, parent) -> bool:
    """Whether another length of ``old`` breaks a layout rather than changes a value:
    bytes (digests, packed records), a record (a tuple of mixed types) or a column (a
    list beside another of the same length). A list of records shorter or longer, or a
    string cut, is a value memlint could have written."""
    if isinstance(old, bytes):
        return True
    if isinstance(old, tuple):
        return len({type(item) for item in old}) > 1
    if isinstance(old, list) and isinstance(parent, (list, tuple, dict)):
        siblings = parent.values() if isinstance(parent, dict) else parent
        return sum(isinstance(s, list) and len(s) == len(old) for s in siblings) > 1
    return False


def confused(rng: random.Random, value) -> tuple[object, str]:
    """``value`` with one node given another type, or one layout another length."""
    parents = {path: node for path, node in nodes(value)}
    candidates = [p for p in nodes(value) if p[0]]  # not the root itself
    if not candidates:
        return None, ""
    path, old = rng.choice(candidates)
    kind = rng.randrange(3)
    if kind < 2 and resizable(old, parents[path[:-1]]) and len(old) > 0:
        new = old[: rng.randrange(len(old))] if kind == 0 else old + old[-1:]
    else:
        strangers = [s for s in STRANGERS if type(s) is not type(old)]
        if isinstance(old, int) and not isinstance(old, bool):
            strangers = [s for s in strangers if not isinstance(s, (int, float))]
        new = rng.choice(strangers)
    return replaced(value, path, new), f"at {path}: {type(old).__name__} -> {new!r:.40}"


def seal_again(path: Path, body: bytes) -> None:
    path.write_bytes(MAGIC + _mac(user_secret(), body) + body)


def stable_name(name: str, top: Path) -> str:
    """A cache file's name with each store's id replaced by its folder's name (the ids
    follow the temporary folder's path: the seed alone chooses what is tampered with)."""
    for store in ("a", "b", "c"):
        name = name.replace(folder_name(os.path.realpath(top / store)), store)
    return name


def damaged(rng: random.Random, kind: str, data: bytes) -> bytes:
    """``data`` cut at a random place ("truncate") or with one byte flipped ("flip")."""
    if kind == "truncate":
        return data[: rng.randrange(len(data))]
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ 0x41]) + data[at + 1 :]


def tamper(rng: random.Random, cache: Path, top: Path) -> str:
    """Change one file of ``cache``; say how."""
    files = sorted(
        (p for p in cache.iterdir() if p.is_file() and p.name.startswith(("store", "replay"))),
        key=lambda p: stable_name(p.name, top),
    )
    target = rng.choice(files)
    data = target.read_bytes()
    kind = rng.choice(["truncate", "flip", "swap", "confuse", "confuse", "confuse", "confuse"])
    if kind in ("truncate", "flip"):
        target.write_bytes(damaged(rng, kind, data))
    elif kind == "swap":
        suffix = target.name.split(".", 1)[-1]
        others = [p for p in files if p != target and p.name.split(".", 1)[-1] == suffix]
        if not others:
            return "swap: no other file"
        other = rng.choice(others)
        target.write_bytes(other.read_bytes())
        return f"swap {target.name} <- {other.name}"
    else:
        codec, value = decode(data[HEADER_SIZE:])
        if codec is None:
            return f"undecodable {target.name}"
        new, change = confused(rng, value)
        if new is None:
            return f"nothing to change in {target.name}"
        try:
            seal_again(target, encode(codec, new))
        except (ValueError, TypeError, pickle.PicklingError):
            return f"cannot encode {target.name}"
        return f"{kind} {target.name} {change}"
    return f"{kind} {target.name}"


@pytest.mark.parametrize("seed", [SEED])
def test_a_tampered_cache_never_changes_what_is_reported(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    top = tmp_path / "project"
    build(top)
    monkeypatch.chdir(top)
    reference = check_json(capsys, ".", "--no-cache")
    named = [d for d in reference if d["filename"] in NAMED]
    assert named and {d["code"] for d in reference} >= {"DU001", "LK001"}
    pristine = tmp_path / "pristine"
    cache = tmp_path / "cache"
    args = ["--cache-dir", str(cache)]
    for _ in range(2):  # the second run records the replay and the signatures
        assert check_json(capsys, ".", *args) == reference
    assert check_json(capsys, *NAMED, *args) == named
    shutil.copytree(cache, pristine)
    for step in range(STEPS):
        shutil.rmtree(cache)
        shutil.copytree(pristine, cache)
        done = stable_name(tamper(rng, cache, top), top)
        where = f"seed {seed}, step {step}: {done}"
        if rng.random() < 0.5:
            assert check_json(capsys, *NAMED, *args) == named, where
        assert check_json(capsys, ".", *args) == reference, where
        assert check_json(capsys, ".", *args) == reference, where + " (the run after)"


DELTA_STEPS = int(os.environ.get("MEMLINT_FUZZ_DELTA_STEPS", "10"))
DELTA_TAMPERS = ["truncate", "flip", "swap", "stale", "confuse"]


def edit(paths: list[Path], number: int) -> None:
    for path in paths:
        path.write_text(path.read_text(encoding="utf-8") + f"\nround {number}\n", "utf-8")
        os.utime(path, ns=(OLD + number + 1, OLD + number + 1))


def tamper_delta(rng: random.Random, kind: str, delta: Path, stale: bytes, cache: Path) -> str:
    """Change the delta file as ``kind`` says: cut, flipped without a seal, replaced by
    a shard (sealed, another layout), by an older delta (sealed, stale entries), or
    decoded, type-confused and sealed again."""
    data = delta.read_bytes()
    if kind in ("truncate", "flip"):
        delta.write_bytes(damaged(rng, kind, data))
    elif kind == "swap":
        shard = rng.choice(sorted(cache.glob("store-*-[0-9][0-9].pickle")))
        delta.write_bytes(shard.read_bytes())
        return f"swap <- {shard.name[-9:]}"
    elif kind == "stale":
        delta.write_bytes(stale)
    else:
        codec, value = decode(data[HEADER_SIZE:])
        assert codec == "pickle"
        new, change = confused(rng, value)
        seal_again(delta, encode(codec, new))
        return f"confuse {change}"
    return kind


def test_a_tampered_delta_file_never_changes_what_is_reported(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edits over more than ``FEW_SHARDS`` shards of a 300-file store go into the delta
    file; that file, tampered with in each way, never changes a whole-store run or a
    run naming edited files (with the memo and replay gone, half the time, so the
    whole-store run reads every file's entry through the delta)."""
    import memlint.cache
    from memlint.cache import FEW_SHARDS, _shard

    rng = random.Random(SEED)
    top = tmp_path / "project"
    generate_store(top / "s", 300, seed=5, defect_rate=0.3, notes=5)
    for path in [top, *top.rglob("*")]:
        os.utime(path, ns=(OLD, OLD))
    monkeypatch.chdir(top)
    cache = tmp_path / "cache"
    args = ["--cache-dir", str(cache)]
    for _ in range(2):
        check_json(capsys, ".", *args)
    by_shard = {_shard(p.relative_to(top / "s").as_posix()): p for p in sorted(top.rglob("*.md"))}
    by_shard = {shard: p for shard, p in by_shard.items() if p.name != "MEMORY.md"}
    chosen = list(by_shard.values())
    rounds = [chosen[: FEW_SHARDS + 2], chosen[-FEW_SHARDS - 2 :]]
    stale = b""
    for number, edited in enumerate(rounds):
        edit(edited, number)
        reference = check_json(capsys, ".", "--no-cache")
        assert check_json(capsys, ".", *args) == reference
        (delta,) = cache.glob("store-*-delta.pickle")
        stale = stale or delta.read_bytes()
    assert delta.read_bytes() != stale
    names = [p.relative_to(top).as_posix() for p in (rounds[0][0], rounds[1][0])]
    named = [d for d in reference if d["filename"] in names]
    reads = []
    original = memlint.cache.StoreCache._delta_entries

    def counted(self):
        reads.append(self.delta_path)
        return original(self)

    monkeypatch.setattr(memlint.cache.StoreCache, "_delta_entries", counted)
    pristine = tmp_path / "pristine"
    shutil.copytree(cache, pristine)
    for step in range(DELTA_STEPS):
        shutil.rmtree(cache)
        shutil.copytree(pristine, cache)
        kind = DELTA_TAMPERS[step % len(DELTA_TAMPERS)]
        where = f"seed {SEED}, step {step}: " + tamper_delta(rng, kind, delta, stale, cache)
        if step % 2:
            for path in [*cache.glob("store-*.memo.pickle"), *cache.glob("replay-*")]:
                path.unlink()
        assert check_json(capsys, *names, *args) == named, where
        assert check_json(capsys, ".", *args) == reference, where
        assert check_json(capsys, ".", *args) == reference, where + " (the run after)"
    assert reads  # the runs read the delta file


def test_a_stale_cache_file_never_changes_what_is_reported(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each cache file that an edit made memlint rewrite, put back as it was before the
    edit (sealed by this user, well-formed, of this layout: only out of date), alone
    and then all of them together, never changes a whole-store run or a run naming
    files: whatever a file holds must be tied to the content it was computed from
    (a column of summaries, fingerprints or index entries newer or older than the
    others, a memo or replay of the store before)."""
    top = tmp_path / "project"
    build(top)
    monkeypatch.chdir(top)
    cache = tmp_path / "cache"
    args = ["--cache-dir", str(cache)]
    for _ in range(2):
        check_json(capsys, ".", *args)
    check_json(capsys, *NAMED, *args)
    older = {p.name: p.read_bytes() for p in cache.iterdir() if p.is_file()}
    edits = {
        "a/m8.md": memory("m8", "A different fact about the payroll export and its cron."),
        "b/m3.md": memory("m3", "The release of the billing service.", "See [[m99]]."),
        "a/MEMORY.md": (top / "a/MEMORY.md").read_text() + "- [m0](m0.md) — fact about m0\n",
    }
    write_files(top, edits)
    for rel in edits:
        os.utime(top / rel, ns=(OLD + 10**9, OLD + 10**9))
    reference = check_json(capsys, ".", "--no-cache")
    named = [d for d in reference if d["filename"] in NAMED]
    for _ in range(2):
        assert check_json(capsys, ".", *args) == reference
    assert check_json(capsys, *NAMED, *args) == named
    pristine = tmp_path / "pristine"
    shutil.copytree(cache, pristine)
    stale = sorted(
        name
        for name, data in older.items()
        if (pristine / name).is_file() and (pristine / name).read_bytes() != data
    )
    assert len(stale) >= 4
    for chosen in [*([name] for name in stale), stale]:
        shutil.rmtree(cache)
        shutil.copytree(pristine, cache)
        for name in chosen:
            (cache / name).write_bytes(older[name])
        where = "stale " + ", ".join(stable_name(name, top) for name in chosen)
        assert check_json(capsys, *NAMED, *args) == named, where
        assert check_json(capsys, ".", *args) == reference, where
        assert check_json(capsys, ".", *args) == reference, where + " (the run after)"
