"""Where the CT rules look for what a memory says: the description's value and the
body's prose lines (code and comments masked), and how they name the first find."""

import re
from collections.abc import Callable, Iterable

from memlint.sources.markdown import prose_text

Spans = list[tuple[int, int]]


def spans_in_memory(
    memory,
    find: Callable[[str, int, int], Spans],
    may_hold: Callable[[str, int, int], bool] | None = None,
) -> Spans:
    """The spans ``find(text, start, end)`` returns in the description and the prose,
    as offsets into the file's text. ``find`` must never match a line break, so that
    the prose is searched whole. ``may_hold(text, start, end)``, when given, says
    whether the raw body may hold a match at all: when not, its prose is not built.
    Masking only blanks characters, and each blanked run is bounded by a backtick,
    ``<`` or ``>``, or a line break, so every word, mark and bracket of the prose is
    in the raw body at the same offset, with the same neighbours or non-word ones."""
    text = memory.file.text or ""
    found: Spans = []
    description = memory.frontmatter.fields.get("description")
    if description is not None and isinstance(description.value, str):
        found += find(text, description.value_start, description.value_end)
    body_start = memory.body_start
    if may_hold is not None and not may_hold(text, body_start, len(text)):
        return found
    prose = prose_text(text, body_start)  # CT patterns never match a line break
    found += [(body_start + a, body_start + b) for a, b in find(prose, 0, len(prose))]
    return found


def first_and_more(found: Spans) -> tuple[int, int, str]:
    """The first span and `` (and N more)`` when there are others."""
    start, end = min(found)
    return start, end, f" (and {len(found) - 1} more)" if len(found) > 1 else ""


# Every ASCII byte that is not ``[\w-]`` becomes a space (text is lower-cased first);
# a table for ``bytes.translate``, many times faster than ``str.translate``'s dict.
_NOT_WORD = bytes(
    c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789_-" else 32 for c in range(256)
)


def ascii_word_run(text: str, start: int, end: int) -> bytes | None:
    """The lower-cased ``[\\w-]+`` runs of ``text[start:end]`` (ASCII bytes), each
    between spaces (every other byte is one, and one more is at each end), or ``None``
    when it is not ASCII. For ASCII text, ``re.IGNORECASE`` matching is plain
    lower-case matching, so a rule can rule a pattern out by its words: a search with
    ``word_pattern`` is one pass of C code over the text."""
    part = text[start:end]
    if not part.isascii():
        return None
    return b" " + part.encode("ascii").lower().translate(_NOT_WORD) + b" "


def word_pattern(words: Iterable[bytes]) -> bytes:
    """A pattern finding in an ``ascii_word_run`` any of ``words`` (lower-case
    ``[\\w-]+`` runs) as a whole word. ``re`` scans for the spaces with its
    literal-prefix loop and tries the words there by their first letter (one
    alternative each), instead of making a bytes object of every word of the text:
    12 -> 7 us for a 900-character memory."""
    by_first: dict[bytes, list[bytes]] = {}
    for word in sorted(words):
        by_first.setdefault(word[:1], []).append(re.escape(word[1:]))
    branches = [
        re.escape(first) + b"(?:" + b"|".join(rests) + b")"
        for first, rests in sorted(by_first.items())
    ]
    return b" (?:" + b"|".join(branches) + b")(?= )"
