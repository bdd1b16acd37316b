"""## What it does
Reports a memory file that no `MEMORY.md` entry links to (when a list item
names the file without linking it, IX013 reports that line instead).

In a `linked` store with no `MEMORY.md` at all, every memory file is
reported (seed 001: "the index and the files must agree in both
directions"); IX001 offers to create the index.

## Why is this bad?
The agent discovers memories through the index. An unindexed file is never
loaded: the fact it holds is lost although it is on disk.

## Example
The store holds two memories:
```memlint-file path=user_role.md
---
name: User role
description: Backend lead on the payments team
type: user
---

Backend lead on the payments team; reviews every schema change.
```
```memlint-file path=feedback_testing.md
---
name: Testing
description: Run the full suite before pushing
type: feedback
---

Run `make test` before every push.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

`MEMORY.md` lists only one of them:
```memlint-bad path=MEMORY.md
# Memory

- [User role](user_role.md) — Backend lead on the payments team
```

Use instead:
```memlint-good path=MEMORY.md
# Memory

- [User role](user_role.md) — Backend lead on the payments team
- [Testing](feedback_testing.md) — Run the full suite before pushing
```

## Fix safety
Safe: the fix adds one entry line per unindexed memory, built from its `name`
(or filename) and `description` (shortened with `…` to keep the line within
IX007's 150 characters), in the index's own line ending style; the entries of
one run go in together, in one round. They go where the agent loads them:
after the last entry of the section whose entries share the memory's type,
else after the last entry, never into an unclosed comment, fence or block. No
existing line changes. The fix is withheld when the index is past, or would
pass, the loader's cut (IX008).
Without an index there is no fix here: IX001's fix creates the index with
every entry.
"""

from __future__ import annotations

import os

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.content import named_bullets
from memlint.rules.ix.resolve import insertion_edits
from memlint.rules.shared import LOADER

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

INDEX_NAME = "MEMORY.md"

META = RuleMeta(
    code="IX002",
    name="unindexed-memory",
    summary="Memory file has no entry in MEMORY.md",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
    fix=FixAvailability.ALWAYS,
    shared=(*LOADER, "index-line-length"),
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    if store.index is None:
        if store.profile == "linked" and _no_index_at_all(store):
            yield from _unindexed_without_index(ctx, store)
        return
    if store.report is not None and all(map(store.indexed_by_path, store.reported_memories)):
        return  # nothing shown can be unindexed: the entries need not all be resolved
    indexed = set(store.indexed_memories)
    if ctx.selected("IX013"):  # a line names the memory: IX013 asks to link it instead
        indexed.update(id(bullet.memory) for bullet in named_bullets(store))
    missing = [m for m in store.memories if id(m) not in indexed and not m.is_document]
    if not missing:
        return
    edits = insertion_edits(store, missing, ctx.shared)
    refused = isinstance(edits, str)
    notes = (f"no automatic fix: {edits}",) if refused else ()
    for position, memory in enumerate(missing):
        fix = None
        if not isinstance(edits, str):
            edit = edits[position]
            fix = Fix.safe(f"Add `{edit.content.strip()}` to MEMORY.md", edit)
        message = f"`{memory.file.rel}` has no entry in MEMORY.md, so the agent never loads it"
        yield ctx.report(memory.file, 0, 0, message, fix, notes=notes)


def _no_index_at_all(store) -> bool:
    """No ``MEMORY.md`` of any kind (not even unreadable, a link or excluded)."""
    if store.index_entry is not None:
        return False
    top_level = {s.rel for s in store.files} | set(store.excluded)
    return INDEX_NAME not in top_level and not any(
        os.path.basename(s.path) == INDEX_NAME for s in store.skipped
    )


def _unindexed_without_index(ctx, store):
    """The linked contract: "the index and the files must agree in both directions",
    so a store without an index leaves every memory unindexed (IX001 creates it)."""
    for memory in store.memories:
        message = (
            f"`{memory.file.rel}` has no entry: the store has no MEMORY.md, and in a linked "
            "store the index and the files must agree"
        )
        yield ctx.report(memory.file, 0, 0, message)
