"""Shared by the IX rules: resolving index targets in memory, and writing entries.

Targets resolve against what the store loaded (``by_rel``/``by_folded_rel``,
plus the non-memory files it saw); a target that matches only after NFC and
casefolding is a ``folded`` resolution, not a missing file. Nothing outside
the store root is ever looked at.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from dataclasses import dataclass

from memlint.diagnostics import Edit
from memlint.sources.index import SCHEME, IndexEntry, escape_reason
from memlint.store import Memory, Store, fold

HREF_UNSAFE = re.compile(r"[\s()<>%#?\[\]\\\x00-\x1f\x7f]")
WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where an entry points: ``kind`` is memory, folded, file, missing or escapes."""

    kind: str
    rel: str | None = None
    memory: Memory | None = None
    detail: str | None = None


def normalized_target(target: str) -> str:
    """The target as a store-relative path (``./a/../b.md`` -> ``b.md``)."""
    return posixpath.normpath(target).lstrip("/") if target else target


def resolve(store: Store, entry: IndexEntry) -> Resolution:
    reason = escape_reason(entry)
    if reason is not None:
        return Resolution("escapes", detail=reason)
    rel = normalized_target(entry.target)
    memory = store.by_rel.get(rel)
    if memory is not None:
        return Resolution("memory", rel, memory)
    if rel in store.other_rels:
        return Resolution("file", rel)
    folded = store.by_folded_rel.get(fold(rel), [])
    if len(folded) == 1:
        return Resolution("folded", folded[0].file.rel, folded[0])
    if _exists_inside(store.root, rel):
        return Resolution("file", rel)
    return Resolution("missing", rel)


def _exists_inside(root: str, rel: str) -> bool:
    """Whether ``rel`` names something under ``root``, checking each part with
    ``lstat`` so that no symlink is followed (a nested store's files, say)."""
    current = root
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            return False
        current = os.path.join(current, part)
        try:
            mode = os.lstat(current).st_mode
        except (OSError, ValueError):
            return False
        if stat.S_ISLNK(mode):
            return True
    return True


def indexed_memories(store: Store) -> set[int]:
    """``id()`` of every memory some index entry reaches (also case-insensitively)."""
    if store.index is None:
        return set()
    found: set[int] = set()
    for entry in store.index.entries:
        memory = resolve(store, entry).memory or named_target(store, entry)
        if memory is not None:
            found.add(id(memory))
    return found


def named_target(store: Store, entry: IndexEntry) -> Memory | None:
    """The one memory whose ``name`` is the missing target's stem (the index used
    the name as a filename), if exactly one carries it."""
    resolution = resolve(store, entry)
    if resolution.kind != "missing":
        return None
    named = store.by_name.get(posixpath.basename(resolution.rel)[:-3], [])
    return named[0] if len(named) == 1 else None


def one_line(text: str) -> str:
    return WHITESPACE.sub(" ", text).strip()


def link_title(text: str) -> str:
    """``text`` made safe as Markdown link text (one line, brackets escaped)."""
    return re.sub(r"([\\\[\]])", r"\\\1", one_line(text))


def link_href(rel: str) -> str:
    """``rel`` made safe as a link destination (characters the parser would split on
    encoded; ``./`` before a name that would read as a URL scheme, ``co:lon.md``)."""
    href = HREF_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), rel)
    return "./" + href if SCHEME.match(href) else href


def entry_line(memory: Memory) -> str:
    """``- [name](rel.md) — description`` for ``memory`` (no line break)."""
    title = link_title((memory.name or "").strip() or memory.stem) or link_title(memory.stem)
    line = f"- [{title}]({link_href(memory.file.rel)})"
    description = one_line(memory.description or "")
    return f"{line} — {description}" if description else line


def append_edit(store: Store, lines: list[str]) -> Edit:
    """Append ``lines`` to the end of the index, in its newline style."""
    source = store.index.file
    text = source.text or ""
    newline = source.newline
    prefix = "" if not text or text.endswith("\n") else newline
    content = prefix + "".join(line + newline for line in lines)
    return source.edit(len(text), len(text), content)


def line_removal(store: Store, entry: IndexEntry) -> Edit:
    """Delete the entry's whole line, including its line break."""
    source = store.index.file
    text = source.text or ""
    end = text.find("\n", entry.line_end)
    end = len(text) if end == -1 else end + 1
    return source.edit(entry.line_start, end, "")
