"""## What it does
Reports `superseded by [[x]]` when `x` is not any memory's `name` but is
the filename of an existing memory `x.md` (whose `name` has drifted).

## Why is this bad?
Successors resolve by `name` only, so the supersession is broken (an error
that gates), although the intended successor plainly exists. The contract
says to repair that file's `name`, not to re-point the supersession.

## Example
`coffee.md` is superseded by `coffee-v2`:
```memlint-file path=coffee.md
---
name: coffee
description: superseded by [[coffee-v2]]
metadata:
  type: user
---

Black filter coffee.
```

and the file `coffee-v2.md` exists, but its `name` has drifted:
```memlint-bad path=coffee-v2.md
---
name: Coffee v2
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```

Use instead: repair that file's `name`:
```memlint-good path=coffee-v2.md
---
name: coffee-v2
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```

## Fix safety
Safe: the fix rewrites exactly the `name` value of the successor file
(quoted when needed). It is withheld when that value is a block scalar, the
key is duplicated, the frontmatter uses anchors or flow mappings, or the
edit would change any other value.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.su.common import classify
from memlint.sources.yamledit import replace_scalar
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Store

META = RuleMeta(
    code="SU005",
    name="successor-name-drift",
    summary="Successor is a filename, not a name: repair that file's name",
    severity=Severity.ERROR,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
)


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    if memory.supersession is None:
        return
    kind, target_file = classify(ctx.store, memory)
    if kind != "stem" or target_file is None:
        return
    link = memory.supersession.link
    target = link.target
    current = target_file.name
    edit = replace_scalar(target_file.file, target_file.frontmatter, "name", target)
    refused = isinstance(edit, str)
    title = f"Set `name` of {escape(target_file.file.rel)} to `{escape(target)}`"
    described = (
        f"is named `{escape(shorten(current, 60))}`"
        if current is not None and current.strip()
        else "has no name"
    )
    yield ctx.report(
        memory.file,
        link.target_start,
        link.target_end,
        f"successor `[[{escape(shorten(target, 60))}]]` does not resolve by name, but the file "
        f"{escape(target_file.file.rel)} exists and {described}; repair that file's `name`",
        fix=None if isinstance(edit, str) else Fix.safe(title, edit),
        notes=(f"no automatic fix: {edit}",) if refused else (),
    )
