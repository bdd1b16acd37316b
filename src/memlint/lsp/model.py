"""Stores as an editor sees them, without the protocol: lint a store with the unsaved
buffers read in place of the files (the injected content ``--stdin-filename`` and the
hook use), find the files a change affects, and answer navigation questions.

Paths are absolute; offsets index a file's text (BOM removed), as everywhere in memlint.
"""

from __future__ import annotations

import gc
import os
import shutil
import stat
import tempfile
import time
from typing import TYPE_CHECKING, cast

from memlint.config import Settings, find_config, load_settings
from memlint.diagnostics import Diagnostic
from memlint.discovery import INDEX_NAME, Discovery
from memlint.records import dataclass, field, replace
from memlint.store import Memory, Store, fold
from memlint.ties import Ties, index_facts, memory_keys, near_duplicate_minimum
from memlint.treenames import CONFIG_NAMES, SKIP_DIRS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from memlint.cache import StoreCache
    from memlint.sources.document import SourceFile

SUPPRESSIBLE_SUFFIXES = (".md", ".markdown")
WATCHED_NAMES = (*CONFIG_NAMES, ".gitignore")


@dataclass
class LintResult:
    """One lint of one store: its diagnostics by file and the text each was linted at."""

    store: Store
    settings: Settings
    by_path: dict[str, list[Diagnostic]]
    sources: dict = field(default_factory=dict)  # path -> SourceFile

    def text(self, path: str) -> str | None:
        source = self.sources.get(path)
        return source.text if source is not None else None


