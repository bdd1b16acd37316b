"""The fix engine: lint, plan every edit, splice bytes, re-lint, repeat until stable.

The loop works on an in-memory snapshot of each store (read once, at the
first lint), so a fix run writes each file at most once, at the end, as one
transaction per store (:mod:`memlint.transaction`). Splicing and diffs live in
:mod:`memlint.edits`. Like ruff: only fixes at the
requested applicability are applied, a fix's edits are all-or-nothing, a fix
overlapping one already accepted waits for the next round, and a run that
has not settled after ``MAX_ITERATIONS`` rounds is reported, not looped.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections import Counter

from memlint import transaction, writer
from memlint.config import Settings
from memlint.diagnostics import Applicability, Diagnostic, Edit, Fix, applicable
from memlint.discovery import Discovery
from memlint.edits import FileChange, joined, overlaps, splice
from memlint.engine import lint_store
from memlint.records import dataclass, field, replace
from memlint.sources.yamledit import frontmatter_change
from memlint.store import Store
from memlint.textutil import shown
from memlint.transaction import nearest_root

MAX_ITERATIONS = 100
DECODABLE_PROBLEMS = (None, "binary", "invalid-utf8")


class Snapshot:
    """The files of a fix run as bytes: each read from disk once, at the first lint;
    after that, discovery reads the planned contents (``current``, which it is given
    as its ``contents``), created files included. ``original`` holds the bytes read
    at lint time."""

    def __init__(
        self, settings: Settings, cwd: str, settings_for=None, given: dict[str, bytes] | None = None
    ) -> None:
        self.given = dict(given or {})  # content not from disk (an editor's buffers)
        self.current: dict[str, bytes] = dict(self.given)
        self.original: dict[str, bytes] = {}
        self.created: set[str] = set()
        self.only: str | None = None  # with stdin: the one file that may be fixed
        self.own_rules: dict[int, list] = {}  # the rules of each store's own settings
        self.discovery = Discovery(settings, cwd, settings_for=settings_for, contents=self.current)

    def load(self) -> list[Store]:
        """The stores, as the fixes planned so far leave them."""
        stores = self.discovery.load()
        for store in stores:
            for source in (*store.files, *store.notes):
                path = source.path
                if path in self.original or path in self.created:
                    continue
                if (source.problem.kind if source.problem else None) in DECODABLE_PROBLEMS:
                    self.original[path] = source.raw
                    self.current.setdefault(path, source.raw)
        return stores

    def display(self, path: str) -> str:
        return self.discovery.display(path)

    def reset(self) -> None:
        """Forget the planned fixes (keep the lint-time snapshot)."""
        self.current.clear()
        self.current.update(self.given)
        self.current.update(self.original)
        self.created.clear()

    def changed_paths(self) -> list[str]:
        return sorted(
            p
            for p, data in self.current.items()
            if p in self.created or (p in self.original and data != self.original[p])
        )


@dataclass
class FixOutcome:
    """What a fix run did: applied fixes, remaining diagnostics, file changes, problems."""

    stores: list[Store]
    remaining: list[Diagnostic]
    fixed: list[Diagnostic] = field(default_factory=list)
    changes: list[FileChange] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    iterations: int = 0
    initial: list[Diagnostic] = field(default_factory=list)
    convergence: list[str] = field(default_factory=list)
    stalled: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # what discovery passed over, and why


def fix_paths(
    paths: list[str],
    settings: Settings,
    rules: list,
    *,
    unsafe: bool = False,
    write: bool = True,
    cwd: str | None = None,
    stdin: tuple[str, bytes] | None = None,
    overrides: dict[str, bytes] | None = None,
    settings_for=None,
) -> FixOutcome:
    """Fix the stores under ``paths``; write the result unless ``write`` is false.

    ``stdin`` is ``(filename, data)``: fix ``data`` as that file (never written).
    ``overrides`` maps more absolute paths to the content they are read as (an editor's
    unsaved buffers), not reported on; nothing is written then either.
    ``settings_for`` gives each store's folder its own settings (nested config files),
    as in ``discover``. Raises ``discovery.UsageError`` for unusable paths, like ``discover``.
    """
    folder = os.path.abspath(cwd or os.getcwd())
    finder = Snapshot(settings, folder, settings_for, overrides)
    if overrides:
        write = False
    if stdin is not None:
        write = False
        finder.discovery.add_override(*stdin)
        finder.only = os.path.normpath(os.path.join(folder, stdin[0]))
    for raw in paths or ([] if stdin else ["."]):
        finder.discovery.add_path(raw)
    frozen: dict[str, str] = {}
    withheld: dict[tuple, str] = {}
    while True:
        outcome = _settle(finder, settings, rules, unsafe, frozen, withheld)
        outcome.notices = finder.discovery.notices
        outcome.errors += [  # a file the user protected fails the run, as a failed write does
            f"{shown(finder.display(path))}: {reason}"
            for path, reason in frozen.items()
            if reason == writer.READ_ONLY
        ]
        if stdin is not None or not outcome.changes:
            return outcome
        refused = transaction.precheck(outcome.stores, outcome.changes)  # a dry run too
        if not refused:
            break
        frozen.update(refused)
        finder.reset()
    if not write:
        return outcome
    transaction.remove_stale_temps(outcome.stores, outcome.warnings)
    failed = transaction.commit(outcome.stores, outcome.changes, outcome.errors)
    if failed:
        _forget(finder, outcome, failed, settings, rules)
    return outcome


def _forget(finder, outcome: FixOutcome, paths: set[str], settings: Settings, rules) -> None:
    """Drop the changes to ``paths`` that could not be written, and lint again."""
    for path in paths:
        finder.created.discard(path)
        if path in finder.original:
            finder.current[path] = finder.original[path]
        else:
            finder.current.pop(path, None)
    outcome.changes = [c for c in outcome.changes if c.path not in paths]
    outcome.fixed = [d for d in outcome.fixed if not {e.path for e in _fix_of(d).edits} & paths]
    outcome.stores, per_store = _lint(finder, settings, rules)
    outcome.remaining = sorted((d for _, f in per_store for d in f), key=Diagnostic.sort_key)


def _settle(finder, settings, rules, unsafe, frozen, withheld) -> FixOutcome:
    """Converge, then enforce the invariant: a plan that did not converge is not
    written (its rules' fixes are withheld), and no fix may add a finding."""
    while True:
        outcome = _converge(finder, settings, rules, unsafe, frozen, withheld)
        if not outcome.stalled:
            break
        for code in outcome.stalled:
            withheld[("rule", code)] = outcome.convergence[0]
        finder.reset()
    if _added(outcome):
        outcome = _withhold_culprits(finder, settings, rules, unsafe, frozen, withheld, outcome)
    stalled = (reason for key, reason in withheld.items() if key[0] == "rule")
    outcome.errors[:0] = list(dict.fromkeys(stalled))
    outcome.remaining = [_demoted(d, withheld, unsafe) for d in outcome.remaining]
    outcome.warnings = sorted({*outcome.warnings, *_withheld_notes(outcome, withheld)})
    return outcome


def _withheld_notes(outcome: FixOutcome, withheld: dict[tuple, str]) -> list[str]:
    notes = []
    for diagnostic in outcome.remaining:
        reason = _withheld_reason(diagnostic, withheld)
        if reason is not None and reason.startswith("it would add"):
            notes.append(
                f"{shown(diagnostic.display_path)}: {diagnostic.code} fix withheld: {reason}"
            )
    return notes


def _fix_key(diagnostic: Diagnostic) -> tuple:
    """What identifies a fix across runs whose offsets differ (diagnostics that
    share one fix share its key)."""
    fix = _fix_of(diagnostic)
    paths = tuple(sorted({e.path for e in fix.edits}))
    return ("fix", diagnostic.code, fix.title, paths)


def _fix_of(diagnostic: Diagnostic) -> Fix:
    """The fix of a diagnostic that has one (fixed, or with a fix withheld)."""
    fix = diagnostic.fix
    if fix is None:
        raise ValueError(f"{diagnostic.code} at {diagnostic.display_path} has no fix")
    return fix


def _withheld_reason(diagnostic: Diagnostic, withheld: dict[tuple, str]) -> str | None:
    if diagnostic.fix is None or not withheld:
        return None
    return withheld.get(("rule", diagnostic.code)) or withheld.get(_fix_key(diagnostic))


def _demoted(diagnostic: Diagnostic, withheld: dict[tuple, str], unsafe: bool) -> Diagnostic:
    """A remaining diagnostic whose safe fix was withheld: its fix is unsafe now (or
    gone, when unsafe fixes were applied), with a note saying why."""
    reason = _withheld_reason(diagnostic, withheld)
    if reason is None:
        return diagnostic
    fix = diagnostic.fix
    if fix is None or unsafe or fix.applicability is not Applicability.SAFE:
        fix = None
    else:
        fix = Fix(fix.edits, Applicability.UNSAFE, fix.title)
    note = f"fix withheld: {reason}"
    return replace(diagnostic, fix=fix, notes=(*diagnostic.notes, note))


def _added(outcome: FixOutcome) -> dict[tuple[str, str], str]:
    """Findings (rule, file) the fixes added: more of them after than before."""
    before = Counter((d.code, d.path) for d in outcome.initial)
    after = Counter((d.code, d.path) for d in outcome.remaining)
    display = {d.path: d.display_path for d in outcome.remaining}
    return {key: display[key[1]] for key, count in after.items() if count > before[key]}


def _withhold_culprits(finder, settings, rules, unsafe, frozen, withheld, outcome) -> FixOutcome:
    """Withhold applied fixes, one at a time, until no finding is added.

    The suspects are the applied fixes of the store where a finding was added.
    Withholding the first k of them is tried for k found by bisection: the
    smallest k that makes the added findings go away names the k-th as a
    culprit (several culprits are found one per pass).
    """
    blamed: list[tuple] = []
    while added := _added(outcome):
        roots = {store.root for store in outcome.stores}
        _, path = min(added)
        root = nearest_root(path, roots)
        here = {key: where for key, where in added.items() if nearest_root(key[1], roots) == root}
        suspects = list(
            dict.fromkeys(
                _fix_key(d)
                for d in outcome.fixed
                if root is None or any(nearest_root(e.path, roots) == root for e in d.fix.edits)
            )
        )
        if not suspects:
            break
        what = ", ".join(f"{c} in {shown(where)}" for (c, _), where in sorted(here.items()))
        reason = f"it would add {what} (a safe fix may only remove findings)"
        cleared_at, still_at = len(suspects), 0  # withholding the first k: clears / does not
        while cleared_at - still_at > 1:
            middle = (cleared_at + still_at) // 2
            finder.reset()
            trial = {**withheld, **dict.fromkeys(suspects[:middle], "")}
            attempt = _converge(finder, settings, rules, unsafe, frozen, trial)
            if attempt.stalled or any(key in _added(attempt) for key in here):
                still_at = middle
            else:
                cleared_at = middle
        withheld[suspects[cleared_at - 1]] = reason
        blamed.append(suspects[cleared_at - 1])
        finder.reset()
        outcome = _converge(finder, settings, rules, unsafe, frozen, withheld)
    if not blamed:
        return outcome
    for key in reversed(blamed):  # blamed before a later culprit was: may be innocent
        trial = {k: reason for k, reason in withheld.items() if k != key}
        finder.reset()
        attempt = _converge(finder, settings, rules, unsafe, frozen, trial)
        if not attempt.stalled and not _added(attempt):
            withheld.pop(key)
            outcome = attempt
    finder.reset()
    return _converge(finder, settings, rules, unsafe, frozen, withheld)


def _converge(
    finder: Snapshot,
    settings: Settings,
    rules: list,
    unsafe: bool,
    frozen: dict[str, str],
    withheld: dict[tuple, str],
) -> FixOutcome:
    refused: dict[tuple, str] = {}
    seen_states: set[str] = set()
    fixed: list[Diagnostic] = []
    convergence: list[str] = []
    stalled: list[str] = []
    initial: list[Diagnostic] | None = None
    iteration = 0
    while True:
        stores, per_store = _lint(finder, settings, rules)
        diagnostics = sorted((d for _, found in per_store for d in found), key=Diagnostic.sort_key)
        if initial is None:
            initial = diagnostics
        candidates = [
            (store, d)
            for store, found in per_store
            for d in found
            if applicable(d.fix, unsafe)
            and (d.code, d.fix) not in refused
            and _withheld_reason(d, withheld) is None
        ]
        if not candidates:
            break
        if iteration >= MAX_ITERATIONS:
            stalled = sorted({d.code for _, d in candidates})
            convergence.append(
                f"failed to converge after {MAX_ITERATIONS} fix iterations "
                f"({', '.join(stalled)}); those fixes were not applied"
            )
            break
        plan = _plan(finder, candidates, frozen, refused)
        if not plan:
            break
        new_state = _apply(finder, plan)
        if new_state in seen_states:
            stalled = sorted({d.code for _, d in plan})
            convergence.append(
                f"failed to converge: fixes undo each other ({', '.join(stalled)}); "
                "those fixes were not applied"
            )
            break
        seen_states.add(new_state)
        fixed.extend(d for _, d in plan)
        iteration += 1
    outcome = FixOutcome(stores, diagnostics, fixed, iterations=iteration)
    outcome.initial = initial or []
    outcome.convergence = convergence
    outcome.stalled = stalled
    outcome.warnings = sorted(set(refused.values()))
    outcome.changes = [
        FileChange(
            path,
            finder.display(path),
            None if path in finder.created else finder.original[path],
            finder.current[path],
        )
        for path in finder.changed_paths()
    ]
    return outcome


def _lint(finder: Snapshot, settings: Settings, rules: list):
    """Lint each store with its own settings and rules (those of its config file), as
    ``check`` does, else with ``settings`` and ``rules``."""
    from memlint.engine import selected_rules

    stores = finder.load()
    linted = []
    for store in stores:
        if store.settings is None:
            linted.append((store, lint_store(store, settings, rules)))
            continue
        own = finder.own_rules.get(id(store.settings))
        if own is None:
            own = finder.own_rules[id(store.settings)] = selected_rules(store.settings)
        linted.append((store, lint_store(store, store.settings, own)))
    return stores, linted


def _plan(finder, candidates, frozen, refused) -> list[tuple[Store, Diagnostic]]:
    """Accept fixes in order, skipping any that is invalid or overlaps an accepted one.

    Insertions of one rule at the same offset (IX002's new index entries) do not
    overlap: they go in one after the other, in the rule's own order.
    """
    accepted: list[tuple[Store, Diagnostic]] = []
    taken: dict[str, list[tuple[Edit, str]]] = {}
    planned: set[tuple[Edit, ...]] = set()
    candidates.sort(key=lambda item: (item[1].fix.edits[0].path, item[1].fix.edits[0].start))
    for store, diagnostic in candidates:
        fix = diagnostic.fix
        if fix.edits in planned:  # the same fix reported by several diagnostics
            accepted.append((store, diagnostic))
            continue
        reason = _invalid(finder, store, fix, frozen)
        if reason is not None:
            refused[(diagnostic.code, fix)] = (
                f"{shown(diagnostic.display_path)}: {diagnostic.code} fix not applied: {reason}"
            )
            continue
        code = diagnostic.code
        if any(
            overlaps(e, other) and not _joinable(e, other, code, other_code)
            for e in fix.edits
            for other, other_code in taken.get(e.path, ())
        ):
            continue
        for edit in fix.edits:
            taken.setdefault(edit.path, []).append((edit, code))
        planned.add(fix.edits)
        accepted.append((store, diagnostic))
    return accepted


def _joinable(a: Edit, b: Edit, a_code: str, b_code: str) -> bool:
    """Pure insertions of one rule at one offset: applied in the order they were planned."""
    return a_code == b_code and a.start == a.end == b.start == b.end and not (a.create or b.create)


def _invalid(finder: Snapshot, store: Store, fix: Fix, frozen) -> str | None:
    """Why ``fix`` must not be applied to the current snapshot, or ``None``."""
    edits = fix.edits
    for first, second in itertools.pairwise(edits):
        if first.path == second.path and overlaps(first, second):
            return "its edits overlap"
    by_path: dict[str, list[Edit]] = {}
    for edit in edits:
        by_path.setdefault(edit.path, []).append(edit)
    for path, file_edits in by_path.items():
        if path in frozen:
            return frozen[path]
        if finder.only is not None and path != finder.only:
            return "it edits another file than the one read from stdin"
        if path.endswith(writer.NOTES_SUFFIX):
            return "note stores are never edited"
        if not writer.inside(store.root, path):
            return "it edits a file outside the store"
        try:
            for edit in file_edits:
                edit.content.encode("utf-8")
        except UnicodeEncodeError:
            return "its replacement text is not valid Unicode"
        creates = [e for e in file_edits if e.create]
        if creates:
            if len(file_edits) > 1 or creates[0].start or creates[0].end:
                return "a file creation must be a single edit at offset 0"
            if path in finder.current:
                return "the file to create already exists"
            try:
                writer.ensure_absent(path)
            except writer.WriteError as exc:
                return f"the file to create {exc.reason}"
            continue
        data = finder.current.get(path)
        if data is None:
            return "the file was not read"
        if any(not 0 <= e.start <= e.end <= len(data) for e in file_edits):
            return "an edit lies outside the file"
        try:
            text = splice(data, file_edits).decode("utf-8")
        except UnicodeDecodeError:
            return "the result would not be valid UTF-8"
        if path.endswith(".md"):
            reason = frontmatter_change(data.decode("utf-8"), text)
            if reason is not None:
                return reason
    return None


def _apply(finder: Snapshot, plan) -> str:
    """Splice the accepted fixes into the snapshot; return a digest of the new state.

    Each fix was checked to decode on its own; since accepted edits never
    overlap, every splice point of the union was checked, so the union decodes too.
    """
    by_path: dict[str, dict[Edit, None]] = {}
    for _, diagnostic in plan:
        for edit in diagnostic.fix.edits:
            by_path.setdefault(edit.path, {})[edit] = None
    for path, unique in by_path.items():
        edits = list(unique)
        if edits[0].create:
            finder.created.add(path)
            finder.current[path] = edits[0].content.encode("utf-8")
        else:
            finder.current[path] = splice(finder.current[path], joined(edits))
    state = hashlib.sha256()
    for path in sorted(finder.current):
        state.update(path.encode("utf-8", "surrogateescape") + b"\0")
        state.update(hashlib.sha256(finder.current[path]).digest())
    return state.hexdigest()
