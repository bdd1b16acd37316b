"""Parsing JSONL note stores record by record, strictly (I-JSON, RFC 7493).

Records are split on ``b"\\n"`` only (a raw U+2028 inside a string is valid
JSON, ``str.splitlines`` would cut there), one trailing ``\\r`` is stripped and
each record is decoded strictly. ``json.loads`` runs inside ``except Exception``
with hooks that note duplicate keys, ``NaN``/``Infinity`` and numbers outside
IEEE double range instead of accepting them silently.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from memlint.diagnostics import Position, Range
from memlint.privacy import LazyPattern
from memlint.records import dataclass, field
from memlint.sources.document import BOM, SourceFile

MAX_INT_DIGITS = 400
SAFE_INTEGER = 2**53 - 1
FLOAT_PARTS = LazyPattern(r"-?([0-9]{1,400})(?:\.([0-9]{1,400}))?(?:[eE][-+]?[0-9]{1,400})?")


@dataclass(frozen=True, slots=True)
class Problem:
    """An I-JSON violation at ``column`` (0-based, in code points) of a record."""

    message: str
    column: int = 0


@dataclass(slots=True)
class NoteRecord:
    """One line of a note store. ``value`` is set when the line parsed as JSON."""

    line: int
    text: str
    value: object = None
    parsed: bool = False
    error: Problem | None = None
    fused_at: int | None = None
    ijson: list[Problem] = field(default_factory=list)

    @property
    def fields(self) -> dict[str, object]:
        """The record's JSON object (empty when it is not one)."""
        value = self.value
        return value if isinstance(value, dict) else {}

    @property
    def blank(self) -> bool:
        return not self.text.strip() and self.error is None

    def range(self, start: int = 0, end: int | None = None) -> Range:
        """Columns ``start``..``end`` (0-based) of this record as a diagnostic range."""
        stop = len(self.text) if end is None else end
        return Range(Position(self.line, start + 1), Position(self.line, stop + 1))

    def key_column(self, key: str) -> int:
        """Where ``"key"`` is written in the record (0 when it cannot be found)."""
        for pattern in _key_patterns(key):
            match = pattern.search(self.text)
            if match:
                return match.start()
        return 0

    def value_column(self, key: str) -> int:
        """Where the value of ``key`` starts (after the colon), else the key's column."""
        start = self.key_column(key)
        colon = self.text.find(":", start)
        if colon == -1:
            return start
        column = colon + 1
        while column < len(self.text) and self.text[column] in " \t":
            column += 1
        return column


@lru_cache(maxsize=256)
def _key_patterns(key: str) -> tuple[re.Pattern, ...]:
    """Regexes finding ``"key":`` as JSON writes it, raw or with ASCII escapes."""
    spellings = dict.fromkeys((json.dumps(key, ensure_ascii=False), json.dumps(key)))
    return tuple(re.compile(re.escape(spelling) + r"[ \t]{0,50}:") for spelling in spellings)


@dataclass(slots=True)
class NoteFile:
    """All records of a note store; ``torn`` when the file does not end in ``\\n``."""

    records: list[NoteRecord]
    torn: bool

    @property
    def objects(self) -> list[NoteRecord]:
        """Records that parsed to a JSON object."""
        return [r for r in self.records if r.parsed and isinstance(r.value, dict)]


def note_file(source: SourceFile) -> NoteFile:
    """The parsed records of ``source``, parsed once and kept on it (shared by all rules)."""
    raw = source.raw
    found = source.notes
    if found is not None and found[0] is raw and isinstance(found[1], NoteFile):
        return found[1]
    parsed = parse_notes(raw)
    source.notes = (raw, parsed)
    return parsed


def parse_notes(raw: bytes) -> NoteFile:
    chunks = raw.split(b"\n")
    torn = chunks[-1] != b""
    if not torn:
        chunks.pop()
    decoder = StrictDecoder()
    records = [_parse_line(i + 1, chunk, decoder) for i, chunk in enumerate(chunks)]
    return NoteFile(records, torn)


