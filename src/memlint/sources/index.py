"""Parse ``MEMORY.md``: which list items link a Markdown file, and where.

markdown-it-py decides what is a list item (so links in code, HTML blocks
and block quotes are not entries); a bounded regex on the item's first line
gives exact character spans for diagnostics and fixes.
"""

from __future__ import annotations

import re

from memlint.privacy import LazyPattern
from memlint.records import NamedTuple

# CommonMark allows spaces around the destination: `]( file.md )` links file.md.
LINK = re.compile(
    r"\]\([ \t]{0,100}(<[^<>\n]{1,1000}>|[^()\s<>]{1,1000})"
    r"(?:[ \t]+\"[^\"\n]{0,500}\")?[ \t]{0,100}\)"
)
CANONICAL = re.compile(r"[ \t]*- \[")
SEPARATOR = re.compile(r"\s*(?:—|–|--|-|:|\|)\s*")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,30}:")
DRIVE = re.compile(r"[A-Za-z]:")
LONE_CR = re.compile(r"\r(?!\n)")
WEB_SCHEMES = ("http:", "https:", "mailto:", "ftp:")
_NOT_PLAIN_ASCII = "\r\t\x00\x0b\x0c"
_NOT_PLAIN = LazyPattern(r"[\r\t\x00\x0b\x0c\u0085\u2028\u2029\ufeff]")  # not ASCII
_HEADING = re.compile(r"#{1,6}(?: |\Z)")
_LINK_ITEM = re.compile(r"- \[[^\[\]()`<\\]{0,500}\]\([A-Za-z0-9._/~%+-]{1,500}\).{0,2000}\Z")
_BARE_ITEM = LazyPattern(r"- [^\W\d_][^\[\]()]{0,2000}\Z")
_PARAGRAPH = LazyPattern(r"[^\W\d_].{0,2000}\Z")


class IndexEntry(NamedTuple):
    """One list item of the index that links a ``.md`` target.

    ``href`` is the link as written; ``target`` the decoded path without
    fragment or query. Offsets index the index file's text. (A named tuple: a large
    index's cached entries are made in one C-level pass.)
    """

    line: int
    line_start: int
    line_end: int
    title: str
    href: str
    target: str
    href_start: int
    href_end: int
    summary: str
    canonical: bool
    continued: bool


def _markdown():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def parse_index(text: str, body_start: int, line_starts: list[int]) -> list[IndexEntry]:
    """Find the index entries of ``text`` (a ``MEMORY.md``), ignoring its frontmatter."""
    prefix_lines = text.count("\n", 0, body_start)
    plain = plain_link_lines(text, body_start, prefix_lines)
    if plain is not None:
        found = (_link_item_entry(text, line, line_starts) for line in plain)
        return [entry for entry in found if entry is not None]
    body = "\n" * prefix_lines + LONE_CR.sub(" ", text[body_start:])
    try:
        tokens = _markdown().parse(body)
    except Exception:  # a parser failure leaves the index without entries, never a crash
        return []
    entries: list[IndexEntry] = []
    item_depth = 0
    for token in tokens:
        if token.type == "list_item_open":
            item_depth += 1
        elif token.type == "list_item_close":
            item_depth -= 1
        elif token.type == "inline" and item_depth and token.map:
            entry = _entry(text, token, line_starts)
            if entry is not None:
                entries.append(entry)
    return entries


def _entry(text: str, token, line_starts: list[int]) -> IndexEntry | None:
    children = token.children or []
    if not any(child.type == "link_open" for child in children):
        return None
    first, last = token.map
    return _entry_at(text, first, last, line_starts)


def _link_item_entry(text: str, first: int, line_starts: list[int]) -> IndexEntry | None:
    """``_entry_at`` for line ``first`` of a plain body, which ``_LINK_ITEM`` matched:
    ``- [title](href) rest``, no CR, a title without brackets or parentheses and an
    ``href`` without blanks, ``#``, ``?``, ``:`` or ``)``, so its first ``LINK`` is
    that link, its path the ``href`` (decoded) and no web scheme. Read with string
    methods; a target other than a ``.md`` file is left to ``_entry_at``."""
    line = first + 1
    start = line_starts[first]
    end = line_starts[line] - 1 if line < len(line_starts) else len(text)
    line_text = text[start:end]
    title_end = line_text.find("](")
    close = line_text.find(")", title_end)
    href = line_text[title_end + 2 : close]
    target = href if "%" not in href else link_path(href)
    if target is None or not target.lower().endswith(".md"):
        return _entry_at(text, first, line, line_starts)
    rest = line_text[close + 1 :]
    summary = SEPARATOR.sub("", rest, count=1) if rest.strip() else ""
    href_start = start + title_end + 2
    return IndexEntry(
        line=line,
        line_start=start,
        line_end=end,
        title=line_text[3:title_end],
        href=href,
        target=target,
        href_start=href_start,
        href_end=href_start + len(href),
        summary=summary.strip(),
        canonical=True,
        continued=False,
    )


