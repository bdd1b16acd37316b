"""## What it does
Reports, as information, a Markdown file of a store whose name is in capitals
(`DEPLOY.md`, `NOTES.md`) and that has no frontmatter: a document kept in the
memory folder, not a memory. The memory rules (FM001, ID004, IX002, IX001's
entries) leave such a file alone; this one finding says the agent never
loads it. `README.md`, `SCHEMA.md`, `CLAUDE.md`, `AGENTS.md` and
`CHANGELOG.md` are excluded from stores by default and are not reported.

## Why is this bad?
It is not wrong to keep a document next to the memories, but the agent does
not load it as a memory: if it holds something the agent must know, it
belongs in a memory file (with frontmatter and an index entry).

## Example
```memlint-bad path=DEPLOY.md
# Deploy

Run `make deploy` from a clean checkout.
```

Use instead: keep the document outside the memory folder, or make it a
memory:
```memlint-good path=reference_deploy.md
---
name: Deploy
description: How to deploy
type: reference
---

Run `make deploy` from a clean checkout.
```
```memlint-file path=MEMORY.md
- [Deploy](reference_deploy.md) — How to deploy
```

## Fix safety
No fix: whether the document moves or becomes a memory is the author's choice.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="ID008",
    name="folder-document",
    summary="A document without frontmatter (DEPLOY.md) in a memory store",
    severity=Severity.INFO,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if memory.is_document:
        message = f"`{memory.file.rel}` is a document of the folder (no frontmatter), not a memory"
        yield ctx.report(memory.file, 0, 0, message)
