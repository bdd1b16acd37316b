"""Run every rule case file: ``tests/rules/cases/<CODE>.yml``.

A case file (sqlfluff style)::

    rule: ID001
    cases:
      name_differs:
        files: {MEMORY.md: "...", a.md: "..."}
        config: {rules: {...}}          # optional, as in .memlint.toml
        expect: [[a.md, 2, 7]]          # [path, line, column]; [] means must pass
        fixed: {a.md: "..."}            # optional: content after --fix

Every registered rule must have a case file with a failing and a passing case.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from memlint.rules import REGISTRY
from tests.helpers import lint_files

CASES_DIR = Path(__file__).parent / "cases"


def _load_cases():
    for path in sorted(CASES_DIR.glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, case in data["cases"].items():
            yield pytest.param(data["rule"], case, id=f"{data['rule']}-{name}")


@pytest.mark.parametrize(("code", "case"), list(_load_cases()))
def test_rule_case(tmp_path, code, case):
    found = lint_files(tmp_path, case["files"], select=[code], config=case.get("config"))
    got = sorted(
        [d.display_path, d.range.start.line, d.range.start.column] for d in found if d.code == code
    )
    expected = sorted(list(item) for item in case["expect"])
    assert got == expected, [d.message for d in found]


def test_every_rule_has_failing_and_passing_cases():
    seen: dict[str, set[bool]] = {}
    for path in CASES_DIR.glob("*.yml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"].values():
            seen.setdefault(data["rule"], set()).add(bool(case["expect"]))
    missing = [code for code in REGISTRY if seen.get(code) != {True, False}]
    assert not missing, f"rules without a failing and a passing case: {missing}"
