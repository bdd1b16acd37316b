"""## What it does
Reports a memory that has frontmatter but no body: nothing after the block,
or only whitespace, headings, horizontal rules and HTML comments. A body
that holds only a template prompt (`<!-- Fill in: … -->`) is left to CT002.

## Why is this bad?
The index promises a memory and the agent opens the file to find nothing
but a title; the fact was never written, or was lost in an edit.

## Example
```memlint-bad path=project_launch.md
---
name: Launch
description: Launch date and owner
type: project
---

# Launch
```

Use instead:
```memlint-good path=project_launch.md
---
name: Launch
description: Launch date and owner
type: project
---

Launch on 2026-06-01, owned by Dana.

**Why:** the partner contract starts that day.
**How to apply:** plan releases around it.
```

## Fix safety
No fix: only the author knows what the memory should say.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ct.ct002_template_placeholder import COMMENT_PROMPT

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
NOT_CONTENT = re.compile(r"[ \t]{0,3}(?:#{1,6}(?:[ \t].*)?|(?:[-*_][ \t]*){3,})?[ \t]*\r?")

META = RuleMeta(
    code="CT001",
    name="empty-memory",
    summary="Memory has frontmatter but no body",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if memory.frontmatter is None:
        return
    text = memory.file.text or ""
    start = memory.body_start
    if len(text) - start > 4096 or _content_before_comments(text, start):
        return  # (a body this long is never empty)
    body = text[start:]
    headings = 0
    for line in COMMENT.sub("", body).split("\n"):
        if not NOT_CONTENT.fullmatch(line):
            return
        headings += line.lstrip().startswith("#")
    if ctx.selected("CT002") and COMMENT_PROMPT.search(body):
        return  # an unfilled template: CT002 reports it
    what = "only a heading" if headings else "no body"
    start = min(memory.body_start, len(text))
    message = f"memory has frontmatter but {what}: the fact itself is missing"
    yield ctx.report(memory.file, start, start, message)


def _content_before_comments(text: str, start: int) -> bool:
    """Whether a line of ``text`` from ``start``, ended before any HTML comment opens,
    holds content: what COMMENT leaves of such lines is what they are. Most bodies
    have one among their first lines; the rest are read the long way."""
    comment = text.find("<!--", start)
    end = len(text) if comment == -1 else comment
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        if nl == -1:
            # the last line, when no comment follows it
            return comment == -1 and not NOT_CONTENT.fullmatch(text, pos)
        if not NOT_CONTENT.fullmatch(text, pos, nl):
            return True
        pos = nl + 1
    return False
