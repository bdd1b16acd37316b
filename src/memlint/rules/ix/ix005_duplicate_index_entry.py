"""## What it does
Reports an index entry that links the same file as an earlier entry.

## Why is this bad?
Each memory has exactly one entry. A second one spends the index's load
budget twice and, once the two summaries drift apart, tells the agent two
different things about one file.

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Testing](feedback_testing.md) — Run the full suite before pushing
- [Tests](feedback_testing.md) — Run the suite before pushing
```

Use instead: keep one of the two lines.
```memlint-good path=MEMORY.md
# Memory

- [Testing](feedback_testing.md) — Run the full suite before pushing
```
```memlint-file path=feedback_testing.md
---
name: Testing
description: Run the full suite before pushing
type: feedback
---

Run `make test` before every push.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

## Fix safety
Safe: the fix deletes the later line; the first entry stays as it was.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ix.resolve import line_removal

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX005",
    name="duplicate-index-entry",
    summary="Two index entries link the same file",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=LINKED_TYPED,
    fix=FixAvailability.ALWAYS,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    first_line: dict[str, int] = {}
    for entry in index.entries:
        resolution = ctx.store.index_target(entry)
        if resolution.rel is None:
            continue
        earlier = first_line.setdefault(resolution.rel, entry.line)
        if earlier == entry.line:
            continue
        message = f"`{resolution.rel}` is already linked on line {earlier}"
        fix = Fix.safe(f"Delete line {entry.line}", line_removal(ctx.store, entry))
        yield ctx.report(index.file, entry.href_start, entry.href_end, message, fix)
