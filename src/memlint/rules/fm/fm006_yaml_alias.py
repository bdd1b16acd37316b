"""## What it does
Reports YAML anchors (`&a`), aliases (`*a`), merge keys (`<<`) and custom
tags (`!tag`) in frontmatter.

## Why is this bad?
Aliases allow "billion laughs" expansion bombs, tags can trigger code in
unsafe loaders, and both make a value mean something other than what is
written on its line.

## Example
```memlint-bad path=coffee.md
---
name: &n coffee
description: *n
metadata:
  type: user
---
Prefers espresso.
```

Use instead:
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
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.rules.fm.common import problems
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM006",
    name="yaml-alias",
    summary="Frontmatter uses anchors, aliases, merge keys or tags",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=MARKDOWN_PROFILES,
    local=True,
)

KINDS = frozenset({"alias"})


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    for problem in problems(memory, KINDS):
        yield ctx.report(memory.file, problem.offset, problem.offset, escape(problem.message))
