"""## What it does
Reports a note whose `time` is earlier than the record before it.

## Why is this bad?
An append-only store grows in time order; a step back means a clock problem,
a wrong offset, or a record inserted instead of appended.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Tests run every night."}
```

Use instead: records appended in time order.
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
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
    code="NT008",
    name="time-goes-backwards",
    summary="A note is older than the one before it",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    previous = None
    for record in notes(ctx, source):
        value = string_field(record, "time")
        parsed = parsed_time(value) if value is not None else None
        if not isinstance(parsed, rfc3339.Timestamp):
            continue
        if previous is not None and parsed.instant < previous[1].instant:
            message = f"`time` is earlier than the record on line {previous[0]}"
            yield report(ctx, source, record, record.value_column("time"), None, message)
        previous = (record.line, parsed)
