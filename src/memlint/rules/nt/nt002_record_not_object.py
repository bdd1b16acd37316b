"""## What it does
Reports a note record that is valid JSON but not an object (an array, a string,
a number, `true`/`false`/`null`).

## Why is this bad?
A note is an object with `time`, `project` and `fact`; anything else cannot be
indexed by project or recalled.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
["2024-05-02T09:00:00Z", "api", "Tests run every night."]
{"time": "2024-05-03T09:00:00Z", "project": "web", "fact": "The CDN is purged on deploy."}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-03T09:00:00Z", "project": "web", "fact": "The CDN is purged on deploy."}
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
    code="NT002",
    name="record-not-object",
    summary="A note record is not a JSON object",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
    any_jsonl=True,
)

KINDS = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    parsed = records_of(ctx, source)
    for record in parsed.records if parsed else ():
        if record.parsed and not isinstance(record.value, dict):
            kind = (
                "null" if record.value is None else KINDS.get(type(record.value), "not an object")
            )
            yield report(ctx, source, record, 0, None, f"record is {kind}, not a JSON object")
