"""## What it does
Reports a symlinked memory, index or note file. memlint never follows
links; the message says whether the link escapes the store, loops or
dangles.

## Why is this bad?
A link can point outside the store (leaking or editing files elsewhere),
dangle after a move, or loop. Agents and linters see different contents.

## Example
Not writable as a text example: the problem is a symlink, not file content.
For instance `memory/notes.md -> /home/me/secrets.md`, created by
`ln -s /home/me/secrets.md memory/notes.md`.

Use instead: a regular file inside the store.

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
    code="FS006",
    name="symlink-skipped",
    summary="Symlink not followed",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=ALL_PROFILES,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    for skipped in store.skipped:
        if skipped.kind == "symlink":
            yield ctx.report_at(
                skipped.path,
                skipped.display,
                Range.file_start(),
                f"symlink not followed: {escape(skipped.detail)}",
            )
