"""Runs that name files (pre-commit) against whole-store runs, on one shared cache.

A store goes through random edits of its memories (bodies, names, links, descriptions,
suppressions), renames, deletions, new files, index edits and config edits; after each
step, a run naming some files (the changed ones, or others) reports exactly what a
``--no-cache`` run of the whole store reports on those files, and now and then a
whole-store run with the same cache reports what ``--no-cache`` does. A named run that
changed few files leaves the store's whole-store cache files as they were, so the next
whole-store run still re-runs the rules on the files tied to the edits only
(``engine._rerun_tied``). ``MEMLINT_FUZZ_STEPS`` and ``MEMLINT_FUZZ_SEED`` run it longer
or elsewhere."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from tests.helpers import FuzzStore, check_json, count_reuse

STEPS = int(os.environ.get("MEMLINT_FUZZ_STEPS", "50"))
SEED = int(os.environ.get("MEMLINT_FUZZ_SEED", "20261203"))
COUNT = 24
CONFIG = 'extend-select = ["IX012"]\n'
BODIES = [
    "The deploy of the billing service needs the cache flag set before the build step "
    "runs, or the release stalls and someone restarts the job by hand.\n",
    "The deploy of the billing service needs the cache flag set before the build step "
    "runs, or the release stalls and someone restarts the queue by hand.\n",
    "When the tests fail on the staging runner, clear the cache folder first and run "
    "them again; it is almost always a stale lock.\n",
    "<!-- memlint: ignore[LK001] -->\nSee [[ghost]].\n",
    "**Why:** it matters.\n**How to apply:** do it.\n",
]


def memory_text(rng: random.Random, name: str) -> str:
    links = "".join(f"See [[m{rng.randrange(COUNT + 3)}]].\n" for _ in range(rng.randint(0, 2)))
    description = rng.choice(
        [f"fact about {name}", "the same description", f"fact about {name}", "superseded by [[m1]]"]
        if rng.random() < 0.1
        else [f"fact about {name}", "the same description"]
    )
    kind = rng.choice(["user", "project", "feedback", "reference", "bogus"])
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: {kind}\n---\n"
        f"{rng.choice(BODIES)}{links}"
    )


class Store(FuzzStore):
    def __init__(self, root: Path, rng: random.Random) -> None:
        super().__init__(root, rng, memory_text, count=COUNT, config=CONFIG, indexed=0.85)

    def edit(self, rel: str) -> None:
        path = self.root / rel
        text = path.read_text(encoding="utf-8")
        kind = self.rng.randrange(4)
        if kind == 0:
            text += f"See [[m{self.rng.randrange(COUNT + 3)}]].\n"
        elif kind == 1:  # a name of another memory, or its own
            new = self.rng.choice([f"m{self.rng.randrange(COUNT)}", Path(rel).stem])
            text = "".join(
                f"name: {new}\n" if line.startswith("name:") else line
                for line in text.splitlines(keepends=True)
            )
        elif kind == 2:
            text = memory_text(self.rng, Path(rel).stem)
        else:
            text += "more words\n"
        path.write_text(text, encoding="utf-8")

    def step(self) -> tuple[str, list[str]]:
        """Change the store; return what was done and the files it changed."""
        rng = self.rng
        kind = rng.random()
        memories = self.memories()
        if kind < 0.06:
            self.write_index()
            return "index", ["MEMORY.md"]
        if kind < 0.10:
            config = self.root / ".memlint.toml"
            text = config.read_text(encoding="utf-8")
            variants = [CONFIG + 'ignore = ["LK001"]\n', CONFIG + 'extend-exclude = ["m5.md"]\n']
            config.write_text(CONFIG if text != CONFIG else rng.choice(variants), encoding="utf-8")
            return "config", []
        if kind < 0.16 and len(memories) > 4:
            old = rng.choice(memories)
            new = f"m{COUNT + rng.randrange(6)}.md"
            if (self.root / new).exists():
                return "rename skipped", []
            (self.root / old).rename(self.root / new)
            return f"rename {old} {new}", [new]
        if kind < 0.21 and len(memories) > 4:
            gone = rng.choice(memories)
            (self.root / gone).unlink()
            return f"delete {gone}", []
        if kind < 0.26:
            rel = f"m{COUNT + rng.randrange(6)}.md"
            self.write(rel, memory_text(rng, Path(rel).stem))
            return f"new {rel}", [rel]
        rels = rng.sample(memories, k=rng.randint(1, 2))
        for rel in rels:
            self.edit(rel)
        return f"edit {rels}", rels


def test_named_runs_report_what_the_whole_store_reports_on_them(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(SEED)
    store = Store(tmp_path / "mem", rng)
    monkeypatch.chdir(store.root)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    check_json(capsys, ".", *cache)
    history = []
    for step in range(STEPS):
        done, changed = store.step()
        history.append(done)
        if rng.random() < 0.5:  # mtimes the cache trusts: unchanged files are not read
            aged = time.time_ns() - 3600 * 10**9
            for path in store.root.iterdir():
                os.utime(path, ns=(aged, aged))
        reference = check_json(capsys, ".", "--no-cache")
        others = rng.sample(store.memories(), k=rng.randint(0, 2))
        named = sorted({*changed, *others} & {*store.memories(), "MEMORY.md"})
        if named:
            expected = [d for d in reference if d["filename"] in named]
            got = check_json(capsys, *named, *cache)
            assert got == expected, f"named {named}, seed {SEED}, step {step}: {history}"
        if rng.random() < 0.3:
            got = check_json(capsys, ".", *cache)
            assert got == reference, f"whole store, seed {SEED}, step {step}: {history}"


def test_a_named_run_keeps_the_whole_store_reuse(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pre-commit names the edited memory; the next whole-store run re-runs the rules on
    the files tied to it only, as it would have without the named run between."""
    store = Store(tmp_path / "mem", random.Random(5))
    aged = time.time_ns() - 3600 * 10**9  # an mtime the cache trusts (well before the run)
    for path in store.root.iterdir():
        os.utime(path, ns=(aged, aged))
    monkeypatch.chdir(store.root)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    check_json(capsys, ".", *cache)
    whole = {p: p.read_bytes() for p in (tmp_path / "cache").glob("store-*.files.pickle")}
    whole.update({p: p.read_bytes() for p in (tmp_path / "cache").glob("store-*.index")})
    assert len(whole) == 2
    (store.root / "m3.md").write_text(
        (store.root / "m3.md").read_text(encoding="utf-8") + "\nmore words\n", encoding="utf-8"
    )
    reference = check_json(capsys, ".", "--no-cache")
    assert check_json(capsys, "m3.md", *cache) == [d for d in reference if d["filename"] == "m3.md"]
    assert all(path.read_bytes() == data for path, data in whole.items())
    reused = count_reuse(monkeypatch)
    assert check_json(capsys, ".", *cache) == reference
    assert reused == [True]
