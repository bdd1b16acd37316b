"""Run the selected rules over loaded stores and collect their diagnostics."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from operator import attrgetter, itemgetter

from memlint.config import Settings
from memlint.diagnostics import Diagnostic
from memlint.discovery import INDEX_NAME
from memlint.parallel import Batch
from memlint.rules import (
    CRASH_RULE,
    NOTES_FAMILIES,
    OFF_BY_DEFAULT,
    load_rule,
    rule_code,
    rule_name,
    rule_names,
)
from memlint.rules.base import Crash, ProfileView, RuleContext, Scope
from memlint.selection import is_selected, matches_any
from memlint.store import Memory, Store, Summary
from memlint.suppression import apply_suppressions, markdown_sources
from memlint.ties import INDEX_FAMILY, NEAR_DUPLICATE, edit_ties, near_duplicate_minimum

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any

    from memlint.cache import StoreCache
    from memlint.rules.base import RuleSettings

CRASH_CODE = rule_code(CRASH_RULE)
_FILE_PATH = attrgetter("file.path")


class Rule:
    """A registered rule module seen through its metadata; given by ``name``
    (``family.module``), the module is imported on first use."""

    __slots__ = ("_module", "name")

    def __init__(self, module: object = None, name: str | None = None) -> None:
        self._module = module
        self.name = name

    @property
    def module(self):
        if self._module is None:
            assert self.name is not None  # a Rule is given its module or its name
            self._module = load_rule(self.name)
        return self._module

    @property
    def meta(self):
        return self.module.META

    @property
    def code(self) -> str:
        """The rule's code (known unimported when given by name)."""
        if self.name is None:
            return self.module.META.code
        return rule_code(self.name)

    @property
    def checks_notes_only(self) -> bool:
        """Whether the rule's family checks nothing but note stores (known unimported)."""
        return self.name is not None and self.name.partition(".")[0] in NOTES_FAMILIES


def selected_rules(settings: Settings) -> list[Rule]:
    """The rules ``settings`` select, in code order (none of them imported yet)."""
    return [
        Rule(name=name)
        for code, name in sorted(rule_names().items())
        if is_selected(
            code,
            code not in OFF_BY_DEFAULT,
            settings.select,
            settings.extend_select,
            settings.ignore,
        )
    ]


def lint_store(
    store: Store,
    settings: Settings,
    rules: list[Rule],
    cache: StoreCache | None = None,
    jobs: int | None = None,
) -> list[Diagnostic]:
    """All diagnostics of ``store`` that survive report filters, ignores and suppressions.

    ``local`` rules run file by file on the files reported on (from ``cache``
    where it has the file), the cross-file rules on the whole store; for large
    stores both are spread over worker processes. A whole-store result in
    ``store.memo`` replaces them (and ``rules``: the memo names the rules that
    run every time). When only some memories changed since the last whole-store
    result the cache saved, a whole-store run runs the rules on the files tied to them
    only, and that result stands for the others (``_rerun_tied``). Rules that read git always run.
    Rules of ``Scope.SUPPRESSIONS`` run last, on the directives that suppressed nothing.
    """
    if store.memo is not None:
        found = list(store.memo.found)
        again = [Rule(name=name) for name in store.memo.again]
    else:
        jsonl = store.notes or any(s.path.endswith(".jsonl") for s in store.files)
        runnable = [rule for rule in rules if jsonl or not rule.checks_notes_only]
        last = [rule for rule in runnable if rule.meta.scope is Scope.SUPPRESSIONS]
        active = [
            rule
            for rule in runnable
            if rule.meta.scope is Scope.NOTES
            or (rule.meta.scope is not Scope.SUPPRESSIONS and store.profile in rule.meta.profiles)
        ]
        reused = None
        if cache is not None and store.report is None:  # a run naming files reports on few
            reused = _rerun_tied(store, settings, active, cache, jobs)
        elif cache is not None:
            cache.partial = True
        if reused is None:
            found = _StoreRun(store, settings, active, cache).results(jobs)
        else:
            found = reused
        again = [rule for rule in active if rule.meta.external] + last
        if cache is not None and store.report is None:  # a partial result is no memo
            names = [rule.name or rule_name(rule.module) for rule in again]
            cache.remember_memo(store, found, names)
    for rule in again:
        if rule.meta.external:
            found.extend(_run(rule, store, settings, _targets(store, rule.meta.scope)))
    found, unused = apply_suppressions(markdown_sources(store), found)
    for rule in again:
        if rule.meta.scope is Scope.SUPPRESSIONS:
            found.extend(_run(rule, store, settings, ((d, d.source) for d in unused)))
    return [d for d in found if _kept(d, store, settings)]


