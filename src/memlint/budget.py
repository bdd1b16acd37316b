"""Simulate how Claude Code loads ``MEMORY.md`` into a session, line by line.

The loader (verified against Claude Code's documented behaviour, v2.1.211+):

1. strips the YAML frontmatter and block-level HTML comments (lines from a
   `<!--` at the start of a line, at most 3 spaces in, to the line holding `-->`,
   outside fenced code);
2. trims leading and trailing whitespace of what is left;
3. keeps the first 200 lines;
4. if that is still over 25,000 size units, cuts at the last line break at or
   before unit 25,000 (mid-line only when the first line alone is too long).

"25KB" is 25,000 (not 25 * 1024): that is the loader's constant. The loader
counts JavaScript string length, i.e. UTF-16 code units; the documentation
calls the unit bytes, and forks count UTF-8 bytes. memlint counts UTF-8 bytes
by default (never fewer than UTF-16 units, so every real cut is reported) and
``size-unit = "utf-16"`` reproduces the current loader exactly.
"""

from __future__ import annotations

from memlint.records import dataclass, field, replace
from memlint.sources.markdown import FENCE

MAX_LINES = 200
MAX_SIZE = 25_000
WARN_LINES = 140
SIZE_UNITS = ("bytes", "utf-16")


@dataclass(frozen=True, slots=True)
class LoadedLine:
    """One line the loader sees: its 1-based ``number`` in the file and its text."""

    number: int
    text: str


@dataclass(slots=True)
class LoadResult:
    """What the agent sees: ``lines[:kept]`` whole, plus ``partial`` characters of
    ``lines[kept]`` when the size cut falls inside a line."""

    lines: list[LoadedLine]
    kept: int
    partial: int = 0
    size: int = 0
    unit: str = "bytes"
    reason: str | None = None
    stripped: list[int] = field(default_factory=list)

    @property
    def cut(self) -> bool:
        return self.reason is not None

    @property
    def first_lost(self) -> LoadedLine | None:
        """The first line that is not loaded whole (``None`` when nothing is cut)."""
        return self.lines[self.kept] if self.kept < len(self.lines) else None

    def lost_numbers(self) -> set[int]:
        """Numbers of the file's lines that do not reach the agent whole."""
        return {line.number for line in self.lines[self.kept :]}


def measure(text: str, unit: str) -> int:
    if unit == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


def stripped_lines(text: str, body_start: int) -> tuple[list[LoadedLine], list[int]]:
    """The lines after the frontmatter, without block HTML comments, and the
    numbers of the lines removed as comments."""
    first_number = text.count("\n", 0, body_start) + 1
    body = text[body_start:]
    if "<!--" not in body and "```" not in body and "~~~" not in body:  # no comment, no fence
        lines = body.split("\n")
        return list(map(LoadedLine, range(first_number, first_number + len(lines)), lines)), []
    kept: list[LoadedLine] = []
    removed: list[int] = []
    fence: str | None = None
    in_comment = False
    for offset, line in enumerate(body.split("\n")):
        number = first_number + offset
        if in_comment:
            removed.append(number)
            in_comment = "-->" not in line
            continue
        if fence is not None:
            stripped = line.lstrip(" ")
            if stripped.startswith(fence) and not stripped.strip(fence[0] + " \t\r"):
                fence = None
        else:
            opener = FENCE.match(line)
            if opener:
                fence = opener.group(1)
            elif line.lstrip(" ").startswith("<!--") and len(line) - len(line.lstrip(" ")) <= 3:
                removed.append(number)
                in_comment = "-->" not in line[line.index("<!--") + 4 :]
                continue
        kept.append(LoadedLine(number, line))
    return kept, removed


