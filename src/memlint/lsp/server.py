"""The language server: pygls glue around :mod:`memlint.lsp.model`.

Diagnostics are pushed on open, change (the unsaved text is linted in place of the file),
save and close, for the document and for the files of its store the change affects.
Every text that reaches the client is masked first (:func:`memlint.output.masked`);
fix edits carry the file's own text, as ``--fix`` writes it. Positions are converted to
the negotiated encoding (UTF-16 unless the client offers another).
"""

from __future__ import annotations

import asyncio
import bisect
import logging
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from memlint import __version__
from memlint.config import ConfigError
from memlint.diagnostics import Applicability, Diagnostic, Edit, Position, Severity, applicable
from memlint.discovery import UsageError
from memlint.lsp import model
from memlint.output import masked
from memlint.privacy import mask_text
from memlint.textutil import escape
from memlint.treenames import CONFIG_NAMES

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from pygls.workspace import TextDocument

SOURCE = "memlint"
FIX_ALL = "source.fixAll.memlint"
LINTED_SUFFIXES = (".md", ".markdown", ".jsonl")
SEVERITIES = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}
TAGS = {
    "MX001": [lsp.DiagnosticTag.Unnecessary],  # a suppression that suppresses nothing
    "LK004": [lsp.DiagnosticTag.Deprecated],  # a link to a superseded memory
}
NOT_RENAMEABLE = "rename works on a [[link]] to a memory or on `name:`"
LOG = logging.getLogger("memlint.server")
WATCHED = ("**/*.md", "**/*.jsonl", *(f"**/{name}" for name in CONFIG_NAMES))


class PositionMap:
    """Text offsets and memlint positions (1-based, code points) to LSP positions in the
    client's encoding. ``bom`` shifts line 0 when the client's buffer starts with a BOM
    that memlint's text does not hold."""

    def __init__(self, text: str | None, encoding: str, bom: bool = False) -> None:
        self.text = text or ""
        self.encoding = encoding
        self.bom = bom
        starts = [0]
        find = self.text.find
        at = find("\n")
        while at != -1:
            starts.append(at + 1)
            at = find("\n", at + 1)
        self.starts = starts

    def units(self, segment: str) -> int:
        if self.encoding == lsp.PositionEncodingKind.Utf8:
            return len(segment.encode("utf-8", "surrogatepass"))
        if self.encoding == lsp.PositionEncodingKind.Utf32:
            return len(segment)
        return len(segment) + sum(1 for ch in segment if ord(ch) > 0xFFFF)

    def _line_end(self, line: int) -> int:
        if line + 1 < len(self.starts):
            return self.starts[line + 1] - 1
        return len(self.text)

    def at_offset(self, offset: int) -> lsp.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return self._position(line, self.text[self.starts[line] : offset])

    def at(self, position: Position) -> lsp.Position:
        line = min(max(position.line - 1, 0), len(self.starts) - 1)
        start = self.starts[line]
        end = min(start + max(position.column - 1, 0), self._line_end(line))
        return self._position(line, self.text[start:end])

    def _position(self, line: int, segment: str) -> lsp.Position:
        shift = 1 if self.bom and line == 0 else 0
        return lsp.Position(line=line, character=self.units(segment) + shift)

    def range(self, rng) -> lsp.Range:
        return lsp.Range(start=self.at(rng.start), end=self.at(rng.end))


class Refused(JsonRpcException):
    """A request the server declines (LSP ``RequestFailed``): the client shows the
    message; it is no fault of the server, so nothing is logged."""

    CODE = -32803
    MESSAGE = "Request failed"


ANSWERED = object()  # a message answered while it was read: nothing more to do


