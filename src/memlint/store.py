"""The store graph: memories, index entries, wikilinks and supersession edges."""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterator
from functools import cached_property
from itertools import compress, repeat
from operator import and_, attrgetter, is_, is_not, lt, not_, or_

from memlint.records import NamedTuple, dataclass, field

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # parsing lives in memlint.parse: a cached run may need none of it
    from enum import Enum
    from typing import Any, Final, TypeVar

    from memlint.budget import LoadResult
    from memlint.cache import Memo
    from memlint.config import Settings
    from memlint.similarity import Fingerprint
    from memlint.sources.document import SourceFile
    from memlint.sources.frontmatter import Field, Frontmatter
    from memlint.sources.index import IndexEntry
    from memlint.sources.markdown import WikiLink

    Derived = TypeVar("Derived")

MEMORY_TYPES = ("user", "feedback", "project", "reference")
DOCUMENT_STEM = re.compile(r"[A-Z][A-Z0-9_-]{1,60}")
SUPERSEDED = re.compile(r"superseded by \[\[([^\[\]\n]{1,200})\]\]")
WHITESPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """The identity key names and stems are compared under (NFC, then casefold).

    ASCII text is its own NFC form and casefolds as ``lower()``; lower-case ASCII
    (most names and paths) is returned as is, so the folded lookup tables of a
    large store share its strings instead of holding a copy of each."""
    if text.isascii():
        return text if text.islower() else text.lower()
    import unicodedata  # a C extension: loaded only for text that is not ASCII

    return unicodedata.normalize("NFC", text).casefold()


def fold_all(texts: list[str]) -> list[str]:
    """``fold`` of each of ``texts`` (lower-cased in one C-level pass when all are ASCII)."""
    if all(map(str.isascii, texts)):
        return list(map(str.lower, texts))
    return list(map(fold, texts))


def grouped(keys: list[str], members: list) -> dict[str, list]:
    """``members`` by their ``keys`` (in order of first appearance, each list in the
    members' order), as a ``setdefault`` loop builds it, in C-level passes where the keys
    are unique (most of a store's names and stems are)."""
    table = dict(zip(keys, map(list, zip(members)), strict=True))
    if len(table) == len(keys):
        return table
    from collections import Counter

    shared = {key for key, count in Counter(keys).items() if count > 1}
    for key in shared:
        table[key] = []
    for key, member in zip(keys, members, strict=True):
        if key in shared:
            table[key].append(member)
    return table


def several(table: dict[str, list]) -> Iterator[tuple[str, list]]:
    """The entries of a ``grouped`` table that hold more than one member, in its order
    (found in C-level passes: most of a store's names and stems are unique)."""
    return compress(table.items(), map(lt, repeat(1), map(len, table.values())))


_NAME_KNOWN = attrgetter("_name")  # (``_UNSET`` until looked up)
_DESCRIPTION_KNOWN = attrgetter("_description")
_STEM = attrgetter("stem")
_PATH = attrgetter("path")
_FILE_PATH = attrgetter("file.path")


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a wikilink target resolves: ``kind`` is exact, folded, ambiguous,
    ambiguous-folded, stem or none."""

    kind: str
    memories: tuple = ()

    @property
    def memory(self):
        return self.memories[0] if len(self.memories) == 1 else None


@dataclass(frozen=True, slots=True)
class IndexTarget:
    """Where an index entry points: ``kind`` is memory, folded, file, missing,
    unlistable (under a folder that cannot be listed: nothing is known) or escapes."""

    kind: str
    rel: str | None = None
    memory: Memory | None = None
    detail: str | None = None


def normalized_target(target: str) -> str:
    """The target as a store-relative path (``./a/../b.md`` -> ``b.md``)."""
    return posixpath.normpath(target).lstrip("/") if target else target


def _plain_targets(index: Index) -> Iterator[bool]:
    """Whether each entry's target, when it is a memory's path as the walk wrote it
    (normalized: no `..`, `//` or leading `/`), resolves to that memory: it has no
    colon (a scheme or drive) and the link no written backslash (``escape_reason``).
    In C-level passes over the index's columns."""
    no_colon = map(not_, map(str.__contains__, index.column("target"), repeat(":")))
    no_backslash = map(not_, map(str.__contains__, index.column("href"), repeat("\\")))
    return map(and_, no_colon, no_backslash)


