"""Find stores under the given paths and load each one whole.

A directory holding ``MEMORY.md`` (or configured in ``[[stores]]``) is a
store root; a file belongs to its nearest root, so nested stores are separate.
The walk uses ``lstat`` information only and never follows a symlink. When
individual files are given (as pre-commit does), their whole store is still
loaded for resolution, and only those files are reported on.
"""

from __future__ import annotations

import fnmatch
import os
import stat
import time
from dataclasses import dataclass, field

from memlint.cache import CacheSet, StoreCache, signature
from memlint.config import SKIP_DIRS, Settings
from memlint.detect import detect_profile, is_note_store, looks_like_memory_dir
from memlint.sources.document import ReadProblem, SourceFile, decode_into, read_into, read_source
from memlint.store import Skipped, Store

INDEX_NAME = "MEMORY.md"


class UsageError(Exception):
    """A path given on the command line cannot be used (exit status 2)."""


@dataclass(slots=True)
class _Plan:
    root: str
    reason: str
    explicit: bool
    report: set[str] | None = field(default_factory=set)

    def report_all(self) -> None:
        self.report = None

    def add_report(self, path: str) -> None:
        if self.report is not None:
            self.report.add(path)


class Discovery:
    def __init__(
        self,
        settings: Settings,
        cwd: str,
        caches: CacheSet | None = None,
        jobs: int | None = None,
        keep_raw: bool = True,
    ) -> None:
        self.settings = settings
        self.cwd = cwd
        self.caches = caches
        self.jobs = jobs
        self.keep_raw = keep_raw
        self.plans: dict[str, _Plan] = {}
        self.loose_notes: dict[str, set[str] | None] = {}
        self.configured = {os.path.normpath(s.path): s for s in settings.stores}
        self.overrides: dict[str, bytes] = {}
        self.started_ns = time.time_ns()

    def add_override(self, raw: str, data: bytes) -> None:
        """Lint ``data`` as the content of file ``raw`` (stdin), on disk or not."""
        path = os.path.normpath(os.path.join(self.cwd, raw))
        self.overrides[path] = data
        self._add_file(path)

    def display(self, path: str) -> str:
        """``path`` relative to the working directory when below it (sliced, not relpath)."""
        prefix = self.cwd.rstrip(os.sep) + os.sep
        rel = path[len(prefix) :] if path.startswith(prefix) else path
        return rel.replace(os.sep, "/")

    # -- finding roots ---------------------------------------------------------

    def is_root(self, directory: str) -> str | None:
        """Why ``directory`` is a store root, or ``None``."""
        if directory in self.configured:
            return "configured in [[stores]]"
        if os.path.lexists(os.path.join(directory, INDEX_NAME)):
            return f"has {INDEX_NAME}"
        return None

    def ancestor_root(self, directory: str) -> tuple[str, str] | None:
        current = directory
        while True:
            reason = self.is_root(current)
            if reason:
                return current, reason
            parent = os.path.dirname(current)
            if parent == current:
                return None
            current = parent

    def add_path(self, raw: str) -> None:
        path = os.path.normpath(os.path.join(self.cwd, raw))
        try:
            st = os.lstat(path)
        except (OSError, ValueError) as exc:
            raise UsageError(f"{raw}: {getattr(exc, 'strerror', None) or exc}") from None
        if stat.S_ISDIR(st.st_mode):
            self._add_directory(path)
        else:
            self._add_file(path)

    def _plan(self, root: str, reason: str, explicit: bool = False) -> _Plan:
        plan = self.plans.get(root)
        if plan is None:
            plan = self.plans[root] = _Plan(root, reason, explicit)
        return plan

    def _add_directory(self, path: str) -> None:
        found = self.ancestor_root(path)
        if found is not None:
            root, reason = found
            plan = self._plan(root, reason)
            if root == path:
                plan.report_all()
            else:
                plan.add_report(path)
            return
        roots, notes = self._scan_for_roots(path)
        for root in roots:
            self._plan(root, self.is_root(root) or "").report_all()
        for note in notes:
            if not any(note.startswith(root + os.sep) for root in roots):
                self.loose_notes[note] = None
        if not roots and looks_like_memory_dir(path, self.settings):
            self._plan(path, "given on the command line and holds memory files", True).report_all()

    def _add_file(self, path: str) -> None:
        directory = os.path.dirname(path)
        found = self.ancestor_root(directory)
        if found is not None:
            self._plan(*found).add_report(path)
        elif path.endswith(".jsonl"):
            self.loose_notes[path] = None
        elif looks_like_memory_dir(directory, self.settings):
            self._plan(directory, "holds memory files", True).add_report(path)

    def _scan_for_roots(self, top: str) -> tuple[list[str], list[str]]:
        roots: list[str] = []
        notes: list[str] = []
        stack = [top]
        while stack:
            directory = stack.pop()
            if self.is_root(directory):
                roots.append(directory)
            for entry in _scandir(directory):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP_DIRS:
                        stack.append(entry.path)
                elif entry.name.endswith(".jsonl") and entry.is_file(follow_symlinks=False):
                    notes.append(entry.path)
        return sorted(roots), sorted(notes)

    # -- loading ---------------------------------------------------------------

    def load(self) -> list[Store]:
        roots = set(self.plans)
        stores = [self._load_store(self.plans[root], roots) for root in sorted(self.plans)]
        stores.extend(self._load_loose_notes())
        return stores

    def _load_store(self, plan: _Plan, roots: set[str]) -> Store:
        settings = self.settings
        config = self.configured.get(plan.root)
        store = Store(
            root=plan.root,
            display_root=self.display(plan.root) or ".",
            reason=plan.reason,
            report=plan.report,
            local_only=bool(config and config.local_only),
        )
        cache = self.caches.for_store(plan.root) if self.caches is not None else None
        excluded = _Excludes(set(settings.exclude) | set(settings.extend_exclude))
        memory_sources: list[SourceFile] = []
        root_prefix = plan.root + os.sep
        # (directory, its store-relative prefix, its display prefix): no per-file slicing
        stack = [(plan.root, "", self.display(root_prefix))]
        while stack:
            directory, rel_dir, display_dir = stack.pop()
            for entry in _scandir(directory):
                name = entry.name
                rel = rel_dir + name
                if entry.is_symlink():
                    if name.endswith((".md", ".jsonl")):
                        detail = _link_detail(entry.path, plan.root)
                        store.skipped.append(
                            Skipped(entry.path, display_dir + name, "symlink", detail)
                        )
                    continue
                if entry.is_dir(follow_symlinks=False):
                    path = entry.path
                    if name.endswith(".md"):
                        skipped = Skipped(path, display_dir + name, "special", "a directory")
                        store.skipped.append(skipped)
                    if name in SKIP_DIRS or path in roots or excluded.match(rel, name):
                        continue
                    if name.startswith("."):
                        continue
                    stack.append((path, rel + "/", display_dir + name + "/"))
                    continue
                if not name.endswith((".md", ".jsonl")):
                    continue
                path, display = entry.path, display_dir + name
                if not entry.is_file(follow_symlinks=False):
                    store.skipped.append(Skipped(path, display, "special", _special_kind(path)))
                    continue
                if name.endswith(".jsonl"):
                    if self._is_notes(path):
                        store.notes.append(self._read(path, rel, display))
                    continue
                if rel == INDEX_NAME:
                    source = self._read(path, rel, display)
                    store.files.append(source)
                    _defer_index(store, source)
                    continue
                if name.startswith(".") or excluded.match(rel, name):
                    store.excluded.append(rel)
                    continue
                memory_sources.append(self._read_memory(entry, rel, display, cache))
        for path in sorted(self.overrides):  # in-memory files that are not on disk
            found = self.ancestor_root(os.path.dirname(path))
            if os.path.lexists(path) or found is None or found[0] != plan.root:
                continue
            rel = path[len(root_prefix) :].replace(os.sep, "/")
            source = self._read(path, rel, self.display(path))
            if rel == INDEX_NAME:
                store.files.append(source)
                _defer_index(store, source)
            elif path.endswith(".jsonl"):
                store.notes.append(source)
            elif path.endswith(".md"):
                memory_sources.append(source)
        memory_sources.sort(key=lambda s: s.rel)
        store.files.extend(memory_sources)
        store.files.sort(key=lambda s: s.rel)
        store.notes.sort(key=lambda s: s.rel)
        store.skipped.sort(key=lambda s: s.path)
        store.excluded.sort()
        store.index_entry = next(
            (s for s in store.skipped if s.path == os.path.join(plan.root, INDEX_NAME)), None
        )
        readable = [source for source in memory_sources if source.readable]

        def parse_memories():
            from memlint.parse import load_memories  # not imported on a memo hit

            return load_memories(readable, cache, self.jobs)

        memo = cache.memo(store) if cache is not None else None
        if memo is not None:
            store.profile, store.profile_reason, store.memo = memo.profile, memo.reason, memo
            store.defer_memories(parse_memories)
            return store
        store.memories = parse_memories()
        store.profile, store.profile_reason, store.profile_guess = detect_profile(store, config)
        return store

    def _load_loose_notes(self) -> list[Store]:
        by_dir: dict[str, list[str]] = {}
        for path in sorted(self.loose_notes):
            if path in self.settings.notes or is_note_store(path):
                by_dir.setdefault(os.path.dirname(path), []).append(path)
        stores = []
        for directory, paths in sorted(by_dir.items()):
            store = Store(
                root=directory,
                display_root=self.display(directory) or ".",
                reason="holds note stores",
                profile="notes",
                profile_reason="only JSONL note stores here",
            )
            for path in paths:
                rel = os.path.basename(path)
                store.notes.append(self._read(path, rel, self.display(path)))
            stores.append(store)
        return stores

    def _read_memory(
        self, entry: os.DirEntry, rel: str, display: str, cache: StoreCache | None
    ) -> SourceFile:
        """A memory file, read now, or deferred when ``cache`` knows it unchanged."""
        path = entry.path
        sig = None
        if cache is not None and path not in self.overrides:
            sig = signature(entry)
            known = cache.known(rel, sig)
            if known is not None:
                return SourceFile.deferred(path, rel, display, known, self._read_deferred)
        source = self._read(path, rel, display)
        if cache is not None:
            cache.digest(source)
            cache.remember_read(source, sig, self.started_ns)
        self._drop_raw(source)
        return source

    def _read_deferred(self, source: SourceFile) -> None:
        read_into(source, self.settings.max_file_size)
        self._drop_raw(source)

    def _drop_raw(self, source: SourceFile) -> None:
        if not self.keep_raw and source.text is not None:
            source.raw = b""  # lint mode: the text is all that is needed from here

    def _is_notes(self, path: str) -> bool:
        return path in self.settings.notes or is_note_store(path)

    def _read(self, path: str, rel: str, display: str) -> SourceFile:
        data = self.overrides.get(path)
        if data is None:
            return read_source(path, rel, display, self.settings.max_file_size)
        source = SourceFile(path=path, rel=rel, display=display)
        if len(data) > self.settings.max_file_size:
            source.problem = ReadProblem(
                "too-large", f"over the {self.settings.max_file_size}-byte cap"
            )
        else:
            decode_into(source, data)
        return source


