"""Messages and one-finding-per-cause behaviours of issue 18 (real-folder accuracy)."""

from __future__ import annotations

from tests.helpers import lint_dir, lint_files

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


def test_messages_say_what_to_do(tmp_path):
    files = {
        "MEMORY.md": "- [A](a.md) — x\n- [R](Recurring_Bugs.md) — x\n- [L](linked.md) — x\n",
        "a.md": '---\nname: a\ndescription: "a/b/c" more words\ntype: user\n---\n'
        "Reads postgres://app:hunter2-correct-horse@db.internal:5432/prod.\n",
        "Recurring_Bugs.md": "---\nname: R\ndescription: x\ntype: user\n---\nBody\n",
    }
    found = lint_files(tmp_path, files, select=["FM003", "ID004", "PV003"])
    assert _messages(found, "FM003") == [
        "invalid YAML: a quoted value must end the line: quote the whole value or none of it "
        "(the parser says: while parsing a block mapping, did not find expected key)"
    ]
    assert sorted(_messages(found, "ID004")) == [
        "`Recurring_Bugs.md` is not named `<type>_<slug>.md`: as a user memory, "
        "e.g. `user_recurring-bugs.md`",
        "`a.md` is not named `<type>_<slug>.md`, and its frontmatter has no memory `type` "
        "to choose the prefix",
    ]
    assert _messages(found, "PV003") == ["credential in a URL: password `h…orse`"]


def test_name_fix_help_says_which_links_it_rewrites(tmp_path):
    memory = "---\nname: Coffee pref\ndescription: d\nmetadata:\n  type: user\n---\nB\n"
    other = "---\nname: {0}\ndescription: d\nmetadata:\n  type: user\n---\nB\n"
    files = {
        "MEMORY.md": "- [c](coffee.md) — d\n- [b](b.md) — d\n- [x](x.md) — d\n",
        "coffee.md": memory,
        "b.md": other.format("b"),
        "x.md": other.format("x"),
    }
    found = [d for d in lint_files(tmp_path, files, select=["ID001"])]
    assert [d.fix.title for d in found] == ["Set `name` to `coffee`"]
    # a link by the old name is rewritten by the same fix (issue 16), and its help says so
    (tmp_path / "b.md").write_text(other.format("b").replace("B\n", "See [[Coffee pref]].\n"))
    found = [d for d in lint_dir(tmp_path, select=["ID001"])]
    assert [d.fix.title for d in found] == ["Set `name` to `coffee` and rewrite 1 wikilink to it"]


def _full_output(tmp_path, body, capsys):
    from memlint.cli import main

    files = {
        "MEMORY.md": "- [A](user_a.md) — a\n",
        "user_a.md": "---\nname: A\ndescription: a\ntype: user\n---\n" + body,
    }
    from tests.helpers import write_files

    write_files(tmp_path, files)
    main(["check", "--isolated", "--no-cache", "--select", "PV005", str(tmp_path)])
    return capsys.readouterr().out.splitlines()


def test_long_line_is_windowed_around_the_span_with_the_caret_under_it(tmp_path, capsys):
    out = _full_output(tmp_path, "word " * 60 + "/home/alice/x " + "tail " * 30 + "\n", capsys)
    line, carets = out[3], out[4]
    assert line.startswith("6 | …") and line.endswith("…") and len(line) <= 4 + 120
    column = carets.index("^")
    assert line[column : column + 5] == "a****"


def test_caret_under_wide_characters_counts_two_columns_each(tmp_path, capsys):
    out = _full_output(tmp_path, "用户的目录是 /home/bob/代码\n", capsys)
    assert out[3] == "6 | 用户的目录是 /home/b**/代码"
    assert out[4] == "  | " + " " * 19 + "^^^"