def _entry_at(text: str, first: int, last: int, line_starts: list[int]) -> IndexEntry | None:
    """The entry of the list item whose inline text spans lines ``first``..``last`` (0-based)."""
    if first >= len(line_starts):
        return None
    line = first + 1
    start = line_starts[first]
    end = line_starts[line] - 1 if line < len(line_starts) else len(text)
    if end > start and text[end - 1] == "\r":
        end -= 1
    line_text = text[start:end]
    for match in LINK.finditer(line_text):
        href = match.group(1)
        if href.startswith("<"):
            href = href[1:-1]
        target = link_path(href)
        if target is None or not target.lower().endswith(".md"):
            continue
        if href.lower().startswith(WEB_SCHEMES):
            continue
        title_end = match.start()
        title_open = _title_open(line_text)
        title = line_text[title_open:title_end] if title_open is not None else ""
        rest = line_text[match.end() :]
        summary = SEPARATOR.sub("", rest, count=1) if rest.strip() else ""
        href_start = start + match.start(1) + (1 if match.group(1).startswith("<") else 0)
        return IndexEntry(
            line=line,
            line_start=start,
            line_end=end,
            title=title,
            href=href,
            target=target,
            href_start=href_start,
            href_end=href_start + len(href),
            summary=summary.strip(),
            canonical=title_open is not None and title_end >= title_open,
            continued=last - first > 1,
        )
    return None


def plain_link_lines(text: str, body_start: int, first_line: int) -> list[int] | None:
    """0-based lines holding a link item, when the body is obviously plain, else ``None``.

    Plain means every line is blank, an ATX heading, a top-level ``- `` item
    that is either free of link syntax or starts ``- [title](path)`` (a title
    with no code span or HTML, so the link always forms), or a paragraph line
    starting with a letter that does not follow an item (it would continue it).
    For such a body a CommonMark parser finds one single-line item per item
    line, so markdown-it is not needed.
    """
    body = text[body_start:]
    if body.isascii():
        if any(char in body for char in _NOT_PLAIN_ASCII):
            return None
    elif _NOT_PLAIN.search(body):
        return None
    found: list[int] = []
    after_item = False
    for number, line in enumerate(body.split("\n"), first_line):
        if not line or _HEADING.match(line):
            after_item = False
        elif line.startswith("- "):
            if _LINK_ITEM.match(line):
                found.append(number)
            elif not _BARE_ITEM.match(line):
                return None
            after_item = True
        elif after_item or not _PARAGRAPH.match(line):
            return None
    return found


def _title_open(line_text: str) -> int | None:
    match = CANONICAL.match(line_text)
    return match.end() if match else None


def link_path(href: str) -> str | None:
    """The file part of a link (decoded, no fragment or query); ``None`` for a bare fragment."""
    path = href.split("#", 1)[0].split("?", 1)[0]
    if not path:
        return None
    if "%" not in path:  # what unquote returns then, without importing urllib.parse
        return path
    from urllib.parse import unquote

    return unquote(path)


def escape_reason(entry: IndexEntry) -> str | None:
    """Why an index entry's target leaves the store, or ``None`` if it stays inside.

    Backslashes count only when written literally in the link: a ``%5C`` names
    a file whose name holds a backslash.
    """
    if "\\" in entry.href:
        return "uses backslashes"
    return path_escape_reason(entry.target)


def path_escape_reason(target: str) -> str | None:
    """Why a decoded store-relative path leaves the store, or ``None``."""
    if "\x00" in target:
        return "contains a NUL character"
    if DRIVE.match(target):
        return "is a drive-letter path"
    if SCHEME.match(target):
        return "has a URL scheme"
    if target.startswith("/"):
        return "is an absolute path"
    depth = 0
    for part in target.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                absolute = absolute_written_as_relative(target)
                if absolute is not None:
                    return f"is an absolute path written as relative (`{absolute}`)"
                return "climbs out of the store with `..`"
        elif part not in ("", "."):
            depth += 1
    return None


ABSOLUTE_TAIL = LazyPattern(r"(?:\.\./)+((?:[A-Za-z]:|home/|Users/|mnt/|media/|Volumes/).*)")


def absolute_written_as_relative(target: str) -> str | None:
    """The absolute path a ``../../e:/dev/x.md`` or ``../../home/u/x.md`` target
    glues onto ``..`` (as ``e:/dev/x.md``, ``/home/u/x.md``), else ``None``."""
    match = ABSOLUTE_TAIL.fullmatch(re.sub(r"\A(?:\./)+", "", target))
    if match is None:
        return None
    tail = match.group(1)
    return tail if DRIVE.match(tail) else "/" + tail