def _rerun_tied(
    store: Store, settings: Settings, rules: list[Rule], cache: StoreCache, jobs: int | None
) -> list[Diagnostic] | None:
    """Every non-external rule's diagnostics on the whole ``store``, from the last
    whole-store result the cache saved and the rules run again on the files tied to the
    memories changed since (``ties.Ties``: the changed memories, those sharing a name,
    stem or link with one before or after, the index when what it reads of one changed;
    for DU001, those whose near-duplicate buckets they enter or leave; the one-file rules
    on the changed memories only: such a rule reads its file); ``None`` when
    that result does not carry over (no such result, a file that is no memory changed,
    another profile or guess, a change on a supersession chain, a rule that crashed, or
    too many changes for it to pay)."""
    previous = cache.previous(store)
    if previous is None:
        return None
    memo, changed = previous
    if (memo.profile, memo.guess) != (store.profile, store.profile_guess):
        return None  # (why it is the profile, counts of signals, is read by no rule)
    memories = store.by_rel
    if not changed or len(changed) * REUSE_SHARE > len(memories):
        return None
    if any(d.code == CRASH_CODE for d in memo.found):
        return None
    min_shingles = near_duplicate_minimum(rules, settings)
    pairs = []
    for rel, (_, summary, fingerprint) in changed.items():
        new = memories.get(rel)
        if new is None or (min_shingles is not None and fingerprint is None):
            return None
        old = Memory(new.file, new.stem, summary=Summary(*summary), fingerprint=fingerprint)
        pairs.append((old, new))
    tied = edit_ties(store, pairs, min_shingles)
    if tied is None:
        return None
    scope, near = tied
    edited = set(map(_FILE_PATH, map(itemgetter(1), pairs)))
    index_path = os.path.join(store.root, INDEX_NAME)
    index_read = index_path in scope  # what the index rules read of a memory changed
    if store.index is None:  # where IX001 reports a missing index
        scope.add(index_path)
    report = store.report
    indexing = [rule for rule in rules if rule.code[:2] == INDEX_FAMILY]
    others = [rule for rule in rules if rule.code != NEAR_DUPLICATE and rule not in indexing]
    local = [rule for rule in others if rule.meta.local]
    fresh = []
    try:
        if index_read:  # every index rule's findings, on the whole store
            for rule in indexing:
                fresh.extend(_run(rule, store, settings, _targets(store, rule.meta.scope)))
        _report_files(store, edited)  # a one-file rule reads its file only
        fresh.extend(_StoreRun(store, settings, local, cache).results(jobs))
        _report_files(store, scope)
        for rule in others:
            if not rule.meta.local:
                found = _run(rule, store, settings, _targets(store, rule.meta.scope))
                fresh.extend(d for d in found if d.path in scope)
        _report_files(store, near)
        for rule in rules:
            if rule.code == NEAR_DUPLICATE:
                found = _run(rule, store, settings, _targets(store, rule.meta.scope))
                fresh.extend(d for d in found if d.path in near)
    finally:
        _forget_report(store, report)
    if any(d.code == CRASH_CODE for d in fresh):
        return None  # a crash is reported as the whole run reports it
    indexed = {rule.code for rule in indexing}
    one_file = {rule.code for rule in local}

    def stands(d: Diagnostic) -> bool:
        if d.code in indexed:
            return not index_read
        if d.code in one_file:
            return d.path not in edited
        return d.path not in (near if d.code == NEAR_DUPLICATE else scope)

    kept = list(filter(stands, memo.found))
    return kept + fresh


def _report_files(store: Store, paths: set[str]) -> None:
    """Report on the files ``paths`` (no folder) from now on."""
    _forget_report(store, paths)
    vars(store)["_report_dirs"] = ()


REUSE_SHARE = 4  # the last result is reused while at most a quarter of the memories changed


def _forget_report(store: Store, report) -> None:
    """Report on ``report`` from now on: the tables that follow it are built again."""
    store.report = report
    for name in ("_report_dirs", "reported_memories", "_derived"):
        vars(store).pop(name, None)


