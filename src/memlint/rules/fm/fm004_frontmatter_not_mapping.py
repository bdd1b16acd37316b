"""## What it does
Reports frontmatter that is valid YAML but a list or a bare scalar instead
of a mapping of keys.

## Why is this bad?
Every reader looks up `name`, `description` and the type as keys; a list
or string has none of them.

## Example
```memlint-bad path=coffee.md
---
- name: coffee
- description: prefers espresso
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
    code="FM004",
    name="frontmatter-not-mapping",
    summary="Frontmatter is not a mapping of keys",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=MARKDOWN_PROFILES,
    local=True,
)

KINDS = frozenset({"not-mapping"})


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    for problem in problems(memory, KINDS):
        yield ctx.report(memory.file, problem.offset, problem.offset, escape(problem.message))
