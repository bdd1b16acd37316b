"""## What it does
Reports a `[[wikilink]]` whose target is a path or a URL (path separators,
`..`, a scheme or drive letter) or is empty.

## Why is this bad?
Memory wikilinks name a memory; a path can reach outside the store and a
URL is not a memory at all, so the link never resolves.

## Example
```memlint-bad path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30; see [[../notes/coffee]] and [[https://example.com/beans]].
```

Use instead: the memory's name, and a Markdown link for the site:
```memlint-good path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30; see [[coffee]] and [the beans](https://example.com/beans).
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

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.lk.resolve import invalid_reason
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="LK005",
    name="invalid-wikilink-target",
    summary="Wikilink target is a path, URL or empty",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    for link in memory.links:
        if not link.target:
            if link.heading is None:
                yield ctx.report(memory.file, link.start, link.end, "wikilink has no target")
            continue
        reason = invalid_reason(link.target)
        if reason:
            yield ctx.report(
                memory.file,
                link.target_start,
                link.target_end,
                f"wikilink target `{escape(shorten(link.target, 60))}` {reason}",
            )
