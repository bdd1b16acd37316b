"""``agent``: for a model to act on. Terse, capped, fix-first.

One line per finding, errors first: ``path:line CODE message — fix: what to do``,
at most ``MAX_LINES`` of them and ``MAX_CHARS`` in all (Claude Code cuts hook
output at 10,000 characters), then the exact command that applies the safe fixes.
"""

from __future__ import annotations

import os
import shlex

from memlint.diagnostics import Applicability, Diagnostic, Severity
from memlint.privacy import mask_text
from memlint.textutil import escape, plural, shorten

MAX_LINES = 20
MAX_CHARS = 8_000
MESSAGE_WIDTH = 200


def fix_hint(diagnostic: Diagnostic) -> str:
    """What to do about ``diagnostic``: its fix, its first note, or where the rule is explained."""
    fix = diagnostic.fix
    if fix is not None and fix.edits and fix.applicability is Applicability.SAFE:
        return f"{escape(fix.title)} (safe fix)"
    if fix is not None and fix.edits and fix.applicability is Applicability.UNSAFE:
        return f"{escape(fix.title)} (unsafe fix: check it first)"
    if diagnostic.notes:
        return escape(diagnostic.notes[0])
    return f"see `memlint rule {diagnostic.code}`"


def _order(diagnostic: Diagnostic) -> tuple:
    return (-diagnostic.severity, *diagnostic.sort_key())


def render_agent(diagnostics: list[Diagnostic], ctx) -> str:
    if not diagnostics:
        return "memlint: no problems found.\n"
    ordered = sorted(diagnostics, key=_order)
    out: list[str] = []
    size = 0
    for diagnostic in ordered[:MAX_LINES]:
        start = diagnostic.range.start
        message = shorten(mask_text(escape(diagnostic.message)), MESSAGE_WIDTH)
        label = diagnostic.severity.label
        severity = "" if diagnostic.severity is Severity.ERROR else f" ({label})"
        line = (
            f"{escape(diagnostic.display_path)}:{start.line} {diagnostic.code}{severity} "
            f"{message} — fix: {mask_text(fix_hint(diagnostic))}\n"
        )
        if size + len(line) > MAX_CHARS:
            break
        out.append(line)
        size += len(line)
    hidden = len(ordered) - len(out)
    if hidden:
        out.append(f"… and {plural(hidden, 'more finding')} not shown.\n")
    fixable = sorted(
        {
            d.display_path
            for d in diagnostics
            if d.fix is not None and d.fix.edits and d.fix.applicability is Applicability.SAFE
        }
    )
    if fixable:
        if len(fixable) > 10:  # the folder that holds them all (fixes apply to its stores)
            fixable = [os.path.commonpath(fixable)]
        paths = " ".join(shlex.quote(escape(p)) for p in fixable)
        out.append(f"Apply the safe fixes: memlint check --fix {paths}\n")
    return "".join(out)
