"""Differential fuzzer for the reuse of the last whole-store result (``engine._rerun_tied``):
a store of near-duplicate memories (large LSH buckets, so DU001's neighbour windows
matter) goes through random edits of its memories' content (bodies, names, links,
descriptions, supersession, types, broken frontmatter) and now and then of its index,
settings or file set; after each step a warm-cache run of the store, and of the edited
files named alone (as pre-commit runs, with a cache of its own), report what
``--no-cache`` reports. The reuse must have been taken in most steps (a run naming files
does not try it: it reports on few). ``MEMLINT_FUZZ_STEPS`` and ``MEMLINT_FUZZ_SEED`` run
it longer or elsewhere."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import memlint.cache
from memlint.cli import main
from tests.helpers import FuzzStore, check_json, count_reuse

STEPS = int(os.environ.get("MEMLINT_FUZZ_STEPS", "40"))
SEED = int(os.environ.get("MEMLINT_FUZZ_SEED", "20261202"))
COUNT = 48
CONFIG = 'extend-select = ["IX012"]\n'  # off by default; it reads the memories' descriptions
WORDS = [
    "deploy",
    "build",
    "cache",
    "token",
    "retry",
    "staging",
    "proxy",
    "billing",
    "audit",
    "search",
    "queue",
    "worker",
]
TEMPLATES = [
    "The deploy of the {a} service needs the {b} flag set before the {c} step runs, "
    "or the release stalls and the on-call engineer has to restart the {a} job by hand.",
    "When the {a} tests fail on the {b} runner, clear the {c} folder first and run them "
    "again; the failure is almost always a stale lock left behind by the last {a} run.",
    "The user prefers short answers about {a} and wants every {b} change explained in "
    "one sentence, with the {c} command to run written out in full at the end.",
]


def body(rng: random.Random) -> str:
    text = rng.choice(TEMPLATES).format(
        a=rng.choice(WORDS[:3]), b=rng.choice(WORDS[:4]), c=rng.choice(WORDS)
    )
    return text + "\n" if rng.random() < 0.8 else text + " " + rng.choice(WORDS) + " too.\n"


def memory_text(rng: random.Random, name: str) -> str:
    others = [f"m{rng.randrange(COUNT + 2)}" for _ in range(rng.randint(0, 2))]
    links = "".join(f"See [[{other}]].\n" for other in others)
    description = rng.choice(
        [f"fact about {name}", "the same description", f"fact about {name}", "superseded by [[m1]]"]
        if rng.random() < 0.05
        else [f"fact about {name}", "the same description"]
    )
    kind = rng.choice(["user", "project", "feedback", "reference", "bogus"])
    broken = "broken: [\n" if rng.random() < 0.05 else ""
    return (
        f"---\n{broken}name: {name}\ndescription: {description}\nmetadata:\n  type: {kind}\n"
        f"---\n{body(rng)}{links}"
    )


class Store(FuzzStore):
    def __init__(self, root: Path, rng: random.Random) -> None:
        super().__init__(root, rng, memory_text, count=COUNT, config=CONFIG, indexed=0.9)

    def edit(self, rel: str) -> str:
        """One edit of the memory ``rel``'s content."""
        path = self.root / rel
        text = path.read_text(encoding="utf-8")
        head, _, rest = text.partition("---\n")[2].partition("---\n")
        kind = self.rng.randrange(8)
        if kind == 0:  # another body: its fingerprint moves between buckets
            rest = body(self.rng)
        elif kind == 1:
            rest += f"See [[m{self.rng.randrange(COUNT + 2)}]].\n"
        elif kind == 2:  # another name: a duplicate, a mismatch or its own again
            new = self.rng.choice([f"m{self.rng.randrange(COUNT)}", Path(rel).stem, "M0"])
            head = "".join(
                f"name: {new}\n" if line.startswith("name:") else line
                for line in head.splitlines(keepends=True)
            )
        elif kind == 3:
            return self.rewrite(rel)
        elif kind == 4:
            rest += "<!-- memlint: ignore[LK001] -->\n"
        elif kind == 5:
            rest = rest.replace(" the ", " a ", 1)
        elif kind == 6:  # what the index rules read of it: IX012 compares the description
            new = self.rng.choice([f"fact about {Path(rel).stem}", "the same description", ""])
            head = "".join(
                f"description: {new}\n" if line.startswith("description:") else line
                for line in head.splitlines(keepends=True)
            )
        else:
            rest += self.rng.choice(WORDS) + "\n"
        path.write_text(f"---\n{head}---\n{rest}", encoding="utf-8")
        return f"edit {kind} {rel}"

    def rewrite(self, rel: str) -> str:
        self.write(rel, memory_text(self.rng, Path(rel).stem))
        return f"rewrite {rel}"

    def step(self) -> tuple[str, list[str]]:
        """Edit one to three memories (most steps), or change something else."""
        rng = self.rng
        kind = rng.random()
        if kind < 0.04:
            self.write_index()
            return "index", []
        if kind < 0.07:
            config = self.root / ".memlint.toml"
            if config.read_text(encoding="utf-8") != CONFIG:
                config.write_text(CONFIG, encoding="utf-8")
                return "config back", []
            config.write_text(CONFIG + "[rules.DU001]\nmin-shingles = 20\n", encoding="utf-8")
            return "config changed", []
        if kind < 0.09:
            rel = f"m{COUNT + rng.randrange(3)}.md"
            if (self.root / rel).exists():
                (self.root / rel).unlink()
                return f"delete {rel}", []
            return self.rewrite(rel), [rel]
        rels = rng.sample(self.memories(), k=rng.randint(1, 3))
        return "; ".join(self.edit(rel) for rel in rels), rels