def one_line(text: str) -> str:
    return WHITESPACE.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class Supersession:
    """``description: superseded by [[target]]``: the edge to a successor."""

    link: WikiLink

    @property
    def target(self) -> str:
        return self.link.target


if TYPE_CHECKING:  # an enum's member, so that ``is _UNSET`` narrows a value's type

    class _Unset(Enum):
        UNSET = 0

    _UNSET: Final = _Unset.UNSET
else:  # (making an enum class costs ~0.6M instructions at start-up)

    class _Unset:
        """A value not looked up yet: one object, also when unpickled."""

        __slots__ = ()

        def __reduce__(self) -> str:
            return "_UNSET"

    _UNSET = _Unset()


@dataclass(slots=True, eq=False)
class Parsed:
    """What parsing one memory file gives: its frontmatter, where the body starts, its
    wikilinks (body and description) and whether its text is plain ASCII (no control
    characters)."""

    frontmatter: Frontmatter | None
    body_start: int
    links: list[WikiLink]
    plain_ascii: bool = False


class Summary(NamedTuple):
    """What the cross-file rules and profile detection read of a memory, known without
    parsing it (kept for each file by the result cache): its ``name`` and
    ``description`` (strings, else ``None``), whether it has frontmatter, its
    wikilinks' targets, its profile signals (``detect.memory_signals``), whether its
    text is plain ASCII and its memory type (a string, else ``None``)."""

    name: str | None
    description: str | None
    has_frontmatter: bool
    link_targets: tuple[str, ...]
    signals: int
    plain_ascii: bool
    memory_type: str | None


