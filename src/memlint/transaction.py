"""Write a fix run's file changes: check every target first, then commit each store
as one transaction (:func:`memlint.writer.commit` rolls a store back when a write
fails or Ctrl-C arrives), and say what was left behind."""

from __future__ import annotations

import os
from collections.abc import Iterable

from memlint import writer
from memlint.edits import FileChange
from memlint.textutil import shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from memlint.store import Store


def nearest_root(path: str, roots: Iterable[str]) -> str | None:
    """The nearest store root above ``path``."""
    best = None
    for root in roots:
        if path.startswith(root + os.sep) and (best is None or len(root) > len(best)):
            best = root
    return best


def precheck(stores: list[Store], changes: list[FileChange]) -> dict[str, str]:
    """Paths that cannot be written (changed on disk, a link, ...) and why."""
    roots = {store.root for store in stores}
    refused = {}
    for change in changes:
        root = nearest_root(change.path, roots) or os.path.dirname(change.path)
        try:
            writer.check_target(root, change.path, change.old)
        except writer.WriteError as exc:
            refused[change.path] = exc.reason
    return refused


def remove_stale_temps(stores: list[Store], warnings: list[str]) -> None:
    """Remove the temporary files an interrupted run left in the stores' folders."""
    directories = {store.root for store in stores}
    directories.update(os.path.dirname(s.path) for store in stores for s in store.files)
    for path in writer.remove_stale_temps(directories):
        warnings.append(f"removed {shown(path)} left by an interrupted run")


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while writing: the store being written was rolled back; ``written``
    lists the files of stores committed before it."""

    def __init__(self, written: list[str]) -> None:
        super().__init__()
        self.written = written


def interrupted_text(exc: KeyboardInterrupt) -> str:
    """What a Ctrl-C left: nothing (before writing), or the stores written before it."""
    if not isinstance(exc, Interrupted):
        return "no file was changed"
    if not exc.written:
        return "the files being written were restored; no file was changed"
    written = ", ".join(map(shown, exc.written))
    return f"the files being written were restored; already written: {written}"


def commit(stores: list[Store], changes: list[FileChange], errors: list[str]) -> set[str]:
    """Write ``changes``, one transaction per store (each change belongs to its nearest
    store only); append an error for each store that could not be written and return
    the paths of its changes. Ctrl-C raises :class:`Interrupted`."""
    failed: set[str] = set()
    written: list[str] = []
    roots = {store.root for store in stores}
    for store in stores:
        mine = [c for c in changes if nearest_root(c.path, roots) == store.root]
        if not mine:
            continue
        try:
            writer.commit(store.root, [writer.Change(c.path, c.old, c.new) for c in mine])
        except writer.WriteError as exc:
            if exc.left_changed:
                left = ", ".join(shown(path) for path in exc.left_changed)
                errors.append(
                    f"{shown(exc.path)}: {shown(exc.reason)}; the rollback failed: "
                    f"{left} left changed, the other files of {shown(store.display_root)} "
                    "restored"
                )
            else:
                errors.append(
                    f"{shown(exc.path)}: {shown(exc.reason)}; "
                    f"no file of {shown(store.display_root)} was changed"
                )
            failed.update(c.path for c in mine)
        except KeyboardInterrupt:
            raise Interrupted(written) from None
        else:
            written.extend(c.display for c in mine)
    return failed
