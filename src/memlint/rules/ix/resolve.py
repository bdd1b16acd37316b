"""Shared by the IX rules: writing index entries. Where each entry points is a
table of the store model (``Store.index_target``, ``Store.indexed_memories``)."""

from __future__ import annotations

import re
from collections import Counter

from memlint.budget import loader_limits, simulate
from memlint.diagnostics import Edit
from memlint.privacy import LazyPattern
from memlint.sources.index import SCHEME, IndexEntry, parse_index
from memlint.store import Index, Memory, Store, normalized_target, one_line

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

MIN_SUMMARY = 10
SUMMARY_SEPARATOR = " — "
HEADING_LINE = LazyPattern(r"^#{1,6}[ \t][^\n]*", re.MULTILINE)
HREF_UNSAFE = LazyPattern(r"[\s()<>%#?\[\]\\\x00-\x1f\x7f]")


def _index_of(store: Store) -> Index:
    """The store's index, for helpers given one of its entries (so it has one)."""
    index = store.index
    if index is None:
        raise ValueError(f"{store.display_root}: the store has no index")
    return index


def linked_elsewhere(store: Store, entry: IndexEntry, memory: Memory) -> bool:
    """Whether an entry other than ``entry`` already links ``memory`` by its path."""
    own = store.index_target(entry).memory is memory
    return store.index_entries_to(memory) > own


def link_title(text: str) -> str:
    """``text`` made safe as Markdown link text (one line, brackets escaped)."""
    return re.sub(r"([\\\[\]])", r"\\\1", one_line(text))


def link_href(rel: str) -> str:
    """``rel`` made safe as a link destination (characters the parser would split on
    encoded; ``./`` before a name that would read as a URL scheme, ``co:lon.md``)."""
    href = HREF_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), rel)
    return "./" + href if SCHEME.match(href) else href


def entry_line(memory: Memory, max_length: int) -> str:
    """``- [name](rel.md) — description`` for ``memory`` (no line break), the
    description shortened with ``…`` so that the line keeps within ``max_length``."""
    title = link_title((memory.name or "").strip() or memory.stem) or link_title(memory.stem)
    line = f"- [{title}]({link_href(memory.file.rel)})"
    description = one_line(memory.description or "")
    if not description:
        return line
    if len(line) + len(SUMMARY_SEPARATOR) + len(description) <= max_length:
        return f"{line}{SUMMARY_SEPARATOR}{description}"
    room = max_length - len(line) - len(SUMMARY_SEPARATOR) - 1
    if room < MIN_SUMMARY:
        return line
    return f"{line}{SUMMARY_SEPARATOR}{description[:room].rstrip()}…"


def is_shortened(summary: str, description: str) -> bool:
    """Whether ``summary`` is ``description`` shortened the way :func:`entry_line` does."""
    head = summary.removesuffix("…")
    return head != summary and len(head) >= MIN_SUMMARY and description.startswith(head)


def insertion_edits(
    store: Store, memories: list[Memory], shared: Callable[[str], Any]
) -> list[Edit] | str:
    """One edit per memory of ``memories`` adding its entry where the agent loads
    it, or why that cannot be done (a short phrase). Edits at one offset are
    applied together, in this order (the fix engine joins a rule's insertions).

    Each entry goes after the last entry of the section (heading) whose entries
    share the memory's type, else after the last entry of the index, else
    at the end, after the first heading or after the frontmatter. Every new line
    must parse as an entry (not swallowed by an unclosed comment, fence or
    block) and the index must stay within the loader's cut (the shared ``loader-*``
    settings, read with ``shared(name)`` as the width ``index-line-length``).
    """
    index = _index_of(store)
    text = index.file.text or ""
    newline = index.file.newline
    limits = loader_limits(shared)
    loaded = store.loaded_index(**limits)
    if loaded is not None and loaded.cut:
        return "the index is already past the loader's cut (see IX008); make room first"
    width = shared("index-line-length")
    lines = [entry_line(memory, width) for memory in memories]
    for anchor in _anchors(store, text):
        insertions: list[tuple[int, str]] = []
        for memory, line in zip(memories, lines, strict=True):
            at = anchor(memory)
            at_end = at < 0 and any(other == len(text) for other, _ in insertions)
            insertions.append(
                (len(text), line + newline) if at_end else _insertion(text, newline, at, [line])
            )
        if not _parses_all(store, _spliced(text, insertions), memories):
            continue
        if simulate(_spliced(text, insertions), index.body_start, **limits).cut:
            return "the new entries would pass the loader's cut (see IX008); make room first"
        return [index.file.edit(at, at, content) for at, content in insertions]
    return "the index ends inside an unclosed comment, fence or block; add the entry by hand"


