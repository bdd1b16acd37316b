"""Edits on bytes: splice planned edits into a file, and show file changes as a diff.

Knows nothing of stores or rules: an :class:`~memlint.diagnostics.Edit` is a byte span
and its replacement, a :class:`FileChange` a file's bytes before and after.
"""

from __future__ import annotations

import difflib

from memlint.diagnostics import Edit
from memlint.privacy import mask_text
from memlint.records import dataclass, replace
from memlint.textutil import escape, shown


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file's bytes before (``None``: the file is created) and after."""

    path: str
    display: str
    old: bytes | None
    new: bytes


def overlaps(a: Edit, b: Edit) -> bool:
    """Spans that share a byte, or edits at the same start (their order would be a guess)."""
    return a.start == b.start or (a.start < b.end and b.start < a.end)


def joined(edits: list[Edit]) -> list[Edit]:
    """``edits`` with insertions at one offset merged into one, in plan order."""
    merged: dict[tuple[int, int], Edit] = {}
    for edit in edits:
        key = (edit.start, edit.end)
        if key in merged and edit.start == edit.end:
            edit = replace(merged[key], content=merged[key].content + edit.content)
        merged[key] = edit
    return list(merged.values())


def splice(data: bytes, edits: list[Edit]) -> bytes:
    """``data`` with non-overlapping ``edits`` applied (back to front, so offsets hold)."""
    out = data
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: edit.start] + edit.content.encode("utf-8") + out[edit.end :]
    return out


def diff_text(changes: list[FileChange]) -> str:
    """A unified diff of ``changes`` with every line escaped for the terminal and
    secrets masked (in each whole file, so a multi-line key block is masked too).

    Line breaks are dropped from the display; a ``\\r`` shows as ``\\x0d``
    unless both versions end every line with CRLF.
    """
    out: list[str] = []
    for change in changes:
        old = _split_lines(change.old or b"")
        new = _split_lines(change.new)
        crlf = all(line.endswith("\r\n") for line in (*old, *new) if line.endswith("\n"))
        ending = "\r\n" if crlf else "\n"
        old_name = "/dev/null" if change.old is None else shown(change.display)
        lines = difflib.unified_diff(
            [_display(line, ending) for line in old],
            [_display(line, ending) for line in new],
            old_name,
            shown(change.display),
            lineterm="",
        )
        out.extend(line + "\n" for line in lines)
    return "".join(out)


def _display(line: str, ending: str) -> str:
    if not line.endswith("\n"):
        return escape(line) + "\n\\ No newline at end of file"
    return escape(line.removesuffix(ending))


def _split_lines(data: bytes) -> list[str]:
    """Lines split at ``\\n`` only, each keeping its break, with secrets masked."""
    parts = mask_text(data.decode("utf-8", "replace")).split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
