"""## What it does
Reports a `[[wikilink]]` that matches a memory `name` only when case or
Unicode normalization is ignored.

## Why is this bad?
Exact resolvers (and case-sensitive file systems) do not find the memory;
whether the link works depends on the tool.

## Example
```memlint-bad path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30. See [[Coffee-Preference]].
```

Use instead (the memory says `name: coffee-preference`):
```memlint-good path=breakfast.md
---
name: breakfast
description: What the user eats before work
metadata:
  type: user
---

Porridge at 7:30. See [[coffee-preference]].
```
```memlint-file path=coffee-preference.md
---
name: coffee-preference
description: Oat flat white, no sugar
metadata:
  type: user
---

Oat flat white, no sugar.
```

## Fix safety
Safe: the fix rewrites only the link target to the exact name, keeping any
`#heading` and `|label`. It is withheld when the name holds characters a
wikilink cannot carry (`[`, `]`, `|`, `#`, line breaks).
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.privacy import LazyPattern
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.lk.resolve import resolved_links
from memlint.textutil import escape, shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Memory, Resolution, Store

META = RuleMeta(
    code="LK003",
    name="wikilink-case-mismatch",
    summary="Wikilink matches a name only case-insensitively",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
)

LINKABLE = LazyPattern(r"[^\[\]|#\r\n]{1,200}")


def check(ctx: RuleContext[Store], memory: Memory) -> Iterator[Diagnostic]:
    for link, found in resolved_links(ctx.store, memory, _folded):
        name = found.memory.name.strip()
        fix = None
        if LINKABLE.fullmatch(name) and name.isprintable():
            edit = memory.file.edit(link.target_start, link.target_end, name)
            fix = Fix.safe(f"Link `[[{escape(name)}]]`", edit)
        yield ctx.report(
            memory.file,
            link.target_start,
            link.target_end,
            f"wikilink `[[{escape(shorten(link.target, 60))}]]` matches name "
            f"`{escape(shorten(name, 60))}` only ignoring case or Unicode form",
            fix=fix,
        )


def _folded(found: Resolution) -> bool:
    return found.kind == "folded"
