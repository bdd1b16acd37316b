"""## What it does
Reports a rule that raised an exception while checking a file (or the
whole store, then reported at `MEMORY.md`). The engine
(`memlint.engine.lint_store`) catches the exception, hands it to this rule
(its scope is a crash) and goes on with the other rules; the run then exits
with status 2. It runs whatever the selection, and suppression comments and
`per-file-ignores` do not hide it.

## Why is this bad?
A crashed rule checked nothing, so a clean-looking result may hide
problems. It is a bug in memlint: please report it.

## Example
`rule LK001 crashed (KeyError at lk001_pending_wikilink.py:40); please report this`

Use instead: an upgraded memlint; meanwhile `--ignore` the crashing rule.

## Fix safety
No fix.
"""

from __future__ import annotations

import os

from memlint.diagnostics import Range, Severity
from memlint.rules.base import ALL_PROFILES, Crash, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.store import Store

META = RuleMeta(
    code="MX002",
    name="rule-crashed",
    summary="A rule raised an exception (reported by the engine)",
    severity=Severity.ERROR,
    scope=Scope.CRASH,
    profiles=ALL_PROFILES,
)


def check(ctx: RuleContext[Store], crash: Crash) -> Iterator[Diagnostic]:
    source = crash.source
    path = source.path if source is not None else os.path.join(crash.store_root, "MEMORY.md")
    display = source.display if source is not None else crash.store_display
    message = f"rule {crash.code} crashed ({crash.error} at {crash.where}); please report this"
    yield ctx.report_at(path, display, Range.file_start(), message)
