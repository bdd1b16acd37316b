"""What every rule module declares (``META``) and the context its ``check`` receives.

A rule module holds ``META = RuleMeta(...)``, a docstring with the sections
What it does / Why is this bad? / Example / Fix safety, and a generator
``check(ctx, target) -> Iterator[Diagnostic]``; ``target`` depends on ``META.scope``:

- ``Scope.FILE``: every file read in the store (memories, index, note stores):
  a ``SourceFile``,
- ``Scope.MEMORY``: each parsed memory: a ``Memory``,
- ``Scope.INDEX``: the store's index, when it has one: an ``Index``,
- ``Scope.NOTES``: each note store (JSONL): its ``SourceFile`` (records through
  ``memlint.sources.jsonl.note_file``),
- ``Scope.STORE``: the whole store, once: the ``Store``,
- ``Scope.SUPPRESSIONS``: each suppression comment that suppressed nothing, once
  every other rule has run (a ``Directive``),
- ``Scope.CRASH``: each rule that raised while checking (a ``Crash``), whatever
  the selection; suppressions and ``per-file-ignores`` do not hide it.

``META.local`` declares that a FILE, MEMORY or NOTES rule reads nothing but
its target (and the store's profile): its results are cached per file and
may be computed in a worker process. Such a rule sees ``ctx.store`` as a
``ProfileView``, so its context is a ``RuleContext[ProfileView]``; any other
rule's is a ``RuleContext[Store]``. ``META.external`` declares that a rule reads
state outside the store's files (git): its results are never cached.
``META.any_jsonl`` declares that a local NOTES rule reads no note schema: it
checks the records of every JSONL file of the store, note store or not.
"""

from __future__ import annotations

from enum import Enum

from memlint.diagnostics import Diagnostic, Fix, FixAvailability, Range, Severity
from memlint.records import dataclass
from memlint.selection import is_selected
from memlint.sources.document import SourceFile

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Generic, Protocol, TypeVar

    from memlint.store import Store

ALL_PROFILES = frozenset({"linked", "typed", "notes", "freeform"})
LINKED = frozenset({"linked"})
TYPED = frozenset({"typed"})
LINKED_TYPED = frozenset({"linked", "typed"})
MARKDOWN_PROFILES = frozenset({"linked", "typed", "freeform"})
TYPED_FREEFORM = frozenset({"typed", "freeform"})


class Scope(Enum):
    """What a rule's ``check`` is called on. A FILE, MEMORY, INDEX or NOTES rule reports
    only on the file it is given (so a run reporting on a few files checks only those;
    an INDEX rule sees the whole store but reports on the index); STORE rules see the
    whole store and report anywhere."""

    FILE = "file"
    MEMORY = "memory"
    INDEX = "index"
    NOTES = "notes"
    STORE = "store"
    SUPPRESSIONS = "suppressions"
    CRASH = "crash"


@dataclass(frozen=True, slots=True)
class Crash:
    """A rule that raised: its ``code``, the exception's type and where it was raised
    (``file.py:line``), and the file it was checking (``None`` for the whole store,
    whose ``MEMORY.md`` then stands for it)."""

    code: str
    error: str
    where: str
    source: SourceFile | None
    store_root: str
    store_display: str


OPTION_TYPES = {
    int: "integer",
    float: "number",
    bool: "true or false",
    str: "string",
    list: "list of strings",
}


def toml_value(value: object) -> str:
    """``value`` as it would be written in a config file."""
    import json

    return json.dumps(value, ensure_ascii=False, default=repr)


