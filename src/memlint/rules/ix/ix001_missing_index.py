"""## What it does
Reports a store that has memory files but no `MEMORY.md` index.

## Why is this bad?
The agent loads only the index at the start of a session; without it, no
memory is ever found unless the agent happens to list the folder.

## Example
A folder with `user_role.md` and `feedback_testing.md` and nothing else.

Use instead: the same folder with a `MEMORY.md` linking each file:
`- [User role](user_role.md) — who the user is`.

## Fix safety
Safe: the fix creates `MEMORY.md` with one entry per memory (its `name` or
filename as title, its `description` as summary, shortened with `…` to keep
the line within IX007's 150 characters). It is never offered when a
case variant such as `memory.md` exists, since creating the index next to it
would collide on case-insensitive file systems.
"""

from __future__ import annotations

import os

from memlint.diagnostics import Edit, Fix, FixAvailability, Range, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.resolve import entry_line
from memlint.store import fold

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

INDEX_NAME = "MEMORY.md"

META = RuleMeta(
    code="IX001",
    name="missing-index",
    summary="Store has memory files but no MEMORY.md",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
    shared=("index-line-length",),
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    if store.index is not None or store.index_entry is not None:
        return
    memories = [memory for memory in store.memories if not memory.is_document]
    if not memories:
        return
    top_level = [s.rel for s in store.files if "/" not in s.rel] + [
        rel for rel in store.excluded if "/" not in rel
    ]
    top_level += [os.path.basename(s.path) for s in store.skipped]
    if INDEX_NAME in top_level:
        return
    variant = next((rel for rel in top_level if fold(rel) == fold(INDEX_NAME)), None)
    path = os.path.join(store.root, INDEX_NAME)
    first = memories[0].file  # reported where it exists: the store's first memory
    count = len(memories)
    if variant is not None:
        message = (
            f"store has {count} memory file(s) but no {INDEX_NAME}; `{variant}` differs "
            f"only in case (rename it to {INDEX_NAME})"
        )
        at = next((s for s in store.files if s.rel == variant), first)
        yield ctx.report_at(at.path, at.display, Range.file_start(), message)
        return
    width = ctx.shared("index-line-length")
    content = "".join(entry_line(memory, width) + "\n" for memory in memories)
    edit = Edit(path, 0, 0, content, Range.file_start(), create=True)
    fix = Fix.safe(f"Create {INDEX_NAME} with {count} entries", edit)
    message = f"store has {count} memory file(s) but no {INDEX_NAME} index"
    yield ctx.report_at(first.path, first.display, Range.file_start(), message, fix)