def _anchors(store: Store, text: str) -> Iterator[Callable[[Memory], int]]:
    """Ways to pick each memory's insertion point, best first; an insertion point
    ``p`` is the end of a line's text (before its break), or ``-1`` for the file's end."""
    index = _index_of(store)
    entries = index.entries
    if entries:
        sections = _sections(store, text)
        last = _item_end(text, entries[-1])
        yield lambda memory: sections.get(memory.memory_type, last)
    heading = _first_heading(text, index.body_start)
    yield lambda memory: -1
    if heading is not None:
        yield lambda memory: heading
    if index.body_start and text[index.body_start - 1] == "\n":
        closing = index.body_start - 1 - (text[index.body_start - 2] == "\r")
        yield lambda memory: closing


def _sections(store: Store, text: str) -> dict[str | None, int]:
    """Memory type -> end of the last entry of the section whose entries all have it."""
    index = _index_of(store)
    line_types: dict[int, set] = {}
    headings = [m.start() for m in HEADING_LINE.finditer(text, index.body_start)]
    ends: dict[int, int] = {}
    for entry in index.entries:
        section = max((h for h in headings if h < entry.line_start), default=-1)
        memory = store.index_target(entry).memory
        line_types.setdefault(section, set()).add(memory.memory_type if memory else None)
        ends[section] = _item_end(text, entry)
    found: dict[str | None, int] = {}
    for section, types in line_types.items():
        if section >= 0 and len(types) == 1 and None not in types:
            found[next(iter(types))] = ends[section]
    return found


def _item_end(text: str, entry: IndexEntry) -> int:
    """End of the entry's text, past its indented continuation lines."""
    end = entry.line_end
    while True:
        newline = text.find("\n", end)
        if newline == -1:
            return end
        following = text.find("\n", newline + 1)
        following = len(text) if following == -1 else following
        line = text[newline + 1 : following].rstrip("\r")
        if not line.strip() or not line[:1].isspace():
            return end
        end = newline + 1 + len(line)


def _first_heading(text: str, body_start: int) -> int | None:
    match = HEADING_LINE.search(text, body_start)
    if match is None:
        return None
    return match.start() + len(match.group().rstrip("\r"))


def _insertion(text: str, newline: str, at: int, lines: list[str]) -> tuple[int, str]:
    """``(offset, content)`` inserting ``lines`` after the line ending at ``at``
    (``-1``: at the end of the file)."""
    if at >= 0:
        return at, "".join(newline + line for line in lines)
    prefix = "" if not text or text.endswith("\n") else newline
    return len(text), prefix + "".join(line + newline for line in lines)


def _spliced(text: str, insertions: list[tuple[int, str]]) -> str:
    """``text`` with ``insertions`` made; those at one offset go in in list order."""
    joined: dict[int, str] = {}
    for at, content in insertions:
        joined[at] = joined.get(at, "") + content
    out = text
    for at in sorted(joined, reverse=True):
        out = out[:at] + joined[at] + out[at:]
    return out


def line_starts_of(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def _parses_all(store: Store, new_text: str, memories: list[Memory]) -> bool:
    """Whether every old entry and one new entry per memory parse in ``new_text``."""
    index = _index_of(store)
    found = parse_index(new_text, index.body_start, line_starts_of(new_text))
    wanted = Counter(normalized_target(e.target) for e in index.entries)
    wanted.update(memory.file.rel for memory in memories)
    return Counter(normalized_target(e.target) for e in found) == wanted


def line_removal(store: Store, entry: IndexEntry) -> Edit:
    """Delete the entry's whole line, including its line break."""
    source = _index_of(store).file
    text = source.text or ""
    end = text.find("\n", entry.line_end)
    end = len(text) if end == -1 else end + 1
    return source.edit(entry.line_start, end, "")
