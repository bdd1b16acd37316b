"""Profile detection: which contract a store follows, with the reason why."""

from __future__ import annotations

import os
import re
import stat
from operator import attrgetter

from memlint.privacy import LazyPattern
from memlint.records import NamedTuple, dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memlint.config import StoreConfig
    from memlint.store import Memory, Store

_SIGNALS = attrgetter("signals")
TYPED_STEM = re.compile(r"(?:user|feedback|project|reference)_")
PREFIXED_STEM = re.compile(r"[a-z][a-z0-9]{1,20}_.")
TYPE_LINE = LazyPattern(r"^\s*type:\s*['\"]?(?:user|feedback|project|reference)['\"]?\s*$", re.M)
RAW_TOP_TYPE = re.compile(r"^type[ \t]*:", re.M)
RAW_NESTED_TYPE = re.compile(
    r"^metadata[ \t]*:[ \t]*\r?\n(?:[ \t][^\n]*\n)*?[ \t]+type[ \t]*:", re.M
)
SECTION_LABEL = LazyPattern(
    r"\*\*[ \t]?(?:why|how to apply)[ \t]?(?::[ \t]?\*\*|\*\*[ \t]?:)", re.IGNORECASE
)
SUPERSEDED_WORDS = re.compile(r"\bsuperseded\b", re.IGNORECASE)
NOTE_SAMPLE_BYTES = 64 * 1024
NOTE_SAMPLE_RECORDS = 5
NOTE_KEYS = frozenset({"time", "project"})
MEMORY_TYPES = ("user", "feedback", "project", "reference")


class Detection(NamedTuple):
    """A store's profile, the reason with the signals seen (``--show-files``), and,
    when the signals were thin or conflicting, why the profile is only a guess."""

    profile: str
    reason: str
    guess: str = ""


@dataclass
class Signals:
    """How many memory files carry each contract signal (broken instances count).

    typed: ``<type>_<slug>.md`` names, a top-level ``type``, ``**Why:**`` /
    ``**How to apply:**`` sections, a ``<prefix>_<slug>.md`` name on a file that
    declares a type, a ``name`` that is the stem with ``_`` written ``-``.
    linked: ``metadata.type``, ``name`` equal to a stem that is not ``<type>_…``,
    wikilinks in the body, ``superseded by`` in the description; and, for the
    store, index bullets shaped ``- [Title](file.md) — summary``."""

    total: int = 0
    typed_stem: int = 0
    top_type: int = 0
    sections: int = 0  # -1: not looked at
    typed_variant: int = 0
    meta_type: int = 0
    name_is_stem: int = 0
    wikilinks: int = 0
    superseded: int = 0
    typed_files: int = 0
    linked_files: int = 0
    index_entries: int = 0

    def describe(self) -> str:
        typed = _listing(
            ("<type>_<slug>.md name", self.typed_stem),
            ("top-level `type`", self.top_type),
            ("Why/How sections", max(self.sections, 0)),
            ("<prefix>_<slug>.md name or kebab `name` with a type", self.typed_variant),
        )
        linked = _listing(
            ("`metadata.type`", self.meta_type),
            ("`name` = filename", self.name_is_stem),
            ("wikilinks", self.wikilinks),
            ("`superseded by`", self.superseded),
        )
        index = f"; index bullets {self.index_entries}" if self.index_entries else ""
        return (
            f"signals of {self.total} {_files(self.total)}: typed {typed}; linked {linked}{index}"
        )


def _listing(*pairs: tuple[str, int]) -> str:
    return ", ".join(f"{label} {count}" for label, count in pairs if count) or "none"


def _files(count: int) -> str:
    return "memory file" if count == 1 else "memory files"


