"""## What it does
Reports a `time` that is not an RFC 3339 date-time (§5.6), checked with an
explicit grammar plus calendar ranges, not Python's `fromisoformat`.

## Why is this bad?
Readers in other languages parse `time` strictly; `2024-01-01 10:00`,
`+0530`, week dates or epoch numbers make the record unsortable or unreadable.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01 09:00", "project": "api", "fact": "Deploys run on Tuesdays."}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only, and the intended offset is unknown.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, parsed_time, report

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT006",
    name="invalid-rfc3339-time",
    summary="`time` is not an RFC 3339 date-time",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        if "time" not in record.fields:
            continue
        value = record.fields["time"]
        column = record.value_column("time")
        if not isinstance(value, str):
            yield report(ctx, source, record, column, None, "`time` is not a string")
            continue
        parsed = parsed_time(value)
        if isinstance(parsed, str):
            yield report(ctx, source, record, column, None, f"`time` is not RFC 3339: {parsed}")
