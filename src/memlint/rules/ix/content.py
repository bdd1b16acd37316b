"""Lines of ``MEMORY.md`` that are not entries: list items and table rows naming an
unindexed memory without linking it (IX013), and list items holding content (IX010)."""

from __future__ import annotations

import re

from memlint.budget import loader_limits
from memlint.privacy import LazyPattern
from memlint.records import dataclass
from memlint.sources.markdown import LIST_ITEM, prose_lines
from memlint.store import Memory, Store, normalized_target

TABLE_ROW = re.compile(r" {0,3}\|")
MENTION = LazyPattern(r"(`?)((?:\./)?[^\s`()\[\]<>*|]{1,200}\.md)\1(?![\w/.-])")


@dataclass(frozen=True, slots=True)
class NamedBullet:
    """A list item or table row that names ``memory``'s file at ``start``..``end``
    (backticks included) without linking anything; ``leading`` when the name opens a
    ``- `` item."""

    line: int
    start: int
    end: int
    memory: Memory
    leading: bool


def named_bullets(store: Store) -> list[NamedBullet]:
    """The first list item or table row naming each memory no index entry links
    (found once per store: IX002, IX010 and IX013 ask)."""
    return store.derived(_named_bullets)


def _named_bullets(store: Store) -> list[NamedBullet]:
    index = store.index
    if index is None:
        return []
    source = index.file
    text = source.text or ""
    indexed = store.indexed_memories
    entry_lines = {entry.line for entry in index.entries}
    seen: set[int] = set()
    found = []
    for offset, masked in prose_lines(text, index.body_start):
        item = LIST_ITEM.match(masked) or TABLE_ROW.match(masked)
        if item is None or "](" in masked:
            continue
        number = source.position(offset).line
        if number in entry_lines:
            continue
        line = text[offset : offset + len(masked)]
        for match in MENTION.finditer(line, item.end()):
            memory = store.by_rel.get(normalized_target(match.group(2)))
            if memory is None or id(memory) in indexed or id(memory) in seen:
                continue
            seen.add(id(memory))
            leading = line.startswith("- ") and not line[item.end() : match.start()].strip()
            found.append(
                NamedBullet(number, offset + match.start(), offset + match.end(), memory, leading)
            )
            break
    return found


def content_items(ctx, index) -> list[tuple[int, int, int]]:
    """``(line, start, end)`` of each list item before the loader's cut that holds
    content instead of a link (bullets that IX013 reports left out)."""
    source = index.file
    text = source.text or ""
    cut = ctx.store.loaded_index(**loader_limits(ctx.shared))
    lost = cut.lost_numbers() if cut is not None and cut.cut else set()
    entry_lines = {entry.line for entry in index.entries}
    entry_lines.update(bullet.line for bullet in named_bullets(ctx.store))
    found = []
    for offset, line in prose_lines(text, index.body_start):
        item = LIST_ITEM.match(line)
        if item is None or "](" in line or "<http" in line or not line[item.end() :].strip():
            continue
        number = source.position(offset).line
        if number in entry_lines or number in lost:
            continue
        start = offset + len(line) - len(line.lstrip())
        found.append((number, start, offset + len(line.rstrip())))
    return found
