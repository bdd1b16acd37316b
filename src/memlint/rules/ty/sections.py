"""Finding a labelled section (``**Why:**``) in a memory body, outside code."""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.sources.markdown import prose_lines

SECTION_TYPES = ("feedback", "project")


@lru_cache(maxsize=32)
def label_pattern(labels: tuple[str, ...]) -> re.Pattern[str]:
    """``**L:**``, ``**L**:`` or a heading ``## L`` for any label ``L``."""
    names = "|".join(re.escape(label.strip()) for label in labels if label.strip())
    return re.compile(
        rf"\*\*[ \t]{{0,3}}(?:{names})[ \t]{{0,3}}(?::[ \t]{{0,3}}\*\*|\*\*[ \t]{{0,3}}:)"
        rf"|^[ \t]{{0,3}}#{{1,6}}[ \t]{{1,10}}(?:{names})[ \t]{{0,3}}:?[ \t#]{{0,10}}$",
        re.IGNORECASE,
    )


def labels_of(options: dict) -> tuple[str, ...]:
    value = options.get("labels", ())
    if isinstance(value, str):
        value = [value]
    return tuple(str(item)[:100] for item in value if str(item).strip())


def needs_sections(memory) -> bool:
    return memory.memory_type in SECTION_TYPES


def has_section(memory, labels: tuple[str, ...]) -> bool:
    if not labels:
        return True
    pattern = label_pattern(labels)
    text = memory.file.text or ""
    return any(pattern.search(line) for _, line in prose_lines(text, memory.body_start))


def report_missing(ctx, memory, what: str):
    """The diagnostic for a missing section, at the memory's type value."""
    found = memory.type_field
    start, end = (found.value_start, found.value_end) if found else (0, 0)
    message = f"{memory.memory_type} memory has no {what} section"
    return ctx.report(memory.file, start, end, message)
