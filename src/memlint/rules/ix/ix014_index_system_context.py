"""## What it does
Reports agent session context pasted into `MEMORY.md`: the headings Claude
Code gives its context blocks (`# currentDate`, `# userEmail`, `# gitStatus`,
`# claudeMd`), `<env>` / `<system-reminder>` tags and environment dump lines
(`Working directory: …`, `Is directory a git repo: …`, `Platform: …`,
`OS Version: …`, `Today's date is …`, `The user's email address is …`). One
finding per index, at the first such line, with the count. Code blocks are
not read.

## Why is this bad?
The index is loaded into every session, which already receives this context
fresh: the pasted copy is stale (yesterday's date, an old git status), costs
load budget and may leak the user's email address and local paths.

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead

# currentDate
Today's date is 2026-03-04.
```

Use instead:
```memlint-good path=MEMORY.md
# Memory

- [Role](user_role.md) — Backend lead
```
```memlint-file path=user_role.md
---
name: Role
description: Backend lead
type: user
---

Backend lead on the payments team.
```

## Fix safety
No fix: where the pasted block ends is not always clear; delete it by hand.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.sources.markdown import prose_lines

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

CONTEXT_LINE = re.compile(
    r"[ \t]{0,3}(?:#{1,6}[ \t]{1,4}(?:currentDate|userEmail|gitStatus|claudeMd)[ \t]*"
    r"|</?(?:env|system-reminder|context)>"
    r"|(?:Working directory|Is directory a git repo|Platform|OS Version)"
    r":[ \t]+\S.{0,300}"
    r"|Today's date is[ \t]+\S.{0,100}"
    r"|The user's email address is[ \t]+\S.{0,200})\r?"
)
ENV_LINES = ("Working directory", "Is directory", "Platform", "OS Version")

META = RuleMeta(
    code="IX014",
    name="index-system-context",
    summary="Session context (currentDate, userEmail, environment) pasted into MEMORY.md",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=MARKDOWN_PROFILES,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    source = index.file
    text = source.text or ""
    found = []
    for offset, line in prose_lines(text, index.body_start):
        if CONTEXT_LINE.fullmatch(line):
            found.append((offset, line))
    env = [line for _, line in found if line.lstrip().startswith(ENV_LINES)]
    if len(env) == 1 and len(found) == 1:
        return  # one `Platform: …` line alone is a note, not a dump
    if not found:
        return
    offset, line = found[0]
    more = f" ({len(found)} lines)" if len(found) > 1 else ""
    message = (
        f"session context pasted into the index{more}: the agent gets it fresh in every "
        "session; remove it"
    )
    yield ctx.report(source, offset, offset + len(line.rstrip()), message)