def simulate(
    text: str,
    body_start: int,
    max_lines: int = MAX_LINES,
    max_size: int = MAX_SIZE,
    unit: str = "bytes",
) -> LoadResult:
    """Load ``text`` (a ``MEMORY.md``) the way the agent's loader does."""
    lines, removed = stripped_lines(text, body_start)
    while lines and not lines[0].text.strip():
        lines.pop(0)
    while lines and not lines[-1].text.strip():
        lines.pop()
    if lines:
        lines[0] = LoadedLine(lines[0].number, lines[0].text.lstrip())
        lines[-1] = LoadedLine(lines[-1].number, lines[-1].text.rstrip())
    sizes = [measure(line.text, unit) for line in lines]
    total = sum(sizes) + max(len(lines) - 1, 0)
    result = LoadResult(lines, len(lines), size=total, unit=unit, stripped=removed)
    kept = min(len(lines), max_lines)
    if kept < len(lines):
        result.reason = f"{len(lines)} lines, over the {max_lines}-line limit"
    kept_size = sum(sizes[:kept]) + max(kept - 1, 0)
    if kept_size > max_size:
        position = 0
        fitting = 0
        for index in range(kept):
            position += sizes[index]
            if position > max_size:
                break
            fitting = index + 1
            position += 1
        if fitting == 0:
            result.partial = _prefix_fitting(lines[0].text, max_size, unit)
        size_reason = f"{total} {unit}, over the {max_size}-{unit} limit"
        result.reason = f"{result.reason} and {size_reason}" if result.reason else size_reason
        kept = fitting
    result.kept = kept
    return result


def _prefix_fitting(text: str, limit: int, unit: str) -> int:
    """How many characters of ``text`` fit in ``limit`` units."""
    used = 0
    for count, char in enumerate(text):
        used += measure(char, unit)
        if used > limit:
            return count
    return len(text)


def loader_limits(shared) -> dict:
    """``simulate``'s limits from the shared settings ``loader-max-lines``, ``-max-size``
    and ``-size-unit`` (``[shared]``), read one by one with ``shared(name)``."""
    return {
        "max_lines": shared("loader-max-lines"),
        "max_size": shared("loader-max-size"),
        "unit": shared("loader-size-unit"),
    }


def describe(result: LoadResult) -> str:
    """The loaded text as the agent sees it, with a marker line where the cut is
    and the lost lines after it (``--show-loaded``)."""
    out: list[str] = []
    for line in result.lines[: result.kept]:
        out.append(f"{line.number:>5} | {line.text}\n")
    lost = result.lines[result.kept :]
    if result.partial:
        first = lost[0]
        out.append(f"{first.number:>5} | {first.text[: result.partial]}\n")
    if result.cut:
        out.append(f"----- cut: {result.reason}; the agent does not see what follows -----\n")
        for line in lost:
            out.append(f"{line.number:>5} x {line.text}\n")
    else:
        out.append(
            f"----- loaded whole: {len(result.lines)} lines, {result.size} {result.unit} -----\n"
        )
    return "".join(out)


def loaded_text(stores, settings) -> str:
    """``--show-loaded``: every store's index as the loader sees it."""
    from memlint.textutil import escape, shown

    limits = loader_limits(settings.shared_value)
    out: list[str] = []
    for store in stores:
        index = store.index
        if index is None:
            continue
        text = index.file.text or ""
        result = simulate(text, index.body_start, **limits)
        out.append(f"==> {shown(index.file.display)} ({store.profile})\n")
        if result.stripped:
            out.append(f"      (stripped as HTML comments: {_ranges(result.stripped)})\n")
        masked = replace(result, lines=_masked_lines(text, result.lines))
        out.extend(escape(line) + "\n" for line in describe(masked).splitlines())
    return "".join(out)


def _masked_lines(text: str, lines: list[LoadedLine]) -> list[LoadedLine]:
    """``lines`` of ``text`` with secrets masked, found in the whole text (a key block
    spans lines) and masked to the same length (so a partial cut stays where it is)."""
    from memlint.privacy import mask_text

    originals = text.split("\n")
    masked = mask_text(text).split("\n")
    shown = []
    for line in lines:
        # A loaded line is its file line, maybe stripped: find where it starts.
        start = originals[line.number - 1].find(line.text)
        end = start + len(line.text)
        shown.append(LoadedLine(line.number, masked[line.number - 1][start:end]))
    return shown


def _ranges(numbers: list[int]) -> str:
    """``1, 2, 3, 7`` -> ``lines 1-3, 7``."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and spans[-1][1] == number - 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    parts = [f"{a}-{b}" if a != b else str(a) for a, b in spans]
    return "lines " + ", ".join(parts)
