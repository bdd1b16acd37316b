"""## What it does
Reports memory files that share a filename (the same stem) in different
folders of one store.

## Why is this bad?
The filename is a memory's identity: two files with one identity make the
index and every tool that goes by filename ambiguous. The repair is to
rename one of them (with `memlint mv`, which also updates links and the
index); a file must never be renamed merely to match its own `name`.

## Example
`archive/coffee.md` next to `coffee.md`:
```memlint-bad path=archive/coffee.md
---
name: coffee
description: drank filter coffee in 2023
metadata:
  type: user
---
Drank filter coffee in 2023.
```

Use instead: `archive/coffee-2023.md` (renamed with `memlint mv`):
```memlint-good path=archive/coffee-2023.md
---
name: coffee-2023
description: drank filter coffee in 2023
metadata:
  type: user
---
Drank filter coffee in 2023.
```

The memory it collides with:
```memlint-file path=coffee.md
---
name: coffee
description: prefers espresso
metadata:
  type: user
---
Prefers espresso.
```

## Fix safety
No automatic fix: which file to rename, and to what, is the author's
choice. The message suggests the rename.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.store import several
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="ID002",
    name="duplicate-filename",
    summary="Two memory files share a filename",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    for stem, memories in several(store.by_stem):
        for memory in memories:
            others = ", ".join(escape(m.file.rel) for m in memories if m is not memory)
            folder = memory.file.rel.rpartition("/")[0]
            yield ctx.report(
                memory.file,
                0,
                0,
                f"filename `{escape(stem)}.md` is also used by {others}",
                notes=(
                    f"rename one of them, e.g. `memlint mv {escape(memory.file.rel)} "
                    f"{escape(folder + '/' if folder else '')}{escape(stem)}-2.md`",
                ),
            )
