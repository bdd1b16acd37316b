"""``memlint mv OLD NEW``: rename a memory and every reference to it, in one transaction.

References updated: the index entry's href, every ``[[wikilink]]`` whose
target is exactly the old stem (or, in the ``linked`` profile, the old name;
``#heading`` and ``|label`` kept, links in code untouched), every
``superseded by [[...]]`` pointer, and, in the ``linked`` profile, the
memory's own ``name``. Nothing is written when any part cannot be done safely.
"""

from __future__ import annotations

import os
import posixpath
import re

from memlint import writer
from memlint.config import Settings
from memlint.diagnostics import Edit
from memlint.discovery import discover
from memlint.edits import FileChange, splice
from memlint.records import dataclass
from memlint.sources.document import SourceFile
from memlint.sources.frontmatter import parse_frontmatter
from memlint.sources.index import link_path
from memlint.sources.markdown import scan_wikilinks
from memlint.sources.yamledit import replace_scalar
from memlint.store import Memory, Store, fold

UNSAFE_STEM = re.compile(r"[\[\]|#\\/\"'`<>{}]|: |\s$|^\s|^\.|^-")
HREF_ESCAPES = {" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E", "%": "%25"}


class MoveError(Exception):
    """The rename is refused; nothing was written."""


@dataclass
class MovePlan:
    store: Store
    memory: Memory
    target: str
    changes: list[FileChange]
    references: int

    @property
    def source(self) -> str:
        return self.memory.file.path


def plan_move(old: str, new: str, settings: Settings, cwd: str) -> MovePlan:
    """Everything ``mv`` would change, checked; raises :class:`MoveError` when refused."""
    store, memory = _find_memory(old, settings, cwd)
    target = _target_path(new, memory, cwd)
    new_stem = os.path.basename(target)[:-3]
    _check_target(store, memory, target, new_stem)
    old_keys = {memory.stem}
    linked = store.profile == "linked"
    if linked and memory.name:
        old_keys.add(memory.name.strip())
    edits: dict[str, list[Edit]] = {}
    references = 0
    frontmatter = memory.frontmatter
    has_name = frontmatter is not None and "name" in frontmatter.fields
    if linked and has_name and memory.name != new_stem:
        edit = replace_scalar(memory.file, frontmatter, "name", new_stem)
        if isinstance(edit, str):
            raise MoveError(f"{memory.file.display}: cannot safely rewrite its `name`: {edit}")
        edits.setdefault(memory.file.path, []).append(edit)
    for other in store.memories:
        links = list(other.links)
        if other.supersession is not None:
            links.append(other.supersession.link)
        for link in links:
            if link.target in old_keys:
                edit = other.file.edit(link.target_start, link.target_end, new_stem)
                edits.setdefault(other.file.path, []).append(edit)
                references += 1
    if store.index is not None:
        references += _index_edits(store, memory, target, new_stem, old_keys, edits)
    sources = {s.path: s for s in store.files}
    changes = []
    for path, file_edits in sorted(edits.items()):
        source = sources[path]
        new_bytes = splice(source.raw, file_edits)
        _verify(source, new_bytes)
        changes.append(FileChange(path, source.display, source.raw, new_bytes))
    if memory.file.path not in edits:
        raw = memory.file.raw
        changes.insert(0, FileChange(memory.file.path, memory.file.display, raw, raw))
    return MovePlan(store, memory, target, changes, references)


def commit_move(plan: MovePlan) -> None:
    """Rename the file and write every edited file, all or nothing."""
    ordered = sorted(plan.changes, key=lambda change: change.path != plan.source)
    writer.commit(
        plan.store.root,
        [
            writer.Change(
                c.path, c.old, c.new, rename_to=plan.target if c.path == plan.source else None
            )
            for c in ordered
        ],
    )


def _find_memory(old: str, settings: Settings, cwd: str) -> tuple[Store, Memory]:
    path = os.path.normpath(os.path.join(cwd, old))
    if os.path.lexists(path):
        for store in discover([path], settings, cwd=cwd):
            for memory in store.memories:
                if memory.file.path == path:
                    return store, memory
        raise MoveError(f"{old}: not a memory file of a store")
    matches = [
        (store, memory)
        for store in discover(["."], settings, cwd=cwd)
        for memory in store.memories
        if memory.stem == old or (memory.name or "").strip() == old
    ]
    if not matches:
        raise MoveError(f"no memory named {old!r} (give its path instead)")
    if len(matches) > 1:
        where = ", ".join(memory.file.display for _, memory in matches[:5])
        raise MoveError(f"{old!r} names {len(matches)} memories ({where}); give a path")
    return matches[0]


