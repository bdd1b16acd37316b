"""``agent``: for a model to act on. Terse, capped, fix-first.

One line per finding, errors first: ``path:line CODE message — fix: what to do``,
at most ``MAX_LINES`` of them and ``MAX_CHARS`` in all (Claude Code cuts hook
output at 10,000 characters), then the exact command that applies the safe fixes.
Secrets are masked upstream, in :func:`memlint.output.render`, as for every format.
"""

from __future__ import annotations

import os
import shlex

from memlint.diagnostics import Applicability, Diagnostic, Severity
from memlint.textutil import escape, plural, shorten

MAX_LINES = 20
MAX_CHARS = 8_000
MESSAGE_WIDTH = 200


# What to do, for the rules that have no automatic fix and that an agent meets at write time.
FIX_HINTS = {
    "FM001": "start the file with a `---` frontmatter block (name, description, type)",
    "FM002": "close the frontmatter with a `---` line",
    "FM003": 'quote the value (`key: "text: with colons"`) so the YAML parses',
    "FM004": "make the frontmatter `key: value` lines",
    "FM005": "keep one line per key",
    "FM006": "write plain values (no `&anchor`, `*alias`, `<<:` or `!tag`)",
    "FM007": "add the missing key",
    "FM008": "give the key a value",
    "FM009": "quote the value so it is a string",
    "FM010": "use one of user, feedback, project, reference",
    "FM011": "make `type` and `metadata.type` the same",
    "FM012": "write the description on one line",
    "ID002": "rename one of the two files",
    "ID003": "give one of the two memories another name, or merge them",
    "ID004": "name the file `<type>_<slug>.md`",
    "ID005": "use a slug of lower-case letters, digits and `-`, at most 40",
    "ID006": "make the filename's type prefix match `type`",
    "ID007": "rename one file so no two differ only in case",
    "IX004": "link only files inside the store",
    "IX006": "write the entry as `- [Title](file.md) — hook` on one line",
    "IX007": "shorten the entry's hook to under 150 characters",
    "IX008": "shorten or merge entries so the index fits the loader's cut",
    "IX009": "merge or drop entries before the index reaches 200 lines",
    "IX010": "move the fact into a memory file and link it from the index",
    "IX011": "remove the frontmatter block from MEMORY.md",
    "LK001": "link an existing memory's `name`, or write that memory",
    "LK002": "link by a name only one memory has",
    "LK005": "link a memory by its name, not a path or URL",
    "SU001": "point `superseded by [[…]]` at an existing memory's name",
    "SU002": "point the supersession at another memory",
    "SU003": "break the loop: the newest memory supersedes nothing",
    "SU006": "write `superseded by [[name]]` in the description",
    "TY001": "add a `**Why:**` line",
    "TY002": "add a `**How to apply:**` line",
    "DU001": "merge the two memories into one and delete the other",
}


def fix_hint(diagnostic: Diagnostic) -> str:
    """What to do about ``diagnostic``: its fix, a hint, its first note, or its rule's page."""
    fix = diagnostic.fix
    if fix is not None and fix.edits and fix.applicability is Applicability.SAFE:
        return f"{escape(fix.title)} (safe fix)"
    if fix is not None and fix.edits and fix.applicability is Applicability.UNSAFE:
        return f"{escape(fix.title)} (unsafe fix: check it first)"
    hint = FIX_HINTS.get(diagnostic.code)
    note = escape(diagnostic.notes[0]) if diagnostic.notes else None
    if hint and note:
        return f"{hint} ({note})"
    return hint or note or f"see `memlint rule {diagnostic.code}`"


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
        message = shorten(escape(diagnostic.message), MESSAGE_WIDTH)
        label = diagnostic.severity.label
        severity = "" if diagnostic.severity is Severity.ERROR else f" ({label})"
        line = (
            f"{escape(diagnostic.display_path)}:{start.line} {diagnostic.code}{severity} "
            f"{message} — fix: {fix_hint(diagnostic)}\n"
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
    if fixable and ctx.stdin_filename:
        draft = shlex.quote(escape(ctx.stdin_filename))
        out.append(
            f"Apply the safe fixes: memlint check --fix --stdin-filename {draft} - < DRAFT"
            " (prints the fixed text)\n"
        )
    elif fixable:
        if len(fixable) > 10:  # the folder that holds them all (fixes apply to its stores)
            fixable = [os.path.commonpath(fixable)]
        # ``./`` keeps a file named like an option (``--output-file=MEMORY.md``) a path
        paths = " ".join(shlex.quote(escape(f"./{p}" if p.startswith("-") else p)) for p in fixable)
        out.append(f"Apply the safe fixes: memlint check --fix {paths}\n")
    return "".join(out)
