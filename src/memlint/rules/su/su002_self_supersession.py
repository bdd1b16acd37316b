"""## What it does
Reports a memory that is superseded by itself: the successor link names
this memory's own `name` or its own filename.

## Why is this bad?
The memory is marked retired but no replacement exists; the agent is sent
in a circle. This is an error that gates.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: superseded by [[coffee]]
metadata:
  type: user
---

Black filter coffee.
```

Use instead: name a different memory, the one that replaces this one:
```memlint-good path=coffee.md
---
name: coffee
description: superseded by [[coffee-v2]]
metadata:
  type: user
---

Black filter coffee.
```
```memlint-file path=coffee-v2.md
---
name: coffee-v2
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.su.common import classify
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Store

META = RuleMeta(
    code="SU002",
    name="self-supersession",
    summary="Memory is superseded by itself",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    if memory.supersession is None or classify(ctx.store, memory)[0] != "self":
        return
    link = memory.supersession.link
    yield ctx.report(
        memory.file,
        link.target_start,
        link.target_end,
        f"memory is superseded by itself (`[[{escape(shorten(link.target, 60))}]]`)",
    )
