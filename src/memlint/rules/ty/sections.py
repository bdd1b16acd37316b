"""Finding a labelled section (``**Why:**``) in a memory body, outside code.

A label counts as present in its canonical forms (``**Why:**``, ``**Why**:``,
a ``## Why`` heading), as a qualified bold label (``**Why this project:**``)
and in the variants TY003 rewrites: a full-width colon (``**Why**：``) or no
bold at the start of a line (``Why:``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.records import dataclass
from memlint.sources.markdown import prose_lines

SECTION_TYPES = ("feedback", "project")


@dataclass(frozen=True, slots=True)
class Variant:
    """A label written in a non-canonical form at ``start``..``end`` of the file text."""

    label: str
    start: int
    end: int
    written: str


@lru_cache(maxsize=32)
def label_pattern(labels: tuple[str, ...]) -> re.Pattern[str]:
    """``**L:**``, ``**L**:``, ``**L <qualifier>:**`` or a heading ``## L`` for any label ``L``."""
    names = _names(labels)
    return re.compile(
        rf"\*\*[ \t]{{0,3}}(?:{names})(?:[ \t]{{1,3}}[^*:\n]{{1,40}}?)?[ \t]{{0,3}}"
        rf"(?::[ \t]{{0,3}}\*\*|\*\*[ \t]{{0,3}}:)"
        rf"|^[ \t]{{0,3}}#{{1,6}}[ \t]{{1,10}}(?:{names})[ \t]{{0,3}}:?[ \t#]{{0,10}}$",
        re.IGNORECASE,
    )


@lru_cache(maxsize=32)
def variant_pattern(label: str) -> re.Pattern[str]:
    """``**L：**`` / ``**L**：`` (full-width colon), or ``L:`` unbolded at the start of a
    line or list item; the group ``label`` spans what TY003 rewrites."""
    name = _names((label,))
    return re.compile(
        rf"(?P<label>\*\*[ \t]{{0,3}}(?:{name})[ \t]{{0,3}}"
        rf"(?:：[ \t]{{0,3}}\*\*|\*\*[ \t]{{0,3}}：))"
        rf"|^[ \t]{{0,3}}(?:[-*+][ \t]{{1,4}})?(?P<plain>(?:{name})[ \t]{{0,3}}[:：])",
        re.IGNORECASE,
    )


def _names(labels: tuple[str, ...]) -> str:
    return "|".join(re.escape(label.strip()) for label in labels if label.strip())


def section_labels(ctx, name: str) -> tuple[str, ...]:
    """The labels of the shared setting ``name`` (``why-labels``, ``how-to-apply-labels``)."""
    return tuple(label[:100] for label in ctx.shared(name) if label.strip())


def needs_sections(memory) -> bool:
    return memory.memory_type in SECTION_TYPES


def has_section(memory, labels: tuple[str, ...]) -> bool:
    """Whether the body holds one of ``labels`` in a canonical form or a TY003 variant."""
    if not labels:
        return True
    pattern = label_pattern(labels)
    variants = [variant_pattern(label) for label in labels]
    text = memory.file.text or ""
    return any(
        pattern.search(line) or any(v.search(line) for v in variants)
        for _, line in prose_lines(text, memory.body_start)
    )


def label_variants(memory, labels: tuple[str, ...]) -> list[Variant]:
    """Every label of ``labels`` written in a non-canonical form, in text order."""
    text = memory.file.text or ""
    found = []
    patterns = [(label, variant_pattern(label)) for label in labels]
    for offset, line in prose_lines(text, memory.body_start):
        for label, pattern in patterns:
            for match in pattern.finditer(line):
                group = "label" if match.group("label") else "plain"
                start, end = offset + match.start(group), offset + match.end(group)
                found.append(Variant(label.strip(), start, end, text[start:end]))
    return found


def report_missing(ctx, memory, what: str):
    """The diagnostic for a missing section, at the memory's type value."""
    found = memory.type_field
    start, end = (found.value_start, found.value_end) if found else (0, 0)
    message = f"{memory.memory_type} memory has {what}"
    return ctx.report(memory.file, start, end, message)