ONE_FILE_SCOPES = (Scope.FILE, Scope.MEMORY)


class EarlyLocal:
    """The one-file rules of a large store's memory files, run by the pool that parses
    them (``parse.load_memories``), so that each file is read and parsed once, by one
    worker. The store's profile is not known yet: ``start`` takes the one ``guess``
    gives for a sample of parsed memories. ``found`` (path -> diagnostics) stands
    when the store's profile is that guess and its rules are these; else the rules
    run again, as for any store (``_StoreRun``)."""

    def __init__(self, store: Store, settings: Settings, guess) -> None:
        self.store = store
        self.settings = settings
        self.guess = guess
        self.profile: str | None = None
        self.codes: tuple[str, ...] = ()
        self.found: dict[str, list[Diagnostic]] = {}
        # (rule, context, its check function, whether it checks the file, not the memory)
        self._checks: list[tuple[Rule, RuleContext[ProfileView], Any, bool]] = []

    def start(self, sample: list) -> None:
        """Choose the profile from the memories of ``sample`` and the rules it selects."""
        profile = self.profile = self.guess(sample)
        view = ProfileView(profile)
        store = self.store
        jsonl = store.notes or any(s.path.endswith(".jsonl") for s in store.files)
        rules = [r for r in selected_rules(self.settings) if jsonl or not r.checks_notes_only]
        for scope in ONE_FILE_SCOPES:
            for rule in rules:
                meta = rule.meta
                if meta.local and meta.scope is scope and profile in meta.profiles:
                    ctx = RuleContext(view, self.settings, meta)
                    self._checks.append((rule, ctx, rule.module.check, scope is Scope.FILE))
        self.codes = tuple(check[0].code for check in self._checks)

    def check(self, source, memory) -> list[Diagnostic]:
        """The one-file rules on memory file ``source`` (parsed as ``memory``)."""
        found: list[Diagnostic] = []
        for rule, ctx, check, on_file in self._checks:  # ``_checked``, written out: 34 a file
            try:
                found += list(check(ctx, source if on_file else memory))
            except Exception as exc:  # a broken rule is reported, the run goes on
                found += _crash(rule.meta.code, self.store, ctx.settings, source, exc)
        return found


