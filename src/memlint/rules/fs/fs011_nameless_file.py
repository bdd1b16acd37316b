"""## What it does
Reports a file named just `.md`: a Markdown file with no name before the
extension. memlint reads it as a hidden file and does not lint it.

## Why is this bad?
A memory's identity is its filename without `.md`: a file named `.md` has
none, so no wikilink or index entry can name it in a checkable way, and most
tools skip it as hidden. Whatever it holds is a memory no one can find.

## Example
Not writable as a text example (the file needs no content): a store with
`memory/.md` next to `memory/MEMORY.md`.

Use instead: give it a name (`memory/build-notes.md`) and an index entry.

## Fix safety
No fix: only the author knows the memory's name.
"""

from __future__ import annotations

import os

from memlint.diagnostics import Range, Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="FS011",
    name="nameless-file",
    summary="A file named just `.md` has no identity",
    severity=Severity.WARNING,
    scope=Scope.STORE,
    profiles=MARKDOWN_PROFILES,
)


def check(ctx: RuleContext[Store], store: Store) -> Iterator[Diagnostic]:
    known = next((s for s in store.files if s.display.endswith(s.rel)), None)
    if known is not None:  # displayed the way the store's other files are
        prefix = known.display[: len(known.display) - len(known.rel)]
    else:
        prefix = store.display_root.rstrip("/") + "/"
    for rel in store.excluded:
        if rel.rsplit("/", 1)[-1] != ".md":
            continue
        path = os.path.join(store.root, *rel.split("/"))
        message = "file named just `.md`: it has no name, so no link can reach it; rename it"
        yield ctx.report_at(path, prefix + rel, Range.file_start(), message)
