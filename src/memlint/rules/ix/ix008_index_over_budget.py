"""## What it does
Simulates the agent's index loader (frontmatter and block HTML comments
stripped, then the first 200 lines or 25,000 bytes, whichever comes first)
and reports every index entry past the cut, naming the memory the agent can
no longer see. When the cut falls on a line that is not an entry, that line
is reported too. `memlint check --show-loaded PATH` prints what is loaded.

The budget is the shared loader settings (`[shared]`): `loader-max-lines`
(200), `loader-max-size` (25000), `loader-size-unit` (`bytes`, or `utf-16` to
count like the current loader, which measures string length). IX010, IX002's
fix, `--show-loaded` and the session hook cut at the same place.
`[rules.IX008]` `max-lines`, `max-size` and `size-unit` are read as those
settings, as before they were shared.

## Why is this bad?
Claude Code loads only the start of `MEMORY.md`; the rest is silently
invisible. Entries are usually appended, so the newest memories are the ones
lost, and the agent acts as if they were never written.

## Example
A 230-line index: entries on lines 201-230 are never loaded.

Use instead: keep one short line per memory, merge or drop stale entries and
move detail into the memory files, until the index is under 140 lines.

## Fix safety
No fix: which entries to merge or drop is the author's choice.
"""

from __future__ import annotations

from memlint.budget import loader_limits
from memlint.diagnostics import Severity
from memlint.rules.base import TYPED_FREEFORM, RuleMeta, Scope
from memlint.rules.shared import LOADER

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Index, Store

META = RuleMeta(
    code="IX008",
    name="index-over-budget",
    summary="Index entries fall past the loader's 200-line / 25 KB cut",
    severity=Severity.ERROR,
    scope=Scope.INDEX,
    profiles=TYPED_FREEFORM,
    shared=LOADER,
)


def check(ctx: RuleContext[Store], index: Index) -> Iterator[Diagnostic]:
    source = index.file
    result = ctx.store.loaded_index(**loader_limits(ctx.shared))
    if result is None or not result.cut:
        return
    lost = result.lost_numbers()
    entry_lines = set()
    for entry in index.entries:
        if entry.line not in lost:
            continue
        entry_lines.add(entry.line)
        memory = ctx.store.index_target(entry).memory
        what = f"memory `{memory.name or memory.stem}`" if memory else f"`{entry.target}`"
        message = f"entry is past the loader's cut ({result.reason}): the agent never sees {what}"
        yield ctx.report(source, entry.line_start, entry.line_end, message)
    first = result.first_lost
    if first is not None and first.number not in entry_lines:
        start, end = source.line_span(first.number)
        message = (
            f"the loader cuts MEMORY.md here ({result.reason}): "
            f"{len(lost)} line(s) from line {first.number} on are never loaded"
        )
        yield ctx.report(source, start, end, message)
