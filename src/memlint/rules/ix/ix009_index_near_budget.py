"""## What it does
Warns when the index, as the loader sees it (frontmatter and block HTML
comments stripped), is over 140 lines (`warn-lines`) but still loads whole
within the loader's own 200-line / 25,000-byte budget (`budget.MAX_LINES`
and `MAX_SIZE`: the shared `loader-*` settings that move IX008 do not move
it). Past the cut, IX008 reports instead.

## Why is this bad?
Claude Code tells the agent to rewrite an index that reaches its limit to
under 140 lines. An index close to 200 lines loses its newest entries after
a few more memories, silently.

## Example
A 170-line index of one-line entries.

Use instead: merge related entries and drop stale ones until the index is
under 140 lines.

## Fix safety
No fix.
"""

from __future__ import annotations

from memlint.budget import MAX_LINES, MAX_SIZE, WARN_LINES
from memlint.diagnostics import Severity
from memlint.rules.base import TYPED_FREEFORM, Option, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX009",
    name="index-near-budget",
    summary="Index is over 140 lines, close to the loader's 200-line cut",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=TYPED_FREEFORM,
    options=(Option("warn-lines", int, WARN_LINES, "the line count warned about", minimum=1),),
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    source = index.file
    result = ctx.store.loaded_index(MAX_LINES, MAX_SIZE, "bytes")  # the loader's own budget
    warn = int(ctx.options["warn-lines"])
    if result is None or result.cut or len(result.lines) <= warn:
        return
    line = result.lines[warn]
    start, end = source.line_span(line.number)
    message = (
        f"the index loads as {len(result.lines)} lines, over the {warn}-line target "
        f"(the loader stops at {MAX_LINES})"
    )
    yield ctx.report(source, start, end, message)
