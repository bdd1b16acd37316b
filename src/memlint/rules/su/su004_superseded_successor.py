"""## What it does
Reports a supersession whose successor is itself superseded (a → b → c).

## Why is this bad?
Readers that follow one step land on another retired memory; the chain
grows with every correction.

## Example
`coffee-v2` has itself been superseded by `coffee-v3`:
```memlint-file path=coffee-v2.md
---
name: coffee-v2
description: superseded by [[coffee-v3]]
metadata:
  type: user
---

Oat flat white, no sugar.
```
```memlint-file path=coffee-v3.md
---
name: coffee-v3
description: Decaf oat flat white after 2 pm
metadata:
  type: user
---

Oat flat white; decaf after 2 pm.
```

so this one-step link lands on a retired memory:
```memlint-bad path=coffee.md
---
name: coffee
description: superseded by [[coffee-v2]]
metadata:
  type: user
---

Black filter coffee.
```

Use instead: point at the end of the chain:
```memlint-good path=coffee.md
---
name: coffee
description: superseded by [[coffee-v3]]
metadata:
  type: user
---

Black filter coffee.
```

## Fix safety
Safe: the fix rewrites only the link target to the name of the last
memory in the chain. No fix when the chain is broken or loops.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.lk.lk003_wikilink_case_mismatch import LINKABLE
from memlint.rules.lk.resolve import chain_ends, successor
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Store

META = RuleMeta(
    code="SU004",
    name="superseded-successor",
    summary="Successor is itself superseded",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    if memory.supersession is None:
        return
    following = successor(ctx.store, memory)
    if following is None or following is memory or following.supersession is None:
        return
    ends, on_cycle = chain_ends(ctx.store)
    if memory in on_cycle:
        return
    link = memory.supersession.link
    shown = escape(shorten(link.target, 60))
    final = ends.get(memory)
    if final is None:
        yield ctx.report(
            memory.file,
            link.target_start,
            link.target_end,
            f"successor `[[{shown}]]` is itself superseded, and its chain is broken or loops",
        )
        return
    name = final.name.strip()
    fix = None
    if LINKABLE.fullmatch(name) and name.isprintable():
        edit = memory.file.edit(link.target_start, link.target_end, name)
        fix = Fix.safe(f"Point at `[[{escape(name)}]]`", edit)
    yield ctx.report(
        memory.file,
        link.target_start,
        link.target_end,
        f"successor `[[{shown}]]` is itself superseded; "
        f"the chain ends at `{escape(shorten(name, 60))}`",
        fix=fix,
    )
