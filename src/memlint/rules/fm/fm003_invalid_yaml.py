"""## What it does
Reports frontmatter that is not valid YAML (or is too large or too deeply
nested to load safely), at the line and column of the error in the file.

## Why is this bad?
A loader that fails on the block drops the whole memory or its metadata;
different YAML libraries may even disagree about what it says.

## Example
```memlint-bad path=coffee.md
---
name: coffee
description: likes: espresso
metadata:
  type: user
---
Prefers espresso.
```

Use instead:
```memlint-good path=coffee.md
---
name: coffee
description: "likes: espresso"
metadata:
  type: user
---
Prefers espresso.
```

## Fix safety
No fix.
"""

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.rules.fm.common import problems
from memlint.textutil import escape

META = RuleMeta(
    code="FM003",
    name="invalid-yaml",
    summary="Frontmatter is not valid YAML",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=MARKDOWN_PROFILES,
    local=True,
)

KINDS = frozenset({"invalid-yaml", "too-large", "too-deep"})


def check(ctx, memory):
    for problem in problems(memory, KINDS):
        yield ctx.report(memory.file, problem.offset, problem.offset, escape(problem.message))
