"""From a file to a ``Memory`` or ``Index`` (parsed once), and the compact facts
a ``Memory`` is rebuilt from without parsing (sent back by pool workers, kept
in the cache)."""

from __future__ import annotations

import sys

from memlint.cache import StoreCache
from memlint.parallel import Batch, pool_size
from memlint.sources.document import SourceFile
from memlint.sources.frontmatter import Field, Frontmatter, FrontmatterProblem, parse_frontmatter
from memlint.sources.index import parse_index
from memlint.sources.markdown import WikiLink, scan_wikilinks
from memlint.store import Index, Memory
from memlint.textutil import plain_ascii


def load_memory(source: SourceFile, fingerprint: bool = True) -> Memory:
    """Parse one memory file: frontmatter, body start and body wikilinks; and its
    near-duplicate fingerprint unless ``fingerprint`` is false (DU001 does not run)."""
    stem = source.rel.rsplit("/", 1)[-1][:-3]
    text = source.text or ""
    frontmatter = parse_frontmatter(text)
    body_start = frontmatter.end if frontmatter is not None else 0
    links = scan_wikilinks(text, body_start) if "[[" in text else []
    memory = Memory(source, stem, frontmatter, body_start, links, plain_ascii=plain_ascii(text))
    if frontmatter is not None and "[[" in text[:body_start]:
        memory.links = description_links(memory) + links
    if fingerprint:
        memory.fingerprint  # noqa: B018 (computed now: in the worker, and cached with the facts)
    return memory


def description_links(memory: Memory) -> list:
    """Wikilinks in the ``description`` (checked like body links), but for the
    successor of ``superseded by [[…]]``, which the SU rules check."""
    found = memory.frontmatter.fields.get("description")
    if found is None or not isinstance(found.value, str):
        return []
    successor = memory.supersession
    return [
        link
        for link in scan_wikilinks(memory.file.text or "", found.value_start, found.value_end)
        if successor is None or link.start != successor.link.start
    ]


def load_index(source: SourceFile) -> Index:
    text = source.text or ""
    frontmatter = parse_frontmatter(text)
    body_start = frontmatter.end if frontmatter is not None else 0
    entries = parse_index(text, body_start, source.line_starts) if "](" in text else []
    return Index(source, frontmatter, body_start, entries)


def load_memories(
    sources: list[SourceFile],
    cache: StoreCache | None = None,
    jobs: int | None = None,
    fingerprints: bool = True,
) -> list[Memory]:
    """The memories of ``sources`` (each readable), from ``cache`` where it has them;
    ``fingerprints``: compute near-duplicate fingerprints while parsing (else on use)."""
    memories: list[Memory | None] = [None] * len(sources)
    missing: list[int] = []
    for position, source in enumerate(sources):
        facts = cache.memory_facts(source) if cache is not None else None
        if facts is None:
            missing.append(position)
            continue
        try:
            memories[position] = rebuild_memory(source, facts)
        except Exception:  # facts planted or damaged in the cache: parse the file instead
            missing.append(position)
    if len(missing) < 2 or pool_size(len(missing), jobs) == 1:
        for position in missing:
            memory = memories[position] = load_memory(sources[position], fingerprints)
            if cache is not None:
                cache.remember_memory_facts(sources[position], memory_facts(memory))
        return memories
    batch = Batch(
        lambda i: memory_facts(load_memory(sources[missing[i]], fingerprints)), len(missing), jobs
    )
    for position, facts in zip(missing, batch.results(), strict=True):
        memories[position] = rebuild_memory(sources[position], facts, fields_now=True)
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
        sys.intern(key),  # a string: cached facts are shape-checked, pool facts are ours
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
    fingerprint = memory._fingerprint
    return (
        frontmatter_facts(memory.frontmatter),
        memory.body_start,
        links,
        fingerprint,
        memory.plain_ascii,
    )


def _well_formed(fields) -> bool:
    """Whether top-level frontmatter field facts have the shape ``_field_tuple`` gives
    them: ``Memory.value`` reads them unbuilt. Nested fields are read only by building
    them, and a build that fails falls back to parsing the file (``Memory.frontmatter``)."""
    return type(fields) is tuple and all(
        type(fact) is tuple and len(fact) == 8 and type(fact[0]) is str for fact in fields
    )


def rebuild_memory(source: SourceFile, facts: tuple, fields_now: bool = False) -> Memory:
    """A ``Memory`` from ``memory_facts``; raises if they are malformed. Its frontmatter
    fields are built on first use (``Memory.frontmatter``), or now with ``fields_now``:
    a pool's parse results, rebuilt while the workers parse, are used by every
    one-file rule, and built here they are built once, not in each rules worker."""
    frontmatter, body_start, links, fingerprint, plain = facts
    if fields_now:
        frontmatter = rebuild_frontmatter(frontmatter)
    elif frontmatter is not None and not (len(frontmatter) == 8 and _well_formed(frontmatter[4])):
        raise ValueError("malformed frontmatter facts")
    stem = source.rel.rsplit("/", 1)[-1][:-3]
    return Memory(
        source,
        stem,
        frontmatter,
        body_start,
        [WikiLink(*link) for link in links],
        fingerprint,
        plain,
    )
