"""## What it does
Reports records of a JSONL file whose text field is `null`: `text`,
`content`, `value`, `note`, `body`, `message`, `summary` or `memory` (a note
store's `fact` is NT009's). It runs on every JSONL file of a store, whatever
its schema. One finding per file, at the first such record, with the count.

## Why is this bad?
A record without its text is a memory that says nothing: a write that failed
half-way, or a tool that stored the wrong variable. Readers that expect a
string may crash on it or skip the file.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays.", "note": null}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only; rewrite its history instead.
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

TEXT_FIELDS = ("text", "content", "value", "note", "body", "message", "summary", "memory")

META = RuleMeta(
    code="NT019",
    name="null-text-value",
    summary="A JSONL record's text field is null",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
    any_jsonl=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    found = []
    for record in notes(ctx, source):
        key = next(
            (k for k in TEXT_FIELDS if k in record.fields and record.fields[k] is None), None
        )
        if key is not None:
            found.append((record, key))
    if not found:
        return
    record, key = found[0]
    more = f" ({len(found)} records)" if len(found) > 1 else ""
    message = f"`{key}` is null: the record holds no text{more}"
    yield report(ctx, source, record, record.value_column(key), None, message)