def fixed(tmp_path: Path, root: Path, cache: list[str] | None) -> dict[str, bytes]:
    """The store's files after ``check --fix`` (with ``cache``, or on a copy without);
    the store itself is fixed when ``cache`` is given."""
    import shutil

    if cache is None:
        copy = tmp_path / "fixed-copy"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(root, copy)
        root = copy
    status = main(["check", "--fix", "-q", str(root), *(cache or ["--no-cache"])])
    assert status in (0, 1)
    return {p.name: p.read_bytes() for p in sorted(root.iterdir())}


@pytest.mark.parametrize("delta", [False, True])
def test_a_reused_result_is_what_no_cache_reports(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, delta: bool
) -> None:
    if delta:  # every entry saved goes through the delta file, flushed into shards often
        monkeypatch.setattr(memlint.cache, "FEW_SHARDS", 0)
        monkeypatch.setattr(memlint.cache, "DELTA_LIMIT", 6)
    rng = random.Random(SEED)
    store = Store(tmp_path / "mem", rng)
    monkeypatch.chdir(store.root)
    reused = count_reuse(monkeypatch)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    named_cache = ["--cache-dir", str(tmp_path / "named")]  # pre-commit's own, as in bench/
    pool_cache = ["--cache-dir", str(tmp_path / "pool")]
    check_json(capsys, ".", *cache)
    check_json(capsys, ".", *named_cache)
    history = []
    for step in range(STEPS):
        done, edited = store.step()
        history.append(done)
        reference = check_json(capsys, ".", "--no-cache")
        runs = [(".", [".", *cache], reference)]
        if edited and rng.random() < 0.5:  # pre-commit: the edited files alone
            named = [d for d in reference if d["filename"] in edited]
            runs.append((f"named {edited}", [*edited, *named_cache], named))
        if rng.random() < 0.15:  # the pool, on a cache of its own
            runs.append(("pool", [".", "--jobs", "2", *pool_cache], reference))
        for mode, args, expected in runs:
            got = check_json(capsys, *args)
            assert got == expected, f"{mode}, seed {SEED}, step {step}: {history}"
        if rng.random() < 0.1:  # fixed on the warm cache as on none; the next run reuses
            history.append("fix")
            expected_files = fixed(tmp_path, store.root, None)
            assert fixed(tmp_path, store.root, cache) == expected_files, f"seed {SEED}, step {step}"
    assert sum(reused) * 2 > STEPS, f"the last result was reused in {sum(reused)} runs"
    assert not delta or any((tmp_path / "cache").glob("store-*-delta.pickle"))


