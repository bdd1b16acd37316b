"""From a file to a ``Memory`` or ``Index`` (parsed once), and the compact facts
a ``Memory`` is rebuilt from without parsing (sent back by pool workers, kept
in the cache)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from memlint.cache import StoreCache, source_digest
from memlint.parallel import Batch, Shards, pool_size
from memlint.similarity import fingerprint
from memlint.sources.document import Known, SourceFile
from memlint.sources.frontmatter import Field, Frontmatter, FrontmatterProblem, parse_frontmatter
from memlint.sources.index import parse_index
from memlint.sources.markdown import WikiLink, scan_wikilinks
from memlint.store import Index, Memory
from memlint.suppression import DIRECTIVE_MARK
from memlint.textutil import plain_ascii


def load_memory(source: SourceFile) -> Memory:
    """Parse one memory file: frontmatter, body start and body wikilinks."""
    stem = source.rel.rsplit("/", 1)[-1][:-3]
    text = source.text or ""
    frontmatter = parse_frontmatter(text)
    body_start = frontmatter.end if frontmatter is not None else 0
    links = scan_wikilinks(text, body_start) if "[[" in text else []
    memory = Memory(source, stem, frontmatter, body_start, links, plain_ascii=plain_ascii(text))
    memory.fingerprint = fingerprint(memory.similarity_text)
    return memory


def load_index(source: SourceFile) -> Index:
    text = source.text or ""
    frontmatter = parse_frontmatter(text)
    body_start = frontmatter.end if frontmatter is not None else 0
    entries = parse_index(text, body_start, source.line_starts) if "](" in text else []
    return Index(source, frontmatter, body_start, entries)


class ShardedMemories:
    """Memory files read and parsed by forked workers that keep them (``Shards``).

    This process gets each file's digest, suppression mark and parse facts,
    never its text (read here only if a rule or renderer asks); the local
    rules later run in the worker holding the file (``run``). At 100,000
    files that keeps about 100 MB of text out of this process, and reading
    is spread over the workers.
    """

    def __init__(
        self, sources: list[SourceFile], workers: int, max_bytes: int, keep_facts: bool
    ) -> None:
        """``sources``: deferred (unread) memory files; ``keep_facts``: keep the facts
        of each memory (for the cache) besides the ``Memory`` rebuilt from them."""
        self.sources = sources
        self._max_bytes = max_bytes
        self._keep_facts = keep_facts
        self._items = {id(source): item for item, source in enumerate(sources)}
        self._memories: dict[int, tuple[Memory, tuple | None]] = {}
        self._shards = Shards(len(sources), workers, self._first)

    def _first(self, item: int) -> tuple:
        """Read and parse one file: ``(digest, has directive, facts)`` or ``None``
        when it is unreadable, and what the worker keeps of it."""
        source = self.sources[item]
        source.read_now(self._max_bytes)
        text = source.text
        if text is None:
            return None, (source, None)
        found = (source_digest(source), DIRECTIVE_MARK in text)
        source.raw = b""
        memory = load_memory(source)
        facts = memory_facts(memory)
        memory.fingerprint = None  # only the cross-file rules, run elsewhere, use it
        return (*found, facts), (source, memory)

    def read(self) -> None:
        """Stage one: take in every file's results as they arrive. A readable file
        becomes known (digest, suppression mark) and its ``Memory`` is rebuilt from
        the facts (each dropped once used unless kept); an unreadable one is read
        here, to learn why."""
        keep = self._keep_facts
        for source, found in zip(self.sources, self._shards.first_results(), strict=True):
            if found is None:
                source.read_now(self._max_bytes)
                continue
            digest, has_directive, facts = found
            source.known = Known(digest, has_directive)
            memory = rebuild_memory(source, facts)
            self._memories[id(source)] = (memory, facts if keep else None)

    def memory(self, source: SourceFile) -> tuple[Memory, tuple | None] | None:
        """The memory rebuilt for ``source`` and its facts if kept (handed out once)."""
        return self._memories.pop(id(source), None)

    def holds(self, source: SourceFile) -> bool:
        return id(source) in self._items

    def run(self, sources: list[SourceFile], job, params, here) -> Iterator:
        """``job((source, memory), params)`` on each of ``sources`` (in order), in the
        worker holding it; ``here(source)`` gives this process's pair when the
        worker died. The workers end after this."""
        items = [self._items[id(source)] for source in sources]
        return self._shards.ask(items, job, params, lambda item: here(self.sources[item]))

    def close(self) -> None:
        self._shards.close()


def load_memories(
    sources: list[SourceFile],
    cache: StoreCache | None = None,
    jobs: int | None = None,
    sharded: ShardedMemories | None = None,
) -> list[Memory]:
    """The memories of ``sources`` (each readable): rebuilt from the facts ``sharded``
    workers sent, else from ``cache`` where it has them, else parsed (in a pool if large)."""
    memories: list[Memory | None] = [None] * len(sources)
    missing: list[int] = []
    for position, source in enumerate(sources):
        rebuilt = sharded.memory(source) if sharded is not None else None
        if rebuilt is not None:
            memories[position], facts = rebuilt
            if cache is not None:
                cache.remember_memory_facts(source, facts)
            continue
        facts = cache.memory_facts(source) if cache is not None else None
        if facts is None:
            missing.append(position)
        else:
            memories[position] = rebuild_memory(source, facts)
    if len(missing) < 2 or pool_size(len(missing), jobs) == 1:
        for position in missing:
            memory = memories[position] = load_memory(sources[position])
            if cache is not None:
                cache.remember_memory_facts(sources[position], memory_facts(memory))
        return memories
    batch = Batch(lambda i: memory_facts(load_memory(sources[missing[i]])), len(missing), jobs)
    for position, facts in zip(missing, batch.results(), strict=True):
        memories[position] = rebuild_memory(sources[position], facts)
        if cache is not None:
            cache.remember_memory_facts(sources[position], facts)
    return memories


def _field_tuple(found: Field) -> tuple:
    children = found.children
    return (
        found.key,
        found.value,
        found.key_start,
        found.value_start,
        found.value_end,
        found.style,
        found.flow,
        None if children is None else tuple(_field_tuple(c) for c in children.values()),
    )


SHARED_LENGTH = 24  # field values up to this long are interned (types, tags, flags)


def _shared(value):
    """``value`` with its keys and short strings interned: every memory has the same
    few keys and many the same short values, each unpickled as its own copy."""
    kind = type(value)
    if kind is str:
        return sys.intern(value) if len(value) <= SHARED_LENGTH else value
    if kind is list:
        return [_shared(item) if type(item) is str else item for item in value]
    if kind is dict:
        return {_shared(k) if type(k) is str else k: v for k, v in value.items()}
    return value


def _field(data: tuple) -> Field:
    key, value, key_start, value_start, value_end, style, flow, children = data
    return Field(
        _shared(key),
        _shared(value),
        key_start,
        value_start,
        value_end,
        style,
        flow,
        None if children is None else {c[0]: _field(c) for c in children},
    )


def frontmatter_facts(fm: Frontmatter | None) -> tuple | None:
    if fm is None:
        return None
    return (
        fm.start,
        fm.content_start,
        fm.content_end,
        fm.end,
        tuple(_field_tuple(f) for f in fm.fields.values()),
        tuple((p.kind, p.message, p.offset) for p in fm.problems),
        tuple(sorted(fm.duplicate_keys)),
        fm.parsed,
    )


NO_DUPLICATES: frozenset[str] = frozenset()  # shared: an empty set takes 216 bytes


def rebuild_frontmatter(data: tuple | None) -> Frontmatter | None:
    if data is None:
        return None
    start, content_start, content_end, end, fields, problems, duplicates, parsed = data
    return Frontmatter(
        start,
        content_start,
        content_end,
        end,
        {f[0]: _field(f) for f in fields},
        [FrontmatterProblem(*p) for p in problems],
        set(duplicates) if duplicates else NO_DUPLICATES,
        parsed,
    )


def memory_facts(memory) -> tuple:
    links = tuple(
        (x.raw, x.target, x.heading, x.label, x.start, x.end, x.target_start, x.target_end)
        for x in memory.links
    )
    fingerprint = memory.fingerprint
    return (
        frontmatter_facts(memory.frontmatter),
        memory.body_start,
        links,
        fingerprint,
        memory.plain_ascii,
    )


def rebuild_memory(source: SourceFile, facts: tuple) -> Memory:
    frontmatter, body_start, links, fingerprint, plain = facts
    stem = source.rel.rsplit("/", 1)[-1][:-3]
    return Memory(
        source,
        stem,
        rebuild_frontmatter(frontmatter),
        body_start,
        [WikiLink(*link) for link in links],
        fingerprint,
        plain,
    )
