"""## What it does
Reports `project` or `fact` that is not a non-empty string, and `tags` that is
not a list of non-empty strings.

## Why is this bad?
Notes are indexed by project and tags and recalled by their fact text; a
number, `null`, a list or a blank string breaks the index and the recall.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": 42, "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "", "tags": "ops"}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-02T09:00:00Z", "project": "api", "fact": "Tests run nightly.", \
"tags": ["ops"]}
```

## Fix safety
No fix: the store is append-only.
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
    code="NT009",
    name="bad-field-type",
    summary="`project`/`fact` not a non-empty string, or `tags` not a list of strings",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def _problem(key: str, value) -> str | None:
    if key in ("project", "fact"):
        if not isinstance(value, str):
            return f"`{key}` must be a string"
        if not value.strip():
            return f"`{key}` is empty"
        return None
    if not isinstance(value, list):
        return "`tags` must be a list of strings"
    if not all(isinstance(tag, str) and tag.strip() for tag in value):
        return "`tags` must hold only non-empty strings"
    return None


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        for key in ("project", "fact", "tags"):
            if key in record.fields:
                problem = _problem(key, record.fields[key])
                if problem:
                    yield report(ctx, source, record, record.value_column(key), None, problem)