class StoreLinter:
    """Settings per configuration file, rules per settings, and each store as last
    linted: a change to the text of memories is linted on that store with those
    memories parsed again (nothing else is read, parsed or checked one file at a time
    again); anything else (a file created, deleted or renamed, the index or a note
    store edited, a document closed, ``reload``) loads the store again."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self._settings: dict[str | None, Settings] = {}
        self._rules: dict[int, list] = {}
        self._cache_dir: str | None = None
        self._secret = os.urandom(32)
        self._kept: dict[str, _Kept] = {}  # store root -> the store as last linted

    def caches(self, settings: Settings):
        """A result cache of the server's own, in a private folder it created (so that a
        lint after a keystroke runs only the edited file's rules and the cross-file ones).
        It keeps no parse facts: a store loaded again is built from the summaries, and
        the few memories a rule reads more of are parsed again."""
        from memlint.cache import CacheSet, config_key

        if self._cache_dir is None:
            self._cache_dir = tempfile.mkdtemp(prefix="memlint-server-")
        return CacheSet(
            self._cache_dir, config_key(settings, self.cwd), self._secret, keep_facts=False
        )

    def close(self) -> None:
        """Remove the server's cache folder."""
        if self._cache_dir is not None:
            shutil.rmtree(self._cache_dir, ignore_errors=True)
            self._cache_dir = None

    def reload(self) -> None:
        """Forget loaded settings and stores (a configuration file changed)."""
        self._settings.clear()
        self._rules.clear()
        self._kept.clear()

    def recheck(self, path: str) -> None:
        """Check every file of the store holding ``path`` on disk before its next lint
        (files changed there): changed memories and index are read again, anything
        else loads the store again."""
        for root, kept in self._kept.items():
            if path.startswith(root + os.sep):
                kept.disk.stale = True

    def settings_at(self, folder: str) -> Settings:
        """The settings of the nearest configuration file at or above ``folder``;
        raises ConfigError."""
        config = find_config(folder)
        settings = self._settings.get(config)
        if settings is None:
            settings = self._settings[config] = load_settings(config)
        return settings

    def settings_for(self, path: str) -> Settings:
        """The settings that find the store of ``path``: the workspace's, as ``memlint
        check`` run there uses (each store is then linted with its own)."""
        return self.settings_at(self.cwd)

    def rules_for(self, settings: Settings) -> list:
        from memlint.engine import selected_rules

        rules = self._rules.get(id(settings))
        if rules is None:
            rules = self._rules[id(settings)] = selected_rules(settings)
        return rules

    def root_of(self, path: str, settings: Settings) -> str | None:
        """The root of the store ``path`` belongs to, or ``None`` (outside every store)."""
        finder = Discovery(settings, self.cwd, settings_for=self.settings_at)
        root = finder.store_of(os.path.dirname(path))
        if root is not None and root.holds(path):
            return root.path
        return os.path.dirname(path) if path.endswith(".jsonl") else None

    def lint(
        self, path: str, buffers: dict[str, str], watch_disk: bool = False
    ) -> LintResult | None:
        """Lint the store holding ``path`` (every file reported on), each file of
        ``buffers`` read as that text; ``None`` when ``path`` is in no store. A kept
        store is first checked against the disk (:meth:`DiskState.changes`) after
        :meth:`recheck`, and with ``watch_disk`` (a client that does not report file
        changes) before every lint: its folders, and its files every ``SWEEP_SECONDS``."""
        settings = self.settings_for(path)
        root = self.root_of(path, settings)
        if root is None:
            return None
        inside = {p: text for p, text in buffers.items() if p.startswith(root + os.sep)}
        kept = self._kept.get(root)
        if kept is not None:
            result = kept.relint(inside, self.rules_for(kept.result.settings), watch_disk)
            if result is not None:
                return result
            del self._kept[root]  # one copy of the store in memory while loading again
            if kept.disk.config_changed:  # settings, and so the stores, anew
                self.reload()
                return self.lint(path, buffers, watch_disk)
        return self._load(path, root, settings, buffers, inside)

    def _load(
        self, path: str, root: str, settings: Settings, buffers: dict[str, str], inside: dict
    ) -> LintResult | None:
        from memlint.engine import lint_store

        gc.unfreeze()  # the stores loaded before may be garbage now
        caches = self.caches(settings)
        finder = Discovery(
            settings, self.cwd, caches, jobs=1, keep_raw=False, settings_for=self.settings_at
        )
        for other, text in buffers.items():
            if other == path or self._same_store(finder, other, root):
                finder.add_override(other, text.encode("utf-8", "surrogatepass"))
        if path not in buffers:
            finder.add_path(path if os.path.lexists(path) else os.path.dirname(path))
        for plan in finder.plans.values():
            plan.report_all()
        store = next((s for s in finder.load() if _holds(s, path)), None)
        if store is None:
            return None
        store.memo = None  # the next keystroke needs every file's own results at hand
        settings = store.settings or settings
        results = _KeptResults(caches.for_store(store.root))
        rules = self.rules_for(settings)
        # one process: a server has threads, which a forked worker pool must not copy,
        # and a warm lint is faster without the pool (10,000 files: 1.9 s, not 3.8 s).
        # The one-file rules run first, on their own, before the cross-file rules build
        # their tables: the memory peak is then the larger of the two, not their sum
        # (the index's privacy scan alone took ~9 MiB at 10,000 memories).
        local = [rule for rule in rules if rule.meta.local]
        lint_store(store, settings, local, _as_cache(results), 1)  # (remembered in results)
        _let_go(store, set(inside), settings.max_file_size)
        found = lint_store(store, settings, rules, _as_cache(results), 1)
        caches.for_store(store.root).forget_missing(store)
        caches.save()
        results.disk = None
        result = _result(store, settings, found)
        # The loaded store lives until the next load: kept out of the cyclic garbage
        # collector's sweeps, which at 10,000 memories took ~190 ms every few keystrokes.
        gc.collect()
        gc.freeze()
        held = {p for p in inside if p in result.sources}
        if store.root == root:
            kept = _Kept(result, results, held, set(inside) - held, DiskState(store))
            self._kept[root] = kept
        return result

    @staticmethod
    def _same_store(finder: Discovery, path: str, root: str) -> bool:
        if not path.startswith(root + os.sep):
            return False
        found = finder.store_of(os.path.dirname(path))
        return found is not None and found.path == root and found.holds(path)


def _let_go(store: Store, held: set[str], max_size: int) -> None:
    """Let go of what the memories not open in a buffer (not in ``held``) hold once their
    one-file rules ran: their text, read again on use (and refused if their bytes changed
    meanwhile), and their parsed values, parsed again on use (the summary answers the
    cross-file rules: they load few). A store of 10,000 held ~18 MiB less. The memories
    become new objects, so the store's derived tables are built again."""
    from memlint.cache import text_digest
    from memlint.sources.document import Known
    from memlint.suppression import DIRECTIVE_MARK

    read_again = _reader(max_size)
    memories = []
    for memory in store.memories:
        source = memory.file
        if source.path in held:
            memories.append(memory)
            continue
        if source.pending is not None and source.known is not None:
            source.release(source.known, read_again)  # not read yet: read by this server
        elif source.text is not None and source.problem is None:
            text = source.text
            source.release(Known(text_digest(source), DIRECTIVE_MARK in text), read_again)
        fingerprint = memory.fingerprint if memory.has_fingerprint else None
        memories.append(
            Memory(
                source,
                memory.stem,
                loader=_parse_again,
                summary=memory.summary,
                fingerprint=fingerprint,
            )
        )
    store.memories = memories
    _forget_tables(store, list(vars(store)))


