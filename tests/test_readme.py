"""README.md keeps the rule table generated from the registry, and its set-up commands."""

from __future__ import annotations

from pathlib import Path

from memlint.ruledoc import README_END, README_START, update_readme

README = Path(__file__).resolve().parents[1] / "README.md"


def test_rule_table_in_sync():
    text = README.read_text(encoding="utf-8")
    assert README_START in text and README_END in text
    assert update_readme(text) == text, (
        "README rule table is stale: run `python -m memlint.ruledoc` to regenerate it"
    )


def test_ci_runs_the_readme_test_command():
    text = README.read_text(encoding="utf-8")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    command = "python3 -m pip install -e '.[test]' && python3 -m pytest"
    assert command in text and command in ci
