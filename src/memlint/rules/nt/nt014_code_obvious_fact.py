"""## What it does
Reports a `fact` that only restates what the code shows: a bare file path, a
bare function signature, or visible state ("the file X exists", "f() is
defined in y.py").

## Why is this bad?
The note-capture contract rejects code-obvious content: the code is the source
of truth for it, and the note goes stale at the next refactor.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "src/deploy/schedule.py"}
```

Use instead, the reason the code cannot tell:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", \
"fact": "Deploys skip Mondays because Monday traffic peaks."}
```

## Fix safety
No fix: the store is append-only.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, report, string_field
from memlint.rules.nt.facts import code_obvious_reason

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT014",
    name="code-obvious-fact",
    summary="`fact` restates what the code shows",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        fact = string_field(record, "fact")
        reason = code_obvious_reason(fact) if fact else None
        if reason:
            message = f"`fact` {reason}; record why, not what the code shows"
            yield report(ctx, source, record, record.value_column("fact"), None, message)
