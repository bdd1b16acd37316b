"""## What it does
Reports a `[[wikilink]]` whose target matches no memory `name`. Such a link
is *pending*: allowed by the contract (the memory may be written later),
but worth knowing about. A target that equals a filename but not that
file's `name` is pending too; the message says so, since links resolve by
`name` only.

## Why is this bad?
The agent follows the link and finds nothing; a typo stays invisible.

## Example
```memlint-bad path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30. See [[cofee-preference]].
```

Use instead:
```memlint-good path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30. See [[coffee-preference]].
```
```memlint-file path=coffee-preference.md
---
name: coffee-preference
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
from memlint.rules.lk.resolve import resolved_links
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Resolution, Store

META = RuleMeta(
    code="LK001",
    name="pending-wikilink",
    summary="Wikilink matches no memory name",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    for link, found in resolved_links(ctx.store, memory, _pending):
        shown = escape(shorten(link.target, 60))
        notes: tuple[str, ...] = ()
        if found.kind == "stem":
            names = ", ".join(
                f"`{escape(shorten(m.name or '', 60))}`" if m.name else "no `name`"
                for m in found.memories
            )
            notes = (f"`{shown}.md` exists but its name is {names}; wikilinks resolve by `name`",)
        yield ctx.report(
            memory.file,
            link.target_start,
            link.target_end,
            f"wikilink `[[{shown}]]` matches no memory name (pending)",
            notes=notes,
        )


def _pending(found: Resolution) -> bool:
    return found.kind in ("none", "stem")
