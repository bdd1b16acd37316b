"""Parse ``MEMORY.md``: which list items link a Markdown file, and where.

markdown-it-py decides what is a list item (so links in code, HTML blocks
and block quotes are not entries); a bounded regex on the item's first line
gives exact character spans for diagnostics and fixes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

LINK = re.compile(r"\]\((<[^<>\n]{1,1000}>|[^()\s<>]{1,1000})(?:\s+\"[^\"\n]{0,500}\")?\)")
CANONICAL = re.compile(r"[ \t]*- \[")
SEPARATOR = re.compile(r"\s*(?:—|–|--|-|:|\|)\s*")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,30}:")
DRIVE = re.compile(r"[A-Za-z]:")
LONE_CR = re.compile(r"\r(?!\n)")
WEB_SCHEMES = ("http:", "https:", "mailto:", "ftp:")


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One list item of the index that links a ``.md`` target.

    ``href`` is the link as written; ``target`` the decoded path without
    fragment or query. Offsets index the index file's text.
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


def _title_open(line_text: str) -> int | None:
    match = CANONICAL.match(line_text)
    return match.end() if match else None


def link_path(href: str) -> str | None:
    """The file part of a link (decoded, no fragment or query); ``None`` for a bare fragment."""
    path = href.split("#", 1)[0].split("?", 1)[0]
    if not path:
        return None
    return unquote(path)


def escape_reason(target: str) -> str | None:
    """Why an index target leaves the store, or ``None`` if it stays inside."""
    if "\x00" in target:
        return "contains a NUL character"
    if DRIVE.match(target):
        return "is a drive-letter path"
    if SCHEME.match(target):
        return "has a URL scheme"
    if "\\" in target:
        return "uses backslashes"
    if target.startswith("/"):
        return "is an absolute path"
    depth = 0
    for part in target.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return "climbs out of the store with `..`"
        elif part not in ("", "."):
            depth += 1
    return None
