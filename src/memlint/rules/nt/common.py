"""What the NT rules share: the parsed records of a note store and field names."""

from __future__ import annotations

from functools import lru_cache

from memlint import rfc3339
from memlint.sources.jsonl import NoteFile, NoteRecord, note_file

NOTES = frozenset({"notes"})
REQUIRED_FIELDS = ("time", "project", "fact")
KNOWN_FIELDS = frozenset({*REQUIRED_FIELDS, "tags"})
UNREADABLE = frozenset({"binary", "too-large", "unreadable"})


def records_of(ctx, source) -> NoteFile | None:
    """The store's parsed records (shared by every rule), or None for an unreadable file."""
    if source.problem is not None and source.problem.kind in UNREADABLE:
        return None
    return note_file(source)


def notes(ctx, source) -> list[NoteRecord]:
    """Records of ``source`` that are JSON objects (fused lines count by their first object)."""
    parsed = records_of(ctx, source)
    return parsed.objects if parsed is not None else []


def report(ctx, source, record: NoteRecord, start: int, end: int | None, message: str):
    return ctx.report_at(source.path, source.display, record.range(start, end), message)


def string_field(record: NoteRecord, key: str) -> str | None:
    value = record.fields.get(key)
    return value if isinstance(value, str) else None


def parsed_time(value: str) -> rfc3339.Timestamp | str:
    """``rfc3339.parse(value)``, parsed once for NT006, NT007 and NT008."""
    return _parsed_time(value) if len(value) <= rfc3339.LONGEST else rfc3339.parse(value)


_parsed_time = lru_cache(maxsize=4096)(rfc3339.parse)