class MemlintProtocol(LanguageServerProtocol):
    """pygls' protocol, answering a request whose parameters do not fit its method
    with ``InvalidParams`` (pygls leaves it unanswered) and dropping a notification
    that does not fit, each with one line in the log and no traceback."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException:
            method = data.get("method") if isinstance(data, dict) else None
            if not isinstance(method, str):
                raise
            message_id = data.get("id")
            LOG.warning("memlint server: ignored %s: parameters do not fit", escape(method))
            if message_id is not None:
                error = JsonRpcInvalidParams(f"invalid parameters for {escape(method)}")
                self._send_response(message_id, None, error.to_response_error())
            return ANSWERED

    def handle_message(self, message) -> None:
        if message is not ANSWERED:
            super().handle_message(message)


class QuietLog:
    """A filter of pygls' log: a declined request and a message whose parameters do not
    fit are answered as they should be; their pygls records (tracebacks) are dropped."""

    def filter(self, record) -> bool:
        if record.getMessage().startswith("Unable to deserialize message"):
            return False
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, Refused)


class MemlintServer(LanguageServer):
    """The server state: the last lint of each store, what was published for each file.

    Lints run one at a time on a thread of their own, so that the server goes on reading
    while one runs: the changes that arrive meanwhile are linted together, once, when it
    ends (a burst of keystrokes costs two lints, not one per keystroke). Requests are
    answered once every lint asked for before them is published."""

    def __init__(self) -> None:
        super().__init__("memlint", __version__, protocol_cls=MemlintProtocol)
        self.linter = model.StoreLinter(os.getcwd())
        self.results: dict[str, model.LintResult] = {}  # store root -> last lint
        self.linted: dict[str, int | None] = {}  # open document path -> version linted
        self.published: dict[str, list[Diagnostic]] = {}
        self.unsafe_fixes = False  # initializationOptions {"unsafeFixes": true}
        self.lock = threading.Lock()  # the linter is used by one thread at a time
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memlint-lint")
        self.queue: dict[str, bool] = {}  # paths to lint -> whether the document closed
        self.draining: asyncio.Future | None = None
        self.applied: dict[str, int] = {}  # store root -> the number of its newest lint applied
        self.started = 0  # the number of the newest lint started
        self.watched = False  # the client reports file changes (didChangeWatchedFiles)

    # -- documents ----------------------------------------------------------------

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or lsp.PositionEncodingKind.Utf16

    def open_documents(self) -> dict[str, TextDocument]:
        found = {}
        for document in list(self.workspace.text_documents.values()):
            path = _path(document.uri)
            if path is not None and path.endswith(LINTED_SUFFIXES):
                found[path] = document
        return found

    def snapshot(self) -> dict[str, tuple[int | None, str]]:
        """Each open document's version and text (without a BOM), as they are now."""
        return {
            path: (document.version, document.source.removeprefix("\ufeff"))
            for path, document in self.open_documents().items()
        }

    def buffers(self) -> dict[str, str]:
        return {path: text for path, (_, text) in self.snapshot().items()}

    def position_map(self, path: str, result: model.LintResult | None) -> PositionMap:
        document = self.open_documents().get(path)
        if document is not None:
            source = document.source
            return PositionMap(source.removeprefix("\ufeff"), self.encoding, source[:1] == "\ufeff")
        return PositionMap(result.text(path) if result else None, self.encoding)

    def offset(self, uri: str, position: lsp.Position) -> int | None:
        """The memlint text offset of a client position in an open document."""
        path = _path(uri)
        document = self.open_documents().get(path) if path else None
        if document is None:
            return None
        offset = document.offset_at_position(position)
        return max(0, offset - 1) if document.source[:1] == "\ufeff" else offset

    # -- linting and publishing -------------------------------------------------------

    def lint_soon(self, path: str, *, closed: bool = False) -> None:
        """Lint ``path``'s store on the lint thread, with the changes that come meanwhile."""
        self.queue.pop(path, None)
        self.queue[path] = closed
        if self.draining is None or self.draining.done():
            self.draining = asyncio.ensure_future(self._drain())

    async def settled(self) -> None:
        """Wait until every lint asked for so far is published."""
        while self.draining is not None and not self.draining.done():
            await asyncio.shield(self.draining)

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self.queue:
            path = next(iter(self.queue))
            closed = {path} if self.queue.pop(path) else set()
            root = self._root_holding(path)
            if root is not None:  # one lint publishes every open document of its store
                for other in [p for p in self.queue if p.startswith(root + os.sep)]:
                    if self.queue.pop(other):
                        closed.add(other)
            snapshot = self.snapshot()
            self.started += 1
            number = self.started
            try:
                result = await loop.run_in_executor(self.pool, self._lint, path, snapshot)
            except Exception as exc:  # a lint that fails must not stop the server
                self._failed(path, exc)
                continue
            self._apply(path, result, snapshot, number, closed)

    def _lint(self, path: str, snapshot: dict) -> model.LintResult | None:
        with self.lock:
            buffers = {p: text for p, (_, text) in snapshot.items()}
            return self.linter.lint(path, buffers, watch_disk=not self.watched)

    def _root_holding(self, path: str) -> str | None:
        return next((root for root in self.results if path.startswith(root + os.sep)), None)

    def result_for(self, path: str) -> model.LintResult | None:
        """The lint of ``path``'s store as the document is now (linted again if stale)."""
        if not path.endswith(LINTED_SUFFIXES):
            return None
        document = self.open_documents().get(path)
        version = document.version if document is not None else None
        for root, result in self.results.items():
            current = self.linted.get(path, -1) == version
            if current and path.startswith(root + os.sep) and path in result.sources:
                return result
        return self.relint(path)

    def relint(self, path: str) -> model.LintResult | None:
        """Lint ``path``'s store now, in this thread, and publish what changed."""
        snapshot = self.snapshot()
        self.started += 1
        number = self.started
        try:
            result = self._lint(path, snapshot)
        except (ConfigError, UsageError) as exc:
            self._failed(path, exc)
            return None
        return self._apply(path, result, snapshot, number, set())

    def _failed(self, path: str, exc: Exception) -> None:
        if isinstance(exc, (ConfigError, UsageError)):
            message = f"memlint: {escape(mask_text(str(exc)))}"
        else:
            message = f"memlint: internal error ({type(exc).__name__}); {escape(path)} not linted"
        self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Error, message=message))
        self.publish(path, [], None, force=True)

    def _apply(
        self, path: str, result, snapshot: dict, number: int, closed: set[str]
    ) -> model.LintResult | None:
        """Publish what a lint of ``snapshot`` changed: ``path``, the open documents of its
        store, and every file whose findings changed (the files that depend on ``path``
        on a first lint). A lint older than one already applied is dropped, and so are
        the findings of documents changed since (their lint is queued)."""
        if result is None:
            self.publish(path, [], None, force=True)
            return None
        root = result.store.root
        if number < self.applied.get(root, 0):
            return self.results.get(root)
        self.applied[root] = number
        previous = self.results.get(root)
        self.results[root] = result
        inside = root + os.sep
        documents = self.open_documents()
        current = {
            p: d.version for p, d in documents.items() if snapshot.get(p, (None,))[0] == d.version
        }
        for open_path, (version, _) in snapshot.items():
            if open_path.startswith(inside):
                self.linted[open_path] = version
        targets = {path} | closed | {p for p in documents if p.startswith(inside)}
        if previous is None:
            targets |= model.dependents(result, path)
        else:
            for other in set(previous.by_path) | set(result.by_path):
                if previous.by_path.get(other, []) != result.by_path.get(other, []):
                    targets.add(other)
        targets |= {p for p, found in self.published.items() if found and p.startswith(inside)}
        for target in sorted(targets):
            if target in documents and target not in current:
                continue  # changed since this lint: published by the next one
            found = [] if target in closed else result.by_path.get(target, [])
            self.publish(target, found, result, force=target == path)
        return result

    def publish(self, path: str, found: list[Diagnostic], result, *, force: bool = False) -> None:
        if not force and self.published.get(path, []) == found and path in self.published:
            return
        self.published[path] = found
        positions = self.position_map(path, result)
        document = self.open_documents().get(path)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=_uri(path),
                diagnostics=[to_lsp(d, positions) for d in found],
                version=document.version if document is not None else None,
            )
        )


