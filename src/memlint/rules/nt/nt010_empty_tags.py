"""## What it does
Reports `"tags": []`.

## Why is this bad?
The contract makes `tags` optional and says to omit it when there are none; an
empty list is noise in every record and in the index.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays.", "tags": []}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only; stop writing empty lists in new records.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, report

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT010",
    name="empty-tags",
    summary="`tags` is an empty list (omit it instead)",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        if record.fields.get("tags") == []:
            column = record.key_column("tags")
            yield report(ctx, source, record, column, None, "`tags` is empty; omit the field")
