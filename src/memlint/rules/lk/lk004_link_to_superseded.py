"""## What it does
Reports a `[[wikilink]]` to a memory that has been superseded
(`description: superseded by [[…]]`).

## Why is this bad?
The agent is sent to a retired fact; the current one is at the end of the
supersession chain.

## Example
`coffee` has been superseded:
```memlint-file path=coffee.md
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

but a body still links it:
```memlint-bad path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30, with [[coffee]].
```

Use instead:
```memlint-good path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30, with [[coffee-v2]].
```

## Fix safety
Safe: the fix rewrites only the link target to the final successor's
name. No fix is offered when the chain is broken or loops (SU001/SU003).
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.lk.lk003_wikilink_case_mismatch import LINKABLE
from memlint.rules.lk.resolve import chain_ends, resolved_links
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Resolution, Store

META = RuleMeta(
    code="LK004",
    name="link-to-superseded",
    summary="Wikilink points at a superseded memory",
    severity=Severity.INFO,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    for link, found in resolved_links(ctx.store, memory, _superseded):
        target = found.memory
        ends, _ = chain_ends(ctx.store)
        final = ends.get(target)
        shown = escape(shorten(link.target, 60))
        if final is None:
            yield ctx.report(
                memory.file,
                link.target_start,
                link.target_end,
                f"wikilink `[[{shown}]]` points at a superseded memory "
                "whose chain of successors is broken or loops",
            )
            continue
        name = final.name.strip()
        fix = None
        if LINKABLE.fullmatch(name) and name.isprintable() and final is not memory:
            edit = memory.file.edit(link.target_start, link.target_end, name)
            fix = Fix.safe(f"Link the current memory `[[{escape(name)}]]`", edit)
        yield ctx.report(
            memory.file,
            link.target_start,
            link.target_end,
            f"wikilink `[[{shown}]]` points at a superseded memory; "
            f"the current one is `{escape(shorten(name, 60))}`",
            fix=fix,
        )


def _superseded(found: Resolution) -> bool:
    """A link to exactly one memory, itself superseded (known from its summary)."""
    return found.kind == "exact" and found.memory.successor_target is not None
