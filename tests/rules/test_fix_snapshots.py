"""Per fixable rule, the fixed bytes as a snapshot: the case files' ``fixed`` contents.

Each case runs through the real fix engine (unsafe fixes included, only the rule
under test selected) on a store written to disk; every file of the store after
fixing must equal the case's ``files`` overlaid with its ``fixed`` entries, and a
second fix run must change nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from memlint.config import Settings, settings_from_mapping
from memlint.diagnostics import FixAvailability
from memlint.engine import selected_rules
from memlint.fixer import fix_paths
from memlint.rules import registry
from tests.helpers import write_files

CASES_DIR = Path(__file__).parent / "cases"
FIXABLE = sorted(code for code, m in registry().items() if m.META.fix is not FixAvailability.NONE)


def _case_file(code: str) -> dict:
    return yaml.safe_load((CASES_DIR / f"{code}.yml").read_text(encoding="utf-8"))


def _fixed_cases():
    for code in FIXABLE:
        for name, case in _case_file(code)["cases"].items():
            if "fixed" in case:
                yield pytest.param(code, case, id=f"{code}-{name}")


def _encode(content) -> bytes:
    return content["bytes"].encode("latin-1") if isinstance(content, dict) else content.encode()


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memlint_cache" not in p.parts
    }


def _fix(root: Path, code: str, config: dict | None):
    settings = settings_from_mapping(config) if config else Settings()
    settings = settings.with_overrides(select=(code,))
    return fix_paths([str(root)], settings, selected_rules(settings), unsafe=True, cwd=str(root))


@pytest.mark.parametrize(("code", "case"), list(_fixed_cases()))
def test_fix_produces_expected_bytes(tmp_path, code, case):
    write_files(tmp_path, case["files"])
    outcome = _fix(tmp_path, code, case.get("config"))
    assert not outcome.errors
    expected = {rel: _encode(c) for rel, c in {**case["files"], **case["fixed"]}.items()}
    assert _tree(tmp_path) == expected
    assert not _fix(tmp_path, code, case.get("config")).changes, "second fix run changed files"


def test_every_fixable_rule_has_a_fixed_snapshot():
    missing = [
        code
        for code in FIXABLE
        if not any("fixed" in case for case in _case_file(code)["cases"].values())
    ]
    assert not missing, f"fixable rules without a `fixed` snapshot: {missing}"
