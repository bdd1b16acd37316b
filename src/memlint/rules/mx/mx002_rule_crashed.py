"""## What it does
Reports a rule that raised an exception while checking a file (or the
whole store, then reported at `MEMORY.md`). The engine
(`memlint.engine.lint_store`) catches the exception, emits this diagnostic
with the file and the crashing rule's code, and goes on with the other
rules; the run then exits with status 2. Suppression comments and
`per-file-ignores` do not hide it. This module only documents the code: its
`check` finds nothing itself.

## Why is this bad?
A crashed rule checked nothing, so a clean-looking result may hide
problems. It is a bug in memlint: please report it.

## Example
`rule LK001 crashed (KeyError at lk001_pending_wikilink.py:40); please report this`

Use instead: an upgraded memlint; meanwhile `--ignore` the crashing rule.

## Fix safety
No fix.
"""

from memlint.diagnostics import Severity
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

META = RuleMeta(
    code="MX002",
    name="rule-crashed",
    summary="A rule raised an exception (reported by the engine)",
    severity=Severity.ERROR,
    scope=Scope.STORE,
    profiles=ALL_PROFILES,
)


def check(ctx, store):
    """Nothing to find: the engine reports crashes of the other rules."""
    return iter(())
