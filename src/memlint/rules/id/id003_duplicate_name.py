"""## What it does
Reports memories that carry the same `name`.

## Why is this bad?
Wikilinks resolve by `name`: a `[[link]]` to a duplicated name is
ambiguous, and a supersession pointing at it cannot say which memory
replaces the retired one.

## Example
`user_espresso.md` reuses the name of `user_coffee.md`:
```memlint-bad path=user_espresso.md
---
name: Coffee
description: double espresso before noon
type: user
---
Double espresso before noon.
```

Use instead: a unique `name` per memory (in `linked` stores, the filename):
```memlint-good path=user_espresso.md
---
name: Espresso
description: double espresso before noon
type: user
---
Double espresso before noon.
```

The memory it collides with:
```memlint-file path=user_coffee.md
---
name: Coffee
description: prefers coffee to tea
type: user
---
Prefers coffee to tea.
```

## Fix safety
No fix (in `linked` stores ID001 rewrites each `name` to its filename).
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.id.names import reported_name_fields
from memlint.store import several
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="ID003",
    name="duplicate-name",
    summary="Two memories share a name",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    for name, memories in several(store.by_name):
        if not name:
            continue
        for memory, found in reported_name_fields(store, memories):
            others = ", ".join(escape(m.file.rel) for m in memories if m is not memory)
            yield ctx.report(
                memory.file,
                found.value_start,
                found.value_end,
                f"name `{escape(shorten(name, 60))}` is also used by {others}",
            )
