"""``memlint hook claude-code``: the write-time gate, on Claude Code's hook contract.

Claude Code runs the command with one JSON event on stdin. What memlint answers:

- ``PostToolUse`` of ``Write``/``Edit``/``MultiEdit`` on a file of a memory store (the
  default): the store is linted as it is now and as it was before the write; findings
  the write introduced are reported. New errors: exit 2, a short report on stderr (the
  model reads it). New warnings only: exit 0 and ``additionalContext`` in JSON.
- ``PreToolUse`` (only with ``--strict``): the write is simulated and denied
  (``permissionDecision: "deny"``) only for certain breakage it would introduce.
- ``SessionStart``: one line on how the agent's auto-memory index loads.
- ``Stop``: stopping is blocked once while files this session wrote hold errors
  that were not there when the session first touched them.

The state before a PostToolUse write is, in order of preference: the tool's own
``tool_response.originalFile``; the edit reversed on the file as it is now, when each
``new_string`` occurs exactly once; for a file the write created (``type: create``),
the store without it. When none applies (a ``Write`` over an existing file without
``originalFile``), every finding in the written file is its own and findings
elsewhere are not reported.
Findings are compared by code, file and message (lines shift with an edit): a
finding in another file can only change through a cross-file rule, as that file
itself did not change.

The hook never writes a file, never exits 1 (an internal error exits 0 with a line
on stderr: a hook must not break the agent's session), and decides that an event is
not about a memory before importing anything but ``os`` and the C scanner of ``json``.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from memlint.discovery import Discovery
    from memlint.store import Store

TOOLS = ("Write", "Edit", "MultiEdit")
INDEX_NAME = "MEMORY.md"
MAX_EVENT = 32 * 1024 * 1024  # Write events carry the whole content
MAX_TRANSCRIPT = 64 * 1024 * 1024
# Opening never follows a link nor waits on a FIFO; fstat then requires a regular file.
REGULAR_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
REPORT_LINES = 20
# Claude Code persists a hook's output (stdout, stderr, each context string) over 10,000
# characters, counted as JavaScript does (UTF-16 code units), and shows the model 2 KB of it
OUTPUT_CAP = 10_000
CUT = "… (cut)\n"
ABSENT = object()  # the file did not exist before the write
UNKNOWN = object()  # the state before the write cannot be reconstructed

# What --strict denies before a write: breakage that is certain, not a judgement.
CERTAIN_BREAKAGE = {
    "FM002": "frontmatter that is never closed",
    "FM003": "YAML that does not parse",
    "PV001": "a credential",
    "PV002": "a private key",
    "PV003": "a password in a URL",
    "ID002": "a filename that collides",
    "ID003": "a name that collides",
    "ID007": "names that differ only in case",
    "IX010": "facts written inline into MEMORY.md",
    "IX008": "an index past the loader's cut",
}


def run_claude_code(argv: list[str]) -> int:
    """The hook command; always exits 0 or 2."""
    strict = "--strict" in argv
    unknown = [arg for arg in argv if arg != "--strict"]
    if unknown:
        _log(f"unknown argument {unknown[0]!r} ignored")
    try:
        return _handle(_read_event(), strict)
    except _Skip as skip:
        if str(skip):
            _log(str(skip))
        return 0
    except Exception as exc:  # a hook must never break the session
        _log(f"internal error ({type(exc).__name__}); the write was not checked")
        return 0


class _Skip(Exception):
    """Nothing to check (the message, if any, goes to stderr for the debug log)."""


def _log(message: str) -> None:
    from memlint.textutil import shown

    print(f"memlint: hook: {shown(message)}", file=sys.stderr)


def _read_event() -> dict:
    if sys.stdin is None or sys.stdin.isatty():
        raise _Skip("reads one Claude Code hook event (JSON) on stdin; see `memlint hook --help`")
    data = sys.stdin.buffer.read(MAX_EVENT + 1)
    if len(data) > MAX_EVENT:
        raise _Skip(f"event over {MAX_EVENT} bytes, not checked")
    try:
        event = parse_json(data)
    except (ValueError, RecursionError):
        raise _Skip("stdin is not a JSON event, nothing checked") from None
    if not isinstance(event, dict):
        raise _Skip("stdin is not a JSON object, nothing checked")
    return event


class _Decoding:
    """What the C scanner of ``json`` reads of a decoder: ``json.loads``'s defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # NaN, Infinity, -Infinity


