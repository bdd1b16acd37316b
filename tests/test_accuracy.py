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


ROLE = "---\nname: Role\ndescription: who\ntype: user\n---\nBody\n"


def test_notes_index_is_one_finding_counting_only_loaded_lines(tmp_path):
    notes = "# Notes\n" + "".join(f"- fact number {i} about the build\n" for i in range(230))
    files = {"MEMORY.md": notes, "user_role.md": ROLE, "user_b.md": ROLE.replace("Role", "B")}
    found = lint_files(tmp_path, files, select=["IX010"])
    assert _messages(found, "IX010") == [
        "MEMORY.md holds notes, not an index: 199 list items hold content, 0 link a memory file"
    ]


def test_bullet_naming_an_unindexed_memory_asks_to_link_it_once(tmp_path):
    files = {
        "MEMORY.md": "# Index\n- [Role](user_role.md) — who\n- `user_x.md` — the x\n",
        "user_role.md": ROLE,
        "user_x.md": ROLE.replace("Role", "X").replace("who", "the x"),
    }
    found = lint_files(tmp_path, files, select=["IX"])
    assert [d.code for d in found] == ["IX013"]
    assert found[0].fix is not None and found[0].fix.title == "Link this line"