def _parse_again(memory: Memory):
    from memlint.parse import parse_memory

    return parse_memory(memory.file)


def _reader(max_size: int):
    """Reads a released file again; bytes that changed since it was linted are refused."""
    from memlint.cache import text_digest
    from memlint.sources.document import ReadProblem, read_into

    def read(source: SourceFile) -> None:
        known = source.known
        read_into(source, max_size)
        if source.text is not None and known is not None and text_digest(source) != known.digest:
            source.text = None
            source.problem = ReadProblem("unreadable", "changed while memlint was checking it")
        source.raw = b""

    return read


def _holds(store: Store, path: str) -> bool:
    return path.startswith(store.root + os.sep) or any(s.path == path for s in store.notes)


def _result(
    store: Store,
    settings: Settings,
    found: list[Diagnostic],
    before: LintResult | None = None,
    edited: Iterable[SourceFile] = (),
) -> LintResult:
    """The lint's findings by file; the files by path are ``before``'s with the
    ``edited`` ones put in (a kept store edited in place), else all of the store's."""
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in found:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    for diagnostics in by_path.values():
        diagnostics.sort(key=Diagnostic.sort_key)
    if before is None:
        sources = {s.path: s for s in (*store.files, *store.notes)}
    else:
        sources = dict(before.sources)
        sources.update((s.path, s) for s in edited)
    return LintResult(store, settings, by_path, sources)


class _KeptResults:
    """The one-file rules' results of a kept store's files, by file object (a file
    whose text did not change is the same object in the next lint), falling back to
    the server's result cache (``disk``) while the store is loaded."""

    def __init__(self, disk: StoreCache | None) -> None:
        self.disk = disk
        self.found: dict[str, tuple[SourceFile, str, list]] = {}

    def local_results(self, source: SourceFile, profile: str) -> list | None:
        kept = self.found.get(source.path)
        if kept is not None and kept[0] is source and kept[1] == profile:
            return kept[2]
        found = self.disk.local_results(source, profile) if self.disk is not None else None
        if found is not None:
            self.found[source.path] = (source, profile, found)
        return found

    def remember_local_results(self, source: SourceFile, profile: str, found: list) -> None:
        self.found[source.path] = (source, profile, found)
        if self.disk is not None:
            self.disk.remember_local_results(source, profile, found)

    def remember_memo(self, store: Store, found: list, again: list[str]) -> None:
        if self.disk is not None:
            self.disk.remember_memo(store, found, again)

    def previous(self, store: Store) -> None:
        """No last result to carry over: a kept store re-lints the files tied to an edit."""
        return None


def _as_cache(results: _KeptResults) -> StoreCache:
    """``lint_store`` reads and remembers one-file results and the memo, nothing else."""
    return cast("StoreCache", results)


