"""Diagnostics built by hand for renderer tests, including hostile text."""

from __future__ import annotations

from memlint.diagnostics import Diagnostic, Edit, Fix, Position, Range, Severity
from memlint.output import RenderContext


def span(line: int, col: int, end_line: int, end_col: int) -> Range:
    return Range(Position(line, col), Position(end_line, end_col))


def diag(cwd, rel, code="FS008", message="file ends without a line break", **kw) -> Diagnostic:
    path = f"{cwd}/{rel}"
    return Diagnostic(
        code=code,
        message=message,
        path=path,
        display_path=rel,
        range=kw.pop("range", span(3, 5, 3, 9)),
        severity=kw.pop("severity", Severity.WARNING),
        **kw,
    )


def fixed_diag(cwd, rel) -> Diagnostic:
    edit = Edit(f"{cwd}/{rel}", 10, 10, "\n", span(2, 5, 2, 5))
    return diag(cwd, rel, range=span(2, 5, 2, 5), fix=Fix.safe("Add a line break", edit))


HOSTILE_MESSAGES = [
    "::error file=README.md,line=1::forged annotation",
    "line one\nline two\r\n::add-mask::secret",
    "100% sure: a,b::c %0A %25",
    "bidi \u202e txt.exe and escape \x1b[31m red",
]
HOSTILE_PATHS = ["mem/a,b:c.md", "mem/line\nbreak.md", "mem/::stop-commands::x.md", "mem/50%.md"]


def hostile_diagnostics(cwd) -> list[Diagnostic]:
    found = [
        diag(cwd, path, message=message, severity=severity)
        for path in HOSTILE_PATHS
        for message, severity in zip(HOSTILE_MESSAGES, Severity, strict=False)
    ]
    return sorted(found, key=Diagnostic.sort_key)


def context(cwd, codes=()) -> RenderContext:
    return RenderContext(cwd=str(cwd), rule_codes=tuple(codes))
