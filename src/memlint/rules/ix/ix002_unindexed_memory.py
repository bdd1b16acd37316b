"""## What it does
Reports a memory file that no `MEMORY.md` entry links to.

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
Safe: the fix appends one entry line at the end of the index, built from the
memory's `name` (or filename) and `description`, in the index's own line
ending style. No existing line changes.
"""

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.resolve import append_edit, entry_line, indexed_memories

META = RuleMeta(
    code="IX002",
    name="unindexed-memory",
    summary="Memory file has no entry in MEMORY.md",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
    fix=FixAvailability.ALWAYS,
)


def check(ctx, store):
    if store.index is None:
        return
    indexed = indexed_memories(store)
    for memory in store.memories:
        if id(memory) in indexed:
            continue
        line = entry_line(memory)
        fix = Fix.safe(f"Append `{line}` to MEMORY.md", append_edit(store, [line]))
        message = f"`{memory.file.rel}` has no entry in MEMORY.md, so the agent never loads it"
        yield ctx.report(memory.file, 0, 0, message, fix)
