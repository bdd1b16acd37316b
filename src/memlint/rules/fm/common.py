"""Helpers shared by the FM rules: frontmatter problems and required fields."""

from __future__ import annotations

from memlint.sources.frontmatter import Field, Frontmatter

UNUSABLE = frozenset({"unclosed", "invalid-yaml", "too-large", "too-deep", "not-mapping"})


def problems(memory, kinds: frozenset[str] | set[str]):
    """The frontmatter problems of ``memory`` whose kind is in ``kinds``."""
    fm = memory.frontmatter
    if fm is None or not fm.problems:
        return []
    return [p for p in fm.problems if p.kind in kinds]


def usable(memory) -> Frontmatter | None:
    """The memory's frontmatter when it is a mapping the field rules can judge, else None."""
    fm = memory.frontmatter
    if fm is None or not fm.parsed:
        return None
    return fm if not fm.problems or not problems(memory, UNUSABLE) else None


def type_key(memory, profile: str) -> str:
    """Where the memory type is written (or expected) for this memory."""
    fm = memory.frontmatter
    if fm is not None and "type" in fm.fields:
        return "type"
    if fm is not None and fm.nested("metadata", "type") is not None:
        return "metadata.type"
    return "metadata.type" if profile == "linked" else "type"


def required_fields(memory, profile: str) -> list[tuple[str, Field | None]]:
    """``(key, field or None)`` for name, description and the memory type."""
    fm = memory.frontmatter
    return [
        ("name", fm.fields.get("name")),
        ("description", fm.fields.get("description")),
        (type_key(memory, profile), memory.type_field),
    ]
