"""## What it does
Reports records of a JSONL file that repeat an earlier record exactly (the
same keys and values, whatever their order). It runs on every JSONL file of
a store, whatever its schema; a note-store record with a `project` and a
`fact` is left to NT015, which also catches near-exact repeats. One finding
per file, at the first repeat, with the count.

## Why is this bad?
Recall returns the record twice, and test or junk records written in a loop
(`{"value": "works!"}` ten times) crowd out the real ones.

## Example
```memlint-bad path=memories.jsonl
{"key": "deploy-day", "value": "Deploys run on Tuesdays."}
{"key": "deploy-day", "value": "Deploys run on Tuesdays."}
```

Use instead:
```memlint-good path=memories.jsonl
{"key": "deploy-day", "value": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only; rewrite its history instead.
"""

from __future__ import annotations

import json

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, report, string_field

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT020",
    name="duplicate-record",
    summary="A JSONL record repeats an earlier one exactly",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
    any_jsonl=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    seen: dict[str, int] = {}
    repeats = []
    for record in notes(ctx, source):
        if string_field(record, "project") and string_field(record, "fact"):
            continue  # NT015's
        key = json.dumps(record.value, sort_keys=True, ensure_ascii=False, default=str)
        if key in seen:
            repeats.append((record, seen[key]))
        else:
            seen[key] = record.line
    if not repeats:
        return
    record, first = repeats[0]
    more = f" ({len(repeats)} repeated records in the file)" if len(repeats) > 1 else ""
    message = f"record repeats line {first} exactly{more}"
    yield report(ctx, source, record, 0, None, message)