def test_capitalised_document_is_one_info_finding_not_a_broken_memory(tmp_path):
    files = {
        "MEMORY.md": "- [A](user_a.md) — who\n- [B](user_b.md) — who\n",
        "user_a.md": ROLE,
        "user_b.md": ROLE.replace("Role", "B"),
        "DEPLOY.md": "# Deploy\n\nRun make deploy.\n",
    }
    found = lint_files(tmp_path, files, select=["ALL"])
    assert [(d.code, d.display_path) for d in found] == [("ID008", "DEPLOY.md")]


def test_relative_date_message_names_the_memorys_date(tmp_path):
    memory = (
        "---\nname: A\ndescription: a\nmetadata:\n  type: user\n  modified: 2026-03-05T10:00:00Z\n"
        "---\nWe froze it yesterday; today we test.\n"
    )
    files = {"MEMORY.md": "- [A](user_a.md) — a\n", "user_a.md": memory}
    found = lint_files(tmp_path, files, select=["CT003"])
    assert _messages(found, "CT003") == [
        "relative date `yesterday` (and 1 more): write the absolute date "
        "(the memory is dated 2026-03-05 by `metadata.modified`)"
    ]


def test_unfilled_template_is_one_finding_not_also_an_empty_memory(tmp_path):
    memory = "---\nname: A\ndescription: a\ntype: user\n---\n\n<!-- Fill in: role, tools -->\n"
    files = {"MEMORY.md": "- [A](user_a.md) — a\n", "user_a.md": memory}
    found = lint_files(tmp_path, files, select=["CT"])
    assert [(d.code, d.message) for d in found] == [
        (
            "CT002",
            "unfilled template slot `<!-- Fill in: role, tools -->`: write the value or remove it",
        )
    ]


def test_absolute_path_glued_onto_dotdot_is_named_as_such(tmp_path):
    files = {"MEMORY.md": "- [Win](../../e:/dev/notes/x.md) — a\n- [Up](../x.md) — b\n"}
    found = lint_files(tmp_path, files, select=["IX004"])
    assert _messages(found, "IX004") == [
        "index target `../../e:/dev/notes/x.md` is an absolute path written as relative "
        "(`e:/dev/notes/x.md`): it leaves the store",
        "index target `../x.md` climbs out of the store with `..`: it leaves the store",
    ]


def test_session_context_in_the_index_is_one_finding(tmp_path):
    index = (
        "- [A](user_a.md) — who\n\n# currentDate\nToday's date is 2026-03-04.\n\n"
        "# userEmail\nThe user's email address is a@example.com.\n"
    )
    files = {"MEMORY.md": index, "user_a.md": ROLE}
    found = lint_files(tmp_path, files, select=["IX014"])
    assert _messages(found, "IX014") == [
        "session context pasted into the index (4 lines): the agent gets it fresh in every "
        "session; remove it"
    ]


def test_jsonl_of_another_schema_gets_the_schema_free_record_rules(tmp_path):
    files = {
        "MEMORY.md": "- [A](user_a.md) — who\n",
        "user_a.md": ROLE,
        "memories.jsonl": '[]\n{"id": 1, "text": null}\n{"id": 2, "v": "works!"}\n'
        '{"id": 2, "v": "works!"}\n',
    }
    found = lint_files(tmp_path, files, select=["NT"])
    assert [(d.code, d.range.start.line) for d in found] == [
        ("NT002", 1),
        ("NT019", 2),
        ("NT020", 4),
    ]


def test_near_duplicate_entries_of_a_single_file_store(tmp_path):
    fact = "The staging server runs on the old rack in building two and must be rebooted every"
    index = (
        f"{fact} Sunday night.\n§\nShort answers please, no summary.\n§\n{fact} Sunday evening.\n"
    )
    found = lint_files(tmp_path, {"MEMORY.md": index}, select=["DU001"])
    assert [(d.range.start.line, d.message) for d in found] == [
        (5, "entry nearly the same as the entry at line 1 (88% of their word 3-grams are shared)")
    ]