def discover(
    paths: list[str],
    settings: Settings,
    cwd: str | None = None,
    stdin: tuple[str, bytes] | None = None,
    caches: CacheSet | None = None,
    jobs: int | None = None,
    keep_raw: bool = True,
) -> list[Store]:
    """Stores for ``paths`` (default ``.``), each loaded whole.

    ``stdin`` is ``(filename, data)``: lint ``data`` as that file, reporting only it.
    Without ``keep_raw`` the bytes of decoded memory files are dropped once read
    (and hashed for the cache): linting needs only their text.
    """
    finder = Discovery(settings, os.path.abspath(cwd or os.getcwd()), caches, jobs, keep_raw)
    if stdin is not None:
        finder.add_override(*stdin)
    for raw in paths or ([] if stdin else ["."]):
        finder.add_path(raw)
    return finder.load()


def _defer_index(store: Store, source: SourceFile) -> None:
    """Parse ``MEMORY.md`` when first needed (a cached whole-store result never needs it)."""
    if source.text is None:
        store.index = None
        return

    def load():
        from memlint.parse import load_index

        return load_index(source)

    store.defer_index(load)


def _scandir(directory: str) -> list[os.DirEntry]:
    """The entries of ``directory``, in no particular order (callers sort what they keep)."""
    try:
        with os.scandir(directory) as iterator:
            return list(iterator)
    except OSError:
        return []


GLOB_CHARS = frozenset("*?[")


class _Excludes:
    """``exclude`` patterns: plain names and paths matched by set lookup, globs by fnmatch."""

    def __init__(self, patterns: set[str]) -> None:
        self.exact = {p for p in patterns if GLOB_CHARS.isdisjoint(p)}
        self.globs = [p for p in patterns if not GLOB_CHARS.isdisjoint(p)]

    def match(self, rel: str, name: str) -> bool:
        """Whether ``rel`` or its file name ``name`` is excluded."""
        if name in self.exact or rel in self.exact:
            return True
        return bool(self.globs) and any(
            fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(name, pattern)
            for pattern in self.globs
        )


def _link_detail(path: str, root: str) -> str:
    try:
        target = os.readlink(path)
    except OSError:
        return "a symlink"
    try:
        os.stat(path)
    except OSError as exc:
        import errno

        if exc.errno == errno.ELOOP:
            return "a symlink loop"
        return "a dangling symlink"
    resolved = os.path.realpath(path)
    real_root = os.path.realpath(root)
    if not resolved.startswith(real_root + os.sep):
        return "a symlink pointing outside the store"
    return f"a symlink to {target!r} inside the store"


def _special_kind(path: str) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "not a regular file"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
