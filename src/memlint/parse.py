"""From a file to a ``Memory`` or ``Index`` (parsed once); and the loader through
which a memory known to the result cache is built from its cached summary, its
parsed values loaded only when a rule asks for them."""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, is_, itemgetter

from memlint.detect import signals_of
from memlint.facts import memory_facts, rebuild_memory, rebuild_parsed, summary_facts
from memlint.parallel import Batch, pool_size
from memlint.sources.document import Known, SourceFile
from memlint.sources.frontmatter import parse_frontmatter
from memlint.sources.index import IndexEntry, parse_index
from memlint.sources.markdown import scan_wikilinks
from memlint.store import Index, Memory, Parsed, Summary
from memlint.suppression import DIRECTIVE_MARK
from memlint.textutil import plain_ascii

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from memlint.cache import StoreCache
    from memlint.engine import EarlyLocal


def parse_memory(source: SourceFile) -> Parsed:
    """Frontmatter, body start, wikilinks (body and description, but for the successor
    of ``superseded by [[…]]``, which the SU rules check) and the ASCII flag."""
    text = source.text or ""
    frontmatter = parse_frontmatter(text)
    body_start = frontmatter.end if frontmatter is not None else 0
    links = scan_wikilinks(text, body_start) if "[[" in text else []
    parsed = Parsed(frontmatter, body_start, links, plain_ascii(text))
    if frontmatter is not None and "[[" in text[:body_start]:
        parsed.links = description_links(source, parsed) + links
    return parsed


def load_memory(source: SourceFile, fingerprint: bool = True) -> Memory:
    """Parse one memory file, with its profile signals and, unless ``fingerprint`` is
    false (DU001 does not run), its near-duplicate fingerprint."""
    memory = Memory(source, source.rel.rsplit("/", 1)[-1][:-3], parse_memory(source))
    signals_of(memory)
    if fingerprint:
        memory.fingerprint  # noqa: B018 (computed now: in the worker, and cached with the facts)
    return memory


def description_links(source: SourceFile, parsed: Parsed) -> list:
    frontmatter = parsed.frontmatter
    found = frontmatter.fields.get("description") if frontmatter is not None else None
    if found is None or not isinstance(found.value, str):
        return []
    probe = Memory(source, "", parsed)
    successor = probe.supersession
    return [
        link
        for link in scan_wikilinks(source.text or "", found.value_start, found.value_end)
        if successor is None or link.start != successor.link.start
    ]


def load_index(source: SourceFile, cache: StoreCache | None = None) -> Index:
    """The parsed ``MEMORY.md``; its entries from ``cache`` while its content is unchanged."""
    text = source.text or ""
    frontmatter = parse_frontmatter(text)
    body_start = frontmatter.end if frontmatter is not None else 0
    known = cache.index_entries(source, body_start) if cache is not None else None
    if known is not None:
        cached = CachedEntries(known, source, body_start)
        return Index(source, frontmatter, body_start, cached=cached)
    entries = _parsed_entries(source, body_start)
    if cache is not None:
        columns = [[getattr(e, name) for e in entries] for name in IndexEntry.__match_args__]
        cache.remember_index_entries(source, body_start, columns)
    return Index(source, frontmatter, body_start, entries)


def _parsed_entries(source: SourceFile, body_start: int) -> list[IndexEntry]:
    text = source.text or ""
    return parse_index(text, body_start, source.line_starts) if "](" in text else []


class CachedEntries:
    """An index's entries from the result cache's columns (``column_at``: a field's
    position -> its column, ``None`` when malformed), each column loaded once, on
    first use; the index is parsed when one is malformed."""

    FIELDS = IndexEntry.__match_args__

    def __init__(self, column_at, source: SourceFile, body_start: int) -> None:
        self.column_at = column_at
        self.source = source
        self.body_start = body_start
        self.loaded: dict[int, list | None] = {}

    def column(self, field: str) -> list | None:
        at = self.FIELDS.index(field)
        if at not in self.loaded:
            self.loaded[at] = self.column_at(at)
        return self.loaded[at]

    def entries(self) -> list[IndexEntry]:
        columns = list(map(self.column, self.FIELDS))
        self.loaded.clear()  # (the entries hold these values now)
        if None in columns:
            return _parsed_entries(self.source, self.body_start)
        return list(map(tuple.__new__, repeat(IndexEntry), zip(*columns, strict=True)))


def cached_loader(cache: StoreCache):
    """Loads a memory's parsed values from ``cache``'s facts, else by parsing its file."""

    def load(memory: Memory) -> Parsed:
        facts = cache.memory_facts(memory.file)
        if facts is not None:
            try:
                return rebuild_parsed(facts)
            except Exception:  # facts planted or damaged in the cache: parse the file
                pass
        return parse_memory(memory.file)

    return load


