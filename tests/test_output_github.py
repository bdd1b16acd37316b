"""The GitHub Actions renderer: escaping, grouping, ranges and the step summary."""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.output.github import escape_data, escape_property, render_github, step_summary
from tests.output_helpers import HOSTILE_PATHS, context, diag, hostile_diagnostics, span


def test_escaping_follows_actions_toolkit():
    assert escape_data("50% a:b,c") == "50%25 a:b,c"
    assert escape_property("50% a:b,c") == "50%25 a%3Ab%2Cc"
    assert "\n" not in escape_data("a\nb\rc") and "\r" not in escape_data("a\nb\rc")


def test_annotation_line(tmp_path):
    out = render_github([diag(tmp_path, "mem/a.md")], context(tmp_path), environ={})
    assert out.splitlines() == [
        "::group::mem/a.md",
        "::warning title=memlint (FS008),file=mem/a.md,line=3,col=5,endColumn=9::"
        "mem/a.md:3:5: FS008 file ends without a line break",
        "::endgroup::",
    ]


def test_multi_line_range_omits_columns(tmp_path):
    found = [diag(tmp_path, "mem/a.md", range=span(3, 5, 6, 2))]
    line = render_github(found, context(tmp_path), environ={}).splitlines()[1]
    assert ",line=3,endLine=6::" in line
    assert "col=" not in line and "endColumn=" not in line


def test_severity_map(tmp_path):
    found = [diag(tmp_path, f"mem/{s.label}.md", severity=s) for s in Severity]
    lines = render_github(found, context(tmp_path), environ={}).splitlines()
    commands = sorted(line.split(" ", 1)[0] for line in lines if "title=" in line)
    assert commands == ["::error", "::notice", "::warning"]


def test_hostile_text_never_starts_a_line_or_breaks_properties(tmp_path):
    found = hostile_diagnostics(tmp_path)
    out = render_github(found, context(tmp_path), environ={})
    lines = out.splitlines()
    assert len(lines) == len(found) + 2 * len(HOSTILE_PATHS)
    for line in lines:
        assert line.startswith(("::group::", "::endgroup::", "::error ", "::warning ", "::notice "))
        if "title=" in line:
            properties = line.split("::", 2)[1].split(" ", 1)[1]
            keys = [item.split("=", 1)[0] for item in properties.split(",")]
            assert keys[:3] == ["title", "file", "line"]
            assert "\x1b" not in line and "\u202e" not in line


def test_step_summary_appended_and_escaped(tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    found = [diag(tmp_path, "mem/a|b.md", message="<script>x</script> | `code`\nnext")]
    render_github(found, context(tmp_path), environ={"GITHUB_STEP_SUMMARY": str(summary)})
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n### memlint")
    row = text.splitlines()[-2]
    assert row.startswith("| warning | FS008 | mem/a\\|b.md | 3 |")
    assert "<script>" not in text and "&lt;script&gt;" in row and "`" not in row


def test_step_summary_without_findings(tmp_path):
    assert "No problems found" in step_summary([], str(tmp_path))
    assert render_github([], context(tmp_path), environ={}) == ""


def test_store_full_of_workflow_commands(tmp_path, monkeypatch, capsys):
    from memlint.cli import main
    from tests.helpers import write_files

    write_files(
        tmp_path,
        {
            "mem/MEMORY.md": "# Memory\n\n- [::error::forged](wf.md) \u2014 ::notice::forged\n",
            "mem/wf.md": '---\nname: wf\ndescription: "::error file=x,line=1::forged"\n---\n'
            "::stop-commands::deadbeef\n::add-mask::secret\n::warning::forged",
            "mem/::warning::x\n::error::y.md": "::error::z",
        },
    )
    monkeypatch.chdir(tmp_path)
    main(["check", "--output-format", "github", "--select", "ALL", "mem"])
    lines = capsys.readouterr().out.splitlines()
    assert lines, "expected findings"
    for line in lines:
        assert line.startswith(("::group::", "::endgroup::", "::error ", "::warning ", "::notice "))
        assert not line.startswith(("::stop-commands", "::add-mask", "::error::", "::warning::"))
