"""## What it does
Reports a note whose `project` and `fact` were already recorded earlier in the
store (compared after Unicode normalization, case folding, whitespace collapsing
and dropping a final period).

## Why is this bad?
Recall returns the fact twice, and a later correction has to retire two notes.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run every night."}
{"time": "2024-05-08T09:00:00Z", "project": "api", "fact": "Deploys run on tuesdays"}
```

Use instead, the fact recorded once:
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
from memlint.rules.nt.common import NOTES, notes, report, string_field

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT015",
    name="duplicate-note",
    summary="The same project and fact are already recorded",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def _key(text: str) -> str:
    if not text.isascii():  # ASCII is its own NFKC form
        import unicodedata  # a C extension: loaded only for text that is not ASCII

        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.casefold().split()).rstrip(".")


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    seen: dict[tuple[str, str], int] = {}
    for record in notes(ctx, source):
        project = string_field(record, "project")
        fact = string_field(record, "fact")
        if not project or not fact or not fact.strip():
            continue
        key = (_key(project), _key(fact))
        if key in seen:
            message = f"same project and fact as line {seen[key]}"
            yield report(ctx, source, record, record.value_column("fact"), None, message)
        else:
            seen[key] = record.line