@dataclass
class _Kept:
    """A store as last linted, with the buffers read in place of its files (``held``)
    and the buffers below its root that are not its files (``foreign``)."""

    result: LintResult
    results: _KeptResults
    held: set[str]
    foreign: set[str]
    disk: DiskState
    ties: Ties | None = None

    def relint(self, inside: dict[str, str], rules: list, watch_disk: bool) -> LintResult | None:
        """The store with the memories (and the index) whose text changed, in a buffer
        or on disk, parsed again, linted; ``None`` when it must be loaded again (a file
        created, deleted or renamed, a note store changed, a buffer not the store's)."""
        from memlint.engine import lint_store
        from memlint.sources.document import read_source

        result = self.result
        wanted = {p: t for p, t in inside.items() if p not in self.foreign}
        if any(p not in result.sources for p in wanted):
            return None  # a file the store did not hold: created, or not the store's
        reread = self.held - set(wanted)  # closed: the file on disk again
        if watch_disk or self.disk.stale:
            on_disk = self.disk.changes(set(wanted), folders_only=not self.disk.stale)
            if on_disk is None:
                return None
            reread |= on_disk
        for path in reread:
            source = result.sources[path]
            text = read_source(path, source.rel, source.display, result.settings.max_file_size)
            if text.text is None:
                return None
            wanted[path] = text.text
        changed = {p: t for p, t in wanted.items() if result.text(p) != t}
        self.held = set(inside) - self.foreign
        if not changed:
            return result
        store = result.store
        scope: set[str] | None = set()
        index = store.index
        if index is not None and index.file.path in changed:
            source = _source_of(index.file, changed.pop(index.file.path), result.settings)
            if source is None:
                return None
            scope = _edit_index(store, source, result.settings)
        if self.ties is None:
            self.ties = Ties(store, near_duplicate_minimum(rules, result.settings))
        loaded = _reloaded(store, changed, result.settings, self.ties)
        if loaded is None:
            return None
        tied = self.ties.scope(loaded)
        scope = None if scope is None or tied is None else scope | tied
        before: LintResult | None = None  # the files by path are these, but for edited
        if all(_same_tables(old, new) for old, new in loaded):
            _edit_in_place(store, loaded)  # its derived tables hold: the memories change in place
            before = result
        else:
            edited = edited_store(store, changed, result.settings)
            if edited is None:
                return None
            if _profile(edited) != _profile(store):
                scope = None
            store = edited
        if scope is not None and store.index is None:  # where IX001 reports a missing index
            scope.add(os.path.join(store.root, INDEX_NAME))
        store.report = scope
        try:
            found = lint_store(store, result.settings, rules, _as_cache(self.results), 1)
        finally:
            store.report = None
            _forget_tables(store, ("_report_dirs", "reported_memories"))
        new_files = [old.file for old, _ in loaded]
        if store.index is not None and store.index is not index:
            new_files.append(store.index.file)
        self.result = _result(store, result.settings, found, before, new_files)
        if scope is not None:  # the other files' findings are those of the last lint
            for path, kept in result.by_path.items():
                if path not in scope:
                    self.result.by_path[path] = kept
        return self.result


SWEEP_SECONDS = 2.0  # how old a sweep of every file may be before a lint sweeps again
TRACKED = (".md", ".markdown", ".jsonl")


class DiskState:
    """What a kept store was loaded from, to notice changes on disk without the
    client's file events: each file's ``lstat`` signature and each folder's listing
    (its subfolders and the files memlint may read; an editor's swap and temporary
    files do not count)."""

    def __init__(self, store: Store) -> None:
        self.files: dict[str, tuple | None] = {}
        for source in (*store.files, *store.notes):
            self.files[source.path] = _signature(source.path)
        folders = _folders_below(store.root)  # empty ones and nested stores too
        self.folders = {folder: _listing(folder) for folder in folders}
        self.configs = {
            path: _signature(path)
            for folder in folders
            for path in (os.path.join(folder, name) for name in CONFIG_NAMES)
            if os.path.lexists(path)
        }
        self.config_changed = False
        self.swept = time.monotonic()
        self.stale = False  # a file event came: sweep every file before the next lint

    def changes(self, held: set[str], folders_only: bool) -> set[str] | None:
        """The files whose bytes may have changed on disk, buffers (``held``) apart;
        ``None`` when more changed: a file or folder created, deleted or renamed, or a
        file that is no longer a regular file. Folders are listed again when their
        ``mtime`` moved; files are ``lstat``-ed too unless ``folders_only`` and the last
        sweep is less than ``SWEEP_SECONDS`` old."""
        if any(_signature(path) != signature for path, signature in self.configs.items()):
            self.config_changed = True
            return None
        for folder, (mtime, names) in self.folders.items():
            if _mtime(folder) != mtime:
                listing = _listing(folder)
                if listing[1] != names:
                    return None
                self.folders[folder] = listing
        if folders_only and time.monotonic() - self.swept < SWEEP_SECONDS:
            return set()
        changed = set()
        for path, signature in self.files.items():
            if path in held:
                continue
            now = _signature(path)
            if now != signature:
                if now is None:
                    return None
                self.files[path] = now
                changed.add(path)
        self.swept = time.monotonic()
        self.stale = False
        return changed