class Memory:
    """One memory file. Its parsed values (``frontmatter``, ``body_start``, ``links``,
    ``plain_ascii``) are given, or loaded on first use by ``loader`` (from the result
    cache, else by parsing the file); ``summary`` answers the cross-file questions
    (name, description, link targets) without loading. Slots: a store of 100,000
    holds as many."""

    __slots__ = (
        "_description",
        "_fingerprint",
        "_loader",
        "_name",
        "_parsed",
        "_signals",
        "_summary",
        "_supersession",
        "file",
        "stem",
    )

    def __init__(
        self,
        file: SourceFile,
        stem: str,
        parsed: Parsed | None = None,
        *,
        loader: Callable[[Memory], Parsed] | None = None,
        summary: Summary | None = None,
        fingerprint: Fingerprint | None = None,
    ) -> None:
        self.file = file
        self.stem = stem
        self._parsed = parsed
        self._loader = loader
        self._summary = summary
        self._fingerprint = fingerprint
        self._supersession: Supersession | _Unset | None = _UNSET
        self._name: str | _Unset | None = summary.name if summary is not None else _UNSET
        self._description: str | _Unset | None = (
            summary.description if summary is not None else _UNSET
        )
        self._signals = summary.signals if summary is not None else None

    @classmethod
    def summarized(
        cls,
        file: SourceFile,
        stem: str,
        summary: Summary,
        fingerprint: Fingerprint | None,
        loader: Callable[[Memory], Parsed],
    ) -> Memory:
        """``Memory(file, stem, loader=loader, summary=summary, fingerprint=fingerprint)``
        without its keyword handling (one per unchanged memory of a warm run)."""
        memory = cls.__new__(cls)
        memory.file, memory.stem, memory._parsed, memory._loader = file, stem, None, loader
        memory._summary, memory._fingerprint, memory._supersession = summary, fingerprint, _UNSET
        memory._name, memory._description, memory._signals = summary[0], summary[1], summary[4]
        return memory

    def __repr__(self) -> str:
        return f"Memory({self.file.rel!r})"

    @property
    def parsed(self) -> Parsed:
        found = self._parsed
        if found is None:
            loader, self._loader = self._loader, None
            assert loader is not None  # a memory is given its parsed values or a loader
            found = self._parsed = loader(self)
        return found

    @property
    def frontmatter(self) -> Frontmatter | None:
        found = self._parsed  # the rules ask ~30 times per memory: one property, not two
        return (found if found is not None else self.parsed).frontmatter

    @property
    def body_start(self) -> int:
        return self.parsed.body_start

    @property
    def links(self) -> list[WikiLink]:
        return self.parsed.links

    @property
    def plain_ascii(self) -> bool:
        if self._parsed is None and self._summary is not None:
            return self._summary.plain_ascii
        return self.parsed.plain_ascii

    @property
    def loaded(self) -> bool:
        """Whether the parsed values are at hand (else reading them loads them)."""
        return self._parsed is not None

    @property
    def link_targets(self) -> tuple[str, ...] | list[str]:
        """The targets of ``links``, in order (known without loading them)."""
        if self._parsed is None and self._summary is not None:
            return self._summary.link_targets
        return [link.target for link in self.links]

    @property
    def has_frontmatter(self) -> bool:
        if self._parsed is None and self._summary is not None:
            return self._summary.has_frontmatter
        return self.frontmatter is not None

    @property
    def is_document(self) -> bool:
        """An ALL-CAPS file without frontmatter (``DEPLOY.md``): a document of the
        folder, not a broken memory (ID008 reports it, the memory rules leave it)."""
        return not self.has_frontmatter and DOCUMENT_STEM.fullmatch(self.stem) is not None

    def value(self, key: str) -> object:
        """The top-level frontmatter value of ``key`` (``None`` when absent)."""
        found = self.frontmatter
        return found.value(key) if found is not None else None

    @property
    def name(self) -> str | None:
        found = self._name
        if found is _UNSET:  # kept: the cross-file rules ask each memory's name many times
            value = self.value("name")
            found = self._name = value if isinstance(value, str) else None
        return found

    @property
    def description(self) -> str | None:
        found = self._description
        if found is _UNSET:
            value = self.value("description")
            found = self._description = value if isinstance(value, str) else None
        return found

    @property
    def signals(self) -> int | None:
        """The profile signals (``detect.memory_signals``) when known, else ``None``."""
        return self._signals

    @signals.setter
    def signals(self, value: int) -> None:
        self._signals = value

    @property
    def summary(self) -> Summary:
        """The cross-file facts of this memory (``signals`` must be known)."""
        found = self._summary
        if found is None:
            found = self._summary = Summary(
                self.name,
                self.description,
                self.has_frontmatter,
                tuple(self.link_targets),
                self._signals if self._signals is not None else -1,
                self.plain_ascii,
                self.memory_type,
            )
        return found

    @property
    def type_field(self) -> Field | None:
        """Where the memory type is written: top-level ``type`` first, else ``metadata.type``."""
        if self.frontmatter is None:
            return None
        return self.frontmatter.fields.get("type") or self.frontmatter.nested("metadata", "type")

    @property
    def memory_type(self) -> str | None:
        if self._parsed is None and self._summary is not None:
            return self._summary.memory_type
        found = self.type_field
        return found.value if found is not None and isinstance(found.value, str) else None

    @property
    def successor_target(self) -> str | None:
        """The target of ``description: superseded by [[target]]`` (known without loading)."""
        description = self.description
        match = SUPERSEDED.match(description.strip()) if description is not None else None
        return match.group(1) if match is not None else None

    @property
    def supersession(self) -> Supersession | None:
        found = self._supersession
        if found is _UNSET:
            found = self._supersession = self._find_supersession()
        return found

    def _find_supersession(self) -> Supersession | None:
        target = self.successor_target  # known from the summary: most memories stop here
        if target is None:
            return None
        frontmatter = self.frontmatter
        if frontmatter is None:
            return None
        found = frontmatter.fields["description"]
        from memlint.sources.markdown import make_wikilink

        raw = (self.file.text or "")[found.value_start : found.value_end]
        at = raw.find("[[" + target + "]]")
        start = found.value_start + (at if at >= 0 else 0)
        return Supersession(make_wikilink(target, start))

    @property
    def body(self) -> str:
        return (self.file.text or "")[self.body_start :]

    @property
    def fingerprint(self) -> Fingerprint:
        """The near-duplicate fingerprint (DU001) of ``similarity_text``."""
        found = self._fingerprint
        if found is None:
            from memlint.similarity import fingerprint

            found = self._fingerprint = fingerprint(self.similarity_text)
        return found

    @property
    def has_fingerprint(self) -> bool:
        return self._fingerprint is not None

    @property
    def similarity_text(self) -> str:
        """What near-duplicate detection compares: description and body."""
        return f"{self.description or ''}\n{self.body}"