class _StoreRun:
    """Every non-external rule over one store, as tasks: each cross-file rule is one
    task, the ``local`` rules of ``UNITS_PER_TASK`` files another.

    A file's unit is its FILE-scope rules, plus the MEMORY-scope rules on its
    memory or the NOTES-scope rules on its note records; units the cache holds
    are not run. Results come back in task order, so the outcome does not
    depend on how many processes ran the tasks.
    """

    UNITS_PER_TASK = 64

    def __init__(self, store: Store, settings: Settings, rules: list[Rule], cache) -> None:
        self.store = store
        self.settings = settings
        self.cache = cache
        self.cross = [r for r in rules if not (r.meta.local or r.meta.external)]
        view = ProfileView(store.profile)
        self.checks: dict[Scope, list[tuple[Rule, RuleContext[ProfileView]]]] = {
            scope: [] for scope in (Scope.FILE, Scope.MEMORY, Scope.NOTES)
        }
        for rule in rules:
            if rule.meta.local:
                self.checks[rule.meta.scope].append((rule, RuleContext(view, settings, rule.meta)))
        # JSONL files of another schema get the FILE rules and the NOTES rules of `any_jsonl`
        self.json_checks = [c for c in self.checks[Scope.NOTES] if c[0].meta.any_jsonl]
        # Files not reported on (pre-commit names a few) need no one-file results.
        reported = store.reported_files
        memory_of = {id(memory.file): memory for memory in store.reported_memories}
        note_files = {id(source) for source in store.notes}
        self.units = [
            (source, memory_of.get(id(source)), id(source) in note_files) for source in reported
        ]
        self.other_jsonl = {
            s.path for s in reported if s.path.endswith(".jsonl") and id(s) not in note_files
        }
        self.found: list[list[Diagnostic] | None] = [None] * len(self.units)
        if cache is not None:
            for position, (source, _, _) in enumerate(self.units):
                self.found[position] = cache.local_results(source, store.profile)
        early = store.early
        own = tuple(rule.code for scope in ONE_FILE_SCOPES for rule, _ in self.checks[scope])
        if early is not None and early.profile == store.profile and early.codes == own:
            for position, (source, memory, notes) in enumerate(self.units):
                found = early.found.get(source.path) if memory is not None else None
                if self.found[position] is None and found is not None and not notes:
                    self.found[position] = found
                    if cache is not None:
                        cache.remember_local_results(source, store.profile, found)
        store.early = None  # taken (or not to be used): its results are not kept twice
        self.missing = [position for position, found in enumerate(self.found) if found is None]

    def _unit(self, position: int) -> list[Diagnostic]:
        source, memory, notes = self.units[position]
        store, checks = self.store, self.checks
        results: list[Diagnostic] = []
        for rule, ctx in checks[Scope.FILE]:
            results.extend(_checked(rule, ctx, store, source, source))
        extra = checks[Scope.NOTES] if notes else checks[Scope.MEMORY] if memory else ()
        if not extra and source.path in self.other_jsonl:
            extra, notes = self.json_checks, True
        for rule, ctx in extra:
            results.extend(_checked(rule, ctx, store, source if notes else memory, source))
        return results

    def _task(self, index: int) -> list:
        if index < len(self.cross):
            rule = self.cross[index]
            return _run(rule, self.store, self.settings, _targets(self.store, rule.meta.scope))
        start = (index - len(self.cross)) * self.UNITS_PER_TASK
        return [self._unit(p) for p in self.missing[start : start + self.UNITS_PER_TASK]]

    def results(self, jobs: int | None) -> list[Diagnostic]:
        """Local results in file order, then cross-file results in rule order."""
        chunks = -(-len(self.missing) // self.UNITS_PER_TASK)
        # The pool's threshold counts files: a cross-file rule reads every file of the
        # store, but when few are reported on (pre-commit names one) it reports on those
        # only, and forked workers would each build the store's tables again.
        files = len(self.missing)
        if self.cross and self.store.report is None:
            files = max(files, len(self.store.files))
        batch = Batch(self._task, len(self.cross) + chunks, jobs, items=files)
        done = iter(batch.results())
        cross = [d for _ in self.cross for d in next(done)]
        computed = (found for task in done for found in task)
        profile = self.store.profile
        for position, found in zip(self.missing, computed, strict=True):
            self.found[position] = found
            if self.cache is not None:
                self.cache.remember_local_results(self.units[position][0], profile, found)
        return [d for found in self.found if found is not None for d in found] + cross


def _run(rule: Rule, store: Store, settings: Settings, targets) -> list[Diagnostic]:
    ctx = RuleContext(store, settings, rule.meta)
    found: list[Diagnostic] = []
    check = rule.module.check
    for target, source in targets:
        try:
            found.extend(check(ctx, target))
        except Exception as exc:  # a broken rule is reported, the run goes on
            found.extend(_crash(rule.meta.code, store, settings, source, exc))
    return found


def _checked(rule: Rule, ctx: RuleContext, store: Store, target, source) -> list[Diagnostic]:
    """One rule on one target, a crash handed to the rule of ``Scope.CRASH``."""
    try:
        return list(rule.module.check(ctx, target))
    except Exception as exc:  # a broken rule is reported, the run goes on
        return _crash(rule.meta.code, store, ctx.settings, source, exc)


def _targets(store: Store, scope: Scope) -> Iterator[tuple[object, object]]:
    """What a rule of ``scope`` checks: a FILE, MEMORY, INDEX or NOTES rule reports only
    on the file it is given, so only files reported on are given (pre-commit names a few)."""
    reported = store.reports_on
    if scope is Scope.STORE:
        yield store, None
    elif scope is Scope.FILE:
        for source in store.reported_files:
            yield source, source
    elif scope is Scope.MEMORY:
        for memory in store.reported_memories:
            yield memory, memory.file
    elif scope is Scope.INDEX:
        if reported(os.path.join(store.root, INDEX_NAME)) and store.index is not None:
            yield store.index, store.index.file
    elif scope is Scope.NOTES:
        for source in store.notes:
            if reported(source.path):
                yield source, source


def _crash(code: str, store: Store, settings: RuleSettings, source, exc: Exception):
    """What the rule of ``Scope.CRASH`` reports on rule ``code`` raising ``exc``."""
    import traceback

    frame = traceback.extract_tb(exc.__traceback__)[-1]
    where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
    crash = Crash(code, type(exc).__name__, where, source, store.root, store.display_root)
    module = load_rule(CRASH_RULE)
    return list(module.check(RuleContext(store, settings, module.META), crash))


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
