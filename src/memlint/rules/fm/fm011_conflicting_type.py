"""## What it does
Reports a memory that sets both `type` and `metadata.type` to different values.

## Why is this bad?
Readers pick one location or the other, so two tools file the same memory
under different types.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: prefers espresso
type: user
metadata:
  type: feedback
---
Prefers espresso.
```

Use instead: one of the two keys (or the same value in both):
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
No fix: which value is right is the author's call.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.fm.common import usable
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM011",
    name="conflicting-type",
    summary="type and metadata.type disagree",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    frontmatter = usable(memory)
    if frontmatter is None:
        return
    flat = frontmatter.fields.get("type")
    nested = frontmatter.nested("metadata", "type")
    if flat is None or nested is None or _same(flat.value, nested.value):
        return
    yield ctx.report(
        memory.file,
        nested.value_start,
        nested.value_end,
        f"`metadata.type` is `{_show(nested.value)}` but `type` is `{_show(flat.value)}`",
    )


def _same(a, b) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.strip() == b.strip()
    return a == b


def _show(value) -> str:
    return escape(shorten(str(getattr(value, "text", value)), 40))
