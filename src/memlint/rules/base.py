"""What every rule module declares (``META``) and the context its ``check`` receives.

A rule module holds ``META = RuleMeta(...)``, a docstring with the sections
What it does / Why is this bad? / Example / Fix safety, and a generator
``check(ctx, target)``; ``target`` depends on ``META.scope``:

- ``Scope.FILE``: every file read in the store (memories, index, note stores),
- ``Scope.MEMORY``: each parsed memory,
- ``Scope.INDEX``: the store's index, when it has one,
- ``Scope.NOTES``: each note store (JSONL),
- ``Scope.STORE``: the whole store, once.

``META.local`` declares that a FILE, MEMORY or NOTES rule reads nothing but
its target (and the store's profile): its results are cached per file and
may be computed in a worker process. Such a rule sees ``ctx.store`` as a
``ProfileView``. ``META.external`` declares that a rule reads state outside
the store's files (git): its results are never cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from memlint.diagnostics import Diagnostic, Fix, FixAvailability, Range, Severity
from memlint.selection import is_selected
from memlint.sources.document import SourceFile

ALL_PROFILES = frozenset({"linked", "typed", "notes", "freeform"})
LINKED = frozenset({"linked"})
TYPED = frozenset({"typed"})
LINKED_TYPED = frozenset({"linked", "typed"})
MARKDOWN_PROFILES = frozenset({"linked", "typed", "freeform"})
TYPED_FREEFORM = frozenset({"typed", "freeform"})


class Scope(Enum):
    """What a rule's ``check`` is called on. A FILE, MEMORY or NOTES rule reports only
    on the file it is given (so a run reporting on a few files checks only those);
    INDEX and STORE rules see the whole store and report anywhere."""

    FILE = "file"
    MEMORY = "memory"
    INDEX = "index"
    NOTES = "notes"
    STORE = "store"


@dataclass(frozen=True)
class RuleMeta:
    code: str
    name: str
    summary: str
    severity: Severity
    scope: Scope
    profiles: frozenset[str]
    fix: FixAvailability = FixAvailability.NONE
    default_enabled: bool = True
    options: dict[str, object] = field(default_factory=dict)
    local: bool = False
    external: bool = False


@dataclass(frozen=True, eq=False)
class ProfileView:
    """All a ``local`` rule may see of its store (one per store run: shared
    parses such as ``note_file`` are keyed by it)."""

    profile: str


class RuleContext:
    """What a rule sees: the store, settings, its own options, and ``report``."""

    def __init__(self, store, settings, meta: RuleMeta) -> None:
        self.store = store
        self.settings = settings
        self.meta = meta
        configured = settings.severity_for(meta.code)  # INFO is 0: not `or`
        self.severity = meta.severity if configured is None else configured
        self.options = {**meta.options, **settings.options_for(meta.code)}

    def selected(self, code: str) -> bool:
        """Whether the rule ``code`` runs in this run too (by default and the selection)."""
        from memlint.rules import OFF_BY_DEFAULT

        settings = self.settings
        default = code not in OFF_BY_DEFAULT
        return is_selected(code, default, settings.select, settings.extend_select, settings.ignore)

    def options_of(self, code: str) -> dict[str, object]:
        """The options of the rule ``code`` in this run (its defaults and the settings)."""
        from memlint.rules import rule_module

        return {**rule_module(code).META.options, **self.settings.options_for(code)}

    def report(
        self,
        source: SourceFile,
        start: int,
        end: int | None,
        message: str,
        fix: Fix | None = None,
        notes: tuple[str, ...] = (),
    ) -> Diagnostic:
        """A diagnostic at text offsets ``start``..``end`` of ``source``."""
        rng = source.range(start, end) if source.text is not None else Range.file_start()
        return self.report_at(source.path, source.display, rng, message, fix, notes)

    def report_at(
        self,
        path: str,
        display: str,
        rng: Range,
        message: str,
        fix: Fix | None = None,
        notes: tuple[str, ...] = (),
    ) -> Diagnostic:
        return Diagnostic(
            code=self.meta.code,
            message=message,
            path=path,
            display_path=display,
            range=rng,
            severity=self.severity,
            fix=fix,
            notes=notes,
        )
