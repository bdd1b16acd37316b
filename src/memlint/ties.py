"""Which files an edit of some memories can change the findings of: the ties the
cross-file rules make between memories (shared names and stems, links, supersession,
near-duplicate buckets, the index's reading of a memory). The language server re-lints
only the files tied to an edited buffer; ``engine`` re-runs the rules only on the files
tied to the memories changed since the last whole-store result it saved."""

from __future__ import annotations

import os
from bisect import bisect_right
from collections import Counter
from itertools import chain, compress, repeat
from operator import attrgetter, itemgetter

from memlint.discovery import INDEX_NAME
from memlint.store import Memory, Store, fold, fold_all

NEAR_DUPLICATE = "DU001"  # the rule whose pairs an edit changes through fingerprints
# The index rules read of a memory only ``index_facts`` (and the store's file set): their
# findings, on the index and on memory files alike (IX002's fix puts each missing entry
# by every memory's type), stand while no edit changes those, and all change when one does.
INDEX_FAMILY = "IX"


def near_duplicate_minimum(rules, settings) -> int | None:
    """DU001's ``min-shingles`` when it is among ``rules`` (``engine.Rule``), else ``None``."""
    for rule in rules:
        if rule.code == NEAR_DUPLICATE:
            options = {**rule.meta.defaults(), **settings.options_for(NEAR_DUPLICATE)}
            return int(options["min-shingles"])
    return None


class Ties:
    """How the memories of a kept store are tied to each other by the cross-file rules,
    by path, kept current as memories are edited: the folded names and stems each one
    goes by, the folded targets it links or supersedes into, and (when DU001 runs, with
    ``min_shingles`` its option) the LSH bands of its fingerprint, one column per band
    in store order. An edit re-lints the files tied to the edited memory before or
    after it (:meth:`scope`) instead of the whole store."""

    def __init__(self, store: Store, min_shingles: int | None) -> None:
        self.keys: dict[str, set[str]] = {}  # folded name or stem -> paths
        self.targets: dict[str, set[str]] = {}  # folded link target -> linking paths
        self.successors: dict[str, int] = {}  # folded supersession target -> count
        self.index = os.path.join(store.root, INDEX_NAME)
        self.paths = [memory.file.path for memory in store.memories]
        self.position = {path: at for at, path in enumerate(self.paths)}
        self.bands = None if min_shingles is None else BandColumns(store.memories, min_shingles)
        for memory in store.memories:
            self._add(memory)

    def memory_at(self, store: Store, path: str) -> Memory | None:
        """The memory at ``path`` (the store keeps its memories' order across edits)."""
        at = self.position.get(path)
        memory = store.memories[at] if at is not None else None
        return memory if memory is not None and memory.file.path == path else None

    def _entries(self, memory: Memory):
        return entries(memory)

    def _add(self, memory: Memory, sign: int = 1) -> None:
        path = memory.file.path
        keys, targets, successor = self._entries(memory)
        for table, values in ((self.keys, keys), (self.targets, targets)):
            for value in values:
                paths = table.setdefault(value, set())
                if sign > 0:
                    paths.add(path)
                else:
                    paths.discard(path)
        if successor is not None:
            folded = fold(successor)
            self.successors[folded] = self.successors.get(folded, 0) + sign

    def scope(self, pairs: list[tuple[Memory, Memory]]) -> set[str] | None:
        """The files whose findings an edit of each ``old`` memory to ``new`` can
        change: the memories tied to it before or after, and the index when what its
        rules read of the memory changed. The cross-file rules tie no note file or
        other file to a memory, so every other file keeps its findings. The ties are
        updated. ``None`` when that may be every file: an edited memory is on a
        supersession chain (whose ends and cycles reach past the memories next to it)."""
        found = self.tied(pairs)
        return None if found is None else found[0] | found[1]

    def tied(self, pairs: list[tuple[Memory, Memory]]) -> tuple[set[str], set[str]] | None:
        """:meth:`scope` in two parts: the edited memories and the files tied to them by
        every cross-file rule but DU001, and the edited memories and those whose DU001
        findings they can change."""
        scope: set[str] = set()
        near = {old.file.path for old, _ in pairs}
        whole = False
        edited = {self.position[old.file.path] for old, _ in pairs}
        for old, new in pairs:
            scope.add(old.file.path)
            for memory in (old, new):
                keys, targets, successor = self._entries(memory)
                if successor is not None or any(self.successors.get(k) for k in keys):
                    whole = True
                for key in keys:
                    scope |= self.keys.get(key, set()) | self.targets.get(key, set())
                for target in targets:
                    scope |= self.keys.get(target, set())
            if self.bands is not None:
                at = self.position[old.file.path]
                for memory in (old, new):
                    near.update(self.paths[i] for i in self.bands.followers(at, memory, edited))
                self.bands.put(at, new)
            if index_facts(old) != index_facts(new):
                scope.add(self.index)
            self._add(old, -1)
            self._add(new)
        return None if whole else (scope, near)


