"""## What it does
Reports list items in a typed `MEMORY.md` that link nothing: facts written
into the index itself instead of into a memory file. Headings, short prose,
HTML comments and code blocks are left alone.

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

from memlint.diagnostics import Severity
from memlint.rules.base import TYPED, RuleMeta, Scope
from memlint.sources.markdown import LIST_ITEM, prose_lines

META = RuleMeta(
    code="IX010",
    name="index-inline-content",
    summary="MEMORY.md holds facts instead of links to memory files",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=TYPED,
)


def check(ctx, index):
    source = index.file
    text = source.text or ""
    entry_lines = {entry.line for entry in index.entries}
    for offset, line in prose_lines(text, index.body_start):
        item = LIST_ITEM.match(line)
        if item is None or "](" in line or "<http" in line:
            continue
        content = line[item.end() :].strip()
        if not content:
            continue
        number = source.position(offset).line
        if number in entry_lines:
            continue
        start = offset + len(line) - len(line.lstrip())
        message = "list item holds content instead of linking a memory file"
        yield ctx.report(source, start, offset + len(line.rstrip()), message)
