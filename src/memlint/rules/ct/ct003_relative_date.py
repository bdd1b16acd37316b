"""## What it does
Reports relative dates in a memory's body or description: "yesterday",
"today", "tomorrow", "last week", "next Friday", "3 days ago" and their
common forms in German, Spanish, Portuguese, French, Russian, Chinese,
Japanese and Korean. Code is not read. One finding per memory, at the first
one, with the count; when the memory carries a date (a `modified`, `date`,
`created` or `updated` key, top level or under `metadata`, or an ISO date
earlier in the body) the message names it so the absolute date is easy to
work out.

## Why is this bad?
A memory is read weeks or months later: "yesterday" then points at the
wrong day, and nobody can tell which. Claude Code's own memory guidance asks
to convert relative dates to absolute ones when saving.

## Example
```memlint-bad path=project_release.md
---
name: Release
description: Release freeze
type: project
---

We froze the release branch yesterday.

**Why:** QA needs a stable build.
**How to apply:** no merges to release/* until the freeze ends.
```

Use instead:
```memlint-good path=project_release.md
---
name: Release
description: Release freeze
type: project
---

We froze the release branch on 2026-03-04.

**Why:** QA needs a stable build.
**How to apply:** no merges to release/* until the freeze ends.
```

## Fix safety
No fix: which day was meant is known only to whoever wrote it.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.privacy import LazyPattern
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope
from memlint.rules.ct.spans import ascii_word_run, first_and_more, spans_in_memory, word_pattern

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
RELATIVE = LazyPattern(
    r"(?<![\w-])(?:"
    r"yesterday|today|tomorrow|tonight|(?:this|last|next)[ \t]+(?:week|month|year|"
    + WEEKDAYS
    + r")|(?:last|this)[ \t]+(?:morning|afternoon|evening|night)|"
    r"\d{1,3}[ \t]+(?:days?|weeks?|months?)[ \t]+ago|a[ \t]+(?:day|week|month)[ \t]+ago|"
    r"gestern|vorgestern|heute|übermorgen|(?:letzte|nächste)[ \t]+woche|"
    r"(?:letzten|nächsten)[ \t]+monat|"
    r"ayer|hoy|anteayer|(?:la[ \t]+)?semana[ \t]+(?:pasada|próxima|que[ \t]+viene)|"
    r"ontem|hoje|amanhã|semana[ \t]+passada|"
    r"aujourd'hui|demain|la[ \t]+semaine[ \t]+(?:dernière|prochaine)|"
    r"вчера|сегодня|завтра|позавчера|на[ \t]+(?:прошлой|следующей|этой)[ \t]+неделе"
    r")(?![\w-])"
    r"|昨天|今天|明天|前天|上周|下周|上個月|上个月|下个月|"
    r"昨日|今日|明日|先週|来週|先月|来月|"
    r"어제|오늘|내일|지난[ \t]?주|다음[ \t]?주|지난[ \t]?달",
    re.IGNORECASE,
)
# The last word of every match of RELATIVE in ASCII text, which is a whole ``[\w-]+``
# run there (the other words hold a non-ASCII letter): an ASCII text without one of
# them holds no relative date, and is not searched (RELATIVE is slow to try).
# As bytes: ``ascii_word_run`` gives them so.
LAST_WORDS = frozenset(
    (
        "yesterday today tomorrow tonight week month year "
        + WEEKDAYS.replace("|", " ")
        + " morning afternoon evening night ago gestern vorgestern heute woche monat"
        " ayer hoy anteayer pasada viene ontem hoje passada hui demain prochaine"
    )
    .encode("ascii")
    .split()
)
LAST_WORD = LazyPattern(word_pattern(LAST_WORDS))
DATE_KEYS = ("modified", "date", "created", "updated")
ISO_DATE = LazyPattern(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")

META = RuleMeta(
    code="CT003",
    name="relative-date",
    summary="Memory uses a relative date (yesterday, last week)",
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,
)


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    if memory.frontmatter is None:
        return
    text = memory.file.text or ""
    found = spans_in_memory(memory, _relative_dates, _may_hold_relative_date)
    if not found:
        return
    start, end, more = first_and_more(found)
    message = f"relative date `{text[start:end]}`{more}: write the absolute date"
    context = _date_context(memory, text, start)
    if context:
        message += f" ({context})"
    yield ctx.report(memory.file, start, end, message)


def _relative_dates(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if not _may_hold_relative_date(text, start, end):
        return []
    return [(m.start(), m.end()) for m in RELATIVE.finditer(text, start, end)]


def _may_hold_relative_date(text: str, start: int, end: int) -> bool:
    words = ascii_word_run(text, start, end)
    return words is None or LAST_WORD.search(words) is not None


def _date_context(memory, text: str, offset: int) -> str | None:
    """Where the memory says when it was written, if it does."""
    frontmatter = memory.frontmatter
    for key in DATE_KEYS:
        found = frontmatter.fields.get(key) or frontmatter.nested("metadata", key)
        if found is not None and found.value is not None:
            date = ISO_DATE.search(str(found.value))
            if date:
                where = key if key in frontmatter.fields else f"metadata.{key}"
                return f"the memory is dated {date.group(1)} by `{where}`"
    if offset > memory.body_start:
        dates = ISO_DATE.findall(text, memory.body_start, offset)
        if dates:
            return f"the nearest date above it is {dates[-1]}"
    return None
