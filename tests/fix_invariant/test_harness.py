"""The fix invariants (README "Fixing") over every kind of store we have.

Real stores (copies of ``../shared/corpus/real``), generated stores of
several shapes, the hostile corpus, and a seeded mutation fuzzer. Set
``MEMLINT_FUZZ_STORES`` (and ``MEMLINT_FUZZ_SEED``) for a longer fuzz run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlint.config import Settings
from tests.fix_invariant.harness import Tally, check_store, check_tree_copy, fuzz, read_seed
from tests.helpers import SHARED, generate_hostile, generate_store

REAL = SHARED / "corpus" / "real"
FUZZ_STORES = int(os.environ.get("MEMLINT_FUZZ_STORES", "2000"))
FUZZ_SEED = int(os.environ.get("MEMLINT_FUZZ_SEED", "16"))
REAL_SHARE = 0.3  # of the fuzzed stores, those built from real stores (with ../shared)


@pytest.mark.shared
@pytest.mark.parametrize("select", [None, ("ALL",)], ids=["default", "all-rules"])
def test_every_real_store(tmp_path, select):
    settings = Settings() if select is None else Settings().with_overrides(select=select)
    tally = Tally()
    for folder in sorted(p for p in REAL.iterdir() if p.is_dir()):
        tally.add(check_tree_copy(folder, tmp_path, settings))
    print(tally)
    assert tally.stores >= 20 and tally.fixes > 0
    assert tally.violations == []


SHAPES = {
    "small-clean": {"files": 30, "seed": 1, "defect_rate": 0.0},
    "small-defective": {"files": 60, "seed": 2, "defect_rate": 0.5},
    "medium": {"files": 150, "seed": 3, "defect_rate": 0.3},
    "over-budget": {"files": 400, "seed": 4, "defect_rate": 0.2},
}


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_generated_stores(tmp_path, shape):
    root = generate_store(tmp_path / "store", **shape)
    tally = check_store(root)
    print(tally)
    assert tally.violations == []


@pytest.mark.shared
def test_hostile_corpus(tmp_path):
    corpus = generate_hostile(tmp_path / "hostile")
    tally = Tally()
    for case in sorted(p for p in corpus.iterdir() if (p / "memory").is_dir()):
        tally.add(check_store(case / "memory"))
    print(tally)
    assert tally.stores >= 40
    assert tally.violations == []


def test_mutation_fuzzer(tmp_path):
    stores = FUZZ_STORES - int(FUZZ_STORES * REAL_SHARE)
    tally = fuzz(stores, FUZZ_SEED, tmp_path)
    print(tally)
    assert tally.stores == stores and tally.fixes > stores // 4
    assert tally.violations == []


@pytest.mark.shared
def test_mutation_fuzzer_on_real_stores(tmp_path):
    seeds = [s for s in (read_seed(p) for p in sorted(REAL.iterdir()) if p.is_dir()) if s]
    stores = int(FUZZ_STORES * REAL_SHARE)
    tally = fuzz(stores, FUZZ_SEED + 1, tmp_path, seeds, extra_share=1.0)
    print(tally)
    assert seeds and tally.stores == stores and tally.fixes > stores // 4
    assert tally.violations == []


def test_the_harness_sees_a_broken_invariant(tmp_path, monkeypatch):
    """A safe fix that adds a finding in another file, run without the engine's
    guard, is caught by the harness (a silent harness is not a blind one)."""
    import types

    from memlint import fixer
    from memlint.diagnostics import Fix, FixAvailability, Severity
    from memlint.engine import Rule
    from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

    def rename(ctx, source):
        if source.rel == "a.md" and source.raw == b"old\n":
            yield ctx.report(source, 0, 3, "rename", Fix.safe("rename", source.edit(0, 3, "new")))

    def dangling(ctx, source):
        if source.rel == "b.md" and b"old" not in ctx.store.by_rel["a.md"].file.raw:
            yield ctx.report(source, 0, 0, "dangling")

    def rule(code, check):
        meta = RuleMeta(code, code, code, Severity.WARNING, Scope.FILE, ALL_PROFILES)
        meta = RuleMeta(**{**meta.__dict__, "fix": FixAvailability.ALWAYS})
        return Rule(types.SimpleNamespace(META=meta, check=check))

    root = tmp_path / "store"
    root.mkdir()
    for name, text in {"MEMORY.md": "# I\n", "a.md": "old\n", "b.md": "[[old]]\n"}.items():
        (root / name).write_text(text)
    rules = [rule("TS010", rename), rule("TS011", dangling)]
    monkeypatch.setattr(fixer, "_withhold_culprits", lambda *args: args[-1])
    tally = check_store(root, Settings(), rules)
    assert tally.fixes == 1
    assert [v for v in tally.violations if "invariant 1: TS011 in b.md 0->1" in v]


def test_real_seeds_are_read_from_regular_files_only(tmp_path):
    (tmp_path / "a.md").write_text("x")
    os.mkfifo(tmp_path / "fifo.md")
    assert read_seed(Path(tmp_path)) == {"a.md": b"x"}
