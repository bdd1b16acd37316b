"""Wikilink resolution, shared by the LK and SU rules (dict lookups only).

A target resolves by ``name`` (exact, after trimming); a match that needs
case or Unicode folding is reported, never silently accepted; a target that
only equals a filename stem stays pending.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.store import Resolution

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from memlint.sources.markdown import WikiLink
    from memlint.store import Memory, Store

URL = re.compile(  # case-insensitive only where it must be: 5 ms less to compile at start-up
    r"[A-Za-z][A-Za-z0-9+.-]{0,30}://|[A-Za-z]:(?:$|[\\/])|(?i:mailto|file|data|javascript):"
)


def resolve(store, target: str) -> Resolution:
    """How ``target`` resolves in ``store`` (``Store.resolve``)."""
    return store.resolve(target)


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


def resolved_links(
    store: Store, memory: Memory, wanted: Callable[[Resolution], bool]
) -> Iterator[tuple[WikiLink, Resolution]]:
    """``(link, resolution)`` for each wikilink of ``memory`` whose target is a name
    (not a path or URL) and whose resolution ``wanted`` accepts. The targets are known
    from the memory's summary: it is loaded (for the links' positions) only when one
    of them is wanted."""
    if not any(map(wanted, _resolutions(store, memory))):
        return
    for link in memory.links:
        if link.target and not invalid_reason(link.target):
            found = store.resolve(link.target)
            if wanted(found):
                yield link, found


def _resolutions(store: Store, memory: Memory) -> tuple[Resolution, ...]:
    """The distinct resolutions of ``memory``'s name targets (each memory's looked up
    once per store: the LK rules all ask)."""
    table = store.derived(_no_resolutions)
    found = table.get(id(memory))
    if found is None:
        targets = {t for t in memory.link_targets if t and not invalid_reason(t)}
        found = table[id(memory)] = tuple({id(r): r for r in map(store.resolve, targets)}.values())
    return found


def _no_resolutions(store: Store) -> dict[int, tuple[Resolution, ...]]:
    return {}  # filled by _resolutions, one memory at a time


def successor(store, memory):
    """The memory that ``memory``'s supersession resolves to (``Store.successor``)."""
    return store.successor(memory)


def chain_ends(store) -> tuple[dict, set]:
    """Every superseded memory's chain end, and the memories on a cycle (``Store.chain_ends``)."""
    return store.chain_ends


def links_to(store, memory) -> list:
    """``(source, link)`` for every wikilink reaching ``memory`` (``Store.links_to``)."""
    return store.links_to(memory)