def _target_path(new: str, memory: Memory, cwd: str) -> str:
    if new.endswith(writer.NOTES_SUFFIX):
        raise MoveError(f"{new}: memories are Markdown files; note stores are never renamed")
    if "/" in new or os.sep in new or new.endswith(".md"):
        target = os.path.normpath(os.path.join(cwd, new))
        return target if target.endswith(".md") else target + ".md"
    return os.path.join(os.path.dirname(memory.file.path), new + ".md")


def _check_target(store: Store, memory: Memory, target: str, new_stem: str) -> None:
    if not new_stem or len(new_stem) > 200 or UNSAFE_STEM.search(new_stem):
        raise MoveError(f"{new_stem!r} is not a safe memory name")
    if not new_stem.isprintable():
        raise MoveError(f"{new_stem!r} contains control or invisible characters")
    if target == memory.file.path:
        raise MoveError("the old and the new path are the same")
    if not os.path.isdir(os.path.dirname(target)):
        raise MoveError(f"{os.path.dirname(target)}: no such directory")
    if not writer.inside(store.root, target) or os.path.basename(target) == "MEMORY.md":
        raise MoveError(f"{target}: not a memory path inside the store {store.display_root}")
    try:
        writer.ensure_absent(target, allow=memory.file.path)
    except writer.WriteError as exc:
        raise MoveError(f"{exc.path}: {exc.reason}") from None
    key = fold(new_stem)
    for other in store.memories:
        if other is memory:
            continue
        if fold(other.stem) == key:
            raise MoveError(f"{other.file.display} already uses the stem {new_stem!r}")
        if store.profile == "linked" and fold((other.name or "").strip()) == key:
            raise MoveError(f"{other.file.display} already uses the name {new_stem!r}")


def _index_edits(store, memory, target, new_stem, old_keys, edits) -> int:
    index = store.index
    count = 0
    new_rel = os.path.relpath(target, store.root).replace(os.sep, "/")
    for entry in index.entries:
        if posixpath.normpath(entry.target) != memory.file.rel:
            continue
        suffix = entry.href[len(entry.href.split("#", 1)[0].split("?", 1)[0]) :]
        text = index.file.text or ""
        in_brackets = text[entry.href_start - 1 : entry.href_start] == "<"
        href = new_rel if in_brackets else "".join(HREF_ESCAPES.get(c, c) for c in new_rel)
        if link_path(href + suffix) != new_rel:
            raise MoveError(f"{new_rel!r} cannot be written as an index link")
        edits.setdefault(index.file.path, []).append(
            index.file.edit(entry.href_start, entry.href_end, href + suffix)
        )
        count += 1
    for link in scan_wikilinks(index.file.text or "", index.body_start):
        if link.target in old_keys:
            edits.setdefault(index.file.path, []).append(
                index.file.edit(link.target_start, link.target_end, new_stem)
            )
            count += 1
    return count


def _verify(source: SourceFile, new_bytes: bytes) -> None:
    """The edited file still decodes, and its frontmatter keys and health are unchanged."""
    try:
        text = new_bytes.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise MoveError(f"{source.display}: the edit would break its UTF-8") from None
    before = parse_frontmatter(source.text or "")
    after = parse_frontmatter(text)
    if (before is None) != (after is None):
        raise MoveError(f"{source.display}: the edit would change its frontmatter block")
    if before is None or after is None:
        return
    if len(after.problems) > len(before.problems) or set(after.fields) != set(before.fields):
        raise MoveError(f"{source.display}: the edit would break its frontmatter")


def display_path(path: str, cwd: str) -> str:
    """``path`` as shown: relative to ``cwd`` when below it."""
    inside_cwd = path.startswith(cwd.rstrip(os.sep) + os.sep)
    return (os.path.relpath(path, cwd) if inside_cwd else path).replace(os.sep, "/")
