"""## What it does
Reports a note record that is JSON but not I-JSON (RFC 7493): duplicate keys,
`NaN`/`Infinity`, lone surrogates (`"\\ud800"`), numbers beyond IEEE double
range or integers beyond 2^53, a byte order mark.

## Why is this bad?
Parsers disagree on such records: one keeps the first duplicate, another the
last; `1e400` becomes infinity or an error; a lone surrogate crashes UTF-8
writers. The same store then means different things to different readers.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "project": "web", \
"fact": "Deploys run on Tuesdays."}
```

Use instead, one `project` key:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only, and which duplicate was meant is unknown.
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
    code="NT017",
    name="not-i-json",
    summary="A note record is not I-JSON (RFC 7493)",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    parsed = records_of(ctx, source)
    for record in parsed.records if parsed else ():
        for problem in record.ijson:
            message = f"record is not I-JSON: {problem.message}"
            yield report(ctx, source, record, problem.column, None, message)
