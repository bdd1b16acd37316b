"""## What it does
Reports memories whose chain of successors loops back (a → b → a).

## Why is this bad?
Every memory on the loop is retired and none is current: the agent has no
valid fact to use. This is an error.

## Example
`coffee` is superseded by `coffee-v2`:
```memlint-file path=coffee.md
---
name: coffee
description: superseded by [[coffee-v2]]
metadata:
  type: user
---

Black filter coffee.
```

and `coffee-v2` points back at `coffee`:
```memlint-bad path=coffee-v2.md
---
name: coffee-v2
description: superseded by [[coffee]]
metadata:
  type: user
---

Oat flat white, no sugar.
```

Use instead: give the current memory a real description again:
```memlint-good path=coffee-v2.md
---
name: coffee-v2
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```

## Fix safety
No fix: which memory is current is the author's call.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.lk.resolve import chain_ends, successor
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="SU003",
    name="supersession-cycle",
    summary="Supersession chain loops",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
)

MAX_SHOWN = 5


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    _, on_cycle = chain_ends(store)
    for memory in filter(on_cycle.__contains__, store.memories):  # (none parsed to know)
        supersession = memory.supersession
        if supersession is None:
            continue
        link = supersession.link
        members = " → ".join(_loop(store, memory, on_cycle))
        yield ctx.report(
            memory.file, link.target_start, link.target_end, f"supersession cycle: {members}"
        )


def _loop(store, start, on_cycle):
    """The cycle from ``start`` back to it, shortened after a few steps."""
    loop = [escape(start.file.rel)]
    current = successor(store, start)
    while current is not None and current is not start and current in on_cycle:
        if len(loop) >= MAX_SHOWN:
            loop.append("…")
            break
        loop.append(escape(current.file.rel))
        current = successor(store, current)
    loop.append(escape(start.file.rel))
    return loop
