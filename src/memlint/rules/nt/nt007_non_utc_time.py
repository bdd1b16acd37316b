"""## What it does
Reports a valid RFC 3339 `time` that is not in UTC (`Z` or `+00:00`), including
`-00:00`, which RFC 3339 §4.3 defines as "offset unknown".

## Why is this bad?
The note-capture contract asks for UTC times, so that records from different
machines sort and compare as plain strings.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T11:00:00+02:00", "project": "api", "fact": "Deploys run on Tuesdays."}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only.
"""

from __future__ import annotations

from memlint import rfc3339
from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, parsed_time, report, string_field

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT007",
    name="non-utc-time",
    summary="`time` is not in UTC",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        value = string_field(record, "time")
        if value is None:
            continue
        parsed = parsed_time(value)
        if isinstance(parsed, rfc3339.Timestamp) and not parsed.is_utc:
            offset = value[19:].lstrip(".0123456789")
            why = "an unknown local offset" if parsed.unknown_offset else f"offset {offset}"
            column = record.value_column("time")
            yield report(ctx, source, record, column, None, f"`time` has {why}; use UTC (`Z`)")
