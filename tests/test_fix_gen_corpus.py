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
from tests.helpers import SHARED, lint_dir

GENERATOR = SHARED / "bench" / "gen_corpus.py"


@pytest.mark.skipif(not GENERATOR.is_file(), reason="shared gen_corpus.py not available")
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
