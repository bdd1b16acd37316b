"""## What it does
Reports a list item or table row of `MEMORY.md` that names a memory file of
the store (`` - `project_state.md` — current state ``) without linking it,
when no index entry links that memory. IX002 does not report the memory
again, and IX010 does not count the line as inline content.

## Why is this bad?
Entries are links: tools that read the index (and memlint) see no entry for
the memory, and an agent finds the file only if it decides to look for the
name it read.

## Example
```memlint-bad path=MEMORY.md
# Memory

- `project_state.md` — where the migration stands
```

Use instead:
```memlint-good path=MEMORY.md
# Memory

- [Migration state](project_state.md) — where the migration stands
```
```memlint-file path=project_state.md
---
name: Migration state
description: where the migration stands
type: project
---

Step 2 of 3 is done.

**Why:** the old schema is retired in June.
**How to apply:** finish step 3 before new features.
```

## Fix safety
Safe when the line starts `- ` followed by the file's name: the fix turns
the name into `[name](file.md)` and leaves the rest of the line as it is
(unsafe when that would take the line past `index-line-length`, or when
IX012 is selected and the rest of the line differs from the description). A name in
the middle of a line or in a table gets no fix: where the link goes is the
author's choice.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.content import named_bullets
from memlint.rules.ix.resolve import link_href, link_title, one_line
from memlint.sources.index import SEPARATOR

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX013",
    name="unlinked-index-entry",
    summary="Index line names a memory file without linking it",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
    shared=("index-line-length",),
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    source = index.file
    limit = ctx.shared("index-line-length")
    for bullet in named_bullets(ctx.store):
        memory = bullet.memory
        rel = memory.file.rel
        fix = None
        if bullet.leading:
            title = link_title((memory.name or "").strip() or memory.stem) or link_title(rel)
            link = f"[{title}]({link_href(rel)})"
            start, end = source.line_span(bullet.line)
            grown = end - start + len(link) - (bullet.end - bullet.start)
            summary = SEPARATOR.sub("", (source.text or "")[bullet.end : end], count=1).strip()
            stale = ctx.selected("IX012") and summary != one_line(memory.description or "")
            longer = grown > limit >= end - start
            make = Fix.unsafe if stale or longer else Fix.safe
            fix = make("Link this line", source.edit(bullet.start, bullet.end, link))
        message = f"`{rel}` is named here but not linked, so it has no index entry: link this line"
        yield ctx.report(source, bullet.start, bullet.end, message, fix)