def test_an_unindexed_memory_elsewhere_follows_a_type_change_into_its_fix(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IX002's fix puts each missing entry in the section whose entries share its type:
    a type edited in one indexed memory moves the fix of an unindexed one it is not
    otherwise tied to, so a reused result must take that in."""
    root = tmp_path / "mem"
    root.mkdir()

    def memory(name: str, kind: str) -> str:
        return (
            f"---\nname: {name}\ndescription: fact about {name}\nmetadata:\n  type: {kind}\n"
            f"---\nThe {name} memory says one thing about {name} and nothing else at all.\n"
        )

    (root / "a.md").write_text(memory("a", "feedback"), encoding="utf-8")
    (root / "p.md").write_text(memory("p", "project"), encoding="utf-8")
    (root / "y.md").write_text(memory("y", "feedback"), encoding="utf-8")
    others = [f"p{i}" for i in range(6)]  # so that one change is few enough to reuse
    for name in others:
        (root / f"{name}.md").write_text(memory(name, "project"), encoding="utf-8")
    entries = "".join(f"- [{name}]({name}.md) — fact about {name}\n" for name in others)
    (root / "MEMORY.md").write_text(
        "# Index\n\n## Feedback\n\n- [a](a.md) — fact about a\n\n"
        f"## Projects\n\n- [p](p.md) — fact about p\n{entries}",
        encoding="utf-8",
    )
    monkeypatch.chdir(root)
    reused = count_reuse(monkeypatch)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    before = check_json(capsys, ".", *cache)
    (root / "a.md").write_text(memory("a", "project"), encoding="utf-8")
    after = check_json(capsys, ".", "--no-cache")
    assert after != before  # y's fix moved
    assert check_json(capsys, ".", *cache) == after
    assert reused == [False, True]


RENDERED = ["full", "concise", "sarif", "junit"]


def rendered(capsys, *args: str) -> str:
    """What ``memlint check ARGS`` prints (exit status 0 or 1)."""
    capsys.readouterr()
    status = main(["check", "--exit-zero", *args])
    out = capsys.readouterr().out
    assert status == 0, out
    return out


def test_a_warm_run_never_shows_an_old_snippet(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every rendering that quotes the files (source snippets, fixes, positions) is, on a
    warm cache after each edit, what ``--no-cache`` prints: an edited line is shown as it
    is now. Edits that keep a finding's line and position but change its text (a word
    swapped in the same line) are the ones a snippet cache keyed wrongly would miss."""
    rng = random.Random(SEED + 1)
    store = Store(tmp_path / "mem", rng)
    monkeypatch.chdir(store.root)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    for output_format in RENDERED:
        rendered(capsys, ".", "--output-format", output_format, *cache)
    history = []
    for step in range(STEPS // 2):
        if rng.random() < 0.5:
            rel = rng.choice(store.memories())
            path = store.root / rel
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("[[m", "[[n", 1).replace(" the ", " ThE ", 1), "utf-8")
            done = f"same-length edit {rel}"
        else:
            done, _ = store.step()
        history.append(done)
        output_format = RENDERED[step % len(RENDERED)]
        args = [".", "--output-format", output_format]
        reference = rendered(capsys, *args, "--no-cache")
        where = f"{output_format}, seed {SEED + 1}, step {step}: {history}"
        assert rendered(capsys, *args, *cache) == reference, where
        assert rendered(capsys, *args, *cache) == reference, where + " (again)"
