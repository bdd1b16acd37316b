"""## What it does
Reports a file that starts with a UTF-8 byte order mark (`EF BB BF`).

## Why is this bad?
Frontmatter must start with `---` at byte 0: many YAML and Markdown loaders
do not skip the BOM, so the frontmatter of such a file silently disappears.

## Example
Not writable as a text example: the BOM is invisible. For instance a memory
saved by an editor as "UTF-8 with BOM", whose first bytes are
`EF BB BF 2D 2D 2D` (`---` preceded by the BOM).

Use instead: the same file saved as plain UTF-8, starting with `---`
(`memlint check --fix` removes the BOM).

## Fix safety
Safe: the fix deletes exactly the three BOM bytes; nothing else changes.
"""

from __future__ import annotations

from memlint.diagnostics import Edit, Fix, FixAvailability, Range, Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from memlint.sources.document import BOM_BYTES

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.sources.document import SourceFile

META = RuleMeta(
    code="FS003",
    name="utf8-bom",
    summary="File starts with a UTF-8 byte order mark",
    severity=Severity.WARNING,
    scope=Scope.FILE,
    profiles=ALL_PROFILES,
    fix=FixAvailability.ALWAYS,
    local=True,
)


def check(ctx: RuleContext[ProfileView], source: SourceFile) -> Iterator[Diagnostic]:
    if not source.bom:  # set only when the raw bytes start with the BOM
        return
    edit = Edit(source.path, 0, len(BOM_BYTES), "", Range.file_start())
    yield ctx.report(
        source, 0, 0, "file starts with a UTF-8 BOM", fix=Fix.safe("Remove the BOM", edit)
    )
