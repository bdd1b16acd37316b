"""## What it does
Reports a memory that is superseded by itself: the successor link names
this memory's own `name` or its own filename.

## Why is this bad?
The memory is marked retired but no replacement exists; the agent is sent
in a circle. This is an error that gates.

## Example
`coffee.md`:
```yaml
name: coffee
description: superseded by [[coffee]]
```

Use instead: `superseded by [[coffee-v2]]`, naming a different memory.

## Fix safety
No fix.
"""

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.su.common import classify
from memlint.textutil import escape, shorten

META = RuleMeta(
    code="SU002",
    name="self-supersession",
    summary="Memory is superseded by itself",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
)


def check(ctx, memory):
    if memory.supersession is None or classify(ctx.store, memory)[0] != "self":
        return
    link = memory.supersession.link
    yield ctx.report(
        memory.file,
        link.target_start,
        link.target_end,
        f"memory is superseded by itself (`[[{escape(shorten(link.target, 60))}]]`)",
    )