@dataclass(frozen=True)
class Option:
    """One setting a rule reads from ``[rules.CODE]``: its type (``int``, ``float``,
    ``bool``, ``str`` or ``list`` of strings), default, bounds and one line of doc.
    Config load checks every value with ``parse``, so a rule sees only valid values."""

    name: str
    type: type
    default: object
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, value: object) -> object:
        """``value`` as read from TOML, checked; ``ValueError`` says what is wrong."""
        expected = f"expected {self.describe_type()}, got {toml_value(value)}"
        if self.type is list:
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError(expected)
            return list(value)
        if isinstance(value, bool) != (self.type is bool):
            raise ValueError(expected)
        if self.type is float and isinstance(value, int):
            value = float(value)
        if not isinstance(value, self.type):
            raise ValueError(expected)
        if self.choices and value not in self.choices:
            raise ValueError(expected)
        if isinstance(value, int | float):
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"must be at least {self.minimum}, got {toml_value(value)}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"must be at most {self.maximum}, got {toml_value(value)}")
        return value

    def describe_type(self) -> str:
        if self.choices:
            return " or ".join(f'"{choice}"' for choice in self.choices)
        return OPTION_TYPES[self.type]

    def describe(self) -> str:
        """``name`` (type, default ..., bounds): doc, as ``memlint rule CODE`` lists it."""
        bounds = []
        if self.minimum is not None:
            bounds.append(f">= {self.minimum}")
        if self.maximum is not None:
            bounds.append(f"<= {self.maximum}")
        kind = ", ".join([self.describe_type(), f"default {toml_value(self.default)}", *bounds])
        return f"`{self.name}` ({kind}): {self.doc}"


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
    options: tuple[Option, ...] = ()
    local: bool = False
    external: bool = False
    any_jsonl: bool = False
    shared: tuple[str, ...] = ()  # the shared settings (``[shared]``) the rule reads

    def option(self, name: str) -> Option | None:
        return next((option for option in self.options if option.name == name), None)

    def defaults(self) -> dict[str, object]:
        return {option.name: option.default for option in self.options}


@dataclass(frozen=True, eq=False)
class ProfileView:
    """All a ``local`` rule may see of its store."""

    profile: str


if TYPE_CHECKING:

    class RuleSettings(Protocol):
        """What a rule reads of the run's settings (``memlint.config.Settings``)."""

        @property
        def select(self) -> tuple[str, ...] | None: ...
        @property
        def extend_select(self) -> tuple[str, ...]: ...
        @property
        def ignore(self) -> tuple[str, ...]: ...
        @property
        def base_rev(self) -> str | None: ...
        @property
        def redaction_marker(self) -> str: ...
        # values checked at config load (each against its Option)
        def options_for(self, code: str) -> dict[str, Any]: ...
        def shared_value(self, name: str) -> Any: ...
        def severity_for(self, code: str) -> Severity | None: ...

    StoreT = TypeVar("StoreT", Store, ProfileView)
else:  # RuleContext[Store] is only ever an annotation: no typing.Generic at run time
    StoreT = None

    class Generic:
        def __class_getitem__(cls, item):
            return cls


class RuleContext(Generic[StoreT]):
    """What a rule sees: the store (a ``ProfileView`` for a ``local`` rule), settings,
    its own options, the shared settings it names, and ``report``."""

    def __init__(self, store: StoreT, settings: RuleSettings, meta: RuleMeta) -> None:
        self.store: StoreT = store
        self.settings = settings
        self.meta = meta
        configured = settings.severity_for(meta.code)  # INFO is 0: not `or`
        self.severity = meta.severity if configured is None else configured
        # each value checked against its Option (META.options) at config load
        self.options: dict[str, Any] = {**meta.defaults(), **settings.options_for(meta.code)}

    def selected(self, code: str) -> bool:
        """Whether the rule ``code`` runs in this run too (by default and the selection)."""
        from memlint.rules import OFF_BY_DEFAULT

        settings = self.settings
        default = code not in OFF_BY_DEFAULT
        return is_selected(code, default, settings.select, settings.extend_select, settings.ignore)

    def shared(self, name: str) -> Any:
        """The shared setting ``name`` (``[shared]``), which ``META.shared`` must name."""
        if name not in self.meta.shared:
            raise KeyError(f"{self.meta.code} reads `{name}`, not named in its META.shared")
        return self.settings.shared_value(name)

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
        if fix is not None and any(edit.path.endswith(".jsonl") for edit in fix.edits):
            fix = None  # JSONL files are never edited (writer.NOTES_SUFFIX): none is offered
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
