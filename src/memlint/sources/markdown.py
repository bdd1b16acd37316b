"""Markdown scanning: prose lines with code and comments masked, and wikilinks.

A line scan, not a full parser: fenced code (``` and ~~~), indented code,
inline code spans and HTML comments are blanked out (offsets kept) so that
``[[x]]`` inside code is never taken for a link. Every regex is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memlint.records import dataclass

WIKILINK = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
LIST_ITEM = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
CODE_SPAN = re.compile(r"(`+)")


@dataclass(frozen=True, slots=True)
class WikiLink:
    """``[[target#heading|label]]`` at ``start``..``end`` (offsets in the file text)."""

    raw: str
    target: str
    heading: str | None
    label: str | None
    start: int
    end: int
    target_start: int
    target_end: int


def is_plain(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (starting at a line start) holds nothing that masking
    changes: no backtick, ``~~~``, HTML comment, or line indented by four spaces or a tab
    (``_spans_only`` without a backtick; each longer mark is looked for only when its
    first character, found by ``memchr``, is there)."""
    find = text.find
    return (
        find("`", start, end) == -1
        and (find("~", start, end) == -1 or find("~~~", start, end) == -1)
        and (find("<", start, end) == -1 or find("<!--", start, end) == -1)
        and (find("\t", start, end) == -1 or _no_tab_indent(text, start, end))
        and find("\n    ", start, end) == -1
        and not text.startswith("    ", start)
    )


def _no_tab_indent(text: str, start: int, end: int) -> bool:
    return text.find("\n\t", start, end) == -1 and not text.startswith("\t", start)


# The last result of each of prose_lines and prose_text, by the identity of the text:
# the rules of one memory (CT, TY) and of one index (IX) ask for the same prose in a
# row, and one kept result (not one per memory) leaves a large store's memory alone.
_last_lines: tuple = (None, 0, 0, ())
_last_text: tuple = (None, 0, 0, "")


def prose_lines(text: str, start: int = 0, end: int | None = None) -> tuple[tuple[int, str], ...]:
    """``(offset, line)`` for each line of ``text[start:end]`` with code and HTML
    comments replaced by spaces (same length, so offsets stay exact)."""
    global _last_lines
    end = len(text) if end is None else end
    last = _last_lines
    if last[0] is text and last[1] == start and last[2] == end:
        return last[3]
    lines = tuple(
        _raw_lines(text, start, end)
        if is_plain(text, start, end)
        else masked_lines(text, start, end)
    )
    _last_lines = (text, start, end, lines)
    return lines


def prose_text(text: str, start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` as one string, with what ``prose_lines`` blanks blanked: its
    lines joined by line breaks. A pattern that never matches a line break finds in it
    what it finds in each of ``prose_lines``, at offsets counted from ``start``, in one
    search instead of one per line."""
    global _last_text
    end = len(text) if end is None else end
    last = _last_text
    if last[0] is text and last[1] == start and last[2] == end:
        return last[3]
    if is_plain(text, start, end):
        prose = text[start:end]
    else:
        prose = "\n".join(line for _, line in masked_lines(text, start, end))
    _last_text = (text, start, end, prose)
    return prose


def masked_lines(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    """``prose_lines`` the long way, line by line (what ``is_plain`` lets it skip)."""
    if _spans_only(text, start, end):
        return _span_masked_lines(text, start, end)
    return _block_masked_lines(text, start, end)


def _spans_only(text: str, start: int, end: int) -> bool:
    """Whether masking ``text[start:end]`` blanks code spans only: no fence, HTML
    comment or indented line (``is_plain`` but for backticks)."""
    find = text.find
    return (
        find("```", start, end) == -1
        and find("~~~", start, end) == -1
        and find("<!--", start, end) == -1
        and find("\n    ", start, end) == -1
        and find("\n\t", start, end) == -1
        and not text.startswith(("    ", "\t"), start)
    )


def _span_masked_lines(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    """``_block_masked_lines`` of a text that ``_spans_only``: no line opens a fence,
    an indented block or a comment, so each line is masked on its own."""
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl == -1 else nl
        line = text[pos:line_end]
        yield pos, _mask_inline(line, False)[0] if "`" in line else line
        if nl == -1:
            break
        pos = nl + 1


def _block_masked_lines(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    fence: str | None = None
    in_comment = False
    previous_blank = True
    in_list = False
    in_indented_code = False
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl == -1 else nl
        line = text[pos:line_end]
        if fence is not None:
            stripped = line.lstrip(" ")
            if stripped.startswith(fence) and not stripped.strip(fence[0] + " \t\r"):
                fence = None
            yield pos, " " * len(line)
        else:
            blank = not line.strip()
            opener = None if in_comment else FENCE.match(line)
            if opener:
                fence = opener.group(1)
                yield pos, " " * len(line)
            elif (
                not in_comment
                and not blank
                and line.startswith(("    ", "\t"))
                and (in_indented_code or (previous_blank and not in_list))
            ):
                in_indented_code = True
                yield pos, " " * len(line)
            else:
                in_indented_code = False
                if not blank and not line.startswith((" ", "\t")):
                    in_list = bool(LIST_ITEM.match(line))
                elif not blank and LIST_ITEM.match(line):
                    in_list = True
                masked, in_comment = _mask_inline(line, in_comment)
                yield pos, masked
            previous_blank = blank
        if nl == -1:
            break
        pos = nl + 1


def _raw_lines(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    pos = start
    for line in text[start:end].split("\n"):
        if pos >= end:  # the empty rest after a final line break is no line
            return
        yield pos, line
        pos += len(line) + 1


def _mask_inline(line: str, in_comment: bool) -> tuple[str, bool]:
    """Blank HTML comments and code spans in one line; report whether a comment stays open."""
    chars = None
    i = 0
    n = len(line)
    while i < n:
        if in_comment:
            close = line.find("-->", i)
            stop = n if close == -1 else close + 3
            chars = chars or list(line)
            chars[i:stop] = " " * (stop - i)
            if close == -1:
                return "".join(chars), True
            in_comment = False
            i = stop
            continue
        tick = line.find("`", i)
        comment = line.find("<!--", i)
        if tick == -1 and comment == -1:
            break
        if comment != -1 and (tick == -1 or comment < tick):
            in_comment = True
            i = comment
            continue
        run = CODE_SPAN.match(line, tick)
        assert run is not None  # line[tick] is a backtick
        ticks = run.group(1)
        close = line.find(ticks, tick + len(ticks))
        while close != -1 and line.startswith("`", close + len(ticks)):
            close = line.find(ticks, close + len(ticks) + 1)
        if close == -1:
            i = tick + len(ticks)
            continue
        stop = close + len(ticks)
        chars = chars or list(line)
        chars[tick:stop] = " " * (stop - tick)
        i = stop
    return ("".join(chars) if chars else line), in_comment


def scan_wikilinks(text: str, start: int = 0, end: int | None = None) -> list[WikiLink]:
    end = len(text) if end is None else end
    if is_plain(text, start, end):  # a link never spans lines, so the text is searched whole
        return [make_wikilink(m.group(1), m.start()) for m in WIKILINK.finditer(text, start, end)]
    if _spans_only(text, start, end):  # each line masked on its own: only those with a [[
        return _links_in_lines_with_brackets(text, start, end)
    links: list[WikiLink] = []
    for offset, line in masked_lines(text, start, end):
        if "[[" not in line:
            continue
        for match in WIKILINK.finditer(line):
            links.append(make_wikilink(match.group(1), offset + match.start()))
    return links


def _links_in_lines_with_brackets(text: str, start: int, end: int) -> list[WikiLink]:
    """The wikilinks of ``_span_masked_lines``, reading only the lines holding ``[[``."""
    links: list[WikiLink] = []
    at = text.find("[[", start, end)
    while at != -1:
        line_start = text.rfind("\n", start, at) + 1 or start
        nl = text.find("\n", at, end)
        line_end = end if nl == -1 else nl
        line = text[line_start:line_end]
        masked = _mask_inline(line, False)[0] if "`" in line else line
        for match in WIKILINK.finditer(masked):
            links.append(make_wikilink(match.group(1), line_start + match.start()))
        at = -1 if nl == -1 else text.find("[[", nl, end)
    return links


def make_wikilink(inner: str, start: int) -> WikiLink:
    """Build a WikiLink from the text between ``[[`` and ``]]`` found at ``start``."""
    target_part, _, label = inner.partition("|")
    target, hash_sign, heading = target_part.partition("#")
    lead = len(target) - len(target.lstrip())
    stripped = target.strip()
    target_start = start + 2 + lead
    return WikiLink(
        raw=inner,
        target=stripped,
        heading=heading if hash_sign else None,
        label=label if "|" in inner else None,
        start=start,
        end=start + len(inner) + 4,
        target_start=target_start,
        target_end=target_start + len(stripped),
    )