TYPED_STEM_SIGNAL = 1
TOP_TYPE_SIGNAL = 2
VARIANT_SIGNAL = 4
META_TYPE_SIGNAL = 8
NAME_IS_STEM_SIGNAL = 16
WIKILINKS_SIGNAL = 32
SUPERSEDED_SIGNAL = 64
TYPED_SIGNALS = TYPED_STEM_SIGNAL | TOP_TYPE_SIGNAL | VARIANT_SIGNAL
LINKED_SIGNALS = META_TYPE_SIGNAL | NAME_IS_STEM_SIGNAL | WIKILINKS_SIGNAL | SUPERSEDED_SIGNAL


def memory_signals(memory: Memory) -> int:
    """The contract signals one memory file carries (the ``*_SIGNAL`` bits; Why/How
    sections aside: they need the body), kept with the memory's cached facts."""
    frontmatter = memory.frontmatter
    parsed = frontmatter if frontmatter is not None and frontmatter.fields else None
    raw = ""
    if frontmatter is not None and parsed is None:  # unparseable: look at the raw lines
        raw = (memory.file.text or "")[frontmatter.content_start : frontmatter.content_end]
    top = memory.value("type") is not None if parsed is not None else bool(RAW_TOP_TYPE.search(raw))
    nested = (
        parsed.nested("metadata", "type") is not None
        if parsed is not None
        else bool(RAW_NESTED_TYPE.search(raw))
    )
    stem = memory.stem
    typed_stem = bool(TYPED_STEM.match(stem))
    name = memory.name.strip() if memory.name is not None else None
    variant = (top or nested) and not typed_stem and bool(PREFIXED_STEM.match(stem))
    variant = variant or ("_" in stem and name == stem.replace("_", "-"))
    return (
        TYPED_STEM_SIGNAL * typed_stem
        | TOP_TYPE_SIGNAL * top
        | VARIANT_SIGNAL * variant
        | META_TYPE_SIGNAL * nested
        | NAME_IS_STEM_SIGNAL * (name == stem and not typed_stem)
        | WIKILINKS_SIGNAL * bool(memory.links)
        | SUPERSEDED_SIGNAL * bool(SUPERSEDED_WORDS.search(memory.description or ""))
    )


def signals_of(memory: Memory) -> int:
    """``memory_signals``, computed once per memory (known from the cache when unchanged)."""
    found = memory.signals
    if found is None or found < 0:
        found = memory.signals = memory_signals(memory)
    return found


def store_signals(store: Store, bodies: bool = False) -> Signals:
    """Count the contract signals of every memory file of ``store``; Why/How sections
    only with ``bodies`` (that reads every file, which a cached run otherwise skips)."""
    found = Signals(total=len(store.memories), sections=0 if bodies else -1)
    kinds: dict[tuple[int, bool], int] = {}  # (signals, has sections) -> how many memories
    if bodies:
        for memory in store.memories:
            bits = signals_of(memory)
            sections = bool(SECTION_LABEL.search(memory.file.text or "", memory.body_start))
            kinds[bits, sections] = kinds.get((bits, sections), 0) + 1
    else:  # one C-level count of the signals the memories know (from the cache)
        from collections import Counter

        known = list(map(_SIGNALS, store.memories))
        if None in known or min(known, default=0) < 0:
            known = list(map(signals_of, store.memories))
        kinds = {(bits, False): count for bits, count in Counter(known).items()}
    for (bits, sections), count in kinds.items():  # a few kinds, however many memories
        found.typed_stem += count * bool(bits & TYPED_STEM_SIGNAL)
        found.top_type += count * bool(bits & TOP_TYPE_SIGNAL)
        found.sections += count * sections
        found.typed_variant += count * bool(bits & VARIANT_SIGNAL)
        found.meta_type += count * bool(bits & META_TYPE_SIGNAL)
        found.name_is_stem += count * bool(bits & NAME_IS_STEM_SIGNAL)
        found.wikilinks += count * bool(bits & WIKILINKS_SIGNAL)
        found.superseded += count * bool(bits & SUPERSEDED_SIGNAL)
        found.typed_files += count * (bool(bits & TYPED_SIGNALS) or sections)
        found.linked_files += count * bool(bits & LINKED_SIGNALS)
    index = store.index
    if index is not None:
        found.index_entries = sum(index.column("canonical"))
    return found