def parse_json(data: bytes):
    """``json.loads(data)``, by the C scanner ``json`` itself uses when this Python has
    it: importing ``json`` imports ``re`` and ``enum``, which cost more than the rest of
    an event that is not about a memory. Input the scanner does not take whole (not
    JSON, not UTF-8) goes to ``json.loads``, which says what is wrong."""
    blank = " \t\n\r"
    try:
        from _json import make_scanner

        text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")  # (no utf_8_sig codec import)
        scan = make_scanner(_Decoding())  # type: ignore[arg-type]  # (reads only these fields)
        value, end = scan(text, len(text) - len(text.lstrip(blank)))
        if not text[end:].strip(blank):
            return value
    except Exception:  # (the scanner reports errors through json.decoder, not imported)
        pass
    import json

    return json.loads(data)


def _handle(event: dict, strict: bool) -> int:
    name = event.get("hook_event_name")
    cwd = event.get("cwd")
    if not isinstance(cwd, str):
        cwd = os.getcwd()
    if not _holdable(cwd):
        raise _Skip(f"cwd {cwd!r} is not a path this system can hold, nothing checked")
    if name in ("PreToolUse", "PostToolUse"):
        if name == "PreToolUse" and not strict:
            return 0
        tool, tool_input = event.get("tool_name"), event.get("tool_input")
        if tool not in TOOLS or not isinstance(tool_input, dict):
            return 0
        raw_path = tool_input.get("file_path")
        if not isinstance(raw_path, str) or not raw_path or "\0" in raw_path:
            return 0
        path = os.path.normpath(os.path.join(cwd, raw_path))
        if not path.endswith((".md", ".jsonl")):
            return 0
        if not _holdable(path):  # no such file can have been written
            raise _Skip(f"file_path {raw_path!r} is not a path this system can hold, not checked")
        if not _may_be_memory(path, cwd):
            return 0
        if name == "PreToolUse":
            return _pre_tool_use(path, cwd, tool, tool_input)
        return _post_tool_use(path, cwd, tool, tool_input, event.get("tool_response"))
    if name == "SessionStart":
        return _session_start(cwd)
    if name == "Stop":
        return _stop(event, cwd)
    return 0


# -- is it a memory? ------------------------------------------------------------------


def _holdable(path: str) -> bool:
    """Whether ``path`` can name a file here (JSON may carry a lone surrogate, which
    no file name encodes to)."""
    try:
        os.fsencode(path)
    except UnicodeError:
        return False
    return True


def claude_home() -> str:
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")


def _may_be_memory(path: str, cwd: str) -> bool:
    """A cheap test that lets everything that may be in a store through: an ancestor
    holds ``MEMORY.md``, the path is an agent's or the user's memory folder, its
    folder is named like one, or a config declares stores. Discovery decides."""
    directory = os.path.dirname(path)
    parts = path.split(os.sep)
    if "agent-memory" in parts or os.path.basename(directory) in ("memory", "memories"):
        return True
    projects = os.path.join(claude_home(), "projects") + os.sep
    if path.startswith(projects) and "memory" in parts[len(projects.split(os.sep)) :]:
        return True
    current = directory
    while True:
        if os.path.lexists(os.path.join(current, INDEX_NAME)):
            return True
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    from memlint.config import find_config  # only for .md files outside any store

    return find_config(cwd) is not None


# -- linting --------------------------------------------------------------------------


_OWN = object()  # ``_Linter.lint_loaded``: the result cache the store was loaded with


