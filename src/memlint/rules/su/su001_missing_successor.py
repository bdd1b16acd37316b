"""## What it does
Reports `description: superseded by [[x]]` when `x` is not the `name` of
any memory (and no file is called `x.md` either; that case is SU005).

## Why is this bad?
Unlike an ordinary wikilink, a successor cannot be pending: the retired
memory points the agent at nothing, so the correction is lost. This is an
error that gates.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: superseded by [[coffee-v3]]
metadata:
  type: user
---

Black filter coffee.
```
(no memory is named `coffee-v3`)

Use instead: the name of the memory that replaces this one:
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
    code="SU001",
    name="missing-successor",
    summary="Supersession points at a memory that does not exist",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    if memory.supersession is None:
        return
    kind, near = classify(ctx.store, memory)
    if kind != "missing":
        return
    link = memory.supersession.link
    notes: tuple[str, ...] = ()
    if near is not None and near.name is not None:
        notes = (f"`{escape(shorten(near.name.strip(), 60))}` differs only in case",)
    yield ctx.report(
        memory.file,
        link.target_start,
        link.target_end,
        f"successor `[[{escape(shorten(link.target, 60))}]]` is not the name of any memory",
        notes=notes,
    )
