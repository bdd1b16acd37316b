"""The compact facts a parsed memory is kept as (by the result cache, and sent back
by pool workers) and rebuilt from without parsing: plain tuples of its frontmatter
fields, body start, wikilinks, fingerprint and ASCII flag."""

from __future__ import annotations

import sys

from memlint.sources.document import SourceFile
from memlint.sources.frontmatter import Field, Frontmatter, FrontmatterProblem
from memlint.sources.markdown import WikiLink
from memlint.store import Memory, Parsed, Summary


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


def memory_facts(memory: Memory) -> tuple:
    links = tuple(
        (x.raw, x.target, x.heading, x.label, x.start, x.end, x.target_start, x.target_end)
        for x in memory.links
    )
    fingerprint = memory._fingerprint if memory.has_fingerprint else None
    return (
        frontmatter_facts(memory.frontmatter),
        memory.body_start,
        links,
        fingerprint,
        memory.plain_ascii,
    )


def rebuild_parsed(facts: tuple) -> Parsed:
    """The parsed values of ``memory_facts``; raises if they are malformed."""
    frontmatter, body_start, links, _, plain = facts
    return Parsed(
        rebuild_frontmatter(frontmatter),
        body_start,
        [WikiLink(*link) for link in links],
        plain,
    )


def rebuild_memory(source: SourceFile, facts: tuple, summary: Summary | None = None) -> Memory:
    """A ``Memory`` from ``memory_facts``; raises if they are malformed."""
    stem = source.rel.rsplit("/", 1)[-1][:-3]
    return Memory(source, stem, rebuild_parsed(facts), summary=summary, fingerprint=facts[3])


def summary_facts(summary: Summary) -> tuple:
    return (
        summary.name,
        summary.description,
        summary.has_frontmatter,
        summary.link_targets,
        summary.signals,
        summary.plain_ascii,
        summary.memory_type,
    )