class BandColumns:
    """The LSH bands of the memories' fingerprints (DU001), one column of band values
    per band in store order; a memory with fewer than ``min_shingles`` shingles is in
    no bucket (DU001 compares none), so its bands are empty here. The members whose
    candidate pairs a memory can change are found with a byte search."""

    def __init__(self, memories: list[Memory], min_shingles: int) -> None:
        from memlint.similarity import BAND_BYTES

        self.width = BAND_BYTES
        self.minimum = min_shingles
        signatures = [self._signature(memory) for memory in memories]
        count = len(signatures[0]) // BAND_BYTES if signatures else 0
        self.columns = [
            bytearray(b"".join(map(itemgetter(slice(at, at + BAND_BYTES)), signatures)))
            for at in range(0, count * BAND_BYTES, BAND_BYTES)
        ]

    def _signature(self, memory: Memory) -> bytes:
        from memlint.similarity import EMPTY_VALUE, SIGNATURE_SIZE

        count, signature = memory.fingerprint
        return signature if count >= self.minimum else EMPTY_VALUE * SIGNATURE_SIZE

    def put(self, at: int, memory: Memory) -> None:
        signature, width = self._signature(memory), self.width
        for band, column in enumerate(self.columns):
            column[at * width : (at + 1) * width] = signature[band * width : (band + 1) * width]

    def followers(self, at: int, memory: Memory, edited: set[int]) -> set[int]:
        """The positions whose DU001 findings ``memory``, at position ``at``, can change:
        a bucket pairs each member with the ``NEIGHBOURS`` members before it
        (``similarity.candidate_pairs``), so in each bucket ``memory`` falls in, the
        next ``NEIGHBOURS`` members after it, counting only members not ``edited`` (the
        other edited memories are tied anyway, and may enter or leave the bucket)."""
        from memlint.similarity import EMPTY_BAND, NEIGHBOURS

        signature, width = self._signature(memory), self.width
        found: set[int] = set()
        for band, column in enumerate(self.columns):
            value = signature[band * width : (band + 1) * width]
            if value == EMPTY_BAND:
                continue
            counted = 0
            hit = column.find(value, (at + 1) * width)
            while hit != -1 and counted < NEIGHBOURS:
                if hit % width == 0:
                    found.add(hit // width)
                    counted += hit // width not in edited
                hit = column.find(value, hit + 1)
        return found


def index_facts(memory: Memory) -> tuple:
    """What the index rules read of a memory."""
    return (memory.name, memory.description, memory.memory_type, memory.is_document)


def edit_ties(
    store: Store, pairs: list[tuple[Memory, Memory]], min_shingles: int | None
) -> tuple[set[str], set[str]] | None:
    """:meth:`Ties.tied` for ``store`` holding the ``new`` memories already, in one pass
    over its memories and no tables kept (``engine`` asks once per run)."""
    keys: set[str] = set()
    targets: set[str] = set()
    scope: set[str] = set()
    for old, new in pairs:
        scope.add(old.file.path)
        for memory in (old, new):
            own, theirs, successor = entries(memory)
            if successor is not None:
                return None
            keys |= own
            targets |= theirs
        if index_facts(old) != index_facts(new):
            scope.add(os.path.join(store.root, INDEX_NAME))
    named = keys | targets
    near = {old.file.path for old, _ in pairs}
    memories = store.memories
    paths = list(map(_FILE_PATH, memories))
    for table in (store.by_folded_stem, store.by_folded_name):  # (the rules' tables)
        for key in named & table.keys():
            scope.update(map(_FILE_PATH, table[key]))
    links = list(map(_LINK_TARGETS, memories))
    linking = chain.from_iterable(map(repeat, paths, map(len, links)))
    folded = fold_all(list(chain.from_iterable(links)))
    scope.update(compress(linking, map(keys.__contains__, folded)))
    descriptions = map(_DESCRIPTION, memories)
    for memory in compress(memories, map(_may_link, descriptions)):  # `superseded by [[…]]`
        successor = memory.successor_target
        if successor is not None and fold(successor) in keys:
            return None  # a supersession chain reaches it
    if min_shingles is not None:
        hits = list(map(near.__contains__, paths))
        edited = dict(zip(compress(paths, hits), compress(range(len(paths)), hits), strict=True))
        edits = [(edited[old.file.path], old, new) for old, new in pairs]
        near.update(memories[i].file.path for i in near_followers(memories, min_shingles, edits))
    return scope, near


_FILE_PATH = attrgetter("file.path")
_LINK_TARGETS = attrgetter("link_targets")
_DESCRIPTION = attrgetter("description")
_FINGERPRINT = attrgetter("fingerprint")


def _may_link(description: str | None) -> bool:
    return description is not None and "[[" in description


def near_followers(
    memories: list[Memory], min_shingles: int, edits: list[tuple[int, Memory, Memory]]
) -> set[int]:
    """The positions whose DU001 findings ``edits`` can change (each ``(position, old
    memory, new memory)``; ``memories`` hold the new ones), in one pass per band over the
    band values the edits hold (a run asks once: no columns are built). A bucket pairs
    each member with the ``NEIGHBOURS`` members before it (``similarity.candidate_pairs``),
    so an edited memory moves the windows after it only in a band whose value it changed:
    there the followers of its old and its new value count (``BandColumns.followers``).
    Elsewhere its text changes the verified similarity of the pairs it is in, with the
    members it follows in at least ``MIN_SHARED_BANDS`` bands, before or after the edit."""
    from memlint.similarity import (
        BAND_BYTES,
        EMPTY_BAND,
        EMPTY_VALUE,
        MIN_SHARED_BANDS,
        SIGNATURE_SIZE,
    )

    empty = EMPTY_VALUE * SIGNATURE_SIZE

    def signature(memory: Memory) -> bytes:
        count, value = memory.fingerprint
        return value if count >= min_shingles else empty

    fingerprints = map(_FINGERPRINT, memories)
    signatures = [value if count >= min_shingles else empty for count, value in fingerprints]
    edited = {at for at, _, _ in edits}
    wanted = [(at, signature(old), signature(new)) for at, old, new in edits]
    found: set[int] = set()
    followed: list[Counter] = [Counter(), Counter()]  # (edited, follower) -> bands, before/after
    for start in range(0, len(empty), BAND_BYTES):
        cut = slice(start, start + BAND_BYTES)
        values = {value[cut] for _, old, new in wanted for value in (old, new)} - {EMPTY_BAND}
        if not values:
            continue
        buckets: dict[bytes, list[int]] = {value: [] for value in values}
        keys = list(map(itemgetter(cut), signatures))
        for position in compress(range(len(keys)), map(values.__contains__, keys)):
            buckets[keys[position]].append(position)
        for at, old, new in wanted:
            before = _followers(buckets.get(old[cut]), at, edited)
            after = _followers(buckets.get(new[cut]), at, edited)
            if old[cut] != new[cut]:
                found.update(before, after)
            if before:
                followed[0].update(zip(repeat(at), before))
            if after:
                followed[1].update(zip(repeat(at), after))
    for counted in followed:
        found.update(member for (_, member), bands in counted.items() if bands >= MIN_SHARED_BANDS)
    return found


def _followers(members: list[int] | None, at: int, edited: set[int]) -> list[int]:
    """The members of a bucket (positions, in order) after position ``at`` up to the
    ``NEIGHBOURS``-th one not ``edited``."""
    from memlint.similarity import NEIGHBOURS

    found: list[int] = []
    if not members or members[-1] <= at:  # (most buckets: the member alone, or none)
        return found
    counted = 0
    for member in members[bisect_right(members, at) :]:
        if counted >= NEIGHBOURS:
            break
        found.append(member)
        counted += member not in edited
    return found


def entries(memory: Memory) -> tuple[set[str], set[str], str | None]:
    """The folded names and stems ``memory`` goes by, the folded targets it links or
    supersedes into, and its successor's target."""
    keys = memory_keys(memory)
    targets = {fold(t) for t in memory.link_targets}
    successor = memory.successor_target
    if successor is not None:
        targets.add(fold(successor))
    return keys, targets, successor


def memory_keys(memory: Memory) -> set[str]:
    keys = {fold(memory.stem)}
    if memory.name:
        keys.add(fold(memory.name.strip()))
    return keys
