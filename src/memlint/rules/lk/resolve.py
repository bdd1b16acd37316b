"""Wikilink resolution, shared by the LK and SU rules (dict lookups only).

A target resolves by ``name`` (exact, after trimming); a match that needs
case or Unicode folding is reported, never silently accepted; a target that
only equals a filename stem stays pending.
"""

from __future__ import annotations

import re
import weakref
from functools import lru_cache

from memlint.records import dataclass
from memlint.store import fold

URL = re.compile(  # case-insensitive only where it must be: 5 ms less to compile at start-up
    r"[A-Za-z][A-Za-z0-9+.-]{0,30}://|[A-Za-z]:(?:$|[\\/])|(?i:mailto|file|data|javascript):"
)
_CHAINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_RESOLVED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LINKS_TO: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@dataclass(frozen=True, slots=True)
class Resolution:
    """``kind``: exact, folded, ambiguous, ambiguous-folded, stem or none."""

    kind: str
    memories: tuple = ()

    @property
    def memory(self):
        return self.memories[0] if len(self.memories) == 1 else None


def resolve(store, target: str) -> Resolution:
    """How ``target`` resolves in ``store`` (each distinct target looked up once per store,
    shared by every LK and SU rule)."""
    table = _RESOLVED.get(store)
    if table is None:
        table = _RESOLVED[store] = {}
    found = table.get(target)
    if found is None:
        found = table[target] = _resolve(store, target)
    return found


def _resolve(store, target: str) -> Resolution:
    exact = store.by_name.get(target)
    if exact:
        return Resolution("exact" if len(exact) == 1 else "ambiguous", tuple(exact))
    folded = store.by_folded_name.get(fold(target))
    if folded:
        return Resolution("folded" if len(folded) == 1 else "ambiguous-folded", tuple(folded))
    by_stem = store.by_stem.get(target)
    if by_stem:
        return Resolution("stem", tuple(by_stem))
    return Resolution("none")


@lru_cache(maxsize=4096)
def invalid_reason(target: str) -> str | None:
    """Why ``target`` cannot be a memory name (a path or a URL), or ``None``."""
    if URL.match(target):
        return "looks like a URL or drive letter"
    if "/" in target or "\\" in target:
        return "contains a path separator"
    if not target.strip("."):
        return "is a relative path (`..`)"
    return None


def successor(store, memory):
    """The memory that ``memory``'s supersession resolves to (by exact name), if unique."""
    link = memory.supersession
    if link is None:
        return None
    found = resolve(store, link.target)
    return found.memory if found.kind == "exact" else None


def chain_ends(store) -> tuple[dict, set]:
    """``compute_chain_ends`` once per store."""
    found = _CHAINS.get(store)
    if found is None:
        found = _CHAINS[store] = compute_chain_ends(store)
    return found


def compute_chain_ends(store) -> tuple[dict, set]:
    """For every superseded memory, the end of its chain of successors (``None`` when
    the chain breaks or loops), and the set of memories on a supersession cycle.

    Each memory is walked once: linear in the store size.
    """
    ends: dict = {}
    on_cycle: set = set()
    for start in store.memories:
        if start.supersession is None or start in ends:
            continue
        path: list = []
        index: dict = {}
        current = start
        result = None
        while True:
            if current in ends:
                result = ends[current]
                break
            if current in index:
                on_cycle.update(path[index[current] :])
                result = None
                break
            if current.supersession is None:
                result = current
                break
            index[current] = len(path)
            path.append(current)
            following = successor(store, current)
            if following is None or following is current:
                result = None
                break
            current = following
        for member in path:
            ends[member] = result
    return ends, on_cycle


def links_to(store, memory) -> list:
    """``(source, link)`` for every wikilink (body, ``superseded by``, index) that
    resolves to ``memory`` by its name, exactly or after folding (all links of the
    store are resolved once, on the first call)."""
    table = _LINKS_TO.get(store)
    if table is None:
        table = _LINKS_TO[store] = _links_by_memory(store)
    return table.get(id(memory), [])


def _links_by_memory(store) -> dict[int, list]:
    table: dict[int, list] = {}

    def add(source, link) -> None:
        found = resolve(store, link.target)
        if found.kind in ("exact", "folded") and found.memory is not None:
            table.setdefault(id(found.memory), []).append((source, link))

    for other in store.memories:
        for link in other.links:
            add(other.file, link)
        if other.supersession is not None:
            add(other.file, other.supersession.link)
    index = store.index
    if index is not None and "[[" in (index.file.text or ""):
        from memlint.sources.markdown import scan_wikilinks

        for link in scan_wikilinks(index.file.text, index.body_start):
            add(index.file, link)
    return table