class StrictDecoder(json.JSONDecoder):
    """One decoder for all records of a file (building one costs as much as a
    short record's decoding): its hooks note I-JSON problems in ``problems``,
    the list of the record being decoded."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        super().__init__(
            object_pairs_hook=self._object,
            parse_constant=self._constant,
            parse_int=self._integer,
            parse_float=self._float,
        )

    def _object(self, pairs: list[tuple[str, object]]) -> dict:
        result = dict(pairs)
        if len(result) != len(pairs):
            return _object(pairs, self.problems)
        return result

    def _constant(self, name: str) -> None:
        return _constant(name, self.problems)

    def _integer(self, digits: str) -> int | None:
        return _integer(digits, self.problems)

    def _float(self, digits: str) -> float:
        return _float(digits, self.problems)


def _parse_line(number: int, chunk: bytes, decoder: StrictDecoder) -> NoteRecord:
    if chunk.endswith(b"\r"):
        chunk = chunk[:-1]
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        lead = chunk[: exc.start].decode("utf-8", "replace")
        text = chunk.decode("utf-8", "replace")
        return NoteRecord(number, text, error=Problem("record is not valid UTF-8", len(lead)))
    record = NoteRecord(number, text)
    if number == 1 and text.startswith(BOM):
        record.ijson.append(Problem("starts with a byte order mark (U+FEFF)"))
        record.text = text = text[1:]
    if not text.strip():
        return record
    decoder.problems = record.ijson
    _decode(record, text, decoder)
    return record


def _decode(record: NoteRecord, text: str, decoder: StrictDecoder) -> None:
    lead = len(text) - len(text.lstrip(" \t\r\n"))
    try:
        value, end = decoder.raw_decode(text, lead)
    except RecursionError:
        record.error = Problem("record is nested too deeply")
        return
    except json.JSONDecodeError as exc:
        record.error = Problem(f"invalid JSON: {exc.msg}", exc.pos)
        return
    except Exception as exc:  # parser hooks and int() can raise anything on hostile input
        record.error = Problem(f"invalid JSON ({type(exc).__name__})")
        return
    rest = text[end:].strip(" \t\r\n")
    if rest:
        column = end + (len(text[end:]) - len(text[end:].lstrip(" \t\r\n")))
        if rest[0] in "{[":
            record.fused_at = column
        else:
            record.error = Problem("invalid JSON: extra data after the record", column)
            return
    record.value = value
    record.parsed = True
    if "\\u" in text:  # a lone surrogate is only written as an escape (text is UTF-8)
        _check_strings(value, record.ijson)


def _object(pairs: list[tuple[str, object]], problems: list[Problem]) -> dict:
    result: dict = {}
    for key, value in pairs:
        if key in result:
            problems.append(Problem(f"duplicate key {json.dumps(key)[:60]}"))
        result[key] = value
    return result


def _constant(name: str, problems: list[Problem]) -> None:
    problems.append(Problem(f"`{name}` is not JSON"))
    return None


def _integer(digits: str, problems: list[Problem]) -> int | None:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        problems.append(Problem(f"integer with {len(digits)} digits is out of range"))
        return None
    value = int(digits)
    if abs(value) > SAFE_INTEGER:
        problems.append(Problem(f"integer {digits[:24]} is beyond 2^53 and loses precision"))
    return value


def _float(digits: str, problems: list[Problem]) -> float:
    value = float(digits)
    if value in (float("inf"), float("-inf")):
        problems.append(Problem(f"number {digits[:24]} overflows a double"))
    elif value == 0.0:
        match = FLOAT_PARTS.fullmatch(digits)
        if match and (match[1] + (match[2] or "")).strip("0"):
            problems.append(Problem(f"number {digits[:24]} underflows to 0"))
    return value


def _check_strings(value: object, problems: list[Problem]) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _has_lone_surrogate(item):
                problems.append(Problem("string holds a lone surrogate (\\ud800-\\udfff)"))
                return
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
