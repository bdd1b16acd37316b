"""## What it does
Reports a memory, index or note file that cannot be read (permissions, I/O
error, a file removed while memlint ran). Oversized files are FS005.

## Why is this bad?
The agent cannot load what the linter cannot read either; the file's
contents are invisible to every other check.

## Example
Not writable as a text example: the problem is the file's permissions or
state, not its content. For instance `coffee.md` with mode `000`
(`chmod 000 coffee.md`), or a file deleted while memlint ran.

Use instead: a regular file the user running the agent can read
(`chmod 644 coffee.md`).

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="FS001",
    name="unreadable-file",
    summary="File cannot be read",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    if source.problem is not None and source.problem.kind == "unreadable":
        yield ctx.report(source, 0, 0, f"cannot read file: {source.problem.detail}")
