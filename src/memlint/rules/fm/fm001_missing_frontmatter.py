"""## What it does
Reports a memory file with no `---` frontmatter block at the top.

## Why is this bad?
Without frontmatter a memory has no `name` to link to, no description for
the index and no type: agents cannot select or resolve it.

## Example
`user_coffee.md` starts straight with its body:
```memlint-bad path=user_coffee.md
# Coffee
Prefers espresso, no sugar.
```

Use instead:
```memlint-good path=user_coffee.md
---
name: Coffee
description: prefers espresso, no sugar
type: user
---
Prefers espresso, no sugar.
```

The rest of the store:
```memlint-file path=user_tea.md
---
name: Tea
description: green tea after lunch
type: user
---
Green tea after lunch.
```

## Fix safety
No fix: the values cannot be invented.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM001",
    name="missing-frontmatter",
    summary="Memory file has no frontmatter block",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if memory.frontmatter is None and not memory.is_document:
        yield ctx.report(memory.file, 0, 0, "no `---` frontmatter block at the top of the file")
