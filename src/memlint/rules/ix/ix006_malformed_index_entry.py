"""## What it does
Reports a list item that links a Markdown file of the store but is not shaped
`- [Title](file.md) …` on one line: another bullet character, a numbered
item, text before the link, or an entry continued onto further lines.

## Why is this bad?
Only `- [Title](file.md)` bullets count as index entries in the memory
contracts; tools that maintain the index (and the agent, told to keep one
line per entry) may skip or mangle anything else.

## Example
```memlint-bad path=MEMORY.md
# Memory

* see [Testing](feedback_testing.md) for the rule
```

Use instead:
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
No fix: rewriting the line could drop the author's wording.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX006",
    name="malformed-index-entry",
    summary="Index entry is not `- [Title](file.md) …` on one line",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=LINKED_TYPED,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    for entry in index.entries:
        if entry.canonical and not entry.continued:
            continue
        if ctx.store.index_target(entry).kind == "escapes":
            continue
        if not entry.canonical:
            message = (
                f"link to `{entry.target}` is not an index entry of the form "
                "`- [Title](file.md) — summary`"
            )
        else:
            message = "index entry continues on the next line; keep each entry on one line"
        yield ctx.report(index.file, entry.line_start, entry.line_end, message)