def to_lsp(diagnostic: Diagnostic, positions: PositionMap) -> lsp.Diagnostic:
    """One memlint diagnostic as the client sees it, its texts masked."""
    from memlint.ruledoc import rule_url

    shown = masked(diagnostic)
    message = "\n".join((shown.message, *shown.notes))
    url = rule_url(diagnostic.code)
    return lsp.Diagnostic(
        range=positions.range(diagnostic.range),
        message=message,
        severity=SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        code_description=lsp.CodeDescription(href=url) if url else None,
        source=SOURCE,
        tags=TAGS.get(diagnostic.code),
    )


def _path(uri: str) -> str | None:
    path = to_fs_path(uri)
    return os.path.normpath(path) if path and uri.startswith("file:") else None


def _uri(path: str) -> str:
    return from_fs_path(path) or path


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p):
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


# -- edits ---------------------------------------------------------------------------------


def text_edit(old: str, new: str, positions: PositionMap) -> lsp.TextEdit:
    """One edit replacing the part of ``old`` that differs from ``new``."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return lsp.TextEdit(
        range=lsp.Range(start=positions.at_offset(head), end=positions.at_offset(len(old) - tail)),
        new_text=new[head : len(new) - tail],
    )


def _document_edit(server: MemlintServer, path: str, edits: list[lsp.TextEdit]):
    document = server.open_documents().get(path)
    return lsp.TextDocumentEdit(
        text_document=lsp.OptionalVersionedTextDocumentIdentifier(
            uri=_uri(path), version=document.version if document is not None else None
        ),
        edits=edits,
    )


def fix_edit(server: MemlintServer, edits: tuple[Edit, ...], result) -> lsp.WorkspaceEdit:
    """A fix's edits (each at its text range) as one workspace edit."""
    changes: list = []
    by_path: dict[str, list[Edit]] = {}
    for edit in edits:
        by_path.setdefault(edit.path, []).append(edit)
    for path, file_edits in by_path.items():
        if any(edit.create for edit in file_edits):
            changes.append(lsp.CreateFile(uri=_uri(path), kind="create"))
        positions = server.position_map(path, result)
        lsp_edits = [
            lsp.TextEdit(range=positions.range(edit.range), new_text=edit.content)
            for edit in file_edits
        ]
        changes.append(_document_edit(server, path, lsp_edits))
    return lsp.WorkspaceEdit(document_changes=changes)


