"""The library entry point: :func:`check` and :func:`fix` a set of paths with given settings.

The command line, the tests and the benchmark go through these, so discovery and
linting are wired together in one place. Content that is not on disk (stdin, an
editor's buffers, an agent's draft) is given as ``contents``: absolute paths mapped
to the bytes they are read as; discovery reads them instead of the disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from itertools import compress
from operator import attrgetter

from memlint.config import Settings, validate_selectors
from memlint.diagnostics import Diagnostic
from memlint.records import dataclass

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from memlint.cache import CacheSet
    from memlint.engine import Rule
    from memlint.fixer import FixOutcome
    from memlint.sources.document import SourceFile
    from memlint.store import Store

SettingsFor = Callable[[str], Settings]
_PATH = attrgetter("path")


@dataclass
class Report:
    """What a run found, and all its renderers need: the diagnostics, the roots of the
    stores linted, the files the diagnostics are on (renderers show their lines), the
    settings and the selected rules (``None`` when no store needed them: every one was
    memoized; they are selected again when a format lists them). ``fixed`` lists what a
    fix run fixed (``None`` for a check); ``failing`` whether a diagnostic reaches its
    store's ``fail-on``."""

    diagnostics: list[Diagnostic]
    roots: list[str]
    sources: dict[str, SourceFile]
    settings: Settings
    rules: list[Rule] | None = None
    fixed: list[Diagnostic] | None = None
    failing: bool = False

    def listed_rules(self) -> tuple[str, ...]:
        """The selected rules' codes (for the formats that list them, as SARIF does)."""
        from memlint.engine import selected_rules

        return tuple(rule.code for rule in self.rules or selected_rules(self.settings))


def load(paths: list[str], settings: Settings, **options) -> list[Store]:
    """The stores under ``paths`` (see :func:`memlint.discovery.discover`), each with
    its own settings checked; ``options`` are :func:`load_each`'s. Raises
    ``UsageError`` or ``ConfigError``."""
    return list(load_each(paths, settings, **options))


def load_each(
    paths: list[str],
    settings: Settings,
    *,
    settings_for: SettingsFor | None = None,
    stdin: tuple[str, bytes] | None = None,
    caches: CacheSet | None = None,
    jobs: int | None = 0,
    touched: tuple[str, ...] = (),
    notices: list[str] | None = None,
    cwd: str | None = None,
) -> Iterator[Store]:
    """The stores of :func:`load`, each loaded when the one before was taken, so that a
    caller that drops each store keeps one in memory. ``UsageError`` about ``paths``
    is raised here; ``ConfigError`` about a store's settings when it loads."""
    from memlint.discovery import discover_each
    from memlint.engine import EarlyLocal

    stores = discover_each(
        paths,
        settings,
        cwd=cwd,
        stdin=stdin,
        caches=caches,
        jobs=jobs,
        keep_raw=False,
        touched=touched,
        notices=notices,
        settings_for=settings_for,
        early=EarlyLocal,
    )
    return _validated(stores)


def _validated(stores: Iterator[Store]) -> Iterator[Store]:
    for store in stores:
        if store.settings is not None:
            validate_selectors(store.settings)
        yield store
        del store  # not held while the next store loads


def lint(
    stores: Iterable[Store],
    settings: Settings,
    caches: CacheSet | None = None,
    jobs: int | None = 0,
) -> Report:
    """Lint each store with its own settings (a config file of its own), else
    ``settings``; rules are selected (and imported) only for stores not memoized.
    A store (and its cache, saved) is let go once linted: only the files its
    diagnostics are on are kept."""
    from memlint.engine import lint_store, selected_rules

    rules = None
    own_rules: dict[int, list[Rule]] = {}
    diagnostics: list[Diagnostic] = []
    roots: list[str] = []
    sources: dict[str, SourceFile] = {}
    failing = False
    for store in stores:
        cache = caches.for_store(store.root) if caches is not None else None
        store_settings = store.settings or settings
        if store.settings is not None:
            found = own_rules.get(id(store.settings))
            if found is None and store.memo is None:
                found = own_rules[id(store.settings)] = selected_rules(store.settings)
        else:
            if store.memo is None and rules is None:
                rules = selected_rules(settings)
            found = rules
        store_diagnostics = lint_store(store, store_settings, found or [], cache, jobs)
        failing = failing or any(d.severity >= store_settings.fail_on for d in store_diagnostics)
        diagnostics.extend(store_diagnostics)
        if cache is not None:
            cache.forget_missing(store)
        if caches is not None:
            caches.save_store(store.root)
        roots.append(store.root)
        sources.update(reported_sources([store], store_diagnostics))
        del store, cache  # released before the next store loads
    diagnostics.sort(key=Diagnostic.sort_key)
    return Report(diagnostics, roots, sources, settings, rules, failing=failing)


