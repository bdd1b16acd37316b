"""## What it does
Reports a file larger than the configured cap (`max-file-size`, default
1 MiB). The file is not read or parsed.

## Why is this bad?
A memory that large cannot fit an agent's context and is almost always a
pasted log or an accident; reading it would also slow every run.

## Example
Not writable as a text example: it takes a file over the size cap. For
instance a 5 MB `debug-session.md` with a pasted log.

Use instead: a short memory that states what was learned and links to the
log kept elsewhere.

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
    code="FS005",
    name="file-too-large",
    summary="File is over the size cap and was not parsed",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    if source.problem is not None and source.problem.kind == "too-large":
        yield ctx.report(source, 0, 0, f"file too large: {source.problem.detail}; not parsed")
