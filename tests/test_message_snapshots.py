"""Every rule's messages on its first documented example, against one snapshot file, so
that a reworded message shows up in review as a diff of tests/snapshots/rule_messages.txt.

The example is the rule's first ``memlint-bad`` block (with its ``memlint-file`` blocks);
a rule whose example is prose (``PROSE_EXAMPLES``) uses the first failing case of its case
file, and the few with neither (a crash, an unreadable file, git state) are listed
``UNWRITABLE``. Regenerate after a deliberate change with
``MEMLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_message_snapshots.py``.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import yaml

from memlint.rules import registry
from tests.helpers import lint_files
from tests.rules.test_cases import CASES_DIR, FAILING_CASE_TESTS
from tests.test_rule_docs import PROSE_EXAMPLES, example_files

SNAPSHOT = Path(__file__).parent / "snapshots" / "rule_messages.txt"
UPDATE_ENV = "MEMLINT_UPDATE_SNAPSHOTS"
UNWRITABLE = set(FAILING_CASE_TESTS)  # their failing case is a pytest test, not text


def first_example(code: str) -> tuple[dict, dict | None]:
    """The files (and config) of the rule's first documented example, or of the first
    failing case of its case file when the documented example is prose."""
    if code not in PROSE_EXAMPLES:
        files = example_files(registry()[code].__doc__ or "")
        first_bad = next(iter(files["bad"].items()))
        return {"MEMORY.md": "# Memory\n", **files["file"], first_bad[0]: first_bad[1]}, None
    cases = yaml.safe_load((CASES_DIR / f"{code}.yml").read_text(encoding="utf-8"))["cases"]
    case = next(case for case in cases.values() if case["expect"])
    return case["files"], case.get("config")


def rendered(tmp_path: Path) -> str:
    lines = []
    for code in sorted(set(registry()) - UNWRITABLE):
        files, config = first_example(code)
        found = lint_files(tmp_path / code, files, select=[code], config=config)
        for d in sorted(found, key=lambda d: (d.display_path, d.range.start, d.message)):
            if d.code == code:
                start = d.range.start
                message = d.message.replace(str(tmp_path), "<tmp>")
                lines.append(f"{code} {d.display_path}:{start.line}:{start.column} {message}")
    return "\n".join(lines) + "\n"


def test_rule_messages_match_the_snapshot(tmp_path):
    got = rendered(tmp_path)
    if os.environ.get(UPDATE_ENV):
        SNAPSHOT.write_text(got, encoding="utf-8")
    expected = SNAPSHOT.read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            got.splitlines(keepends=True),
            str(SNAPSHOT.relative_to(Path(__file__).parents[1])),
            "this run",
        )
    )
    assert not diff, f"messages changed (if meant, rerun with {UPDATE_ENV}=1):\n{diff}"


def test_every_rule_but_the_unwritable_has_a_snapshot_line():
    codes = {line.split(" ", 1)[0] for line in SNAPSHOT.read_text(encoding="utf-8").splitlines()}
    assert codes == set(registry()) - UNWRITABLE