def reported_sources(stores: list[Store], diagnostics: list[Diagnostic]) -> dict[str, SourceFile]:
    """The files of ``stores`` that ``diagnostics`` are on, by path."""
    reported = {d.path for d in diagnostics}
    found: dict[str, SourceFile] = {}
    for store in stores:  # (C-level passes: a store holds 10,000s of files, few reported)
        files = [*store.files, *store.notes]
        hits = list(compress(files, map(reported.__contains__, map(_PATH, files))))
        found.update(zip(map(_PATH, hits), hits, strict=True))
    return found


def check(
    paths: list[str],
    settings: Settings | None = None,
    *,
    settings_for: SettingsFor | None = None,
    stdin: tuple[str, bytes] | None = None,
    caches: CacheSet | None = None,
    jobs: int | None = 0,
    touched: tuple[str, ...] = (),
    notices: list[str] | None = None,
    cwd: str | None = None,
) -> Report:
    """Lint the stores under ``paths`` (default: the working directory's settings), one
    store at a time (see :func:`load_each`). Raises ``UsageError`` or ``ConfigError``."""
    settings = settings or Settings()
    stores = load_each(
        paths,
        settings,
        settings_for=settings_for,
        stdin=stdin,
        caches=caches,
        jobs=jobs,
        touched=touched,
        notices=notices,
        cwd=cwd,
    )
    return lint(stores, settings, caches, jobs)


def fix(
    paths: list[str],
    settings: Settings | None = None,
    *,
    unsafe: bool = False,
    write: bool = True,
    settings_for: SettingsFor | None = None,
    stdin: tuple[str, bytes] | None = None,
    contents: dict[str, bytes] | None = None,
    cwd: str | None = None,
) -> tuple[FixOutcome, Report]:
    """Fix the stores under ``paths`` (written unless ``write`` is false, or content
    came from ``stdin`` or ``contents``); the outcome and the report of what remains."""
    from memlint.engine import selected_rules
    from memlint.fixer import fix_paths
    from memlint.transaction import nearest_root

    settings = settings or Settings()
    rules = selected_rules(settings)
    outcome = fix_paths(
        paths,
        settings,
        rules,
        unsafe=unsafe,
        write=write,
        cwd=cwd,
        stdin=stdin,
        overrides=contents,
        settings_for=settings_for,
    )
    for store in outcome.stores:
        if store.settings is not None:
            validate_selectors(store.settings)
    fail_on = {store.root: (store.settings or settings).fail_on for store in outcome.stores}
    roots = set(fail_on)
    failing = any(
        d.severity >= fail_on.get(nearest_root(d.path, roots) or "", settings.fail_on)
        for d in outcome.remaining
    )
    sources = reported_sources(outcome.stores, outcome.remaining)
    report = Report(
        outcome.remaining,
        [store.root for store in outcome.stores],
        sources,
        settings,
        rules,
        outcome.fixed,
        failing,
    )
    return outcome, report


def barren_paths(
    paths: list[str],
    roots: list[str],
    settings: Settings,
    settings_for: SettingsFor | None = None,
    cwd: str | None = None,
) -> list[tuple[str, str]]:
    """``(path, why)`` for each folder of ``paths`` that yields no store (a link to a
    folder is never followed, so it yields none). Files are left alone: pre-commit names
    every changed Markdown file, memories or not; so are folders that ``force-exclude``
    passes over (``--show-files`` says so)."""
    from memlint.discovery import Pruner

    cwd = cwd or os.getcwd()
    pruner = Pruner(settings, settings_for) if settings.force_exclude else None
    barren = []
    for raw in paths:
        path = os.path.normpath(os.path.join(cwd, raw))
        if raw == "-" or not os.path.isdir(path):
            continue
        if pruner is not None and pruner.why(path, True) is not None:
            continue
        if os.path.islink(path):
            reason = "is a symbolic link, which memlint never follows; name the folder itself"
        elif any(_nested(root, path) or _nested(path, root) for root in roots):
            continue
        else:
            reason = "holds no memory store (a folder with MEMORY.md, memory files or notes)"
        barren.append((raw, reason))
    return barren


def _nested(inner: str, outer: str) -> bool:
    return inner == outer or inner.startswith(outer.rstrip(os.sep) + os.sep)
