"""## What it does
Reports a `description` that spans several lines: a block scalar (`|`, `>`),
a value with line breaks, or a plain or quoted value continued on the next
line.

## Why is this bad?
The description is copied into a one-line index entry and shown to the
agent as a one-line summary; line-based readers see only its first line.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: prefers espresso,
  no sugar
metadata:
  type: user
---
Prefers espresso.
```

Use instead:
```memlint-good path=coffee.md
---
name: coffee
description: prefers espresso, no sugar
metadata:
  type: user
---
Prefers espresso.
```

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.fm.common import usable

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM012",
    name="multiline-description",
    summary="Description is not a single line",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    frontmatter = usable(memory)
    if frontmatter is None:
        return
    found = frontmatter.fields.get("description")
    if found is None or not isinstance(found.value, str):
        return
    written = (memory.file.text or "")[found.value_start : found.value_end].rstrip("\r\n")
    if found.style in ("|", ">") or "\n" in found.value.strip() or "\n" in written:
        yield ctx.report(
            memory.file, found.key_start, found.key_start, "`description` spans several lines"
        )
