"""## What it does
Reports a key written twice in one frontmatter mapping.

## Why is this bad?
YAML keeps the last value silently, while a human (or a line-based reader)
sees the first: the two disagree about what the memory is called.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: prefers espresso
metadata:
  type: user
name: coffee-v2
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
No fix: which of the values is right is the author's call.
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
    code="FM005",
    name="duplicate-key",
    summary="Frontmatter repeats a key",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=MARKDOWN_PROFILES,
    local=True,
)

KINDS = frozenset({"duplicate-key"})


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    for problem in problems(memory, KINDS):
        yield ctx.report(memory.file, problem.offset, problem.offset, escape(problem.message))