class _Linter:
    """Lints the store holding one path, as on disk or with that path's content replaced."""

    def __init__(self, path: str, cwd: str) -> None:
        self.path = path
        self.cwd = cwd
        self._by_config: dict = {}
        self.settings = self.settings_at(cwd)
        self.rules: dict[int, list] = {}  # by id of the settings they were selected for
        self.store: Store | None = None
        self.finder: Discovery | None = None

    def settings_at(self, folder: str):
        """The settings of the nearest config file at or above ``folder``, as ``memlint
        check`` finds them for each store."""
        from memlint.config import ConfigError, find_config, load_settings

        try:
            config = find_config(folder)
            found = self._by_config.get(config)
            if found is None:
                found = self._by_config[config] = load_settings(config)
        except ConfigError as exc:
            raise _Skip(f"configuration error, nothing checked: {exc}") from None
        return found

    def load(self, overrides: dict[str, bytes] | None = None):
        """The store holding the path, loaded (every file reported on), with the files of
        ``overrides`` read as those bytes (they need not exist), as ``--stdin-filename``
        does; ``None`` when the path is in no store."""
        from memlint.discovery import Discovery, UsageError

        caches = _read_only_caches(self.settings)
        self.finder = finder = Discovery(
            self.settings, self.cwd, caches, settings_for=self.settings_at
        )
        overrides = overrides or {}
        self.store = None
        try:
            for path, data in overrides.items():
                finder.add_override(path, data)
            if self.path not in overrides:  # a file about to be created: its folder
                exists = os.path.lexists(self.path)
                finder.add_path(self.path if exists else os.path.dirname(self.path))
        except UsageError:
            return None
        for plan in finder.plans.values():
            plan.report_all()
        for store in finder.load():
            if store.reports_on(self.path) and _holds(store, self.path):
                self.store = store
                return store
        return None

    def lint(self, overrides: dict[str, bytes] | None = None) -> list:
        """Every finding of the store holding the path (see ``load``); empty when the
        path is in no store."""
        store = self.load(overrides)
        return self.lint_loaded(store, None) if store is not None else []

    def lint_loaded(self, store, report: set[str] | None, cache=_OWN, rules=None) -> list:
        """The findings of ``store`` (loaded by ``load``, or derived from it) on the files
        of ``report`` (all when ``None``), with the result cache of the load unless
        another is given, by ``rules`` (default: all selected)."""
        from memlint.engine import lint_store

        store.report = report
        settings = store.settings or self.settings  # the store's own config file
        if rules is None and store.memo is None:
            rules = self.selected(store)
        if cache is _OWN:
            cache = _cache_of(self.finder, store)
        return lint_store(store, settings, rules or [], cache)

    def selected(self, store) -> list:
        """The rules selected for ``store`` (by its own config file, else the run's)."""
        from memlint.engine import selected_rules

        settings = store.settings or self.settings
        rules = self.rules.get(id(settings))
        if rules is None:
            rules = self.rules[id(settings)] = selected_rules(settings)
        return rules

    def runs(self, store, code: str) -> bool:
        """Whether the rule ``code`` is selected for ``store``."""
        return any(rule.code == code for rule in self.selected(store))

    def rules_of(self, store, codes: set[str]) -> list:
        """The selected rules whose findings have ``codes``; all of them when the
        findings of one depend on every other's (unused suppressions, crashes)."""
        from memlint.rules import CRASH_RULE, rule_code
        from memlint.rules.base import Scope

        rules = self.selected(store)
        if rule_code(CRASH_RULE) in codes or any(
            rule.code in codes and rule.meta.scope is Scope.SUPPRESSIONS for rule in rules
        ):
            return rules
        return [rule for rule in rules if rule.code in codes]

    def fresh_cache(self, store):
        """The result cache of ``store`` as if unread: what the load computed (digests by
        path) does not hold for a store whose files were replaced in memory."""
        from memlint.cache import config_key

        caches = self.finder.caches if self.finder is not None else None
        if caches is None:
            return None
        settings = store.settings or self.settings
        return caches.reopened().for_store(store.root, config_key(settings, self.cwd))


