"""Reading files safely and mapping text offsets to positions and byte spans."""

from __future__ import annotations

import os
import stat
from bisect import bisect_right
from dataclasses import dataclass, field

from memlint.diagnostics import Edit, Position, Range

BOM = "\ufeff"
BOM_BYTES = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class ReadProblem:
    """Why a file's text is unavailable (or suspicious): ``kind`` is one of
    ``unreadable``, ``too-large``, ``binary``, ``invalid-utf8``."""

    kind: str
    detail: str
    offset: int = 0


@dataclass(slots=True, eq=False)
class SourceFile:
    """A file's raw bytes and strictly decoded text (BOM removed), with positions.

    Offsets used by rules are indexes into ``text``.
    """

    path: str
    rel: str
    display: str
    raw: bytes = b""
    text: str | None = None
    bom: bool = False
    problem: ReadProblem | None = None
    mode: int = 0
    _line_starts: list[int] | None = field(default=None, repr=False)

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
        prefix = (self.text or "")[:offset]
        return len(prefix.encode("utf-8", "surrogatepass")) + (3 if self.bom else 0)

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


def read_source(path: str, rel: str, display: str, max_bytes: int) -> SourceFile:
    """Read a regular file without following links, capping the size, decoding strictly."""
    source = SourceFile(path=path, rel=rel, display=display)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        source.problem = ReadProblem("unreadable", exc.strerror or type(exc).__name__)
        return source
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            source.problem = ReadProblem("unreadable", "not a regular file")
            return source
        source.mode = st.st_mode
        if st.st_size > max_bytes:
            source.problem = ReadProblem(
                "too-large", f"{st.st_size} bytes, over the {max_bytes} cap"
            )
            return source
        raw = _read_all(fd, st.st_size, max_bytes + 1)
    except OSError as exc:
        source.problem = ReadProblem("unreadable", exc.strerror or type(exc).__name__)
        return source
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        source.problem = ReadProblem("too-large", f"over the {max_bytes}-byte cap")
        return source
    source.raw = raw
    decode_into(source, raw)
    return source


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
