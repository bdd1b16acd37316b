"""memlint over every real memory folder: no crash, no contract misapplied, and
per-folder per-code counts pinned in ``tests/snapshots/real_corpus_counts.json``.

Regenerate the snapshot after a deliberate change with
``MEMLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_real_corpus.py``
and review the diff: every new count on real data is a finding to justify.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from memlint.config import Settings
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.rules import registry
from memlint.rules.base import LINKED
from tests.helpers import SHARED, shared_available

REAL = SHARED / "corpus" / "real"
SNAPSHOT = Path(__file__).parent / "snapshots" / "real_corpus_counts.json"
LINKED_ONLY = {code for code, module in registry().items() if module.META.profiles == LINKED}

pytestmark = pytest.mark.shared


def _folders() -> list[Path]:
    return sorted(p for p in REAL.iterdir() if p.is_dir()) if shared_available() else []


def _lint(folder: Path):
    settings = Settings()
    rules = selected_rules(settings)
    for store in discover([str(folder)], settings, cwd=str(folder)):
        yield store, lint_store(store, settings, rules)


@pytest.fixture(scope="module")
def results() -> dict[str, list]:
    return {folder.name: list(_lint(folder)) for folder in _folders()}


def test_no_rule_crashes(results):
    crashes = [
        (name, d.message)
        for name, runs in results.items()
        for _, found in runs
        for d in found
        if d.code == "MX002"
    ]
    assert crashes == []


def test_linked_only_rules_stay_in_linked_stores(results):
    assert "ID001" in LINKED_ONLY
    misapplied = [
        (name, d.code)
        for name, runs in results.items()
        for store, found in runs
        for d in found
        if store.profile != "linked" and d.code in LINKED_ONLY
    ]
    assert misapplied == []


def test_counts_match_snapshot(results):
    counts = {
        name: dict(sorted(Counter(d.code for _, found in runs for d in found).items()))
        for name, runs in results.items()
    }
    if os.environ.get("MEMLINT_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(json.dumps(counts, indent=2, ensure_ascii=False) + "\n", "utf-8")
    assert counts == json.loads(SNAPSHOT.read_text("utf-8"))
