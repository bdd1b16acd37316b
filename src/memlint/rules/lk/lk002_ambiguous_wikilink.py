"""## What it does
Reports a `[[wikilink]]` whose target is the `name` of more than one memory
(exactly, or only after case and Unicode folding).

## Why is this bad?
The agent cannot know which memory is meant and may load the wrong one.

## Example
`coffee.md` and `coffee-old.md` both say `name: coffee`:
```memlint-bad path=coffee-old.md
---
name: coffee
description: Black filter coffee (until 2024)
metadata:
  type: user
---

Black filter coffee.
```
```memlint-file path=coffee.md
---
name: coffee
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```
```memlint-file path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30, with [[coffee]].
```

Use instead: unique names (see ID003), then link the one you mean:
```memlint-good path=coffee-old.md
---
name: coffee-old
description: Black filter coffee (until 2024)
metadata:
  type: user
---

Black filter coffee.
```

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.lk.resolve import resolved_links
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Resolution, Store

META = RuleMeta(
    code="LK002",
    name="ambiguous-wikilink",
    summary="Wikilink matches more than one memory",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    for link, found in resolved_links(ctx.store, memory, _ambiguous):
        files = ", ".join(escape(m.file.rel) for m in found.memories)
        yield ctx.report(
            memory.file,
            link.target_start,
            link.target_end,
            f"wikilink `[[{escape(shorten(link.target, 60))}]]` matches "
            f"{len(found.memories)} memories: {files}",
        )


def _ambiguous(found: Resolution) -> bool:
    return found.kind in ("ambiguous", "ambiguous-folded")
