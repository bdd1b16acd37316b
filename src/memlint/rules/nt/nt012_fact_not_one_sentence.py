"""## What it does
Reports a `fact` that is more than one sentence, holds a line break, or is
longer than `max-length` characters (default 250).

## Why is this bad?
The note-capture contract bounds each note to one self-contained sentence or
short clause; paragraphs are several facts, recalled and retired as one.
Abbreviations (`e.g.`, `U.S.`, `Dr.`), initials, versions (`v1.2`) and
decimals do not end a sentence.

## Example
```memlint-bad path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", \
"fact": "Deploys run on Tuesdays. Rollbacks need two approvals."}
```

Use instead, one fact per record:
```memlint-good path=notes.jsonl
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Deploys run on Tuesdays."}
{"time": "2024-05-01T09:00:00Z", "project": "api", "fact": "Rollbacks need two approvals."}
```

## Fix safety
No fix: the store is append-only, and splitting a fact needs judgement.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import Option, RuleMeta, Scope
from memlint.rules.nt.common import NOTES, notes, report, string_field
from memlint.rules.nt.facts import sentence_count

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT012",
    name="fact-not-one-sentence",
    summary="`fact` is more than one sentence or too long",
    severity=Severity.WARNING,
    scope=Scope.NOTES,
    profiles=NOTES,
    options=(Option("max-length", int, 250, "the longest `fact`, in characters", minimum=1),),
    local=True,
)


def _problem(fact: str, limit: int) -> str | None:
    if "\n" in fact or "\r" in fact or "\u2028" in fact or "\u2029" in fact:
        return "`fact` holds a line break; keep one sentence per note"
    if len(fact) > limit:
        return f"`fact` is {len(fact)} characters (more than {limit}); keep it to one sentence"
    count = sentence_count(fact)
    if count > 1:
        return f"`fact` has {count} sentences; record one fact per note"
    return None


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    limit = ctx.options.get("max-length")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        limit = 250
    for record in notes(ctx, source):
        fact = string_field(record, "fact")
        problem = _problem(fact, limit) if fact else None
        if problem:
            yield report(ctx, source, record, record.value_column("fact"), None, problem)