def changes_edit(server: MemlintServer, changes, result, rename=None) -> lsp.WorkspaceEdit:
    """File changes (``old``/``new`` bytes) as minimal edits, then an optional rename."""
    document_changes: list = []
    for change in changes:
        new = change.new.decode("utf-8").removeprefix("\ufeff")
        if change.old is None:
            document_changes.append(lsp.CreateFile(uri=_uri(change.path), kind="create"))
            old = ""
        else:
            old = change.old.decode("utf-8").removeprefix("\ufeff")
            if old == new:
                continue
        positions = server.position_map(change.path, result)
        if positions.text != old and change.old is not None:
            raise Refused(f"{escape(change.display)} has unsaved changes; save it first")
        document_changes.append(
            _document_edit(server, change.path, [text_edit(old, new, positions)])
        )
    if rename is not None:
        document_changes.append(
            lsp.RenameFile(old_uri=_uri(rename[0]), new_uri=_uri(rename[1]), kind="rename")
        )
    return lsp.WorkspaceEdit(document_changes=document_changes)


# -- the features ------------------------------------------------------------------------

server = MemlintServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: MemlintServer, params: lsp.InitializeParams) -> None:
    root = ls.workspace.root_path
    if root and os.path.isdir(root):
        ls.linter.cwd = os.path.normpath(root)
    options = params.initialization_options
    ls.unsafe_fixes = isinstance(options, dict) and options.get("unsafeFixes") is True


@server.feature(lsp.INITIALIZED)
def initialized(ls: MemlintServer, params: lsp.InitializedParams) -> None:
    dynamic = ls.client_capabilities.workspace
    watch = dynamic and dynamic.did_change_watched_files
    if watch and watch.dynamic_registration:
        ls.watched = True
        ls.client_register_capability(
            lsp.RegistrationParams(
                registrations=[
                    lsp.Registration(
                        id="memlint-watch",
                        method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHED]
                        ),
                    )
                ]
            )
        )


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: MemlintServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _lint_uri(ls, params.text_document.uri, from_disk=not ls.watched)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: MemlintServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _lint_uri(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: MemlintServer, params: lsp.DidSaveTextDocumentParams) -> None:
    _lint_uri(ls, params.text_document.uri, from_disk=not ls.watched)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: MemlintServer, params: lsp.DidCloseTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is None or not path.endswith(LINTED_SUFFIXES):
        return
    ls.linted.pop(path, None)
    ls.lint_soon(path, closed=True)


