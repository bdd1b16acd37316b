"""## What it does
Reports a note record (a line of a JSONL note store) that is not valid JSON or
not valid UTF-8.

## Why is this bad?
A reader that loads the store line by line either crashes on the record or
silently drops it, so the fact is lost to every later recall.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays.",}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-03T09:00:00Z", "project": "web", "fact": "The CDN is purged on deploy."}
```

Use instead (no trailing comma):
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-03T09:00:00Z", "project": "web", "fact": "The CDN is purged on deploy."}
```

## Fix safety
No fix: the store is append-only, and guessing the intended JSON could change the fact.
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
    code="NT001",
    name="invalid-json-record",
    summary="A note record is not valid JSON",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
    any_jsonl=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    parsed = records_of(ctx, source)
    for record in parsed.records if parsed else ():
        if record.error is not None:
            yield report(ctx, source, record, record.error.column, None, record.error.message)