def load_memories(
    sources: list[SourceFile],
    cache: StoreCache | None = None,
    jobs: int | None = None,
    fingerprints: bool = True,
    early: EarlyLocal | None = None,
) -> list[Memory]:
    """The memories of ``sources`` (each readable): from ``cache``'s summaries where it
    has them (their parsed values loaded on first use), else parsed;
    ``fingerprints``: compute near-duplicate fingerprints while parsing (else on use).
    With ``early``, a pool that parses also runs the one-file rules (see ``_one_pass``)."""
    memories: list[Memory | None] = [None] * len(sources)
    missing: list[int] = []
    if cache is not None:
        rows: list = cache.summaries(sources)
        missing = list(compress(range(len(rows)), map(is_, rows, repeat(None))))
        if len(missing) < len(rows):  # built in C-level passes, with a throwaway per missing
            for position in missing:  # (each is parsed: its memory costs little beside)
                rows[position] = _NO_ROW
            stems = [rel[rel.rfind("/") + 1 : -3] for rel in map(_REL, sources)]
            summaries, prints = map(itemgetter(1), rows), map(itemgetter(2), rows)
            loader = repeat(cached_loader(cache))
            memories = list(map(Memory.summarized, sources, stems, summaries, prints, loader))
            for position in missing:
                memories[position] = None
    else:
        missing = list(range(len(sources)))
    if len(missing) < 2 or pool_size(len(missing), jobs) == 1:
        for position in missing:
            if sources[position].text is None:  # deferred, and found unreadable
                continue
            memory = memories[position] = load_memory(sources[position], fingerprints)
            if cache is not None:
                summary = summary_facts(memory.summary)
                cache.remember_memory(sources[position], memory_facts(memory), summary)
        return _filled(memories)

    if early is not None:
        return _one_pass(sources, memories, missing, cache, jobs, fingerprints, early)

    def parse(i: int) -> tuple:
        memory = load_memory(sources[missing[i]], fingerprints)
        return memory_facts(memory), memory.summary

    batch = Batch(parse, len(missing), jobs)
    for position, (facts, summary) in zip(missing, batch.results(), strict=True):
        memories[position] = rebuild_memory(sources[position], facts, summary)
        if cache is not None:
            cache.remember_memory(sources[position], facts, summary_facts(summary))
    return _filled(memories)


_REL = attrgetter("rel")
_NO_ROW = (b"", Summary(None, None, False, (), -1, False, None), None)  # (see load_memories)

SAMPLE = 128  # memories parsed here to guess the store's profile before the pool starts


def _one_pass(
    sources: list[SourceFile],
    memories: list[Memory | None],
    missing: list[int],
    cache: StoreCache | None,
    jobs: int | None,
    fingerprints: bool,
    early: EarlyLocal,
) -> list[Memory]:
    """Parse the ``missing`` memories in a pool whose workers also run the one-file
    rules on each (``early.found``) and send back only compact facts: the summary, the
    fingerprint, the diagnostics (and the parse facts for the cache). Each memory is
    then loaded from the cache's facts, or parsed again, only if something asks for
    more; a file whose text was released (``SourceFile.release``) is read again, by a
    worker or here, only when its content is needed, and released after use. A file
    not read yet (a run without cache) is read first by its worker, which sends back
    what a later read here must find (``Known``); one it finds unreadable is read here."""
    from memlint.cache import text_digest  # (here: a run without the cache imports none)

    step = max(1, len(missing) // SAMPLE)
    sample = [sources[position] for position in missing[::step][:SAMPLE]]
    pending = [source.pending for source in sample]
    early.start([load_memory(source, False) for source in sample if source.text is not None])
    reports_on = early.store.reports_on

    def parse(i: int) -> tuple | None:
        source = sources[missing[i]]
        read = source.pending
        text = source.text
        if text is None:  # a file first read here, and unreadable: no memory
            return None
        known = None
        if source.known is None:  # first read here: what the main process checks later
            known = source.known = Known(text_digest(source), DIRECTIVE_MARK in text)
        memory = load_memory(source, fingerprints)
        found = early.check(source, memory) if reports_on(source.path) else None
        facts = memory_facts(memory) if cache is not None else None
        fingerprint = memory.fingerprint if memory.has_fingerprint else None
        _release(source, read)
        return summary_facts(memory.summary), fingerprint, facts, found, known

    loader = cached_loader(cache) if cache is not None else _parse_again
    for position, parsed in zip(missing, Batch(parse, len(missing), jobs).results(), strict=True):
        source = sources[position]
        if parsed is None:  # the worker could not read it: read here (its problem is kept)
            if source.text is not None:  # it changed meanwhile: a memory after all
                memories[position] = load_memory(source, fingerprints)
            continue
        summary, fingerprint, facts, found, known = parsed
        if known is not None and source.known is None:
            source.known = known  # a read here must find the bytes the worker linted
        stem = source.rel.rsplit("/", 1)[-1][:-3]
        memories[position] = Memory(
            source, stem, loader=loader, summary=Summary(*summary), fingerprint=fingerprint
        )
        if cache is not None:
            cache.remember_memory(source, facts, summary)
        if found is not None:
            early.found[source.path] = found
    for source, read in zip(sample, pending, strict=True):
        _release(source, read)  # (known now, if a worker read it first)
    return _filled(memories)


def _release(source: SourceFile, read) -> None:
    """Drop the text of ``source`` again if it was read on demand (by ``read``)."""
    if read is not None and source.known is not None:
        source.release(source.known, read)


def _parse_again(memory: Memory) -> Parsed:
    return parse_memory(memory.file)


def _filled(memories: list[Memory | None]) -> list[Memory]:
    """``memories`` once every position holds its memory."""
    return [memory for memory in memories if memory is not None]