def _signature(path: str) -> tuple | None:
    """A regular file's ``lstat`` signature (``None``: gone, or not a regular file)."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    return found.st_mtime_ns, found.st_ctime_ns, found.st_size, found.st_ino


def _folders_below(root: str) -> set[str]:
    """``root`` and every folder below it (never through a link, hidden ones and
    ``SKIP_DIRS`` apart): a file created in an empty folder, or a nested store's
    ``MEMORY.md`` deleted (its files join the store), changes one of their listings."""
    found = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        found.add(folder)
        try:
            with os.scandir(folder) as entries:
                stack.extend(
                    entry.path
                    for entry in entries
                    if entry.is_dir(follow_symlinks=False)
                    and not entry.name.startswith(".")
                    and entry.name not in SKIP_DIRS
                )
        except OSError:
            continue
    return found


def _mtime(folder: str) -> int | None:
    try:
        return os.lstat(folder).st_mtime_ns
    except OSError:
        return None


def _listing(folder: str) -> tuple[int | None, frozenset[str]]:
    """A folder's ``mtime`` and the names in it that can change a store: folders,
    files memlint reads, configuration and ignore files."""
    mtime = _mtime(folder)
    try:
        with os.scandir(folder) as entries:
            names = frozenset(
                entry.name + _kind(entry)  # a link or a folder swapped in changes it
                for entry in entries
                if entry.name.endswith(TRACKED)
                or entry.name in WATCHED_NAMES
                or entry.is_dir(follow_symlinks=False)
            )
    except OSError:
        return None, frozenset()
    return mtime, names


def _kind(entry: os.DirEntry) -> str:
    if entry.is_symlink():
        return "@"
    return "/" if entry.is_dir(follow_symlinks=False) else ""


def _source_of(old: SourceFile, text: str, settings: Settings) -> SourceFile | None:
    """The file ``old`` read as ``text`` (``None`` when that cannot be read)."""
    from memlint.discovery import source_from_bytes

    data = text.encode("utf-8", "surrogatepass")
    source = source_from_bytes(old.path, old.rel, old.display, data, settings.max_file_size)
    return source if source.readable else None


def _edit_index(store: Store, source: SourceFile, settings: Settings) -> set[str] | None:
    """Put the index read from ``source`` in place in ``store`` (nothing else is read or
    parsed again) and return the files whose findings it can change: the index, the
    memories not indexed before or after (IX002 reports them, its fix points into the
    index) and those the index's wikilinks reach before or after (a rename fix edits
    them); ``None`` when that may be every file (the profile changed)."""
    from memlint.detect import detect_profile
    from memlint.parse import load_index

    old = store.index
    assert old is not None
    scope = {old.file.path} | _index_ties(store)
    profile = _profile(store)
    at_file = {s.path: i for i, s in enumerate(store.files)}
    store.files[at_file[old.file.path]] = source
    store.index = load_index(source)
    store.memo = None
    _forget_tables(store, [name for name in vars(store) if name not in NAME_TABLES - INDEX_TABLES])
    config = next((s for s in settings.stores if os.path.normpath(s.path) == store.root), None)
    store.profile, store.profile_reason, store.profile_guess = detect_profile(store, config)
    if _profile(store) != profile:
        return None
    return scope | _index_ties(store)


def _index_ties(store: Store) -> set[str]:
    """The memories the index does not index and those its wikilinks reach."""
    from memlint.sources.markdown import scan_wikilinks

    indexed = store.indexed_memories
    found = {m.file.path for m in store.memories if id(m) not in indexed}
    index = store.index
    if index is not None and "[[" in (index.file.text or ""):
        for link in scan_wikilinks(index.file.text or "", index.body_start):
            found.update(m.file.path for m in store.resolve(link.target).memories)
    return found


# The derived tables of a Store that read of its memories only what ``_same_tables``
# compares (names, descriptions, stems, paths, the index): they hold across an edit
# in place. ``_linkers`` also reads the link targets. Any other table is built again.
NAME_TABLES = frozenset(
    (
        "by_name",
        "by_stem",
        "by_folded_name",
        "other_rels",
        "by_rel",
        "by_folded_rel",
        "_index_targets",
        "indexed_memories",
        "_unlinked",
        "_resolved",
        "chain_ends",
        "_index_links",
    )
)
INDEX_TABLES = frozenset(("_index_targets", "indexed_memories", "_unlinked", "_index_links"))


def _reloaded(store: Store, texts: dict[str, str], settings: Settings, ties: Ties):
    """``(memory, memory read from its text)`` for each path of ``texts``; ``None`` when
    one is not a memory of ``store`` or its text cannot be read as one."""
    from memlint.discovery import source_from_bytes
    from memlint.parse import load_memory

    pairs = []
    for path, text in texts.items():
        old = ties.memory_at(store, path)
        if old is None:
            return None
        data = text.encode("utf-8", "surrogatepass")
        source = source_from_bytes(
            path, old.file.rel, old.file.display, data, settings.max_file_size
        )
        if not source.readable:
            return None
        pairs.append((old, load_memory(source, fingerprint=False)))
    return pairs


def _same_tables(old: Memory, new: Memory) -> bool:
    """Whether the store's name tables and profile hold with ``new`` in place of ``old``."""
    same = index_facts(old) == index_facts(new) and old.stem == new.stem
    return same and old.has_frontmatter == new.has_frontmatter and _same_signals_of(old, new)


