"""``github`` renderer: GitHub Actions workflow commands, one group per file.

Every value is escaped as ``actions/toolkit`` does (``%``, CR, LF in data, plus
``:`` and ``,`` in properties), after control characters are made visible, so
no output line can start with text taken from a memory file. With
``$GITHUB_STEP_SUMMARY`` set, a Markdown table of all findings is appended to
it: the runner keeps only 10 annotations per type per step.
"""

from __future__ import annotations

import html
import os
from itertools import groupby

from memlint.diagnostics import Diagnostic, Severity
from memlint.output.sarif import relative_path
from memlint.textutil import escape

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
SUMMARY_LIMIT = 1_000_000  # bytes; GitHub drops a step summary over 1 MiB (1,048,576)
SUMMARY_RESERVE = 200  # bytes kept for the line saying how many rows were left out


def escape_data(text: str) -> str:
    return escape(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _file(diagnostic: Diagnostic, cwd: str) -> str:
    return relative_path(diagnostic.path, cwd) or diagnostic.path


def annotation(diagnostic: Diagnostic, cwd: str) -> str:
    start, end = diagnostic.range.start, diagnostic.range.end
    props = [("title", f"memlint ({diagnostic.code})"), ("file", _file(diagnostic, cwd))]
    props.append(("line", str(start.line)))
    if end.line > start.line:
        props.append(("endLine", str(end.line)))
    else:
        props += [("col", str(start.column)), ("endColumn", str(max(end.column, start.column)))]
    head = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    text = f"{diagnostic.display_path}:{start.line}:{start.column}: {diagnostic.code} "
    return f"::{COMMANDS[diagnostic.severity]} {head}::{escape_data(text + diagnostic.message)}"


def render_github(diagnostics: list[Diagnostic], ctx, environ=os.environ) -> str:
    out = []
    for path, group in groupby(diagnostics, key=lambda d: _file(d, ctx.cwd)):
        out.append(f"::group::{escape_data(path)}")
        out.extend(annotation(d, ctx.cwd) for d in group)
        out.append("::endgroup::")
    summary_path = environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        with open(summary_path, "a", encoding="utf-8") as handle:
            handle.write(step_summary(diagnostics, ctx.cwd))
    return "".join(line + "\n" for line in out)


def _cell(text: str) -> str:
    return html.escape(escape(text)).replace("|", "\\|").replace("`", "&#96;")


def step_summary(diagnostics: list[Diagnostic], cwd: str) -> str:
    """A Markdown table of the findings (annotations alone are capped by the runner),
    cut to stay below GitHub's 1 MiB per step summary, with a line saying how many
    rows were left out."""
    if not diagnostics:
        return "### memlint\n\nNo problems found.\n"
    head = [
        "### memlint",
        "",
        f"{len(diagnostics)} problem(s).",
        "",
        "| Severity | Code | File | Line | Message |",
        "| --- | --- | --- | ---: | --- |",
    ]
    rows = []
    size = sum(len(line.encode()) + 1 for line in head) + SUMMARY_RESERVE
    for d in diagnostics:
        row = (
            f"| {d.severity.label} | {d.code} | {_cell(_file(d, cwd))} | {d.range.start.line} "
            f"| {_cell(d.message)} |"
        )
        size += len(row.encode()) + 1
        if size > SUMMARY_LIMIT:
            break
        rows.append(row)
    if len(rows) < len(diagnostics):
        more = len(diagnostics) - len(rows)
        rows += [
            "",
            f"… and {more} more (the step summary is limited to 1 MiB): run memlint locally.",
        ]
    return "\n".join(head + rows) + "\n\n"
