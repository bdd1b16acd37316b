"""## What it does
Reports an index entry whose summary differs from the linked memory's
`description`. Off by default: many stores write a shorter hook on purpose.

## Why is this bad?
The index summary is what the agent reads when it decides whether to open a
memory. When the file was updated and the summary was not, the agent acts on
the stale version.

## Example
The memory was updated:
```memlint-file path=project_next-steps.md
---
name: Next steps
description: Sensor layer done; next is the HTTP server
type: project
---

The sensor layer is finished. Next block: the HTTP server.

**Why:** the companion app needs `/sensors` first.
**How to apply:** start the next session there.
```

but its index summary was not:
```memlint-bad path=MEMORY.md
# Memory

- [Next steps](project_next-steps.md) — DHT22 humidity class
```

Use instead:
```memlint-good path=MEMORY.md
# Memory

- [Next steps](project_next-steps.md) — Sensor layer done; next is the HTTP server
```

## Fix safety
Unsafe: the fix replaces only the summary text with the description (on one
line); the title and the link are untouched. A hand-written summary is often
the better hook, and the fix overwrites it, so it needs `--unsafe-fixes`.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.resolve import is_shortened, one_line
from memlint.textutil import shorten

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX012",
    name="stale-index-summary",
    summary="Index summary differs from the memory's description",
    severity=Severity.INFO,
    scope=Scope.INDEX,
    profiles=LINKED_TYPED,
    fix=FixAvailability.SOMETIMES,
    default_enabled=False,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    source = index.file
    text = source.text or ""
    for entry in index.entries:
        memory = ctx.store.index_target(entry).memory
        if memory is None or not entry.summary or memory.description is None:
            continue
        description = one_line(memory.description)
        summary = one_line(entry.summary)
        if not description or summary.casefold() == description.casefold():
            continue
        if is_shortened(summary, description):
            continue
        end = entry.line_end
        while end > entry.line_start and text[end - 1] in " \t":
            end -= 1
        start = end - len(entry.summary)
        fix = None
        if start > entry.href_end and text[start:end] == entry.summary:
            fix = Fix.unsafe(
                "Replace the summary with the description", source.edit(start, end, description)
            )
        else:
            start = entry.line_start
        message = (
            f"summary differs from the description of `{memory.file.rel}`: "
            f"`{shorten(description, 60)}`"
        )
        yield ctx.report(source, start, end, message, fix)