def _lint_uri(ls: MemlintServer, uri: str, *, from_disk: bool = False) -> None:
    """Lint the document's store soon; ``from_disk``: check every file of the store on
    disk first (a client that does not report file changes; each lint checks the
    store's folders, and its files every ``model.SWEEP_SECONDS``)."""
    path = _path(uri)
    if path is not None and path.endswith(LINTED_SUFFIXES):
        if from_disk:
            with ls.lock:
                ls.linter.recheck(path)
        ls.lint_soon(path)


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: MemlintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    paths = [p for p in (_path(change.uri) for change in params.changes) if p]
    if any(os.path.basename(p) in CONFIG_NAMES for p in paths):
        _reload(ls)
        return
    done: set[str] = set()
    for path in paths:
        if not path.endswith(LINTED_SUFFIXES):
            continue
        with ls.lock:
            ls.linter.recheck(path)
        root = ls._root_holding(path)
        if root is None or root in done:
            continue
        done.add(root)
        ls.lint_soon(path)


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: MemlintServer, params) -> None:
    _reload(ls)


def _reload(ls: MemlintServer) -> None:
    """Configuration changed: load settings again and lint every open document."""
    with ls.lock:
        ls.linter.reload()
    ls.results.clear()
    ls.linted.clear()
    for path in sorted(ls.open_documents()):
        ls.lint_soon(path)


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True
    ),
)
async def code_action(ls: MemlintServer, params: lsp.CodeActionParams):
    await ls.settled()
    path = _path(params.text_document.uri)
    if path is None:
        return None
    result = ls.result_for(path)
    if result is None:
        return []
    only = params.context.only
    quick = not only or any(lsp.CodeActionKind.QuickFix.startswith(k) for k in only)
    fix_all = not only or any(FIX_ALL.startswith(k) for k in only)
    positions = ls.position_map(path, result)
    actions = []
    if quick:
        text = positions.text
        for diagnostic in result.by_path.get(path, []):
            shown = to_lsp(diagnostic, positions)
            if not _overlaps(shown.range, params.range):
                continue
            actions.extend(_quick_fixes(ls, diagnostic, shown, result, text, positions))
    fixable = any(applicable(d.fix, ls.unsafe_fixes) for d in result.by_path.get(path, []))
    if fix_all and fixable:  # running the fixer costs a lint per round: only when it can fix
        if _resolves_edits(ls):  # the fixer runs when the client picks the action
            actions.append(
                lsp.CodeAction(
                    title=_fix_all_title(ls), kind=FIX_ALL, data={"uri": params.text_document.uri}
                )
            )
        else:
            action = _fix_all(ls, path, result)
            if action is not None:
                actions.append(action)
    return actions


def _resolves_edits(ls: MemlintServer) -> bool:
    document = ls.client_capabilities.text_document
    actions = document.code_action if document is not None else None
    support = actions.resolve_support if actions is not None else None
    return support is not None and "edit" in support.properties


def _fix_all_title(ls: MemlintServer) -> str:
    if ls.unsafe_fixes:
        return "memlint: fix all (unsafe fixes included)"
    return "memlint: fix all safe fixes"


@server.feature(lsp.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: MemlintServer, action: lsp.CodeAction) -> lsp.CodeAction:
    """The edit of a ``source.fixAll.memlint`` action offered without one."""
    await ls.settled()
    data = action.data if isinstance(action.data, dict) else {}
    path = _path(data["uri"]) if isinstance(data.get("uri"), str) else None
    result = ls.result_for(path) if action.kind == FIX_ALL and path else None
    if path is not None and result is not None:
        fixed = _fix_all(ls, path, result)
        action.edit = fixed.edit if fixed is not None else lsp.WorkspaceEdit(document_changes=[])
    return action


def _quick_fixes(ls, diagnostic: Diagnostic, shown, result, text: str, positions):
    fix = diagnostic.fix
    if fix is not None and fix.edits and fix.applicability is not Applicability.DISPLAY:
        safe = fix.applicability is Applicability.SAFE
        shown_fix = masked(diagnostic).fix  # (masked keeps the fix, its title masked)
        title = shown_fix.title if shown_fix is not None else ""
        yield lsp.CodeAction(
            title=f"memlint: {title}" if safe else f"memlint: {title} (unsafe fix)",
            kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[shown],
            edit=fix_edit(ls, fix.edits, result),
            is_preferred=safe,
        )
    insertion = model.suppression_edit(text, diagnostic)
    if insertion is not None:
        start, end, insert = insertion
        where = "in this file" if "file-ignore" in insert else "on this line"
        yield lsp.CodeAction(
            title=f"memlint: ignore {diagnostic.code} {where}",
            kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[shown],
            edit=lsp.WorkspaceEdit(
                document_changes=[
                    _document_edit(
                        ls,
                        diagnostic.path,
                        [
                            lsp.TextEdit(
                                range=lsp.Range(
                                    start=positions.at_offset(start),
                                    end=positions.at_offset(end),
                                ),
                                new_text=insert,
                            )
                        ],
                    )
                ]
            ),
        )


