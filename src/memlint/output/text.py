"""Human-readable renderers: ``full`` (with source lines) and ``concise``."""

from __future__ import annotations

from memlint.diagnostics import Applicability, Diagnostic, Severity
from memlint.privacy import mask_text
from memlint.textutil import escape, shorten

COLORS = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFO: "36"}
SNIPPET_WIDTH = 120


def _paint(text: str, code: str, enabled: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if enabled else text


def fix_marker(diagnostic: Diagnostic, unsafe_fixes: bool) -> str:
    fix = diagnostic.fix
    if fix is None:
        return ""
    if fix.applicability is Applicability.SAFE or (
        unsafe_fixes and fix.applicability is Applicability.UNSAFE
    ):
        return "[*] "
    return ""


def _head(diagnostic: Diagnostic, ctx) -> str:
    code = _paint(diagnostic.code, COLORS[diagnostic.severity] + ";1", ctx.color)
    return (
        f"{code} {fix_marker(diagnostic, ctx.unsafe_fixes)}"
        f"{diagnostic.severity.label}: {escape(diagnostic.message)}"
    )


def _location(diagnostic: Diagnostic) -> str:
    start = diagnostic.range.start
    return f"{escape(diagnostic.display_path)}:{start.line}:{start.column}"


def render_concise(diagnostics: list[Diagnostic], ctx) -> str:
    return "".join(f"{_location(d)}: {_head(d, ctx)}\n" for d in diagnostics)


def render_full(diagnostics: list[Diagnostic], ctx) -> str:
    out = []
    masked: dict[str, str | None] = {}  # see _shown_line
    for diagnostic in diagnostics:
        out.append(f"{_head(diagnostic, ctx)}\n --> {_location(diagnostic)}\n")
        out.extend(_snippet(diagnostic, ctx, masked))
        for note in diagnostic.notes:
            out.append(f"note: {escape(note)}\n")
        if diagnostic.fix is not None:
            out.append(f"help: {escape(diagnostic.fix.title)}\n")
            if diagnostic.fix.applicability is Applicability.UNSAFE:
                out.append("note: this is an unsafe fix (apply it with `--unsafe-fixes`)\n")
        out.append("\n")
    return "".join(out)


def _snippet(diagnostic: Diagnostic, ctx, masked: dict[str, str | None]) -> list[str]:
    source = ctx.sources.get(diagnostic.path)
    if source is None or source.text is None:
        return []
    start, end = diagnostic.range.start, diagnostic.range.end
    if start.line > len(source.line_starts):
        return []
    line = _shown_line(source, start.line, masked)
    width = len(str(start.line))
    gutter = " " * width
    shown = escape(shorten(line, SNIPPET_WIDTH))
    lead = escape(line[: start.column - 1])
    if len(lead) >= SNIPPET_WIDTH:
        return [f"{gutter} |\n", f"{start.line} | {shown}\n", f"{gutter} |\n"]
    stop = end.column if end.line == start.line else len(line) + 1
    marked = escape(line[start.column - 1 : max(stop - 1, start.column)])
    carets = "^" * max(1, min(len(marked), SNIPPET_WIDTH - len(lead)))
    return [
        f"{gutter} |\n",
        f"{start.line} | {shown}\n",
        f"{gutter} | {' ' * len(lead)}{_paint(carets, COLORS[diagnostic.severity], ctx.color)}\n",
    ]


def _shown_line(source, number: int, masked: dict[str, str | None]) -> str:
    """Line ``number`` of ``source`` with secrets masked. A private key block spans
    lines, so a file holding one is masked whole, once (``masked`` keeps it by path;
    masking keeps every offset), not line by line."""
    if source.path not in masked:
        holds_key = "PRIVATE KEY" in source.text
        masked[source.path] = mask_text(source.text) if holds_key else None
    text = masked[source.path]
    if text is None:
        return mask_text(source.line_text(number))
    start, end = source.line_span(number)
    return text[start:end]