class Index:
    """The parsed ``MEMORY.md``: its frontmatter, where its body starts and its entries.
    Entries the result cache knows are ``cached``: each field's column is loaded when
    asked for (``column``), the entries made only when they are (a pre-commit run reads
    three columns of an index of 10,000 entries)."""

    __slots__ = ("_cached", "_entries", "body_start", "file", "frontmatter")

    def __init__(
        self,
        file: SourceFile,
        frontmatter: Frontmatter | None,
        body_start: int,
        entries: list[IndexEntry] | None = None,
        cached: Any = None,
    ) -> None:
        self.file = file
        self.frontmatter = frontmatter
        self.body_start = body_start
        self._entries = entries
        self._cached = cached  # ``parse.CachedEntries``, when ``entries`` is not given

    def __repr__(self) -> str:
        return f"Index({self.file.rel!r})"

    @property
    def entries(self) -> list[IndexEntry]:
        found = self._entries
        if found is None:
            found = self._entries = self._cached.entries()
        return found

    def column(self, field: str) -> list:
        """The ``field`` of every entry, in order."""
        if self._entries is None:
            found = self._cached.column(field)
            if found is not None:
                return found
        return list(map(attrgetter(field), self.entries))


@dataclass(frozen=True, slots=True)
class Skipped:
    """A directory entry memlint did not read: ``kind`` symlink, special or unlistable."""

    path: str
    display: str
    kind: str
    detail: str