def _fix_all(ls: MemlintServer, path: str, result) -> lsp.CodeAction | None:
    """Every safe fix of the document (ruff's ``source.fixAll``; unsafe ones too when the
    client asked for them), as one edit."""
    from memlint.fixer import fix_paths

    buffers = ls.buffers()
    own = buffers.pop(path, None)
    if own is None:
        own = result.text(path)
    if own is None:
        return None
    settings = ls.linter.settings_for(path)  # finds the store; the store has its own
    outcome = fix_paths(
        [],
        settings,
        ls.linter.rules_for(settings),
        unsafe=ls.unsafe_fixes,
        cwd=ls.linter.cwd,
        stdin=(path, own.encode("utf-8", "surrogatepass")),
        overrides={p: text.encode("utf-8", "surrogatepass") for p, text in buffers.items()},
        settings_for=ls.linter.settings_at,
    )
    if not outcome.fixed or outcome.errors:
        return None
    return lsp.CodeAction(
        title=_fix_all_title(ls),
        kind=FIX_ALL,
        edit=changes_edit(ls, outcome.changes, result),
    )


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: MemlintServer, params: lsp.DefinitionParams):
    await ls.settled()
    span = _link(ls, params)
    if span is None or span.path is None:
        return None
    start = lsp.Position(line=0, character=0)
    return lsp.Location(uri=_uri(span.path), range=lsp.Range(start=start, end=start))


def _link(ls: MemlintServer, params) -> model.LinkSpan | None:
    path = _path(params.text_document.uri)
    result = ls.result_for(path) if path else None
    if path is None or result is None:
        return None
    offset = ls.offset(params.text_document.uri, params.position)
    return None if offset is None else model.link_at(result, path, offset)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_LINK)
async def document_link(ls: MemlintServer, params: lsp.DocumentLinkParams):
    await ls.settled()
    path = _path(params.text_document.uri)
    result = ls.result_for(path) if path else None
    if path is None or result is None:
        return []
    positions = ls.position_map(path, result)
    return [
        lsp.DocumentLink(
            range=lsp.Range(start=positions.at_offset(s.start), end=positions.at_offset(s.end)),
            target=_uri(s.path),
            tooltip=mask_text(s.memory.description or s.target) if s.memory else None,
        )
        for s in model.links_in(result, path)
        if s.path is not None
    ]


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(ls: MemlintServer, params: lsp.HoverParams):
    await ls.settled()
    path = _path(params.text_document.uri)
    result = ls.result_for(path) if path else None
    if path is None or result is None:
        return None
    offset = ls.offset(params.text_document.uri, params.position)
    if offset is None:
        return None
    span = model.link_at(result, path, offset)
    text: str | None
    if span is not None and span.memory is not None:
        text = mask_text(model.memory_hover(span.memory))
    else:
        code = model.code_at(result, path, offset)
        text = _rule_doc(code) if code else None
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def _rule_doc(code: str) -> str | None:
    from memlint.ruledoc import rule_text, rule_url
    from memlint.rules import registry

    rules = registry()
    matching = [c for c in sorted(rules) if c == code or (code != c and c.startswith(code))]
    if not matching:
        return None
    if matching[0] == code:
        url = rule_url(code)
        return rule_text(rules[code]) + (f"\n[{code} in the rule reference]({url})" if url else "")
    return "\n".join(f"- `{c}` {rules[c].META.name}: {rules[c].META.summary}" for c in matching)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["["]))
