"""## What it does
Reports list items in a typed `MEMORY.md` that link nothing: facts written
into the index itself instead of into a memory file. Headings, short prose,
HTML comments, code blocks and lines past the loader's cut (IX008 reports
those) are left alone, and so is a bullet that names an unindexed memory's
file (IX013 asks to link it).

When the index holds notes rather than entries (no entry at all, or more
content items than entries) or more than 5 content items, one finding at the
first item gives the count: "MEMORY.md holds notes, not an index". Otherwise
each item is reported.

## Why is this bad?
The index is a table of contents loaded into every session under a strict
size budget. Facts written there crowd out the entries, have no type, no
description and no file the agent can update, and are lost when the index is
rewritten.

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead
- Always run `make test` before pushing
```

Use instead: save the rule as `feedback_run-tests.md` and link it:
```memlint-good path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead
- [Run tests](feedback_run-tests.md) — `make test` before pushing
```
```memlint-file path=user_role.md
---
name: Role
description: Backend lead
type: user
---

Backend lead on the payments team.
```
```memlint-file path=feedback_run-tests.md
---
name: Run tests
description: make test before pushing
type: feedback
---

Run `make test` before every push.

**Why:** CI takes an hour to report a failure.
**How to apply:** before every `git push`.
```

## Fix safety
No fix: moving a fact into a new file needs a type, a name and a description.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.rules.ix.content import content_items
from memlint.rules.shared import LOADER

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX010",
    name="index-inline-content",
    summary="MEMORY.md holds facts instead of links to memory files",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=TYPED,
    shared=LOADER,
)

MAX_EACH = 5


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    items = content_items(ctx, index)
    if not items:
        return
    entries = len(index.entries)
    if entries and len(items) <= min(entries, MAX_EACH):
        for _, start, end in items:
            message = "list item holds content instead of linking a memory file"
            yield ctx.report(index.file, start, end, message)
        return
    line, start, end = items[0]
    count = (
        f"{len(items)} list items hold content" if len(items) > 1 else "a list item holds content"
    )
    if entries < len(items):
        message = f"MEMORY.md holds notes, not an index: {count}, {entries} link a memory file"
    else:
        message = f"{count} instead of linking a memory file (first on line {line})"
    yield ctx.report(index.file, start, end, message)