@dataclass(eq=False)
class Store:
    """One store: its files and parsed graph. ``memo``, when set, holds the
    cached diagnostics of every non-external rule for exactly these files."""

    root: str
    display_root: str
    reason: str
    profile: str = "freeform"
    profile_reason: str = ""
    profile_guess: str = ""  # why the profile is a guess (thin or conflicting signals)
    index_entry: Skipped | None = None
    files: list[SourceFile] = field(default_factory=list)
    notes: list[SourceFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    # JSONL files of another schema: (display path, why not notes); linted as plain files
    other_jsonl: list[tuple[str, str]] = field(default_factory=list)
    local_only: bool = False
    settings: Settings | None = None  # a config file of its own (else the run's)
    report: set[str] | None = None
    memo: Memo | None = None
    # one-file results computed while a pool parsed the memories (``engine.EarlyLocal``,
    # which the model does not import)
    early: Any = None
    _memories: list[Memory] | None = field(default=None, repr=False)
    _load_memories: Callable[[], list[Memory]] | None = field(default=None, repr=False)
    _index: Index | None = field(default=None, repr=False)
    _load_index: Callable[[], Index] | None = field(default=None, repr=False)

    @property
    def index(self) -> Index | None:
        """The parsed ``MEMORY.md``; parsed on first use when ``defer_index`` was called."""
        if self._load_index is not None:
            loader, self._load_index = self._load_index, None
            self._index = loader()
        return self._index

    @index.setter
    def index(self, index: Index | None) -> None:
        self._index, self._load_index = index, None

    def defer_index(self, loader: Callable[[], Index]) -> None:
        self._index, self._load_index = None, loader

    @property
    def memories(self) -> list[Memory]:
        """The parsed memories; loaded on first use when ``defer_memories`` was called."""
        if self._memories is None:
            loader, self._load_memories = self._load_memories, None
            self._memories = loader() if loader is not None else []
        return self._memories

    @memories.setter
    def memories(self, memories: list[Memory]) -> None:
        self._memories = memories

    def defer_memories(self, loader: Callable[[], list[Memory]]) -> None:
        """Parse only when something asks (a cached whole-store result needs no parse)."""
        self._memories, self._load_memories = None, loader

    def reports_on(self, path: str) -> bool:
        """Whether diagnostics on ``path`` are shown: all, or those on the files named on
        the command line and under the directories named (asked for every file by each
        rule that checks files one by one)."""
        report = self.report
        return report is None or path in report or path.startswith(self._report_dirs)

    @cached_property
    def _report_dirs(self) -> tuple[str, ...]:
        return tuple(prefix.rstrip("/") + "/" for prefix in self.report or ())

    @cached_property
    def by_name(self) -> dict[str, list[Memory]]:
        return grouped(self._stripped_names, self._named)

    @cached_property
    def by_stem(self) -> dict[str, list[Memory]]:
        memories = self.memories
        return grouped(list(map(_STEM, memories)), memories)

    @cached_property
    def by_folded_stem(self) -> dict[str, list[Memory]]:
        memories = self.memories
        return grouped(fold_all(list(map(_STEM, memories))), memories)

    @cached_property
    def by_folded_name(self) -> dict[str, list[Memory]]:
        return grouped(fold_all(self._stripped_names), self._named)

    @cached_property
    def _named(self) -> list[Memory]:
        """The memories with a ``name``, in store order."""
        memories = self.memories
        names = self._names
        return list(compress(memories, map(is_not, names, repeat(None))))

    @cached_property
    def _names(self) -> list[str | None]:
        """Each memory's ``name``, read from where the summary put it (C-level; those
        not known yet are looked up)."""
        memories = self.memories
        names = list(map(_NAME_KNOWN, memories))
        for position in compress(range(len(names)), map(is_, names, repeat(_UNSET))):
            names[position] = memories[position].name
        return names

    @cached_property
    def _stripped_names(self) -> list[str]:
        names = self._names
        named = compress(names, map(is_not, names, repeat(None)))
        return list(map(str.strip, named))  # type: ignore[arg-type]  # (no None left)

    @cached_property
    def _successor_targets(self) -> list[str | None]:
        """Each memory's ``successor_target``, the descriptions searched in C-level
        passes (few memories are superseded)."""
        memories = self.memories
        descriptions = list(map(_DESCRIPTION_KNOWN, memories))
        for position in compress(range(len(memories)), map(is_, descriptions, repeat(_UNSET))):
            descriptions[position] = memories[position].description
        texts = [text or "" for text in descriptions]
        targets: list[str | None] = [None] * len(memories)
        matches = map(SUPERSEDED.match, map(str.strip, texts))
        for position in compress(range(len(memories)), matches):
            targets[position] = memories[position].successor_target
        return targets

    @cached_property
    def other_rels(self) -> set[str]:
        """Store-relative paths of everything seen that is not a memory."""
        rels = {source.rel for source in (*self.files, *self.notes)}
        rels.update(self.excluded)
        prefix = self.root + os.sep
        rels.update(
            s.path[len(prefix) :].replace(os.sep, "/")
            for s in self.skipped
            if s.path.startswith(prefix)
        )
        return rels

    def exists_inside(self, rel: str) -> bool:
        """Whether ``rel`` names something under the root, checking each part with
        ``lstat`` so that no symlink is followed (a nested store's files, say)."""
        current = self.root
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

    def outside_walk(self) -> list[tuple[str, bool]]:
        """The index targets that are no file this store saw (a nested store's file,
        a pruned folder, nothing), each with whether it exists: looked up on disk,
        they are inputs of the store's result that its files' digests do not cover."""
        index = self.index
        if index is None:
            return []
        seen = self.by_rel.keys() | self.other_rels
        targets = {normalized_target(e.target) for e in index.entries if e.target}
        return [(rel, self.exists_inside(rel)) for rel in sorted(targets - seen)]

    @cached_property
    def by_rel(self) -> dict[str, Memory]:
        return {memory.file.rel: memory for memory in self.memories}

    @cached_property
    def by_folded_rel(self) -> dict[str, list[Memory]]:
        table: dict[str, list[Memory]] = {}
        for memory in self.memories:
            table.setdefault(fold(memory.file.rel), []).append(memory)
        return table

    # -- the index's entries resolved: derived tables, built on first use ------------

    def index_target(self, entry: IndexEntry) -> IndexTarget:
        """Where the index entry ``entry`` points (each entry resolved once per store).

        Targets resolve against what the store loaded (``by_rel``/``by_folded_rel``,
        plus the non-memory files it saw); a target that matches only after NFC and
        casefolding is ``folded``, not missing. Nothing outside the root is looked at."""
        found = self._index_targets.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        return self._resolve_entry(entry)

    @cached_property
    def _index_targets(self) -> dict[int, tuple[IndexEntry, IndexTarget]]:
        index = self.index
        if index is None:
            return {}
        by_rel = self.by_rel
        table: dict[int, tuple[IndexEntry, IndexTarget]] = {}
        entries = index.entries
        for entry, plain in zip(entries, _plain_targets(index), strict=True):
            target = entry.target
            memory = by_rel.get(target) if plain else None
            if memory is not None:
                table[id(entry)] = (entry, IndexTarget("memory", target, memory))
            else:
                table[id(entry)] = (entry, self._resolve_entry(entry))
        return table

    def indexed_by_path(self, memory: Memory) -> bool:
        """Whether an index entry's target is ``memory``'s path as the walk wrote it
        (``index_target`` resolves it to ``memory``): known without resolving every
        entry, for a run that reports on a few memories."""
        return memory.file.rel in self._memory_targets

    @cached_property
    def _memory_targets(self) -> frozenset[str]:
        """The index's targets that resolve to the memory at that path, if there is one."""
        index = self.index
        if index is None:
            return frozenset()
        return frozenset(compress(index.column("target"), _plain_targets(index)))

    def _resolve_entry(self, entry: IndexEntry) -> IndexTarget:
        from memlint.sources.index import escape_reason

        reason = escape_reason(entry)
        if reason is not None:
            return IndexTarget("escapes", detail=reason)
        rel = normalized_target(entry.target)
        memory = self.by_rel.get(rel)
        if memory is not None:
            return IndexTarget("memory", rel, memory)
        if rel in self.other_rels:
            return IndexTarget("file", rel)
        folded = self.by_folded_rel.get(fold(rel), [])
        if len(folded) == 1:
            return IndexTarget("folded", folded[0].file.rel, folded[0])
        if self.exists_inside(rel):
            return IndexTarget("file", rel)
        if self._under_unlistable(rel):
            return IndexTarget("unlistable", rel)
        return IndexTarget("missing", rel)

    def _under_unlistable(self, rel: str) -> bool:
        """Whether ``rel`` lies in a folder the store walk could not list (FS007)."""
        prefix = self.root + os.sep
        for skipped in self.skipped:
            if skipped.kind == "unlistable" and skipped.path.startswith(prefix):
                folder = skipped.path[len(prefix) :].replace(os.sep, "/") + "/"
                if rel.startswith(folder):
                    return True
        return False

    def loaded_index(self, max_lines: int, max_size: int, unit: str) -> LoadResult | None:
        """How the agent's loader loads the index with these limits (``budget.simulate``),
        simulated once per store and limits; ``None`` without an index."""
        index = self.index
        if index is None:
            return None
        key = (max_lines, max_size, unit)
        found = self._loaded.get(key)
        if found is None:
            from memlint.budget import simulate

            text = index.file.text or ""
            found = self._loaded[key] = simulate(text, index.body_start, *key)
        return found

    @cached_property
    def _loaded(self) -> dict[tuple[int, int, str], LoadResult]:
        return {}

    @cached_property
    def indexed_memories(self) -> frozenset[int]:
        """``id()`` of every memory some index entry reaches (also case-insensitively,
        or by the guess of ``meant_target``)."""
        found = set(self._entries_to)
        for entry, target in self._index_targets.values():
            if target.kind == "missing":
                meant = self.meant_target(entry)
                if meant is not None:
                    found.add(id(meant))
        return frozenset(found)

    def index_entries_to(self, memory: Memory) -> int:
        """How many index entries point at ``memory`` by its path (``index_target``)."""
        return self._entries_to.get(id(memory), 0)

    @cached_property
    def _entries_to(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for _, target in self._index_targets.values():
            if target.memory is not None:
                key = id(target.memory)
                counts[key] = counts.get(key, 0) + 1
        return counts

    def meant_target(self, entry: IndexEntry) -> Memory | None:
        """The memory a missing target most likely meant: the one whose ``name`` is the
        target's stem (the index used the name as a filename), else the one renamed by
        hand: the one memory no entry links whose ``name`` equals the entry's title or
        whose ``description`` equals its summary."""
        resolution = self.index_target(entry)
        if resolution.kind != "missing" or resolution.rel is None:
            return None
        named = self.by_name.get(posixpath.basename(resolution.rel)[:-3], [])
        if len(named) == 1:
            return named[0]
        if named:
            return None
        by_title, by_summary = self._unlinked
        title = one_line(entry.title).casefold()
        summary = one_line(entry.summary).casefold()
        found = {id(m): m for m in (*by_title.get(title, ()), *by_summary.get(summary, ()))}
        return next(iter(found.values())) if len(found) == 1 else None

    @cached_property
    def _unlinked(self) -> tuple[dict[str, list[Memory]], dict[str, list[Memory]]]:
        """The memories no entry links, by folded name and by folded description."""
        linked = self._entries_to
        by_title: dict[str, list[Memory]] = {}
        by_summary: dict[str, list[Memory]] = {}
        for memory in self.memories:
            if id(memory) in linked:
                continue
            if title := one_line(memory.name or "").casefold():
                by_title.setdefault(title, []).append(memory)
            if summary := one_line(memory.description or "").casefold():
                by_summary.setdefault(summary, []).append(memory)
        return by_title, by_summary

    # -- the link graph: derived tables, built on first use --------------------------

    def resolve(self, target: str) -> Resolution:
        """How the wikilink ``target`` resolves: by ``name`` (exact, after trimming); a
        match that needs case or Unicode folding is ``folded``; a target that only
        equals a filename stem is ``stem`` (each target looked up once per store)."""
        table = self._resolved
        found = table.get(target)
        if found is None:
            found = table[target] = self._resolve(target)
        return found

    @cached_property
    def _resolved(self) -> dict[str, Resolution]:
        return {}

    def _resolve(self, target: str) -> Resolution:
        exact = self.by_name.get(target)
        if exact:
            return Resolution("exact" if len(exact) == 1 else "ambiguous", tuple(exact))
        folded = self.by_folded_name.get(fold(target))
        if folded:
            return Resolution("folded" if len(folded) == 1 else "ambiguous-folded", tuple(folded))
        by_stem = self.by_stem.get(target)
        if by_stem:
            return Resolution("stem", tuple(by_stem))
        return Resolution("none")

    def successor(self, memory: Memory) -> Memory | None:
        """The memory that ``memory``'s supersession resolves to (by exact name), if unique."""
        target = memory.successor_target
        if target is None:
            return None
        found = self.resolve(target)
        return found.memory if found.kind == "exact" else None

    @cached_property
    def chain_ends(self) -> tuple[dict, set]:
        """For every superseded memory, the end of its chain of successors (``None`` when
        the chain breaks or loops), and the set of memories on a supersession cycle.
        Each memory is walked once: linear in the store size."""
        ends: dict = {}
        on_cycle: set = set()
        superseded = map(is_not, self._successor_targets, repeat(None))
        for start in compress(self.memories, superseded):
            if start in ends:
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
                if current.successor_target is None:
                    result = current
                    break
                index[current] = len(path)
                path.append(current)
                following = self.successor(current)
                if following is None or following is current:
                    result = None
                    break
                current = following
            for member in path:
                ends[member] = result
        return ends, on_cycle

    def links_to(self, memory: Memory) -> list[tuple[SourceFile, WikiLink]]:
        """``(source, link)`` for every wikilink (body, ``superseded by``, index) that
        resolves to ``memory`` by its name, exactly or after folding. Only the files
        that link to it are loaded."""
        found: list[tuple[SourceFile, WikiLink]] = []
        index = self.index
        for other in self._linkers.get(id(memory), ()):
            if other is None:  # the index
                if index is None:
                    continue
                found.extend(
                    (index.file, link)
                    for link in self._index_links
                    if self._reaches(link.target, memory)
                )
                continue
            found.extend(
                (other.file, link) for link in other.links if self._reaches(link.target, memory)
            )
            if other.supersession is not None and self._reaches(other.supersession.target, memory):
                found.append((other.file, other.supersession.link))
        return found

    def _reaches(self, target: str, memory: Memory) -> bool:
        found = self.resolve(target)
        return found.kind in ("exact", "folded") and found.memory is memory

    @cached_property
    def _linkers(self) -> dict[int, list]:
        """id of a memory -> the memories (``None``: the index) whose links reach it."""
        table: dict[int, list] = {}

        def add(linker, target: str) -> None:
            found = self.resolve(target)
            if found.kind in ("exact", "folded") and found.memory is not None:
                linkers = table.setdefault(id(found.memory), [])
                if not linkers or linkers[-1] is not linker:
                    linkers.append(linker)

        for other in self.memories:
            for target in other.link_targets:
                add(other, target)
            successor = other.successor_target
            if successor is not None:
                add(other, successor)
        for link in self._index_links:
            add(None, link.target)
        return table

    @cached_property
    def _index_links(self) -> list[WikiLink]:
        index = self.index
        text = index.file.text if index is not None else None
        if index is None or text is None or "[[" not in text:
            return []
        from memlint.sources.markdown import scan_wikilinks

        return scan_wikilinks(text, index.body_start)

    @property
    def reported_files(self) -> list[SourceFile]:
        """The files and note files whose diagnostics are shown (all, unless a few files
        are named), files first, each in store order."""
        files = [*self.files, *self.notes]
        if self.report is None:
            return files
        return self._reported(files, list(map(_PATH, files)))

    def _reported(self, items: list, paths: list[str]) -> list:
        """The ``items`` whose path (``paths``) ``reports_on``, in C-level passes (asked
        of every file; a rerun after edits reports on hundreds of files, no folder)."""
        report = self.report
        assert report is not None  # (asked only when some files are named)
        named = map(report.__contains__, paths)
        below = map(str.startswith, paths, repeat(self._report_dirs))
        return list(compress(items, map(or_, named, below)))

    @cached_property
    def reported_memories(self) -> list[Memory]:
        """The memories whose diagnostics are shown (all, unless a few files are named)."""
        memories = self.memories
        if self.report is None:
            return memories
        return self._reported(memories, list(map(_FILE_PATH, memories)))

    def derived(self, build: Callable[[Store], Derived]) -> Derived:
        """``build(self)``, built once per store: a table that a rule family derives from
        the store and several of its rules read (kept on the store, never in a
        module-level cache)."""
        tables = self._derived
        if build not in tables:
            tables[build] = build(self)
        return tables[build]

    @cached_property
    def _derived(self) -> dict:
        return {}
