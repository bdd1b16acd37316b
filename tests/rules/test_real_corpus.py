"""The rules over the real memory folders in /work/shared/corpus/real: no crash,
and no linked-only rule outside stores detected as ``linked``."""

from __future__ import annotations

import pytest

from memlint.config import Settings
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.rules import REGISTRY
from memlint.rules.base import LINKED
from tests.helpers import SHARED, shared_available

REAL = SHARED / "corpus" / "real"
LINKED_ONLY = sorted(code for code, module in REGISTRY.items() if module.META.profiles == LINKED)


def _folders():
    if not shared_available() or not REAL.is_dir():
        return []
    return sorted(p for p in REAL.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def linted():
    folders = _folders()
    if not folders:
        pytest.skip("shared corpus not available")
    settings = Settings().with_overrides(select=("ALL",))
    rules = selected_rules(settings)
    results = []
    for folder in folders:
        for store in discover([str(folder)], settings, cwd=str(folder)):
            results.append((folder.name, store, lint_store(store, settings, rules)))
    return results


def test_no_rule_crashes_on_real_folders(linted):
    crashes = [(name, d.message) for name, _, found in linted for d in found if d.code == "MX002"]
    assert not crashes


def test_linked_only_rules_stay_in_linked_stores(linted):
    assert "ID001" in LINKED_ONLY
    wrong = [
        (name, store.profile, d.code)
        for name, store, found in linted
        if store.profile != "linked"
        for d in found
        if d.code in LINKED_ONLY
    ]
    assert not wrong
