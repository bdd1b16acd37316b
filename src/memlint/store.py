"""The store graph: memories, index entries, wikilinks and supersession edges."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable
from functools import cached_property

from memlint.records import dataclass, field

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # parsing lives in memlint.parse: a cached run may need none of it
    from memlint.cache import Memo
    from memlint.config import Settings
    from memlint.similarity import Fingerprint
    from memlint.sources.document import SourceFile
    from memlint.sources.frontmatter import Field, Frontmatter
    from memlint.sources.index import IndexEntry
    from memlint.sources.markdown import WikiLink

MEMORY_TYPES = ("user", "feedback", "project", "reference")
DOCUMENT_STEM = re.compile(r"[A-Z][A-Z0-9_-]{1,60}")
SUPERSEDED = re.compile(r"superseded by \[\[([^\[\]\n]{1,200})\]\]")


def fold(text: str) -> str:
    """The identity key names and stems are compared under (NFC, then casefold).

    ASCII text is its own NFC form and casefolds as ``lower()``; lower-case ASCII
    (most names and paths) is returned as is, so the folded lookup tables of a
    large store share its strings instead of holding a copy of each."""
    if text.isascii():
        return text if text.islower() else text.lower()
    return unicodedata.normalize("NFC", text).casefold()


@dataclass(frozen=True, slots=True)
class Supersession:
    """``description: superseded by [[target]]``: the edge to a successor."""

    link: WikiLink

    @property
    def target(self) -> str:
        return self.link.target


_UNSET = object()


@dataclass(slots=True, eq=False)
class Memory:
    """One memory file, parsed. Slots: a store of 100,000 holds as many, and a
    ``__dict__`` (needed by ``cached_property``) took 100 bytes more per memory."""

    file: SourceFile
    stem: str
    _frontmatter: Frontmatter | tuple | None  # or, rebuilt from cached facts, those facts
    body_start: int
    links: list[WikiLink] = field(default_factory=list)
    _fingerprint: Fingerprint | None = None  # computed on first use when not given
    plain_ascii: bool = False  # the text is ASCII without control characters
    _supersession: object = field(default=_UNSET, init=False, repr=False)
    _name: object = field(default=_UNSET, init=False, repr=False)
    _description: object = field(default=_UNSET, init=False, repr=False)

    @property
    def frontmatter(self) -> Frontmatter | None:
        """The parsed frontmatter; a memory rebuilt from cached facts builds its fields
        on first use (the cross-file rules mostly need values only: ``value``)."""
        found = self._frontmatter
        if type(found) is tuple:
            from memlint.parse import rebuild_frontmatter

            try:
                found = rebuild_frontmatter(found)
            except Exception:  # damaged facts that passed the shape check: parse the file
                from memlint.sources.frontmatter import parse_frontmatter

                found = parse_frontmatter(self.file.text or "")
            self._frontmatter = found
        return found

    @property
    def has_frontmatter(self) -> bool:
        return self._frontmatter is not None

    @property
    def is_document(self) -> bool:
        """An ALL-CAPS file without frontmatter (``DEPLOY.md``): a document of the
        folder, not a broken memory (ID008 reports it, the memory rules leave it)."""
        return self._frontmatter is None and DOCUMENT_STEM.fullmatch(self.stem) is not None

    def value(self, key: str) -> object:
        """The top-level frontmatter value of ``key`` (``None`` when absent), read from
        the facts when the fields are not built."""
        found = self._frontmatter
        if type(found) is tuple:
            for fact in found[4]:  # fields: (key, value, ...) each
                if fact[0] == key:
                    return fact[1]
            return None
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
    def type_field(self) -> Field | None:
        """Where the memory type is written: top-level ``type`` first, else ``metadata.type``."""
        if self.frontmatter is None:
            return None
        return self.frontmatter.fields.get("type") or self.frontmatter.nested("metadata", "type")

    @property
    def memory_type(self) -> str | None:
        found = self.type_field
        return found.value if found is not None and isinstance(found.value, str) else None

    @property
    def supersession(self) -> Supersession | None:
        if self._supersession is _UNSET:
            self._supersession = self._find_supersession()
        return self._supersession

    def _find_supersession(self) -> Supersession | None:
        description = self.description
        match = SUPERSEDED.match(description.strip()) if description is not None else None
        if match is None:
            return None
        found = self.frontmatter.fields["description"]
        from memlint.sources.markdown import make_wikilink

        raw = (self.file.text or "")[found.value_start : found.value_end]
        at = raw.find("[[" + match.group(1) + "]]")
        start = found.value_start + (at if at >= 0 else 0)
        return Supersession(make_wikilink(match.group(1), start))

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
    def similarity_text(self) -> str:
        """What near-duplicate detection compares: description and body."""
        return f"{self.description or ''}\n{self.body}"


@dataclass(slots=True, eq=False)
class Index:
    file: SourceFile
    frontmatter: Frontmatter | None
    body_start: int
    entries: list[IndexEntry]


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
        table: dict[str, list[Memory]] = {}
        for memory in self.memories:
            if memory.name is not None:
                table.setdefault(memory.name.strip(), []).append(memory)
        return table

    @cached_property
    def by_stem(self) -> dict[str, list[Memory]]:
        table: dict[str, list[Memory]] = {}
        for memory in self.memories:
            table.setdefault(memory.stem, []).append(memory)
        return table

    @cached_property
    def by_folded_name(self) -> dict[str, list[Memory]]:
        table: dict[str, list[Memory]] = {}
        for memory in self.memories:
            if memory.name is not None:
                table.setdefault(fold(memory.name.strip()), []).append(memory)
        return table

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

    @cached_property
    def by_rel(self) -> dict[str, Memory]:
        return {memory.file.rel: memory for memory in self.memories}

    @cached_property
    def by_folded_rel(self) -> dict[str, list[Memory]]:
        table: dict[str, list[Memory]] = {}
        for memory in self.memories:
            table.setdefault(fold(memory.file.rel), []).append(memory)
        return table
