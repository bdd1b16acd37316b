"""## What it does
Reports a note record without one of the required fields `time`, `project`, `fact`.

## Why is this bad?
Notes are recalled by project and located by time; a record without them can
neither be indexed nor confirmed after the append.

## Example
```memlint-bad path=notes.jsonl
{"project": "api", "fact": "Deploys run on Tuesdays."}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: memlint cannot know the missing values.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, REQUIRED_FIELDS, notes, report

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT005",
    name="missing-note-field",
    summary="A note record lacks `time`, `project` or `fact`",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        missing = [key for key in REQUIRED_FIELDS if key not in record.fields]
        if missing:
            names = ", ".join(f"`{key}`" for key in missing)
            field = "field" if len(missing) == 1 else "fields"
            yield report(ctx, source, record, 0, 1, f"record is missing the {field} {names}")
