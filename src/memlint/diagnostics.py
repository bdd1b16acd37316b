"""The one diagnostic model every rule, fixer and renderer shares.

Positions are 1-based; columns count Unicode code points; ranges end exclusive.
Edits address exact byte spans of a file's raw content.
"""

from __future__ import annotations

from enum import Enum, IntEnum

from memlint.records import dataclass, field


class Severity(IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (use error, warning or info)") from None


class Applicability(Enum):
    """How sure a fix is (ruff's three levels)."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY = "display"


class FixAvailability(Enum):
    NONE = "none"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


@dataclass(frozen=True, slots=True, order=True)
class Position:
    line: int
    column: int

    def __reduce__(self):  # pickles (cache, workers) 3x faster than dataclass state
        return (Position, (self.line, self.column))


@dataclass(frozen=True, slots=True)
class Range:
    start: Position
    end: Position

    def __reduce__(self):
        return (Range, (self.start, self.end))

    @classmethod
    def file_start(cls) -> Range:
        return cls(Position(1, 1), Position(1, 1))


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace raw bytes ``[start, end)`` of ``path`` with ``content`` (UTF-8).

    ``range`` is the same span as a text position, for renderers.
    ``create`` marks an edit that creates a file that does not exist yet.
    """

    path: str
    start: int
    end: int
    content: str
    range: Range
    create: bool = False

    def __reduce__(self):
        return (Edit, (self.path, self.start, self.end, self.content, self.range, self.create))


@dataclass(frozen=True, slots=True)
class Fix:
    edits: tuple[Edit, ...]
    applicability: Applicability
    title: str

    def __reduce__(self):
        return (Fix, (self.edits, self.applicability, self.title))

    @classmethod
    def safe(cls, title: str, *edits: Edit) -> Fix:
        return cls(tuple(sorted(edits, key=_edit_key)), Applicability.SAFE, title)

    @classmethod
    def unsafe(cls, title: str, *edits: Edit) -> Fix:
        return cls(tuple(sorted(edits, key=_edit_key)), Applicability.UNSAFE, title)

    @classmethod
    def display(cls, title: str, *edits: Edit) -> Fix:
        return cls(tuple(sorted(edits, key=_edit_key)), Applicability.DISPLAY, title)


def _edit_key(edit: Edit) -> tuple[str, int, int]:
    return (edit.path, edit.start, edit.end)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: ``path`` is the file's absolute path, ``display_path`` what users see."""

    code: str
    message: str
    path: str
    display_path: str
    range: Range
    severity: Severity
    fix: Fix | None = None
    notes: tuple[str, ...] = field(default=())

    def __reduce__(self):
        return (
            Diagnostic,
            (
                self.code,
                self.message,
                self.path,
                self.display_path,
                self.range,
                self.severity,
                self.fix,
                self.notes,
            ),
        )

    def sort_key(self) -> tuple:
        return (
            self.display_path,
            self.range.start.line,
            self.range.start.column,
            self.code,
            self.message,
        )


def applicable(fix: Fix | None, unsafe: bool) -> bool:
    """Whether ``--fix`` applies ``fix`` (unsafe fixes only with ``--unsafe-fixes``)."""
    if fix is None or not fix.edits:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return unsafe and fix.applicability is Applicability.UNSAFE
