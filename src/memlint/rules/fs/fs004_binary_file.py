"""## What it does
Reports a `.md` or `.jsonl` file that holds NUL bytes or is encoded as
UTF-16/UTF-32.

## Why is this bad?
Such a file is binary to every Markdown, YAML and JSON reader: an agent
loads garbage or nothing, and diffs stop being reviewable.

## Example
Not writable as a text example: the problem is the file's bytes. For
instance a PNG screenshot renamed `screenshot.md`, or `notes.jsonl` saved by
an editor as UTF-16 (first bytes `FF FE`, a NUL after every ASCII letter).

Use instead: UTF-8 text (and images kept outside the memory store).

## Fix safety
No fix: binary files are never rewritten.
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
    code="FS004",
    name="binary-file",
    summary="File is binary or not UTF-8 text",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    if source.problem is not None and source.problem.kind == "binary":
        yield ctx.report(source, 0, 0, f"binary file: {source.problem.detail}")
