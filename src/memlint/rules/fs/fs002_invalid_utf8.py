"""## What it does
Reports a file that is not valid UTF-8, with the byte offset of the first
bad sequence.

## Why is this bad?
Memory files are read as UTF-8 by agents and tools; an invalid byte makes
a loader fail or silently replace text.

## Example
Not writable as a text example: the problem is a byte sequence that is not
UTF-8. For instance `coffee.md` saved as Latin-1, where `café` is the four
bytes `63 61 66 E9` (a lone `0xE9`).

Use instead: the same text saved as UTF-8 (`café` as `63 61 66 C3 A9`).

## Fix safety
No fix: memlint never guesses an encoding.
"""

from __future__ import annotations

from memlint.diagnostics import Position, Range, Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="FS002",
    name="invalid-utf8",
    summary="File is not valid UTF-8",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    problem = source.problem
    if problem is None or problem.kind != "invalid-utf8":
        return
    line = source.raw.count(b"\n", 0, problem.offset) + 1
    rng = Range(Position(line, 1), Position(line, 1))
    yield ctx.report_at(source.path, source.display, rng, f"file is not UTF-8: {problem.detail}")
