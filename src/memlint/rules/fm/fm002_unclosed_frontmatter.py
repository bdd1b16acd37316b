"""## What it does
Reports a memory whose frontmatter opens with `---` but has no closing `---` line.

## Why is this bad?
Loaders then read the whole file as YAML (or none of it): the name,
description and type are lost and the body may be parsed as keys.

## Example
```memlint-bad path=user_coffee.md
---
name: Coffee
description: prefers espresso, no sugar
type: user

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

## Fix safety
No fix: where the block was meant to end is a guess.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.fm.common import problems
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="FM002",
    name="unclosed-frontmatter",
    summary="Frontmatter block is never closed",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)

KINDS = frozenset({"unclosed"})


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    for problem in problems(memory, KINDS):
        yield ctx.report(memory.file, problem.offset, problem.offset, escape(problem.message))
