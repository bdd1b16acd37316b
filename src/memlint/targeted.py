"""Lint the store holding one path, reporting on chosen paths only, with in-memory
contents for some files: what the Claude Code hook and the language server ask after
each write or keystroke.

The whole store is still read (cross-file rules need every name and link), from the
result cache where it has a file unchanged, but only the files in ``report`` get the
one-file rules and only their findings are produced: the cost follows what changed and
what is reported, not the store's size.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from memlint.diagnostics import Diagnostic
from memlint.records import dataclass, field

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Callable

    from memlint.cache import CacheSet
    from memlint.config import Settings
    from memlint.engine import Rule
    from memlint.store import Store


@dataclass
class StoreLint:
    """The store holding the path (``None`` when it is in no store) and the findings
    on the reported paths, sorted."""

    store: Store | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def lint_store_of(
    path: str,
    settings: Settings,
    *,
    report: Iterable[str] | None,
    overrides: Mapping[str, bytes] | None = None,
    cwd: str | None = None,
    settings_for: Callable[[str], Settings] | None = None,
    caches: CacheSet | None = None,
    rules: list[Rule] | None = None,
    save: bool = False,
    keep_raw: bool = True,
) -> StoreLint:
    """Lint the store that ``path`` (absolute; it need not exist) belongs to.

    ``report``: the paths whose findings are wanted (files, or folders for everything
    below them), e.g. ``[path]``; ``None`` reports on the whole store.
    ``overrides``: absolute path -> bytes read instead of the file (an unsaved buffer,
    a simulated write); overrides outside the store are ignored. ``settings_for``: a
    folder's settings (its nearest config file), as ``memlint check`` applies them to
    each store; without it ``settings`` apply everywhere. ``caches``: the result
    cache (``memlint.cache.open_caches``), written back only with ``save``. ``rules``:
    the rules selected by ``settings`` (computed when not given; a store with settings
    of its own gets its own).
    Runs in this process (no worker pool): callers are servers and hooks.
    """
    from memlint.discovery import Discovery, UsageError
    from memlint.engine import lint_store, selected_rules

    path = os.path.normpath(path)
    if caches is not None:  # a cache holds one run's state (digests by path): start afresh
        caches = caches.reopened()
    cwd = os.path.abspath(cwd or os.getcwd())
    finder = Discovery(settings, cwd, caches, 1, keep_raw, settings_for=settings_for)
    root = finder.store_of(os.path.dirname(path))
    if root is None or not root.holds(path):
        return StoreLint(None)
    try:
        for other, data in (overrides or {}).items():
            other = os.path.normpath(other)
            holder = finder.store_of(os.path.dirname(other))
            if holder is not None and holder.path == root.path and holder.holds(other):
                finder.add_override(other, data)
    except UsageError:
        return StoreLint(None)
    finder.add_store(root, None if report is None else {os.path.normpath(p) for p in report})
    store = next((s for s in finder.load() if s.root == root.path), None)
    if store is None:
        return StoreLint(None)
    if store.settings is not None:  # a config file of its own
        settings, rules = store.settings, None
    if rules is None and store.memo is None:
        rules = selected_rules(settings)
    cache = caches.for_store(store.root) if caches is not None else None
    found = lint_store(store, settings, rules or [], cache, 1)
    if save and caches is not None:
        if cache is not None:
            cache.forget_missing(store)
        caches.save()
    found.sort(key=Diagnostic.sort_key)
    return StoreLint(store, found)
