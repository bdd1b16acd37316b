"""## What it does
Reports two JSON records written on one line (`{…}{…}`).

## Why is this bad?
This is what appending to a store with a torn final record produces; line
readers reject the whole line, losing both facts.

## Example
The first two records share a line:
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}\
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-03T09:00:00Z", "project": "web", "fact": "The CDN is purged on deploy."}
{"time": "2024-05-04T09:00:00Z", "project": "web", "fact": "Logs are kept for a week."}
```

Use instead, one record per line:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-03T09:00:00Z", "project": "web", "fact": "The CDN is purged on deploy."}
{"time": "2024-05-04T09:00:00Z", "project": "web", "fact": "Logs are kept for a week."}
```

## Fix safety
No fix: the store is append-only; rewrite its history deliberately.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, records_of, report

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT004",
    name="fused-records",
    summary="Two records on one line",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    parsed = records_of(ctx, source)
    for record in parsed.records if parsed else ():
        if record.fused_at is not None:
            message = "a second record starts here, on the same line (missing newline)"
            yield report(ctx, source, record, record.fused_at, record.fused_at + 1, message)