async def completion(ls: MemlintServer, params: lsp.CompletionParams):
    await ls.settled()
    path = _path(params.text_document.uri)
    result = ls.result_for(path) if path else None
    if path is None or result is None:
        return None
    text = ls.position_map(path, result).text
    offset = ls.offset(params.text_document.uri, params.position)
    if offset is None:
        return None
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    opened = before.rfind("[[")
    if opened == -1 or "]]" in before[opened:] or "|" in before[opened:]:
        return None
    positions = ls.position_map(path, result)
    replace = lsp.Range(
        start=positions.at_offset(line_start + opened + 2), end=positions.at_offset(offset)
    )
    items = [
        lsp.CompletionItem(
            label=name,
            kind=lsp.CompletionItemKind.Reference,
            detail=mask_text(description) if description else None,
            text_edit=lsp.TextEdit(range=replace, new_text=name),
        )
        for name, description in model.completion_names(result.store)
        if mask_text(name) == name  # a name holding a secret is neither shown nor inserted
    ]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
async def rename(ls: MemlintServer, params: lsp.RenameParams):
    await ls.settled()
    path = _path(params.text_document.uri)
    result = ls.result_for(path) if path else None
    if path is None or result is None:
        raise Refused("not a file of a memory store")
    offset = ls.offset(params.text_document.uri, params.position)
    found = model.rename_span(result, path, offset) if offset is not None else None
    if found is None:
        raise Refused(NOT_RENAMEABLE)
    return _move_edit(ls, result, found[0].file.path, params.new_name, with_rename=True)


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
async def prepare_rename(ls: MemlintServer, params: lsp.PrepareRenameParams):
    """What a rename at the position would rename: the span naming the memory and its
    file stem (the name ``memlint mv`` gives it), or an error the client shows."""
    await ls.settled()
    path = _path(params.text_document.uri)
    result = ls.result_for(path) if path else None
    if path is None or result is None:
        raise Refused(NOT_RENAMEABLE)
    offset = ls.offset(params.text_document.uri, params.position)
    found = model.rename_span(result, path, offset) if offset is not None else None
    if found is None:
        raise Refused(NOT_RENAMEABLE)
    memory, start, end = found
    positions = ls.position_map(path, result)
    return lsp.PrepareRenamePlaceholder(
        range=lsp.Range(start=positions.at_offset(start), end=positions.at_offset(end)),
        placeholder=memory.stem,
    )


def _move_edit(ls, result, source: str, new: str, *, with_rename: bool) -> lsp.WorkspaceEdit:
    """``memlint mv``'s edits (and the rename itself when ``with_rename``)."""
    from memlint.rename import MoveError, plan_move

    try:
        plan = plan_move(source, new, result.settings, os.path.dirname(source))
    except (MoveError, UsageError, ConfigError) as exc:
        raise Refused(escape(mask_text(str(exc)))) from None
    rename_pair = (plan.source, plan.target) if with_rename else None
    return changes_edit(ls, plan.changes, result, rename_pair)


@server.feature(
    lsp.WORKSPACE_WILL_RENAME_FILES,
    lsp.FileOperationRegistrationOptions(
        filters=[lsp.FileOperationFilter(pattern=lsp.FileOperationPattern(glob="**/*.md"))]
    ),
)
async def will_rename_files(ls: MemlintServer, params: lsp.RenameFilesParams):
    await ls.settled()
    document_changes: list = []
    for item in params.files:
        old, new = _path(item.old_uri), _path(item.new_uri)
        if not old or not new or not old.endswith(".md") or not new.endswith(".md"):
            continue
        result = ls.result_for(old)
        if result is None or model.memory_at(result.store, old) is None:
            continue
        try:
            edit = _move_edit(ls, result, old, new, with_rename=False)
        except Refused:
            continue
        document_changes.extend(edit.document_changes or [])
    return lsp.WorkspaceEdit(document_changes=document_changes) if document_changes else None


def serve() -> int:
    """Run over stdio; 0 when the client shut the server down before exit, else 1."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr  # a stray print must never corrupt the protocol stream
    log = logging.StreamHandler(sys.stderr)
    log.addFilter(QuietLog())
    for name in ("pygls", LOG.name):
        logger = logging.getLogger(name)
        logger.addHandler(log)
        logger.setLevel(logging.WARNING)
        logger.propagate = False
    try:
        server.start_io(sys.stdin.buffer, protocol_out)
    finally:
        server.pool.shutdown(wait=True, cancel_futures=True)
        server.linter.close()
    return 0 if getattr(server.protocol, "_shutdown", False) else 1
