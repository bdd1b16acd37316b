"""## What it does
Reports a note store whose last record does not end with a newline.

## Why is this bad?
JSONL records end with `\\n`. A missing final newline usually means a torn
(interrupted) write, and the next append glues a new record onto this line.

## Example
A file ending in `…"fact": "Deploys run on Tuesdays."}` with no line break.

Use instead: the same record followed by `\\n`.

## Fix safety
No fix: memlint cannot tell a torn write from a complete record; check the
record, then append the newline yourself.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES, records_of, report

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="NT003",
    name="torn-final-record",
    summary="The last note record has no final newline",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    parsed = records_of(ctx, source)
    if parsed is None or not parsed.torn or not parsed.records:
        return
    last = parsed.records[-1]
    state = "a complete record" if last.parsed else "a cut-off record"
    message = f"last line has no final newline ({state}; a torn write?)"
    yield report(ctx, source, last, len(last.text), None, message)
