"""## What it does
Reports a memory whose frontmatter lacks `name`, `description` or the memory
type. The type may be written as `type` or as `metadata.type` (the `linked`
contract asks for `metadata.type`; both are accepted).

## Why is this bad?
Links resolve against `name`, the index and the agent's memory selection
read `description`, and the type decides how a memory is used.

## Example
```memlint-bad path=coffee.md
---
name: coffee
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
    code="FM007",
    name="missing-required-key",
    summary="Frontmatter lacks name, description or type",
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
            yield ctx.report(memory.file, 0, 3, f"frontmatter has no `{key}` key")
