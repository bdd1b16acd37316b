"""Run the selected rules over loaded stores and collect their diagnostics."""

from __future__ import annotations

import fnmatch
import os
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from memlint.cache import StoreCache, cached_file_results
from memlint.config import Settings
from memlint.diagnostics import Diagnostic, Range, Severity
from memlint.rules import REGISTRY
from memlint.rules.base import RuleContext, Scope
from memlint.selection import is_selected, matches_any
from memlint.store import Store
from memlint.suppression import UNUSED_SUPPRESSION, apply_suppressions, markdown_sources

CRASH_CODE = "MX002"


@dataclass(frozen=True)
class Rule:
    """A registered rule module seen through its metadata."""

    module: object

    @property
    def meta(self):
        return self.module.META

    def check(self, ctx, target) -> Iterable[Diagnostic]:
        return self.module.check(ctx, target)


def selected_rules(settings: Settings) -> list[Rule]:
    return [
        Rule(module)
        for code, module in sorted(REGISTRY.items())
        if is_selected(
            code,
            module.META.default_enabled,
            settings.select,
            settings.extend_select,
            settings.ignore,
        )
    ]


def lint_store(
    store: Store, settings: Settings, rules: list[Rule], cache: StoreCache | None = None
) -> list[Diagnostic]:
    """All diagnostics of ``store`` that survive report filters, ignores and suppressions.

    The unused-suppression rule runs last, on the directives that suppressed nothing.
    With ``cache``, results of one-file (``Scope.FILE``) rules are reused per file.
    """
    found: list[Diagnostic] = []
    for rule in rules:
        if rule.meta.code != UNUSED_SUPPRESSION:
            found.extend(_run(rule, store, settings, _targets(store, rule.meta.scope), cache))
    found, unused = apply_suppressions(markdown_sources(store), found)
    for rule in rules:
        if rule.meta.code == UNUSED_SUPPRESSION:
            found.extend(_run(rule, store, settings, ((d, d.source) for d in unused)))
    return [d for d in found if _kept(d, store, settings)]


def _run(
    rule: Rule, store: Store, settings: Settings, targets, cache: StoreCache | None = None
) -> list[Diagnostic]:
    meta = rule.meta
    if meta.scope is not Scope.NOTES and store.profile not in meta.profiles:
        return []
    ctx = RuleContext(store, settings, meta)
    if cache is not None and meta.scope is Scope.FILE:
        found: list[Diagnostic] = []
        for target, source in targets:

            def run(target=target, source=source) -> list[Diagnostic]:
                return _checked(rule, ctx, store, target, source)

            found.extend(cached_file_results(cache, store.profile, meta.code, source, run))
        return found
    found = []
    check = rule.module.check
    for target, source in targets:
        try:
            found.extend(check(ctx, target))
        except Exception as exc:  # a broken rule is reported, the run goes on
            found.append(_crash(meta.code, store, source, exc))
    return found


def _checked(rule: Rule, ctx: RuleContext, store: Store, target, source) -> list[Diagnostic]:
    """One rule on one target, a crash turned into an MX002 diagnostic."""
    results: list[Diagnostic] = []
    try:
        results.extend(rule.check(ctx, target))
    except Exception as exc:  # a broken rule is reported, the run goes on
        results.append(_crash(rule.meta.code, store, source, exc))
    return results


def _targets(store: Store, scope: Scope) -> Iterator[tuple[object, object]]:
    if scope is Scope.STORE:
        yield store, None
    elif scope is Scope.FILE:
        for source in (*store.files, *store.notes):
            yield source, source
    elif scope is Scope.MEMORY:
        for memory in store.memories:
            yield memory, memory.file
    elif scope is Scope.INDEX:
        if store.index is not None:
            yield store.index, store.index.file
    elif scope is Scope.NOTES:
        for source in store.notes:
            yield source, source


def _crash(code: str, store: Store, source, exc: Exception) -> Diagnostic:
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
    path = source.path if source is not None else os.path.join(store.root, "MEMORY.md")
    display = source.display if source is not None else store.display_root
    return Diagnostic(
        code=CRASH_CODE,
        message=f"rule {code} crashed ({type(exc).__name__} at {where}); please report this",
        path=path,
        display_path=display,
        range=Range.file_start(),
        severity=Severity.ERROR,
    )


def _kept(diagnostic: Diagnostic, store: Store, settings: Settings) -> bool:
    if not store.reports_on(diagnostic.path):
        return False
    if diagnostic.code == CRASH_CODE:
        return True
    if settings.per_file_ignores:
        rel = os.path.relpath(diagnostic.path, settings.config_dir).replace(os.sep, "/")
        name = rel.rsplit("/", 1)[-1]
        for pattern, codes in settings.per_file_ignores:
            negate = pattern.startswith("!")
            glob = pattern[1:] if negate else pattern
            hit = fnmatch.fnmatchcase(rel, glob) or fnmatch.fnmatchcase(name, glob)
            if hit != negate and matches_any(diagnostic.code, codes):
                return False
    return True
