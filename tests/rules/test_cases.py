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
A failing case that a case file cannot express (a symlink, a FIFO, a file that
vanishes while memlint runs, a crashing rule) may instead be a pytest test
named in ``FAILING_CASE_TESTS``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

from memlint.rules import registry
from tests.helpers import lint_files

CASES_DIR = Path(__file__).parent / "cases"

FAILING_CASE_TESTS = {
    "FS001": "tests.rules.test_special_files::test_unreadable_file_is_reported",
    "FS006": "tests.rules.test_special_files::test_symlinks_are_reported_not_followed",
    "GT001": "tests.test_git_rule::test_tracked_and_trackable_files_are_reported",
    "MX002": "tests.rules.test_special_files::test_crashing_rule_is_reported_and_exits_2",
    "NT016": "tests.test_append_only::test_edit_in_the_middle",
}


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
    for code, test in FAILING_CASE_TESTS.items():
        module, _, name = test.partition("::")
        assert callable(getattr(importlib.import_module(module), name, None)), test
        seen.setdefault(code, set()).add(True)
    missing = [code for code in registry() if seen.get(code) != {True, False}]
    assert not missing, f"rules without a failing and a passing case: {missing}"
