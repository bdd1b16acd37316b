"""Wikilink resolution, shared by the LK and SU rules (dict lookups only).

A target resolves by ``name`` (exact, after trimming); a match that needs
case or Unicode folding is reported, never silently accepted; a target that
only equals a filename stem stays pending.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.store import Resolution

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


def successor(store, memory):
    """The memory that ``memory``'s supersession resolves to (``Store.successor``)."""
    return store.successor(memory)


def chain_ends(store) -> tuple[dict, set]:
    """Every superseded memory's chain end, and the memories on a cycle (``Store.chain_ends``)."""
    return store.chain_ends


def links_to(store, memory) -> list:
    """``(source, link)`` for every wikilink reaching ``memory`` (``Store.links_to``)."""
    return store.links_to(memory)
