"""## What it does
Reports an empty or whitespace-only line in a note store.

## Why is this bad?
JSONL has one record per line; many readers fail on an empty line, and blank
lines often come from a hand edit of an append-only file.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}

{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
```

## Fix safety
No fix: the store is append-only.
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
    code="NT018",
    name="blank-line",
    summary="An empty line in a note store",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    parsed = records_of(ctx, source)
    for record in parsed.records if parsed else ():
        if record.blank:
            yield report(ctx, source, record, 0, None, "blank line in a note store")
