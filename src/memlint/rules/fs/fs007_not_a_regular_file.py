"""## What it does
Reports a directory entry named like a memory, index or note file that is
not a regular file: a FIFO, a device, a socket or a directory named `*.md`;
and a folder of the store that cannot be listed (its memories are not
checked, and index entries pointing into it are not called missing).

## Why is this bad?
Reading a FIFO or device can hang or return endless data; a directory named
`MEMORY.md` or `x.md` means the index or memory the agent expects is not there.

## Example
Not writable as a text example: the problem is the kind of directory entry.
For instance `memory/MEMORY.md/`, created as a directory by a mistyped
`mkdir -p memory/MEMORY.md`, or a FIFO made by `mkfifo memory/log.md`.

Use instead: a regular file.

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.diagnostics import Range, Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.textutil import escape

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="FS007",
    name="not-a-regular-file",
    summary="Entry is not a regular file and was skipped",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=ALL_PROFILES,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    for skipped in store.skipped:
        if skipped.kind == "unlistable":
            yield ctx.report_at(
                skipped.path,
                skipped.display,
                Range.file_start(),
                "folder cannot be listed (permissions?); the memories in it were not checked",
            )
        elif skipped.kind == "special":
            yield ctx.report_at(
                skipped.path,
                skipped.display,
                Range.file_start(),
                f"not a regular file ({escape(skipped.detail)}); skipped",
            )
