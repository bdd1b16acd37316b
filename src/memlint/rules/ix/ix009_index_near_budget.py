"""## What it does
Warns when the index, as the loader sees it (frontmatter and block HTML
comments stripped), is over 140 lines (`warn-lines`) but still loads whole.
Past the actual cut, IX008 reports instead.

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

from memlint.budget import options_of, simulate
from memlint.diagnostics import Severity
from memlint.rules.base import TYPED_FREEFORM, RuleMeta, Scope

META = RuleMeta(
    code="IX009",
    name="index-near-budget",
    summary="Index is over 140 lines, close to the loader's 200-line cut",
    severity=Severity.WARNING,
    scope=Scope.INDEX,
    profiles=TYPED_FREEFORM,
    options={"warn-lines": 140},
)


def check(ctx, index):
    source = index.file
    limits = options_of(ctx.settings.options_for("IX008"))
    result = simulate(source.text or "", index.body_start, **limits)
    warn = int(ctx.options["warn-lines"])
    if result.cut or len(result.lines) <= warn:
        return
    line = result.lines[warn]
    start, end = source.line_span(line.number)
    message = (
        f"the index loads as {len(result.lines)} lines, over the {warn}-line target "
        f"(the loader stops at {limits['max_lines']})"
    )
    yield ctx.report(source, start, end, message)
