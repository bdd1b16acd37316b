"""Where the CT rules look for what a memory says: the description's value and the
body's prose lines (code and comments masked), and how they name the first find."""

from collections.abc import Callable

from memlint.sources.markdown import prose_lines

Spans = list[tuple[int, int]]


def spans_in_memory(memory, find: Callable[[str, int, int], Spans]) -> Spans:
    """The spans ``find(text, start, end)`` returns in the description and the prose,
    as offsets into the file's text."""
    text = memory.file.text or ""
    found: Spans = []
    description = memory.frontmatter.fields.get("description")
    if description is not None and isinstance(description.value, str):
        found += find(text, description.value_start, description.value_end)
    for offset, line in prose_lines(text, memory.body_start):
        found += [(offset + a, offset + b) for a, b in find(line, 0, len(line))]
    return found


def first_and_more(found: Spans) -> tuple[int, int, str]:
    """The first span and `` (and N more)`` when there are others."""
    start, end = min(found)
    return start, end, f" (and {len(found) - 1} more)" if len(found) > 1 else ""
