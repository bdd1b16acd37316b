"""## What it does
Reports a memory type (`type` or `metadata.type`) that is not one of
`user`, `feedback`, `project`, `reference`.

## Why is this bad?
Agents decide how to use a memory from its type; an unknown type is
ignored or misfiled.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: prefers espresso
metadata:
  type: preference
---
Prefers espresso.
```

Use instead:
```memlint-good path=coffee.md
---
name: coffee
description: prefers espresso
metadata:
  type: user
---
Prefers espresso.
```

## Fix safety
No fix: the intended type is a judgement call.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.fm.common import type_key, usable
from memlint.store import MEMORY_TYPES
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM010",
    name="invalid-memory-type",
    summary="Memory type is not user, feedback, project or reference",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if not usable(memory):
        return
    found = memory.type_field
    if found is None or not isinstance(found.value, str) or not found.value.strip():
        return
    if found.value.strip() in MEMORY_TYPES:
        return
    yield ctx.report(
        memory.file,
        found.value_start,
        found.value_end,
        f"`{type_key(memory, ctx.store.profile)}` is `{escape(shorten(found.value, 40))}`; "
        f"use one of {', '.join(MEMORY_TYPES)}",
    )
