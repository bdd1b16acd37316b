"""## What it does
Reports a `MEMORY.md` that starts with a YAML frontmatter block.

## Why is this bad?
The typed contract says the index has no frontmatter. The loader strips it,
so whatever it says never reaches the agent, and tools that rewrite the index
may drop or duplicate it.

## Example
```memlint-bad path=MEMORY.md
---
title: Memory index
---
- [Role](user_role.md) — Backend lead
```

Use instead: the entries alone, or a `# Memory` heading:
```memlint-good path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead
```
```memlint-file path=user_role.md
---
name: Role
description: Backend lead
type: user
---

Backend lead on the payments team.
```

## Fix safety
No fix: the block may hold something the author wants to move elsewhere.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX011",
    name="index-frontmatter",
    summary="MEMORY.md has a frontmatter block",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=TYPED,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    frontmatter = index.frontmatter
    if frontmatter is None:
        return
    message = "the index has a frontmatter block; the loader strips it, so the agent never sees it"
    yield ctx.report(index.file, 0, 3, message)
