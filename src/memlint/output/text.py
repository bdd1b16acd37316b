"""Human-readable renderers: ``full`` (with source lines) and ``concise``."""

from __future__ import annotations

from memlint.diagnostics import Applicability, Diagnostic, Severity
from memlint.privacy import mask_text
from memlint.textutil import escape

COLORS = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFO: "36"}
SNIPPET_WIDTH = 120
CONTEXT = 20  # columns of context kept on each side of a long marked span
ELLIPSIS = "…"


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
    masked: dict[str, str | None] = {}  # see shown_line
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
    if source is None:
        return []
    start, end = diagnostic.range.start, diagnostic.range.end
    lines = ctx.lines
    line = lines.get(source, start.line) if lines is not None else None
    if line is None:
        if source.text is None or start.line > len(source.line_starts):
            return []
        line = shown_line(source, start.line, masked)
        if lines is not None:
            lines.put(source, start.line, line)
    gutter = " " * len(str(start.line))
    first = min(start.column - 1, len(line))
    stop = end.column - 1 if end.line == start.line else len(line)
    stop = min(max(stop, first), len(line))
    shown, lead, marked = window(
        escape(line[:first]), escape(line[first:stop]), escape(line[stop:]), SNIPPET_WIDTH
    )
    carets = "^" * max(1, marked)
    return [
        f"{gutter} |\n",
        f"{start.line} | {shown}\n",
        f"{gutter} | {' ' * lead}{_paint(carets, COLORS[diagnostic.severity], ctx.color)}\n",
    ]


def display_width(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide and full-width characters take
    two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(_char_width(ch) for ch in text)


# ASCII to spacing modifiers, and general punctuation (the dashes, quotes and bullets
# of prose): one column each, no combining mark (a test checks them with unicodedata).
NARROW = (("\x00", "\u02ff"), ("\u2000", "\u2064"))


def _char_width(ch: str) -> int:
    if ch <= "\u02ff" or "\u2000" <= ch <= "\u2064":  # NARROW
        return 1
    import unicodedata  # a C extension: loaded only for wider scripts

    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def window(before: str, marked: str, after: str, limit: int) -> tuple[str, int, int]:
    """The part of a line ``before + marked + after`` that fits ``limit`` columns
    around ``marked`` (cuts shown as ``…``, as ruff does), the columns before the
    marked part and the columns of the marked part shown."""
    widths = display_width(before), display_width(marked), display_width(after)
    if sum(widths) <= limit:
        return before + marked + after, widths[0], widths[1]
    shown_marked = _first_columns(marked, min(widths[1], limit - 2 * CONTEXT))
    room = limit - display_width(shown_marked) - 2
    left = min(widths[0], max(room // 2, room - widths[2]))
    right = room - left
    head = before if left >= widths[0] else ELLIPSIS + _last_columns(before, left)
    rest = marked[len(shown_marked) :] + after
    tail = rest if display_width(rest) <= right + 1 else _first_columns(rest, right) + ELLIPSIS
    return head + shown_marked + tail, display_width(head), display_width(shown_marked)


def _first_columns(text: str, columns: int) -> str:
    used = 0
    for index, ch in enumerate(text):
        used += _char_width(ch)
        if used > columns:
            return text[:index]
    return text


def _last_columns(text: str, columns: int) -> str:
    used = 0
    for index in range(len(text) - 1, -1, -1):
        used += _char_width(text[index])
        if used > columns:
            return text[index + 1 :]
    return text


def shown_line(source, number: int, masked: dict[str, str | None]) -> str:
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
