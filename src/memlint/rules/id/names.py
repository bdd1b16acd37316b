"""Name fields of colliding memories, shared by ID003 and ID007."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from memlint.sources.frontmatter import Field
    from memlint.store import Memory, Store


def reported_name_fields(
    store: Store, memories: Iterable[Memory]
) -> Iterator[tuple[Memory, Field]]:
    """Each of ``memories`` the run reports on, with its ``name:`` field; the others are
    not loaded for nothing (pre-commit names one file)."""
    for memory in memories:
        if not store.reports_on(memory.file.path):
            continue
        frontmatter = memory.frontmatter
        if frontmatter is not None:  # (a memory with a name has frontmatter)
            yield memory, frontmatter.fields["name"]