def _same_signals_of(old: Memory, new: Memory) -> bool:
    alone = Store(root=os.path.dirname(old.file.path), display_root="", reason="")
    return _same_signals(alone, old, new)


def _edit_in_place(store: Store, pairs: list[tuple[Memory, Memory]]) -> None:
    """Each old memory of ``store`` becomes its new reading (the same object, so the
    tables that hold it stay true), its file replaced; tables that may not hold are
    dropped, to be built again on first use."""
    keep = set(NAME_TABLES)
    for old, new in pairs:
        if list(old.link_targets) != list(new.link_targets):
            keep.discard("_linkers")
        else:
            keep.add("_linkers")
        store.files[store.files.index(old.file)] = new.file
        for slot in Memory.__slots__:
            setattr(old, slot, getattr(new, slot))
    store.memo = None
    _forget_tables(store, [name for name in vars(store) if name not in keep])


def _forget_tables(store: Store, names) -> None:
    from functools import cached_property

    for name in list(names):
        if isinstance(getattr(type(store), name, None), cached_property):
            vars(store).pop(name, None)


def _profile(store: Store) -> tuple[str, str, str]:
    return store.profile, store.profile_reason, store.profile_guess


def edited_store(store: Store, texts: dict[str, str], settings: Settings) -> Store | None:
    """``store`` with the memories at the paths of ``texts`` read as that text; every
    other file and memory is shared, not read or parsed again. ``None`` when a path is
    not a memory of the store or its text cannot be read as one."""
    from memlint.detect import detect_profile
    from memlint.discovery import source_from_bytes
    from memlint.parse import load_memory

    files = list(store.files)
    memories = list(store.memories)
    at_file = {source.path: i for i, source in enumerate(files)}
    at_memory = {memory.file.path: i for i, memory in enumerate(memories)}
    same_signals = True
    for path, text in texts.items():
        if path not in at_memory:
            return None
        old = files[at_file[path]]
        data = text.encode("utf-8", "surrogatepass")
        source = source_from_bytes(path, old.rel, old.display, data, settings.max_file_size)
        if not source.readable:
            return None
        files[at_file[path]] = source
        memory = load_memory(source, fingerprint=False)
        same_signals = same_signals and _same_signals(store, memories[at_memory[path]], memory)
        memories[at_memory[path]] = memory
    edited = replace(store, files=files, memo=None, report=None)
    edited.memories = memories
    edited.index = store.index
    if not same_signals:
        config = next((s for s in settings.stores if os.path.normpath(s.path) == store.root), None)
        edited.profile, edited.profile_reason, edited.profile_guess = detect_profile(edited, config)
    return edited


def _same_signals(store: Store, old: Memory, new: Memory) -> bool:
    """Whether two memories count alike in profile detection, which decides on sums
    over the memories: the edited store's profile is then the store's."""
    from memlint.detect import store_signals

    def signals(memory: Memory, bodies: bool):
        alone = Store(root=store.root, display_root=store.display_root, reason=store.reason)
        alone.memories = [memory]
        return store_signals(alone, bodies)

    if (old.supersession is None) != (new.supersession is None):
        return False
    return all(signals(old, bodies) == signals(new, bodies) for bodies in (False, True))


