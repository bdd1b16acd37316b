"""## What it does
Reports a `fact` that echoes the conversation: it starts with a speaker prefix
(`User:`, `Assistant:`, `Human:`, `AI:` …), holds several speaker turns, or is
one verbatim quotation.

## Why is this bad?
The note-capture contract rejects transcript content: a note records the
settled fact, not what was said on the way to it.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "User: we deploy on Tuesdays"}
```

Use instead:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
```

## Fix safety
No fix: the store is append-only.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, report, string_field
from memlint.rules.nt.facts import transcript_reason

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT013",
    name="transcript-echo",
    summary="`fact` echoes the conversation",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    for record in notes(ctx, source):
        fact = string_field(record, "fact")
        reason = transcript_reason(fact) if fact else None
        if reason:
            message = f"`fact` {reason}; record the settled fact, not the conversation"
            yield report(ctx, source, record, record.value_column("fact"), None, message)
