"""## What it does
Reports a `<!-- memlint: ... -->` suppression comment, or one of its codes,
that suppressed nothing: the rule it names found no problem on the lines it
covers, the code is unknown, or an `enable[...]` closes no `disable[...]`.

## Why is this bad?
A stale suppression hides the next real problem on that line and tells
readers a problem exists where there is none.

## Example
```memlint-bad path=MEMORY.md
# Memory

- [Tea](tea.md) — tea preferences <!-- memlint: ignore[FS010] -->
```

Use instead:
```memlint-good path=MEMORY.md
# Memory

- [Tea](tea.md) — tea preferences
```

## Fix safety
Safe: the fix deletes the comment (and its line when it stands alone), or
only the unused codes from its list; a `disable` loses its `enable` with it.
Nothing but the suppression changes.
"""

from __future__ import annotations

from memlint.diagnostics import Fix, FixAvailability, Severity
from memlint.rules.base import MARKDOWN_PROFILES, RuleMeta, Scope
from memlint.suppression import Directive, own_line

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="MX001",
    name="unused-suppression",
    summary="Suppression comment that suppressed nothing",
    severity=Severity.WARNING,
    scope=Scope.SUPPRESSIONS,
    profiles=MARKDOWN_PROFILES,
    fix=FixAvailability.ALWAYS,
)


def check(ctx: RuleContext[Store], directive: Directive) -> Iterator[Diagnostic]:
    unused = directive.unused
    listed = ", ".join(unused)
    if directive.kind == "enable":
        message = f"`enable[{listed}]` closes no `disable`"
    elif len(unused) == len(directive.codes):
        message = f"unused suppression `{directive.kind}[{listed}]`"
    else:
        message = f"unused code{'s' if len(unused) > 1 else ''} {listed} in suppression"
    source = directive.source
    yield ctx.report(source, directive.start, directive.end, message, fix=_fix(directive))


def _fix(directive: Directive) -> Fix:
    source = directive.source
    kept = [code for code in directive.codes if code in directive.used]
    if kept:
        codes_end = directive.codes_start + len(
            (source.text or "")[directive.codes_start :].split("]", 1)[0]
        )
        edit = source.edit(directive.codes_start, codes_end, ", ".join(kept))
        return Fix.safe("Remove the unused codes", edit)
    edits = [_delete_comment(d) for d in (directive, *_whole_partners(directive))]
    return Fix.safe("Remove the unused suppression", *edits)


def _whole_partners(directive: Directive) -> list[Directive]:
    """The ``enable`` comments that only close ``directive``."""
    return [
        partner
        for partner in dict.fromkeys(directive.partners)
        if set(partner.codes) <= set(directive.codes)
    ]


def _delete_comment(directive: Directive):
    source = directive.source
    text = source.text or ""
    if own_line(source, directive.start, directive.end):
        line = directive.line
        start = source.line_starts[line - 1]
        end = source.line_starts[line] if line < len(source.line_starts) else len(text)
        return source.edit(start, end, "")
    start = directive.start
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    return source.edit(start, directive.end, "")