def detect_profile(store: Store, config: StoreConfig | None) -> Detection:
    """The store's profile, chosen by positive signals: a store that carries the
    signals of a contract is held to it however broken its files are; ``freeform``
    only when no signal of either contract is present."""
    if config is not None and config.profile:
        return Detection(config.profile, "set in config")
    memories = store.memories
    total = len(memories)
    if total == 0:
        if store.notes and store.index is None:
            return Detection("notes", "only JSONL note stores here")
        return Detection("freeform", "no memory files")
    signals = store_signals(store)
    seen = signals.describe()
    if signals.typed_stem * 2 > total:
        why = _share(signals.typed_stem, total, "is named", "are named") + " <type>_<slug>.md"
        guess = ""
        if not (signals.top_type or signals.meta_type):
            guess = "signals are thin: only the filenames, no memory type in any frontmatter"
        return Detection("typed", f"{why}; {seen}", guess)
    if signals.name_is_stem * 2 > total and signals.name_is_stem > signals.top_type:
        why = _share(signals.name_is_stem, total, "has", "have") + " `name` equal to the filename"
        return Detection("linked", f"{why}; {seen}")
    if signals.top_type * 2 > total:
        why = _share(signals.top_type, total, "keeps", "keep") + " a memory `type` at the top level"
        return Detection("typed", f"{why}; {seen}")
    if any(memory.successor_target is not None for memory in memories):
        return Detection("linked", f"uses `superseded by [[…]]`; {seen}")
    signals = store_signals(store, bodies=True)
    seen = signals.describe()
    typed, linked = signals.typed_files, signals.linked_files
    if typed == linked == 0:
        if signals.index_entries:
            why = "only the index has the linked shape (`- [Title](file.md) — summary`)"
            return Detection("linked", f"{why}; {seen}", "signals are thin: " + why)
        return Detection("freeform", f"no contract signal; {seen}")
    profile = "typed" if typed >= linked else "linked"
    why = f"typed signals in {typed}, linked signals in {linked} of {total} {_files(total)}" + (
        "; a tie reads as typed, the contract with more checks" if typed == linked else ""
    )
    if total == 1:
        guess = "signals are thin: one memory file"
    else:
        guess = "no signal is shared by most files" if typed and linked else "signals are thin"
    return Detection(profile, f"{why}; {seen}", f"{guess} ({why})")


def _share(count: int, total: int, one: str, many: str) -> str:
    """``2 of 3 memory files have`` / ``1 of 1 memory file has``."""
    return f"{count} of {total} {_files(total)} {one if count == 1 else many}"


def _open_regular(path: str) -> int | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def read_head(path: str, size: int) -> bytes:
    """Up to ``size`` bytes of a regular file (never a link, FIFO or device)."""
    fd = _open_regular(path)
    if fd is None:
        return b""
    try:
        return os.read(fd, size)
    except OSError:
        return b""
    finally:
        os.close(fd)


def note_sample(path: str) -> tuple[int, int]:
    """How many of the first records of a JSONL file there are, and how many are shaped
    like notes: a ``fact``, or a ``time`` and a ``project`` (a note that lost its fact
    is still one). A record that does not decode (even one nested too deep) is no note."""
    import json  # only for a store with JSONL files

    head = read_head(path, NOTE_SAMPLE_BYTES)
    records = 0
    notes = 0
    for line in head.split(b"\n"):
        if not line.strip():
            continue
        records += 1
        try:
            value = json.loads(line)
        except Exception:  # ValueError, and RecursionError on deeply nested arrays
            value = None
        if isinstance(value, dict) and ("fact" in value or value.keys() >= NOTE_KEYS):
            notes += 1
        if records >= NOTE_SAMPLE_RECORDS:
            break
    return records, notes


def is_note_store(path: str) -> bool:
    """Whether at least half of the first records of a JSONL file are shaped like notes."""
    records, notes = note_sample(path)
    return records > 0 and notes * 2 >= records
