"""## What it does
Reports a required frontmatter key (`name`, `description`, the type) whose
value is empty or null.

## Why is this bad?
An empty `name` cannot be linked, an empty description tells the agent
nothing, and an empty type is no type.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description:
metadata:
  type: user
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
No fix: the values cannot be invented.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.fm.common import required_fields, usable

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM008",
    name="empty-required-value",
    summary="Required frontmatter value is empty",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if not usable(memory):
        return
    for key, found in required_fields(memory, ctx.store.profile):
        if found is None:
            continue
        value = found.value
        if value is None or (isinstance(value, str) and not value.strip()):
            yield ctx.report(memory.file, found.key_start, found.key_start, f"`{key}` is empty")