# -- the store graph --------------------------------------------------------------


def memory_at(store: Store, path: str) -> Memory | None:
    return next((m for m in store.memories if m.file.path == path), None)


def _link_targets(memory: Memory) -> set[str]:
    """Known without parsing the memory (its summary holds them)."""
    targets = {fold(target) for target in memory.link_targets}
    if memory.successor_target is not None:
        targets.add(fold(memory.successor_target))
    return targets


def dependents(result: LintResult, path: str) -> set[str]:
    """Files whose findings may change when ``path`` changes: see :func:`involved`;
    a change to anything but a memory (the index, a note store) affects every file."""
    found = involved(result.store, path)
    return set(result.sources) if found is None else found


def involved(store: Store, path: str, near_duplicates: bool = False) -> set[str] | None:
    """The files a cross-file rule can tie to the memory at ``path``: the index, the
    memories that link to it, name it as successor or share a name or stem with it,
    and the memories it links to or supersedes into; with ``near_duplicates`` (DU001
    runs), the memories whose fingerprints may pair with its own. ``None`` when
    ``path`` is not a memory of ``store``."""
    memory = memory_at(store, path)
    if memory is None:
        return None
    found = {store.index.file.path} if store.index is not None else set()
    if near_duplicates:
        from memlint.similarity import band_partners

        signatures = [other.fingerprint[1] for other in store.memories]
        mine = store.memories.index(memory)
        found.update(store.memories[i].file.path for i in band_partners(signatures, mine))
    keys, targets = memory_keys(memory), _link_targets(memory)
    for other in store.memories:
        if other is memory:
            continue
        theirs = memory_keys(other)
        if keys & theirs or keys & _link_targets(other) or targets & theirs:
            found.add(other.file.path)
    return found


# -- navigation --------------------------------------------------------------------


@dataclass(frozen=True)
class LinkSpan:
    """A link in a file at text offsets ``start``..``end`` and what it points to;
    ``name_start``..``name_end`` is the part naming the target (what a rename rewrites)."""

    start: int
    end: int
    target: str  # as written
    memory: Memory | None = None
    path: str | None = None  # the file linked (a memory's, or another file of the store)
    name_start: int = 0
    name_end: int = 0


def links_in(result: LintResult, path: str) -> list[LinkSpan]:
    """Every wikilink, supersession link and index link of the file at ``path``."""
    from memlint.sources.markdown import scan_wikilinks

    store = result.store
    found: list[LinkSpan] = []
    memory = memory_at(store, path)
    if memory is not None:
        links = list(memory.links)
        if memory.supersession is not None:
            links.append(memory.supersession.link)
        found.extend(_wikilink_span(store, link) for link in links)
    index = store.index
    if index is not None and index.file.path == path:
        for entry in index.entries:
            resolution = store.index_target(entry)
            target = resolution.memory
            file_path = target.file.path if target is not None else None
            if file_path is None and resolution.kind == "file" and resolution.rel:
                file_path = os.path.join(store.root, *resolution.rel.split("/"))
            found.append(
                LinkSpan(
                    entry.href_start,
                    entry.href_end,
                    entry.href,
                    target,
                    file_path,
                    entry.href_start,
                    entry.href_end,
                )
            )
        text = index.file.text or ""
        found.extend(_wikilink_span(store, link) for link in scan_wikilinks(text, index.body_start))
    found.sort(key=lambda span: span.start)
    return found


def _wikilink_span(store: Store, link) -> LinkSpan:
    from memlint.rules.lk.resolve import resolve

    resolution = resolve(store, link.target)
    target = resolution.memories[0] if len(resolution.memories) == 1 else None
    path = target.file.path if target is not None else None
    return LinkSpan(
        link.start, link.end, link.target, target, path, link.target_start, link.target_end
    )


def link_at(result: LintResult, path: str, offset: int) -> LinkSpan | None:
    return next((s for s in links_in(result, path) if s.start <= offset <= s.end), None)


def memory_hover(memory: Memory) -> str:
    """What hovering a link to ``memory`` shows (masked by the caller)."""
    title = memory.name.strip() if memory.name else memory.stem
    lines = [f"**{title}** (`{memory.file.rel}`)"]
    if memory.description:
        lines += ["", memory.description.strip()]
    if memory.memory_type:
        lines += ["", f"type: {memory.memory_type}"]
    return "\n".join(lines)


