"""``--fix`` on every hostile corpus case: contained, clean, stable, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from memlint.config import Settings
from memlint.engine import selected_rules
from memlint.fixer import fix_paths
from memlint.writer import TEMP_PREFIX, WriteError, check_target
from tests.helpers import generate_hostile, tree_fingerprint

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A private copy: the fix runs change it."""
    return generate_hostile(tmp_path_factory.mktemp("hostile-fix"))


def _outside(case_dir: str) -> dict[str, str]:
    return {k: v for k, v in tree_fingerprint(case_dir).items() if not k.startswith("memory")}


def _run_fix(cwd: str, paths: list[str]) -> list[str]:
    """Run ``memlint check --fix PATHS`` in a subprocess; return what went wrong."""
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "memlint", "check", "--fix", "-q", *paths],
            cwd=cwd,
            capture_output=True,
            timeout=10 * len(paths),
            env={**os.environ, "NO_COLOR": "1"},
        )
    except subprocess.TimeoutExpired:
        return ["timeout"]
    if b"Traceback" in proc.stderr or proc.returncode not in (0, 1, 2):
        return [f"exit {proc.returncode}: {proc.stderr[-300:]!r}"]
    return []


def _check_case(case_dir: str, outside_before: dict[str, str]) -> list[str]:
    problems = []
    after = tree_fingerprint(case_dir)
    if {k: v for k, v in after.items() if not k.startswith("memory")} != outside_before:
        problems.append("changed something outside memory/")
    if any(os.path.basename(k).startswith(TEMP_PREFIX) for k in after):
        problems.append("left a temp file")
    settings = Settings()
    try:
        memory = os.path.join(case_dir, "memory")
        again = fix_paths([memory], settings, selected_rules(settings), write=False, cwd=case_dir)
    except Exception as exc:  # a usage error is fine; anything else is a finding
        if type(exc).__name__ != "UsageError":
            problems.append(f"second fix raised {type(exc).__name__}")
    else:
        writable = [c for c in again.changes if _writable(memory, c)]
        if writable:  # a read-only file is refused on every run
            problems.append(f"second --fix would change {[c.display for c in writable]}")
    return problems


def _writable(root: str, change) -> bool:
    try:
        check_target(root, change.path, change.old)
    except WriteError:
        return False
    return True


def _fix_batch(cases: list[str]) -> dict[str, list[str]]:
    """Fix a batch in one process; when that fails, fix its cases one by one to name the culprit."""
    before = {case: _outside(case) for case in cases}
    root = os.path.dirname(cases[0])
    relative = [os.path.join(os.path.basename(case), "memory") for case in cases]
    if _run_fix(root, relative):
        return {
            case: _run_fix(case, ["memory"]) + _check_case(case, before[case]) for case in cases
        }
    return {case: _check_case(case, before[case]) for case in cases}


def test_fix_on_every_hostile_case(corpus):
    """The corpus is generated afresh for this module, so it is the copy that gets fixed
    (copying would stumble on its FIFOs and unreadable files). Cases run in batches of
    eight per process to keep the test fast."""
    cases = sorted(str(p) for p in corpus.iterdir() if (p / "memory").is_dir())
    batches = [cases[i : i + 8] for i in range(0, len(cases), 8)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = {k: v for batch in pool.map(_fix_batch, batches) for k, v in batch.items()}
    failures = {os.path.basename(case): problems for case, problems in results.items() if problems}
    assert len(cases) >= 40
    assert failures == {}
