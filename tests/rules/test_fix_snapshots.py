"""Snapshot tests of the fixes rules declare: splice each safe fix's edits into
the raw bytes and compare with the case file's ``fixed`` contents.

Independent of the fix engine: this checks what the rules *declare*.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from memlint.diagnostics import Applicability
from tests.helpers import lint_files

CASES_DIR = Path(__file__).parent / "cases"
FIXABLE = ("FS003", "FS008", "ID001", "LK003", "LK004", "SU004", "SU005")


def _fixed_cases():
    for code in FIXABLE:
        data = yaml.safe_load((CASES_DIR / f"{code}.yml").read_text(encoding="utf-8"))
        for name, case in data["cases"].items():
            if case["expect"]:
                yield pytest.param(code, case, id=f"{code}-{name}")


def splice(raw: bytes, edits) -> bytes:
    """Apply non-overlapping edits to ``raw`` (last first, so offsets stay valid)."""
    out = raw
    last_start = len(raw) + 1
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        assert edit.end <= last_start, "overlapping edits"
        out = out[: edit.start] + edit.content.encode("utf-8") + out[edit.end :]
        last_start = edit.start
    return out


def _encode(content) -> bytes:
    return content["bytes"].encode("latin-1") if isinstance(content, dict) else content.encode()


@pytest.mark.parametrize(("code", "case"), list(_fixed_cases()))
def test_fix_produces_expected_bytes(tmp_path, code, case):
    found = [d for d in lint_files(tmp_path, case["files"], select=[code]) if d.code == code]
    edits: dict[str, list] = {}
    for diagnostic in found:
        if diagnostic.fix is not None:
            assert diagnostic.fix.applicability is Applicability.SAFE
            for edit in diagnostic.fix.edits:
                edits.setdefault(edit.path, []).append(edit)
    expected = case.get("fixed", {})
    for rel, content in case["files"].items():
        path = tmp_path / rel
        after = splice(path.read_bytes(), edits.pop(str(path), []))
        want = _encode(expected[rel]) if rel in expected else _encode(content)
        assert after == want, rel
    assert not edits, f"edits outside the store's files: {list(edits)}"


def test_every_fixable_rule_has_a_fixed_snapshot():
    with_fixed = set()
    for code in FIXABLE:
        data = yaml.safe_load((CASES_DIR / f"{code}.yml").read_text(encoding="utf-8"))
        if any("fixed" in case for case in data["cases"].values()):
            with_fixed.add(code)
    assert with_fixed == set(FIXABLE)