def completion_names(store: Store) -> list[tuple[str, str]]:
    """``(name, description)`` of every memory, for completion inside ``[[``."""
    seen: dict[str, str] = {}
    for memory in store.memories:
        name = memory.name.strip() if memory.name else memory.stem
        if name and name not in seen:
            seen[name] = (memory.description or "").strip()
    return sorted(seen.items())


def code_at(result: LintResult, path: str, offset: int) -> str | None:
    """The rule code (or prefix) under ``offset`` in a suppression comment."""
    from memlint.sources.frontmatter import parse_frontmatter
    from memlint.suppression import CODE_SEPARATOR, parse_directives

    source = result.sources.get(path)
    if source is None or source.text is None:
        return None
    frontmatter = parse_frontmatter(source.text)
    for directive in parse_directives(source, frontmatter.end if frontmatter else 0):
        start = directive.codes_start
        inside = source.text[start : source.text.find("]", start)]
        position = 0
        for part in CODE_SEPARATOR.split(inside):
            at = inside.find(part, position)
            position = at + len(part)
            if part and start + at <= offset <= start + position:
                return part
    return None


def rename_span(result: LintResult, path: str, offset: int) -> tuple[Memory, int, int] | None:
    """The memory a rename at ``offset`` renames and the span of text there that names
    it: a link's target, or this memory's ``name:`` value when ``offset`` is on that line."""
    span = link_at(result, path, offset)
    if span is not None:
        return (span.memory, span.name_start, span.name_end) if span.memory else None
    memory = memory_at(result.store, path)
    if memory is None or memory.frontmatter is None:
        return None
    found = memory.frontmatter.fields.get("name")
    if found is not None and found.key_start <= offset <= found.value_end:
        return memory, found.value_start, found.value_end
    return None


def is_index(path: str) -> bool:
    return os.path.basename(path) == INDEX_NAME


# -- inline suppressions ---------------------------------------------------------------


def suppression_edit(text: str, diagnostic: Diagnostic) -> tuple[int, int, str] | None:
    """An insertion ``(start, end, text)`` that makes an inline comment suppress
    ``diagnostic`` (trailing on its line, else on its own line above, else for the file),
    checked by parsing the result as memlint will; ``None`` when none works."""
    from memlint.sources.document import SourceFile
    from memlint.sources.frontmatter import parse_frontmatter
    from memlint.suppression import UNSUPPRESSIBLE, UNUSED_SUPPRESSION, parse_directives

    code = diagnostic.code
    if code in UNSUPPRESSIBLE or code == UNUSED_SUPPRESSION:
        return None
    if not diagnostic.path.endswith(SUPPRESSIBLE_SUFFIXES):
        return None
    probe = SourceFile(diagnostic.path, "", "", text=text)
    line = diagnostic.range.start.line
    starts = probe.line_starts
    if line > len(starts):
        return None
    start, end = probe.line_span(line)
    newline = "\r\n" if text[end : end + 2] == "\r\n" else "\n"
    frontmatter = parse_frontmatter(text)
    body = frontmatter.end if frontmatter is not None else 0
    candidates = []
    if start >= body and text[start:end].strip():
        candidates.append((end, end, f" <!-- memlint: ignore[{code}] -->"))
        candidates.append((start, start, f"<!-- memlint: ignore[{code}] -->{newline}"))
    at_body = body
    lead = "" if at_body == 0 or text[at_body - 1 : at_body] == "\n" else newline
    candidates.append((at_body, at_body, f"{lead}<!-- memlint: file-ignore[{code}] -->{newline}"))
    for cut, cut_end, insert in candidates:
        changed = text[:cut] + insert + text[cut_end:]
        shift = len(insert) if cut <= start else 0
        moved = SourceFile(diagnostic.path, "", "", text=changed)
        fm = parse_frontmatter(changed)
        target_line = moved.position(start + shift).line
        for directive in parse_directives(moved, fm.end if fm is not None else 0):
            probe_diag = _at_line(diagnostic, target_line)
            if directive.covers(probe_diag):
                return cut, cut_end, insert
    return None


def _at_line(diagnostic: Diagnostic, line: int) -> Diagnostic:
    from memlint.diagnostics import Position, Range

    return replace(diagnostic, range=Range(Position(line, 1), Position(line, 1)))
