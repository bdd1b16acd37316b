"""## What it does
Reports a note field other than `time`, `project`, `fact` and `tags`.

## Why is this bad?
The note schema is closed: extra fields are usually a misspelling (`facts`,
`timestamp`) or data the contract does not allow (transcripts, session ids).

## Example
```memlint-bad path=notes.jsonl
{"timestamp": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only. Option `allowed-fields` (list) accepts more names.
"""

from __future__ import annotations

import json

from memlint.diagnostics import Severity
from memlint.rules.base import Option, RuleMeta, Scope
from memlint.rules.nt.common import KNOWN_FIELDS, NOTES, notes, report

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT011",
    name="unknown-note-field",
    summary="A note field outside `time`, `project`, `fact`, `tags`",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    options=(Option("allowed-fields", list, [], "extra fields a note may have"),),
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    extra = ctx.options.get("allowed-fields")
    allowed = KNOWN_FIELDS | set(extra if isinstance(extra, list) else ())
    for record in notes(ctx, source):
        for key in record.fields:
            if key not in allowed:
                column = record.key_column(key)
                name = json.dumps(key, ensure_ascii=True)[:62]
                yield report(ctx, source, record, column, None, f"unknown note field {name}")
