"""Inline suppression comments and MX001 (unused suppression), with its fix."""

from __future__ import annotations

from memlint.cli import main
from memlint.sources.document import SourceFile
from memlint.suppression import parse_directives
from tests.helpers import lint_files, summary, write_files

INDEX = "# Memory\n\n"
NO_FINAL_NEWLINE = "last line"  # FS008 reports it at its end


def _source(text: str) -> SourceFile:
    return SourceFile(path="/s/MEMORY.md", rel="MEMORY.md", display="MEMORY.md", text=text)


def _lint(tmp_path, text: str, select=("FS008", "MX001")):
    return summary(lint_files(tmp_path, {"MEMORY.md": text}, select=list(select)))


def test_grammar_kinds_codes_and_lines():
    text = (
        "a <!-- memlint: ignore[FS008] -->\n"
        "<!--memlint:allow[LK, FM001 ALL]-->\n"
        "x\n"
        "<!-- memlint: disable[ID] -->\n"
        "<!-- memlint: enable[ID] -->\n"
        "<!-- memlint: file-ignore[FS] -->\n"
    )
    found = parse_directives(_source(text))
    assert [(d.kind, d.codes, d.first_line, d.last_line) for d in found[:2]] == [
        ("ignore", ("FS008",), 1, 1),
        ("ignore", ("LK", "FM001", "ALL"), 3, 3),
    ]
    assert (found[2].kind, found[2].first_line, found[2].last_line) == ("disable", 4, 5)
    assert found[2].partners == [found[3]]
    assert (found[4].kind, found[4].first_line) == ("file-ignore", 1)


def test_directives_in_code_or_comments_are_text():
    text = (
        "```\n<!-- memlint: ignore[FS] -->\n```\n"
        "~~~md\n<!-- memlint: ignore[FS] -->\n~~~\n"
        "\n    <!-- memlint: ignore[FS] -->\n\n"
        "`<!-- memlint: ignore[FS] -->`\n"
        "<!-- outer\n<!-- memlint: ignore[FS] -->\n-->\n"
        "<!-- memlint: ignore [FS] -->\n"
    )
    assert parse_directives(_source(text)) == []


def test_own_line_ignore_covers_next_line(tmp_path):
    assert _lint(tmp_path, INDEX + "<!-- memlint: ignore[FS008] -->\n" + NO_FINAL_NEWLINE) == []


def test_trailing_ignore_covers_its_line(tmp_path):
    text = INDEX + NO_FINAL_NEWLINE + " <!-- memlint: ignore[FS] -->"
    assert _lint(tmp_path, text) == []


def test_ignore_does_not_reach_other_lines(tmp_path):
    text = INDEX + "<!-- memlint: ignore[FS008] -->\n\n" + NO_FINAL_NEWLINE
    assert sorted(code for code, *_ in _lint(tmp_path, text)) == ["FS008", "MX001"]


def test_disable_enable_range(tmp_path):
    inside = INDEX + "<!-- memlint: disable[FS008] -->\n" + NO_FINAL_NEWLINE
    assert _lint(tmp_path, inside) == []
    closed = INDEX + "<!-- memlint: disable[FS008] -->\n<!-- memlint: enable[FS008] -->\nlast"
    assert sorted(code for code, *_ in _lint(tmp_path, closed)) == ["FS008", "MX001"]


def test_file_ignore_and_all(tmp_path):
    text = INDEX + "<!-- memlint: file-ignore[ALL] -->\n" + NO_FINAL_NEWLINE
    assert _lint(tmp_path, text) == []


def test_unused_codes_reported_with_positions(tmp_path):
    text = INDEX + "x <!-- memlint: ignore[FS008, LK001] -->\n" + NO_FINAL_NEWLINE
    found = lint_files(tmp_path, {"MEMORY.md": text}, select=["FS008", "MX001"])
    assert summary(found) == [("MX001", "MEMORY.md", 3, 3), ("FS008", "MEMORY.md", 4, 10)]
    assert found[0].message == "unused suppression `ignore[FS008, LK001]`"
    partly = INDEX + "<!-- memlint: ignore[FS008, LK001] -->\n" + NO_FINAL_NEWLINE
    (used,) = lint_files(tmp_path, {"MEMORY.md": partly}, select=["FS008", "MX001"])
    assert used.message == "unused code LK001 in suppression"


def test_mx001_not_selected_means_no_report(tmp_path):
    text = INDEX + "<!-- memlint: ignore[FS008] -->\nfine\n"
    assert _lint(tmp_path, text, select=["FS008"]) == []


def _fix(tmp_path, text: str, *extra: str) -> str:
    write_files(tmp_path, {"MEMORY.md": text})
    main(["check", "--fix", "--isolated", "-q", "--select", "MX001,FS008", *extra, str(tmp_path)])
    return (tmp_path / "MEMORY.md").read_text(encoding="utf-8")


def test_fix_deletes_own_line_directive_and_its_line(tmp_path):
    fixed = _fix(tmp_path, INDEX + "<!-- memlint: ignore[LK001] -->\nbody\n")
    assert fixed == INDEX + "body\n"


def test_fix_deletes_trailing_directive(tmp_path):
    fixed = _fix(tmp_path, INDEX + "body  <!-- memlint: ignore[LK001] -->\nmore\n")
    assert fixed == INDEX + "body\nmore\n"


def test_fix_keeps_used_codes(tmp_path):
    text = INDEX + "<!-- memlint: ignore[FS008, LK001] -->\nlast"
    assert _fix(tmp_path, text) == INDEX + "<!-- memlint: ignore[FS008] -->\nlast"


def test_fix_removes_disable_with_its_enable(tmp_path):
    text = INDEX + "<!-- memlint: disable[LK] -->\nbody\n<!-- memlint: enable[LK] -->\nend\n"
    assert _fix(tmp_path, text) == INDEX + "body\nend\n"
