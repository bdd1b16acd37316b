"""Reading files safely and mapping text offsets to positions and byte spans."""

from __future__ import annotations

import os
import stat
from bisect import bisect_right
from collections.abc import Callable

from memlint.diagnostics import Edit, Position, Range
from memlint.records import NamedTuple, dataclass

BOM = "\ufeff"
BOM_BYTES = b"\xef\xbb\xbf"
BYTE_MARK = 4096  # characters between the byte offsets kept for a long non-ASCII text


@dataclass(frozen=True, slots=True)
class ReadProblem:
    """Why a file's text is unavailable (or suspicious): ``kind`` is one of
    ``unreadable``, ``too-large``, ``binary``, ``invalid-utf8``."""

    kind: str
    detail: str
    offset: int = 0


class Known(NamedTuple):
    """What the cache knows of an unchanged file without reading it."""

    digest: bytes
    has_directive: bool  # whether its text mentions ``memlint:`` (a suppression)


def _read_first(slot: str) -> property:
    """A ``SourceFile`` attribute set by reading the file: a deferred file is read
    on first access."""
    stored = getattr(_SourceSlots, slot)

    def get(self):
        if self._pending is not None:
            self._read_pending()
        return stored.__get__(self)

    return property(get, stored.__set__)


DEFERRED = (b"", None, False, None, 0)  # raw, text, bom, problem, mode until read


class _SourceSlots:
    __slots__ = ("_bom", "_mode", "_problem", "_raw", "_text")


