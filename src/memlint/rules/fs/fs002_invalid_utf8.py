"""## What it does
Reports a file that is not valid UTF-8, with the byte offset of the first
bad sequence.

## Why is this bad?
Memory files are read as UTF-8 by agents and tools; an invalid byte makes
a loader fail or silently replace text.

## Example
A file saved as Latin-1: `caf\xe9` (the byte `0xE9` alone).

Use instead: the same text saved as UTF-8 (`café`).

## Fix safety
No fix: memlint never guesses an encoding.
"""

from memlint.diagnostics import Position, Range, Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

META = RuleMeta(
    code="FS002",
    name="invalid-utf8",
    summary="File is not valid UTF-8",
    severity=Severity.ERROR,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
)


def check(ctx, source):
    problem = source.problem
    if problem is None or problem.kind != "invalid-utf8":
        return
    line = source.raw.count(b"\n", 0, problem.offset) + 1
    rng = Range(Position(line, 1), Position(line, 1))
    yield ctx.report_at(source.path, source.display, rng, f"file is not UTF-8: {problem.detail}")
