"""`--fix` on a generated store with injected defects: one run repairs every
safe-fixable defect, and a second run is a no-op."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memlint.config import Settings
from memlint.diagnostics import Applicability
from memlint.engine import selected_rules
from memlint.fixer import fix_paths
from tests.helpers import SHARED, generate_store, lint_dir

GENERATOR = SHARED / "bench" / "gen_corpus.py"


@pytest.mark.shared
def test_fix_repairs_generated_store_in_one_run(tmp_path):
    store = tmp_path / "store"
    subprocess.run(
        [sys.executable, str(GENERATOR), str(store), "--files", "600", "--seed", "3"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    before = lint_dir(store)
    safe = {d.code for d in before if d.fix and d.fix.applicability is Applicability.SAFE}
    unfixable = {d.code for d in before if not d.fix}
    always_fixable = safe - unfixable
    assert "ID001" in always_fixable
    # 600 files do not fit in the loader's 200 lines: IX002 declines and points at IX008
    unindexed = [d for d in before if d.code == "IX002"]
    assert unindexed and all(d.fix or "IX008" in " ".join(d.notes) for d in unindexed)
    settings = Settings()
    outcome = fix_paths([str(store)], settings, selected_rules(settings), cwd=str(tmp_path))
    assert not outcome.errors
    assert outcome.changes
    after = lint_dir(store)
    assert not [d for d in after if d.fix and d.fix.applicability is Applicability.SAFE]
    assert not [d for d in after if d.code in always_fixable]
    again = fix_paths([str(store)], settings, selected_rules(settings), cwd=str(tmp_path))
    assert not again.changes and not again.fixed


def test_index_past_the_cut_gets_no_entry_fix_on_the_projects_own_generator(tmp_path):
    """The core suite's part of the test above, without ../shared: in a 600-memory store
    the index is past the loader's cut, so IX002 declines and points at IX008; in a
    small one it fixes."""
    for files, fixed in ((600, False), (60, True)):
        store = generate_store(tmp_path / str(files), files, seed=3, defect_rate=0.3)
        unindexed = [d for d in lint_dir(store) if d.code == "IX002"]
        assert unindexed
        for d in unindexed:
            assert bool(d.fix) is fixed
            assert fixed or "past the loader's cut (see IX008)" in " ".join(d.notes)
