"""## What it does
Reports a list item of `MEMORY.md` that names a memory file of the store
(`` - `project_state.md` — current state ``) without linking it, when no
index entry links that memory. IX002 does not report the memory again, and
IX010 does not count the line as inline content.

## Why is this bad?
The loader follows links, not names: the memory the line names is never
loaded although the index seems to list it.

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
(unsafe when that would take the line past IX007's length limit, or when
IX012 is selected and the rest of the line differs from the description). A name in
the middle of a line gets no fix: where the link goes is the author's choice.
"""

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.content import named_bullets
from memlint.rules.ix.resolve import link_href, link_title, one_line
from memlint.sources.index import SEPARATOR

META = RuleMeta(
    code="IX013",
    name="unlinked-index-entry",
    summary="Index line names a memory file without linking it",
    severity=Severity.ERROR,
    scope=Scope.INDEX,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
)


def check(ctx, index):
    source = index.file
    limit = int(ctx.options_of("IX007")["max-length"])
    for bullet in named_bullets(ctx.store):
        memory = bullet.memory
        rel = memory.file.rel
        fix = None
        if bullet.leading:
            title = link_title((memory.name or "").strip() or memory.stem) or link_title(rel)
            link = f"[{title}]({link_href(rel)})"
            start, end = source.line_span(bullet.line)
            grown = end - start + len(link) - (bullet.end - bullet.start)
            summary = SEPARATOR.sub("", source.text[bullet.end : end], count=1).strip()
            stale = ctx.selected("IX012") and summary != one_line(memory.description or "")
            longer = grown > limit >= end - start
            make = Fix.unsafe if stale or longer else Fix.safe
            fix = make("Link this line", source.edit(bullet.start, bullet.end, link))
        message = (
            f"`{rel}` is named here but not linked, so the agent never loads it: link this line"
        )
        yield ctx.report(source, bullet.start, bullet.end, message, fix)