class SourceFile(_SourceSlots):
    """A file's raw bytes and strictly decoded text (BOM removed), with positions.

    Offsets used by rules are indexes into ``text``. A file the cache knows
    unchanged is ``deferred``: nothing is read until its content is asked for.
    """

    __slots__ = (
        "_byte_marks",
        "_line_starts",
        "_pending",
        "display",
        "known",
        "notes",
        "path",
        "rel",
    )

    def __init__(
        self,
        path: str,
        rel: str,
        display: str,
        raw: bytes = b"",
        text: str | None = None,
        bom: bool = False,
        problem: ReadProblem | None = None,
        mode: int = 0,
    ) -> None:
        self.path = path
        self.rel = rel
        self.display = display
        self._raw = raw
        self._text = text
        self._bom = bom
        self._problem = problem
        self._mode = mode
        self.known: Known | None = None
        self._line_starts: list[int] | None = None
        self._byte_marks: tuple[str, list[int]] | None = None
        self._pending: Callable[[SourceFile], None] | None = None
        # a note store's records as parsed from ``raw`` (sources.jsonl.note_file)
        self.notes: tuple[bytes, object] | None = None

    @classmethod
    def deferred(
        cls,
        path: str,
        rel: str,
        display: str,
        known: Known | None,
        read: Callable[[SourceFile], None],
    ) -> SourceFile:
        """A file read by ``read(source)`` on first use of its content (``known``: what the
        cache knows of it, ``None`` when it is read for the first time)."""
        source = cls.__new__(cls)  # one per unchanged file of a warm run: no __init__ call
        source.path, source.rel, source.display, source.known = path, rel, display, known
        source._raw, source._text, source._bom, source._problem, source._mode = DEFERRED
        source._line_starts, source._pending, source.notes = None, read, None
        source._byte_marks = None
        return source

    def release(self, known: Known, read: Callable[[SourceFile], None]) -> None:
        """Drop the content (``known`` says what it was): ``read(source)`` reads it again
        on first use. The process that holds a large store keeps no file's text."""
        self.known = known
        self._raw, self._text, self._bom, self._problem, self._mode = DEFERRED
        self._line_starts, self._pending = None, read

    @property
    def pending(self) -> Callable[[SourceFile], None] | None:
        """How the content is read on first use, while it is not read."""
        return self._pending

    def _read_pending(self) -> None:
        read = self._pending
        if read is not None:
            self._pending = None
            read(self)

    raw = _read_first("_raw")
    bom = _read_first("_bom")
    problem = _read_first("_problem")
    mode = _read_first("_mode")

    @property
    def text(self) -> str | None:  # the hot one: written out, not through _read_first
        if self._pending is not None:
            self._read_pending()
        return self._text

    @text.setter
    def text(self, value: str | None) -> None:
        self._text = value

    @property
    def readable(self) -> bool:
        """Whether the text is (or, deferred, is known to be) available."""
        return self._pending is not None or self._text is not None

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            text = self.text or ""
            find = text.find
            pos = find("\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def position(self, offset: int) -> Position:
        starts = self.line_starts
        line = bisect_right(starts, offset) - 1
        return Position(line + 1, offset - starts[line] + 1)

    def range(self, start: int, end: int | None = None) -> Range:
        return Range(self.position(start), self.position(start if end is None else end))

    def line_span(self, line: int) -> tuple[int, int]:
        """Offsets of 1-based ``line`` without its line break."""
        starts = self.line_starts
        start = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(self.text or "")
        if end > start and (self.text or "")[end - 1] == "\r":
            end -= 1
        return start, end

    def line_text(self, line: int) -> str:
        start, end = self.line_span(line)
        return (self.text or "")[start:end]

    def byte_offset(self, offset: int) -> int:
        text = self.text or ""
        bom = 3 if self.bom else 0
        if not 0 <= offset <= len(text):
            return len(text[:offset].encode("utf-8", "surrogatepass")) + bom
        if text.isascii():  # isascii is O(1)
            return offset + bom
        # a long file (an index) gets many edits: count from the nearest kept mark
        mark = offset // BYTE_MARK
        marks = self._byte_marks
        if marks is None or marks[0] is not text:
            marks = self._byte_marks = (text, _byte_marks(text))
        start = mark * BYTE_MARK
        return marks[1][mark] + len(text[start:offset].encode("utf-8", "surrogatepass")) + bom

    def edit(self, start: int, end: int, content: str) -> Edit:
        return Edit(
            self.path,
            self.byte_offset(start),
            self.byte_offset(end),
            content,
            self.range(start, end),
        )

    @property
    def newline(self) -> str:
        """The line ending this file uses (CRLF when its first line break is CRLF)."""
        text = self.text or ""
        pos = text.find("\n")
        return "\r\n" if pos > 0 and text[pos - 1] == "\r" else "\n"


def _byte_marks(text: str) -> list[int]:
    """The UTF-8 byte offset of every ``BYTE_MARK``-th character of ``text``."""
    marks = [0]
    for start in range(0, len(text) - BYTE_MARK + 1, BYTE_MARK):
        chunk = text[start : start + BYTE_MARK]
        marks.append(marks[-1] + len(chunk.encode("utf-8", "surrogatepass")))
    return marks


def read_source(path: str, rel: str, display: str, max_bytes: int) -> SourceFile:
    """Read a regular file without following links, capping the size, decoding strictly."""
    source = SourceFile(path=path, rel=rel, display=display)
    read_into(source, max_bytes)
    return source


def read_into(source: SourceFile, max_bytes: int) -> None:
    """Fill ``source`` from its path: bytes, text, mode, or the problem met."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(source.path, flags)
    except OSError as exc:
        source.problem = ReadProblem("unreadable", exc.strerror or type(exc).__name__)
        return
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            source.problem = ReadProblem("unreadable", "not a regular file")
            return
        source.mode = st.st_mode
        if st.st_size > max_bytes:
            source.problem = ReadProblem(
                "too-large", f"{st.st_size} bytes, over the {max_bytes} cap"
            )
            return
        raw = _read_all(fd, st.st_size, max_bytes + 1)
    except OSError as exc:
        source.problem = ReadProblem("unreadable", exc.strerror or type(exc).__name__)
        return
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        source.problem = ReadProblem("too-large", f"over the {max_bytes}-byte cap")
        return
    decode_into(source, raw)


def _read_all(fd: int, expected: int, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``fd``: one read when the file is still ``expected`` long
    (a short read of a regular file is its end), more reads if it grew meanwhile."""
    chunks = []
    remaining = limit
    while remaining > 0:
        wanted = min(remaining, expected + 1, 1 << 20)
        chunk = os.read(fd, wanted)
        chunks.append(chunk)
        remaining -= len(chunk)
        if len(chunk) < wanted:
            break
    return b"".join(chunks)


def decode_into(source: SourceFile, raw: bytes) -> None:
    """Set ``text``/``bom``/``problem`` of ``source`` from ``raw`` bytes."""
    source.raw = raw
    encoding = sniff_utf16_32(raw)
    if encoding:
        source.problem = ReadProblem("binary", f"looks like {encoding}, not UTF-8")
        return
    nul = raw.find(b"\x00")
    if nul != -1:
        source.problem = ReadProblem("binary", "contains NUL bytes", nul)
        return
    body = raw[3:] if raw.startswith(BOM_BYTES) else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start + (len(raw) - len(body))
        source.problem = ReadProblem("invalid-utf8", f"invalid UTF-8 at byte {offset}", offset)
        return
    source.bom = body is not raw
    source.text = text


def sniff_utf16_32(raw: bytes) -> str | None:
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    sample = raw[:64]
    if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
        return "UTF-16 or UTF-32 (no BOM)"
    return None
