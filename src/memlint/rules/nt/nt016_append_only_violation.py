"""## What it does
Checks that a note store only grew: the lines it had at a base revision
(`memlint check --base REV`) must still be its first lines, unchanged and in
order. In a pre-commit hook (`PRE_COMMIT=1`, no `--base`) the staged content is
compared with `HEAD`. Reports the first line that was edited, removed or
reordered, with both versions (secrets masked).

## Why is this bad?
The note-capture contract is append-only: earlier facts are never rewritten, so
anything that recalled them stays valid and the history can be audited.

## Example
At `main`, line 2 is `{"…", "fact": "Deploys run on Tuesdays."}`; in the
working tree it says `Wednesdays`.

Use instead: leave line 2 and append a new note that supersedes it.

## Fix safety
No fix. Outside a git repository, or when the store is not in the base
revision, the check is skipped with a notice on stderr. When git is not run
because the work tree looks tampered with (a committed folder that looks like a
git directory), the note store is reported as not compared.
"""

from __future__ import annotations

import os
import sys

from memlint.diagnostics import Position, Range, Severity
from memlint.privacy import mask_text
from memlint.rules.base import RuleMeta, Scope
from memlint.rules.nt.common import NOTES
from memlint.textutil import escape, shorten, shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import RuleContext
    from memlint.sources.document import SourceFile
    from memlint.store import Store

META = RuleMeta(
    code="NT016",
    name="append-only-violation",
    summary="Lines present at the base revision were changed, removed or reordered",
    severity=Severity.ERROR,
    scope=Scope.NOTES,
    profiles=NOTES,
    external=True,
)


def _shown(line: bytes, skip: int = 0) -> str:
    """The line (secrets masked) from ``skip`` characters on, cut to 60 characters."""
    text = mask_text(line.decode("utf-8", "replace").rstrip("\r"))
    return ("…" if skip else "") + shorten(text[skip:], 60)


def _common_prefix(a: bytes, b: bytes) -> int:
    """Characters the two lines share at the start, less some context."""
    size = 0
    for x, y in zip(a.decode("utf-8", "replace"), b.decode("utf-8", "replace"), strict=False):
        if x != y:
            break
        size += 1
    return max(size - 12, 0)


def _describe(base: list[bytes], current: list[bytes], at: int, label: str) -> str:
    if at >= len(current):
        return f"line {at + 1} of {label} was removed: `{_shown(base[at])}`"
    skip = _common_prefix(base[at], current[at])
    was, now = _shown(base[at], skip), _shown(current[at], skip)
    message = f"line {at + 1} differs from {label}: was `{was}`, now `{now}`"
    if base[at] in current[at + 1 :]:
        return message + " (lines were inserted or reordered)"
    if at + 1 < len(base) and base[at + 1] == current[at]:
        return message + " (a line was deleted)"
    return message


def first_difference(base: bytes, current: bytes) -> int | None:
    """Index of the first base line not kept at the start of ``current``, else None."""
    base_lines = base.split(b"\n")
    if base_lines[-1] == b"":
        base_lines.pop()
    current_lines = current.split(b"\n")
    for index, line in enumerate(base_lines):
        if index >= len(current_lines) or current_lines[index] != line:
            return index
    return None


def check(ctx: RuleContext[Store], source: SourceFile) -> Iterator[Diagnostic]:
    rev = ctx.settings.base_rev
    staged = not rev and os.environ.get("PRE_COMMIT") == "1"
    if not rev and not staged:
        return
    from memlint import gitbase  # only a run comparing with git reads it

    try:
        repo, rel = gitbase.repo_path(source.path)
        if not rev:  # staged
            base = gitbase.content_at(repo, gitbase.resolve(repo, "HEAD"), rel)
            current = gitbase.content_at(repo, gitbase.STAGED, rel)
            label = "HEAD"
        else:
            base = gitbase.content_at(repo, gitbase.resolve(repo, rev), rel)
            current = source.raw
            label = rev
    except gitbase.GitRefused as exc:  # a committed decoy must not switch the check off
        rng = Range(Position(1, 1), Position(1, 1))
        label = "HEAD" if not rev else escape(rev)[:40]
        message = f"cannot compare with {label}: {escape(str(exc))}"
        yield ctx.report_at(source.path, source.display, rng, message)
        return
    except gitbase.GitUnavailable as exc:
        print(
            f"memlint: NT016 skipped for {shown(source.display)}: {shown(str(exc))}",
            file=sys.stderr,
        )
        return
    at = first_difference(base, current)
    if at is None:
        return
    base_lines = base.split(b"\n")
    current_lines = current.split(b"\n")
    if current_lines[-1] == b"":
        current_lines.pop()
    line = min(at, max(len(current_lines) - 1, 0)) + 1
    rng = Range(Position(line, 1), Position(line, 1))
    message = _describe(base_lines, current_lines, at, escape(label)[:40])
    yield ctx.report_at(source.path, source.display, rng, message)
