"""## What it does
Reports a Markdown file whose last line has no line break (LF, CRLF or CR).

## Why is this bad?
Appending to such a file (as agents do) glues the new text onto the last
line, and diffs show a spurious change. Note stores are checked by NT003
instead, because their last line is a torn record.

## Example
Not writable as a text example: the missing line break is invisible. For
instance a memory whose last bytes are `Prefers espresso.` with no `\\n`
after them, as `printf 'Prefers espresso.' >> coffee.md` leaves it.

Use instead: `Prefers espresso.` followed by a line break
(`memlint check --fix` adds it).

## Fix safety
Safe: the fix appends one line break in the file's own style (LF or CRLF).
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="FS008",
    name="missing-final-newline",
    summary="File does not end with a line break",
    severity=Severity.INFO,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.ALWAYS,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    text = source.text
    if not text or text.endswith(("\n", "\r")) or not source.path.endswith(".md"):
        return
    end = len(text)
    fix = Fix.safe("Add a final newline", source.edit(end, end, source.newline))
    yield ctx.report(source, end, end, "no newline at end of file", fix=fix)