def _holds(store, path: str) -> bool:
    return path.startswith(store.root + os.sep)


def _read_only_caches(settings):
    """The result cache ``memlint check`` keeps (found as it finds it), read, never saved."""
    from memlint.cache import open_caches

    return open_caches(None, settings, os.getcwd(), create=False)


def _cache_of(finder, store):
    return finder.caches.for_store(store.root) if finder.caches is not None else None


def _key(diagnostic) -> tuple[str, str, str]:
    return (diagnostic.code, diagnostic.path, diagnostic.message)


def new_findings(before: list, after: list) -> list:
    """The findings of ``after`` not in ``before`` (as a multiset of code, file, message)."""
    from collections import Counter

    seen = Counter(_key(d) for d in before)
    new = []
    for diagnostic in after:
        key = _key(diagnostic)
        if seen[key]:
            seen[key] -= 1
        else:
            new.append(diagnostic)
    return new


def _current_bytes(path: str) -> bytes | None:
    """The file's bytes now (a regular file only; never a FIFO or a symlink's target)."""
    import stat

    try:
        with open(os.open(path, REGULAR_FLAGS), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return handle.read(MAX_EVENT + 1)
    except OSError:
        return None


def _edits(tool: str, tool_input: dict) -> list[tuple[str, str, bool]] | None:
    """``(old, new, replace_all)`` of an Edit or MultiEdit, ``None`` when malformed."""
    raw = [tool_input] if tool == "Edit" else tool_input.get("edits")
    if not isinstance(raw, list):
        return None
    edits = []
    for edit in raw:
        if not isinstance(edit, dict):
            return None
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            return None
        edits.append((old, new, bool(edit.get("replace_all"))))
    return edits


def previous_content(tool: str, tool_input: dict, response, now: str | None):
    """The file's text before a PostToolUse write: a ``str``, ``ABSENT`` or ``UNKNOWN``."""
    if isinstance(response, dict):
        original = response.get("originalFile")
        if isinstance(original, str):
            return original
        if response.get("type") == "create":
            return ABSENT
    if tool == "Write" or now is None:
        return UNKNOWN
    edits = _edits(tool, tool_input)
    if not edits:
        return UNKNOWN
    text = now
    for old, new, replace_all in reversed(edits):
        if replace_all or not new or text.count(new) != 1:
            return UNKNOWN
        text = text.replace(new, old, 1)
    return text


def simulated_content(tool: str, tool_input: dict, now: str | None) -> str | None:
    """The file's text after a PreToolUse write, ``None`` when the tool would fail."""
    if tool == "Write":
        content = tool_input.get("content")
        return content if isinstance(content, str) else None
    edits = _edits(tool, tool_input)
    if not edits or now is None:
        return None
    text = now
    for old, new, replace_all in edits:
        count = text.count(old) if old else 0
        if count == 0 or (count > 1 and not replace_all):
            return None
        text = text.replace(old, new) if replace_all else text.replace(old, new, 1)
    return text


def _decoded(data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _post_tool_use(path: str, cwd: str, tool: str, tool_input: dict, response) -> int:
    new, store = post_write(path, cwd, tool, tool_input, response)
    return _report_post(new, store, cwd) if new else 0


def post_write(path: str, cwd: str, tool: str, tool_input: dict, response) -> tuple[list, object]:
    """The findings (warnings and errors) a PostToolUse write introduced, and the store
    holding ``path`` (``None`` when it is in no store).

    The store is loaded once, as the write left it; the state before the write is
    that store with the written memory's text replaced (see ``_blame``)."""
    linter = _Linter(path, cwd)
    store = linter.load()
    if store is None:
        return [], None
    now = _current_bytes(path)
    before_text = previous_content(tool, tool_input, response, _decoded(now))
    if before_text is ABSENT:  # created: the state before is the store without it
        earlier = _store_without(linter, store, path)
        if earlier is not None:
            return _blame(linter, store, earlier, path, _shown), store
    if not isinstance(before_text, str):  # its old content unknown: all its own
        after = _shown(linter.lint_loaded(store, {path}))
        return [d for d in after if d.path == path], store
    earlier = _store_before(linter, store, path, before_text)
    if earlier is None:  # not a memory (the index, notes): the store as a whole, twice
        after = _shown(linter.lint_loaded(store, None))
        if not after:
            return [], store
        before = linter.lint({path: before_text.encode("utf-8", "surrogatepass")})
        return new_findings(before, after), store
    return _blame(linter, store, earlier, path, _shown), store


def _blame(linter: _Linter, after_state, before_state, path: str, wanted) -> list:
    """The findings ``wanted`` picks from the state after a write of the memory at
    ``path`` that the state before does not have; one of the two states is the store
    as loaded, the other that store with the memory's text replaced.

    Both are linted on the written file and the files cross-file rules tie to it
    (``_involved``), or on everything when the write changed the store's profile. The
    state before is linted only on the files with findings after and by their rules
    (all rules when unused suppressions or crashes are among them, as those depend on
    every rule's findings); a state the cache's whole-store result is exactly (the
    store as ``memlint check`` last saw it) is read from it."""
    report = None
    if after_state.profile == before_state.profile:
        near = linter.runs(after_state, "DU001")
        report = _involved(after_state, before_state, path, near)
    after = wanted(linter.lint_loaded(after_state, report, _cache_for(linter, after_state)))
    if not after:
        return []
    rules = linter.rules_of(before_state, {d.code for d in after})
    cache = _cache_for(linter, before_state)
    before = linter.lint_loaded(before_state, {d.path for d in after}, cache, rules)
    return new_findings(before, after)


def _cache_for(linter: _Linter, state):
    """The result cache for ``state``: the load's for the store as loaded; for a store
    derived from it, a fresh one, and its memo when the cache's result is that state."""
    if state is linter.store:
        return _OWN
    cache = linter.fresh_cache(state)
    state.memo = cache.memo(state) if cache is not None else None
    return cache


def _shown(found: list) -> list:
    from memlint.diagnostics import Severity

    return [d for d in found if d.severity >= Severity.WARNING]


def _store_before(linter: _Linter, store, path: str, text: str):
    """``store`` with the memory at ``path`` read as ``text``; ``None`` when ``path`` is
    not a memory of it."""
    from memlint.lsp.model import edited_store

    return edited_store(store, {path: text}, store.settings or linter.settings)


def _involved(store, earlier, path: str, near_duplicates: bool) -> set[str]:
    """The written file and the files tied to it, before and after the write. The
    index is left out when it reads the same of the written memory in both states
    (name, description, whether it has frontmatter; the profile and its guess): the
    rules that report on the index read nothing else of a memory."""
    from memlint.lsp.model import involved, memory_at
    from memlint.similarity import band_partners

    now, then = memory_at(store, path), memory_at(earlier, path)
    found = {path} | (involved(store, path, near_duplicates) or set())
    if then is None:  # a new file: the state before has nothing tied to it
        return found
    if _identity(now) != _identity(then):
        found |= involved(earlier, path, near_duplicates) or set()
    elif near_duplicates:  # the same ties, but other near duplicates
        signatures = [memory.fingerprint[1] for memory in earlier.memories]
        partners = band_partners(signatures, earlier.memories.index(then))
        found.update(earlier.memories[i].file.path for i in partners)
    index = store.index
    if index is not None and _index_reads_alike(store, earlier, now, then):
        found.discard(index.file.path)
    return found


def _identity(memory) -> tuple:
    """What ties a memory to others: its name, stem and the targets it links to."""
    return (memory.name, memory.stem, tuple(memory.link_targets), memory.successor_target)


def _index_reads_alike(store, earlier, now, then) -> bool:
    def read(state, memory) -> tuple:
        facts = (memory.name, memory.description, memory.has_frontmatter)
        return (*facts, state.profile, state.profile_guess)

    return read(store, now) == read(earlier, then)


def _report_post(new: list, store, cwd: str) -> int:
    from memlint.diagnostics import Severity

    errors = [d for d in new if d.severity >= Severity.ERROR]
    warnings = [d for d in new if d.severity == Severity.WARNING]
    if errors:
        shown = errors + warnings
        head = f"memlint: this write left {_count(errors, 'new error')} in the memory store"
        sys.stderr.write(_fitted(agent_report(shown, head, store, cwd)))
        return 2
    if warnings:
        head = f"memlint: this write left {_count(warnings, 'new warning')}"
        _emit_json(
            lambda text: {
                "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}
            },
            agent_report(warnings, head, store, cwd),
        )
    return 0


def _count(items: list, noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def agent_report(diagnostics: list, head: str, store, cwd: str) -> str:
    """The findings as the agent format renders them, under ``head``."""
    from memlint.output import RenderContext, render

    sources = {s.path: s for s in (*store.files, *store.notes)}
    ctx = RenderContext(cwd=cwd, sources=sources)
    return f"{head}\n" + render("agent", diagnostics, ctx)


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _fitted(text: str, wrap=None) -> str:
    """``wrap(text)``, the hook's whole output (``text`` itself by default), within
    ``OUTPUT_CAP``: when it is over, ``text`` keeps as many whole lines as fit, then
    ``CUT``."""
    wrap = wrap or (lambda whole: whole)
    out = wrap(text)
    if _utf16_units(out) <= OUTPUT_CAP:
        return out
    lines = text.splitlines(keepends=True)
    low, high = 0, len(lines) - 1  # the most lines that fit lie in low..high
    while low < high:
        middle = (low + high + 1) // 2
        if _utf16_units(wrap("".join(lines[:middle]) + CUT)) <= OUTPUT_CAP:
            low = middle
        else:
            high = middle - 1
    return wrap("".join(lines[:low]) + CUT)


def _emit_json(payload_for, text: str) -> None:
    """The JSON ``payload_for(text)`` on stdout, ``text`` cut to keep it within the cap."""
    import json

    sys.stdout.write(
        _fitted(text, lambda cut: json.dumps(payload_for(cut), ensure_ascii=False) + "\n")
    )


# -- PreToolUse (--strict) ------------------------------------------------------------


def _pre_tool_use(path: str, cwd: str, tool: str, tool_input: dict) -> int:
    now = _current_bytes(path)
    content = simulated_content(tool, tool_input, _decoded(now))
    if content is None:
        return 0  # the tool itself will refuse the edit
    new, store = pre_write(path, cwd, content, now is not None)
    if not new:
        return 0
    kinds = sorted({CERTAIN_BREAKAGE[d.code] for d in new})
    head = f"memlint: this write would add {', '.join(kinds)}; write it differently"
    _emit_json(
        lambda text: {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": text,
            }
        },
        agent_report(new, head, store, cwd),
    )
    return 0


def pre_write(path: str, cwd: str, content: str, exists: bool) -> tuple[list, object]:
    """The certain breakage (``CERTAIN_BREAKAGE``) writing ``content`` to ``path`` would
    introduce, and the store holding ``path``. The store is loaded once: as on disk,
    the state after being that store with the memory's text replaced; or, for a file
    that does not exist yet, with the file, the state before being that store without
    it. Anything else (the index, notes) is loaded in both states."""

    def certain(found: list) -> list:
        return [d for d in found if d.code in CERTAIN_BREAKAGE]

    linter = _Linter(path, cwd)
    data = content.encode("utf-8", "surrogatepass")
    if exists:
        store = linter.load()
        later = _store_before(linter, store, path, content) if store is not None else None
        if later is not None:
            return _blame(linter, later, store, path, certain), store
    else:
        store = linter.load({path: data})
        earlier = _store_without(linter, store, path) if store is not None else None
        if earlier is not None:
            return _blame(linter, store, earlier, path, certain), store
    after = certain(linter.lint({path: data}))
    if linter.store is None or not after:
        return [], None
    store = linter.store
    return new_findings(linter.lint(), after), store


def _store_without(linter: _Linter, store, path: str):
    """``store`` without its memory at ``path``, as the store on disk is before that
    file is created; ``None`` when ``path`` is no memory of it or the store would be
    left without memories (the file may be what makes it a store)."""
    from memlint.detect import detect_profile
    from memlint.records import replace

    memories = [memory for memory in store.memories if memory.file.path != path]
    if len(memories) == len(store.memories) or not memories:
        return None
    smaller = replace(store, files=[s for s in store.files if s.path != path], memo=None)
    smaller.memories = memories
    smaller.index = store.index
    settings = store.settings or linter.settings
    config = next((s for s in settings.stores if os.path.normpath(s.path) == store.root), None)
    smaller.profile, smaller.profile_reason, smaller.profile_guess = detect_profile(smaller, config)
    return smaller


# -- SessionStart ---------------------------------------------------------------------


def _session_start(cwd: str) -> int:
    from memlint.discovery import auto_memory_candidates

    indexes = [os.path.join(folder, INDEX_NAME) for folder in auto_memory_candidates(cwd)]
    found = [path for path in indexes if os.path.isfile(path) and not os.path.islink(path)]
    if not found:
        return 0
    index_path = found[0]
    linter = _Linter(index_path, cwd)
    found = linter.lint()
    if linter.store is None or linter.store.index is None:
        return 0
    _emit_json(
        lambda text: {
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
        },
        loader_line(linter.store, linter.store.settings or linter.settings, found),
    )
    return 0


def loader_line(store, settings, found: list) -> str:
    """One line: what the loader keeps of the index, what it cuts, how many errors."""
    from memlint.budget import loader_limits, simulate
    from memlint.diagnostics import Severity
    from memlint.privacy import mask_text
    from memlint.textutil import escape

    index = store.index
    limits = loader_limits(settings.shared_value)
    result = simulate(index.file.text or "", index.body_start, **limits)
    kept = result.lines[: result.kept]
    loaded = f"{len(kept)} of {len(result.lines)} lines"
    text = f"memlint: {INDEX_NAME} loads {loaded} ({result.size} {result.unit} in all)"
    first_lost = result.first_lost  # (a cut index has one)
    if result.cut and first_lost is not None:
        lost = result.lost_numbers()
        hidden = [e.target for e in index.entries if e.line in lost]
        names = ", ".join(escape(mask_text(name)) for name in hidden[:5])
        more = f" and {len(hidden) - 5} more" if len(hidden) > 5 else ""
        text += f"; cut from line {first_lost.number} ({result.reason})"
        if hidden:
            text += f", hiding {names}{more}"
    errors = sum(1 for d in found if d.severity >= Severity.ERROR)
    text += f"; the store has {_count_errors(errors)}"
    if errors:
        text += f" (see `memlint check {_shell_quote(store.root)}`)"
    return text + "."


def _count_errors(n: int) -> str:
    return "no errors" if n == 0 else f"{n} error{'' if n == 1 else 's'}"


def _shell_quote(path: str) -> str:
    import shlex

    return shlex.quote(path)


# -- Stop -----------------------------------------------------------------------------


def _stop(event: dict, cwd: str) -> int:
    if event.get("stop_hook_active"):
        return 0
    transcript = event.get("transcript_path")
    if not isinstance(transcript, str) or not _holdable(transcript):
        return 0
    messages, store = session_errors(session_writes(transcript, cwd), cwd)
    if not messages:
        return 0
    head = "memlint: memory files written in this session still have errors; fix them first"
    report = agent_report(messages, head, store, cwd)
    _emit_json(lambda text: {"decision": "block", "reason": text}, report)
    return 0


def session_errors(written: dict[str, str | None], cwd: str) -> tuple[list, object]:
    """The errors in the files of ``written`` (path -> text when the session first
    touched it, ``None`` for a file it created or an unknown text) that they did not
    have then, and the last store holding one. Each store is loaded once, as it is;
    the state the session found is that store with those memories' texts replaced."""
    from memlint.diagnostics import Severity

    remaining = dict(written)
    messages: list = []
    store = None
    while remaining:  # one store at a time: linted as it is, and as the session found it
        first = next(iter(remaining))
        mine = {first: remaining.pop(first)}
        linter = _Linter(first, cwd)
        loaded = linter.load()
        if loaded is None:
            continue
        held = {s.path for s in (*loaded.files, *loaded.notes)}
        mine.update((p, remaining.pop(p)) for p in list(remaining) if p in held)
        errors = [
            d
            for d in linter.lint_loaded(loaded, set(mine))
            if d.severity is Severity.ERROR and d.path in mine
        ]
        if not errors:
            continue
        store = loaded
        known = {p: o for p, o in mine.items() if o is not None}
        messages += [d for d in errors if d.path not in known]
        errors = [d for d in errors if d.path in known]
        if errors:
            messages += new_findings(_session_start_state(linter, store, known, errors), errors)
    return messages, store


def _session_start_state(linter: _Linter, store, known: dict[str, str], errors: list) -> list:
    """The findings, by the rules of ``errors``, on the files of ``known`` read as its
    texts (how the session found them): ``store`` with those memories' texts
    replaced, or, when one is no memory of it (the index, notes), loaded again so."""
    from memlint.lsp.model import edited_store

    earlier = edited_store(store, known, store.settings or linter.settings)
    if earlier is None:
        return linter.lint({p: t.encode("utf-8", "surrogatepass") for p, t in known.items()})
    rules = linter.rules_of(earlier, {d.code for d in errors})
    cache = _cache_for(linter, earlier)
    return linter.lint_loaded(earlier, set(known), cache, rules)


def session_writes(transcript: str, cwd: str) -> dict[str, str | None]:
    """Memory files this session wrote, each with its text before the session's first
    write to it (from the tool result's ``originalFile``; ``None`` when unknown or new).
    Only lines that mention ``file_path`` or ``filePath`` are parsed."""
    import stat

    try:
        with open(os.open(transcript, REGULAR_FLAGS), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return {}
            data = handle.read(MAX_TRANSCRIPT)
    except OSError:
        return {}
    written: dict[str, str | None] = {}
    settled: set[str] = set()  # paths whose first tool result was seen
    for line in data.splitlines():
        if b"file_path" not in line and b"filePath" not in line:
            continue
        try:
            record = parse_json(line)
        except (ValueError, RecursionError):
            continue
        for raw, original, is_result in _writes_in(record):
            path = os.path.normpath(os.path.join(cwd, raw))
            if path in settled or not _holdable(path):
                continue
            if not path.endswith((".md", ".jsonl")) or not _may_be_memory(path, cwd):
                continue
            written[path] = original
            if is_result:
                settled.add(path)
    return written


def _writes_in(record) -> list[tuple[str, str | None, bool]]:
    """``(path, original text or None, is a tool result)`` of the Write/Edit/MultiEdit
    calls and results in one transcript record."""
    found: list[tuple[str, str | None, bool]] = []
    if not isinstance(record, dict):
        return found
    result = record.get("toolUseResult")
    if isinstance(result, dict) and isinstance(result.get("filePath"), str):
        original = result.get("originalFile")
        found.append((result["filePath"], original if isinstance(original, str) else None, True))
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for item in content if isinstance(content, list) else ():
        if (
            isinstance(item, dict)
            and item.get("type") == "tool_use"
            and item.get("name") in TOOLS
            and isinstance(item.get("input"), dict)
            and isinstance(item["input"].get("file_path"), str)
        ):
            found.append((item["input"]["file_path"], None, False))
    return found
