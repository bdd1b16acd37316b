"""Messages and one-finding-per-cause behaviours of issue 18 (real-folder accuracy)."""

from __future__ import annotations

from tests.helpers import lint_files

FEEDBACK = "---\nname: A\ndescription: a\ntype: feedback\n---\n"


def _messages(found, code):
    return [d.message for d in found if d.code == code]


def test_both_sections_missing_is_one_finding_naming_both(tmp_path):
    files = {"MEMORY.md": "- [A](feedback_a.md) — a\n", "feedback_a.md": FEEDBACK + "Rule.\n"}
    found = lint_files(tmp_path, files, select=["TY"])
    assert [d.code for d in found] == ["TY001"]
    assert "neither a `**Why:**` nor a `**How to apply:**`" in found[0].message


def test_label_variant_is_a_format_finding_not_a_missing_section(tmp_path):
    body = "Rule.\n**Why**：because\nHow to apply: always\n"
    files = {"MEMORY.md": "- [A](feedback_a.md) — a\n", "feedback_a.md": FEEDBACK + body}
    found = lint_files(tmp_path, files, select=["TY"])
    assert [d.code for d in found] == ["TY003"]
    assert found[0].message == "`**Why**：` is not written as `**Why:**` (and 1 more)"
