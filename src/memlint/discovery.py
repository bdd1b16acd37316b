"""Find stores under the given paths and load each one whole.

One function, :meth:`Discovery.store_of`, decides which store a folder (and so
a file, a deleted path or stdin) belongs to; a directory walk finds the same
stores top-down. A store root is, in this order:

- a folder holding ``MEMORY.md`` or configured in ``[[stores]]`` (the nearest
  one above a file wins, so nested stores are separate). When that index links
  only into one subfolder (``- [X](memory/x.md)``), the store's memories are
  that subfolder's files: the index's other neighbours (README, docs) are not;
- else the outermost folder without an index that holds memory files: a
  ``memory/``, ``memories/`` or ``.claude/agent-memory/<agent>/`` folder whose
  Markdown has frontmatter, or any folder where most Markdown files carry
  memory frontmatter (``description`` and a memory ``type``).

Folders matched by ``exclude``/``extend-exclude`` (of the nearest config file above them)
or ignored by git are passed over, and so are paths named on the command line
with ``force-exclude``. The walk uses ``lstat`` information only and never
follows a symlink. When individual files are given (as pre-commit does), their
whole store is still loaded for resolution, and only those files are reported on.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import time
from operator import attrgetter

from memlint.config import Settings
from memlint.detect import TYPE_LINE, detect_profile, is_note_store, note_sample, read_head
from memlint.records import dataclass, field
from memlint.selection import is_selected
from memlint.sources.document import (
    Known,
    ReadProblem,
    SourceFile,
    decode_into,
    read_into,
    read_source,
)
from memlint.store import Skipped, Store
from memlint.suppression import DIRECTIVE_MARK
from memlint.treenames import INDEX_NAME, SKIP_DIRS, info_exclude

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from pathspec import GitIgnoreSpec

    from memlint.cache import CacheSet, StoreCache

NEAR_DUPLICATE = "DU001"
NOT_CHECKED = ": not checked ("  # the notice of a named file its store does not hold
LAYOUT_NAMES = frozenset({"memory", "memories"})
INDEX_HEAD_BYTES = 64 * 1024
INDEX_LINK = re.compile(r"\]\(<?([^()<>\s]+?\.md)(?:#[^()\s]*)?>?\)")
_REL = attrgetter("rel")
FRONTMATTER_KEY = re.compile(r"^(?:name|description):", re.M)


class UsageError(Exception):
    """A path given on the command line cannot be used (exit status 2)."""


@dataclass(frozen=True, slots=True)
class Root:
    """A store root, why it is one, and the subfolder holding its memories when its
    ``MEMORY.md`` indexes a folder one level down (``None``: the root itself); such a
    store holds that subfolder, the index and the JSONL files beside it."""

    path: str
    reason: str
    content: str | None = None
    indexed: bool = True  # False: a folder of memory files without an index

    def holds(self, path: str) -> bool:
        """Whether ``path`` (below the root) can be one of the store's files."""
        if self.content is None or path.startswith(self.content + os.sep):
            return True
        beside = os.path.dirname(path) == self.path
        return beside and (os.path.basename(path) == INDEX_NAME or path.endswith(".jsonl"))


@dataclass(slots=True)
class _Plan:
    root: str
    reason: str
    explicit: bool
    report: set[str] | None = field(default_factory=set)
    content: str | None = None
    indexed: bool = True

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
        settings_for=None,
        contents: dict[str, bytes] | None = None,
        early=None,
    ) -> None:
        self.settings = settings
        # ``early(store, settings, guess)``: the one-file rules run while a pool parses
        # (``engine.EarlyLocal``); memory files are then not kept in this process
        self.early = early
        self.settings_for = settings_for  # folder -> its settings (nested config files)
        self.cwd = cwd
        self.caches = caches
        self.jobs = jobs
        self.keep_raw = keep_raw
        self.plans: dict[str, _Plan] = {}
        self.loose_notes: dict[str, set[str] | None] = {}
        self.configured = {os.path.normpath(s.path): s for s in settings.stores}
        # absolute path -> the bytes read instead of the disk (stdin, a fix round, an
        # editor's buffer, an agent's draft): the one way content not on disk comes in,
        # given here or by ``add_override``; it may be a file that does not exist
        self.overrides: dict[str, bytes] = {} if contents is None else contents
        self.started_ns = time.time_ns()
        self.pruner = Pruner(settings, settings_for)
        self.notices: list[str] = []  # what was passed over and why (``--show-files``)
        self._strong: dict[str, Root | None] = {}
        self._weak: dict[str, str | None] = {}
        self._tops = GitIgnore()  # for the work tree's top only
        self._caps: dict[str, int] = {}  # store root -> its size cap, when not the run's

    def add_override(self, raw: str, data: bytes) -> None:
        """Lint ``data`` as the content of file ``raw`` (stdin), on disk or not."""
        path = os.path.normpath(os.path.join(self.cwd, raw))
        self.overrides[path] = data
        if not self._through_link(path):
            self._add_file(path, named=True)

    def display(self, path: str) -> str:
        """``path`` relative to the working directory when below it (sliced, not relpath)."""
        prefix = self.cwd.rstrip(os.sep) + os.sep
        rel = path[len(prefix) :] if path.startswith(prefix) else path
        return rel.replace(os.sep, "/")

    def notice(self, text: str) -> None:
        if text not in self.notices:
            self.notices.append(text)

    # -- deciding stores ---------------------------------------------------------

    def strong_root(self, directory: str) -> Root | None:
        """``directory`` as a store root by its own index or by config, else ``None``."""
        if directory in self._strong:
            return self._strong[directory]
        found = None
        if directory in self.configured:
            found = Root(directory, "configured in [[stores]]")
        elif os.path.lexists(os.path.join(directory, INDEX_NAME)):
            content = _indexed_subfolder(directory)
            if content is None:
                found = Root(directory, f"has {INDEX_NAME}")
            else:
                sub = os.path.basename(content)
                found = Root(
                    directory,
                    f"has {INDEX_NAME}, which indexes the memory files in {sub}/",
                    content,
                )
        self._strong[directory] = found
        return found

    def weak_reason(self, directory: str) -> str | None:
        """Why ``directory``, which has no index, holds memory files (else ``None``)."""
        if directory not in self._weak:
            settings = self.settings_for(directory) if self.settings_for else self.settings
            self._weak[directory] = _memory_folder_reason(directory, settings)
        return self._weak[directory]

    def store_of(self, directory: str) -> Root | None:
        """The store that ``directory`` (or a file in it) belongs to: the nearest folder at
        or above it with an index (or in ``[[stores]]``), else the outermost folder above it
        that holds memory files without an index (within the git work tree, when there is
        one). Files beside an index that indexes a subfolder (README, docs/) belong to no
        store of that index."""
        chain = []
        current = directory
        while True:
            chain.append(current)
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        limit = len(chain)  # weak roots are looked for below the nearest strong root
        for position, folder in enumerate(chain):
            root = self.strong_root(folder)
            if root is None:
                continue
            if root.content is None or folder == directory:
                return root
            inside = directory == root.content or directory.startswith(root.content + os.sep)
            if inside:
                return root
            limit = position
            break
        top = self._tops.top(directory)
        if top is not None and top in chain[:limit]:  # not above the git work tree
            limit = chain.index(top) + 1
        for folder in reversed(chain[:limit]):
            reason = self.weak_reason(folder)
            if reason is not None:
                return Root(folder, reason, indexed=False)
        return None

    def add_path(self, raw: str) -> None:
        path = os.path.normpath(os.path.join(self.cwd, raw))
        try:
            st = os.lstat(path)
        except (OSError, ValueError) as exc:
            raise UsageError(f"{raw}: {getattr(exc, 'strerror', None) or exc}") from None
        if self._through_link(path):
            return
        if self.settings.force_exclude:
            why = self.pruner.why(path, stat.S_ISDIR(st.st_mode), self._named_chain(path))
            if why is not None:
                self.notice(f"{self.display(path)}: skipped ({why}; force-exclude)")
                return
        if stat.S_ISDIR(st.st_mode):
            self._add_directory(path)
        else:
            self._add_file(path, named=True)

    def add_touched(self, path: str) -> None:
        """A path a change touched (staged: added, edited or deleted): its store, if any,
        is checked whole, since an edit or a deletion can break other files (the index,
        links to it). A deleted path belongs to the store its folder (or the nearest
        folder above that still exists) belongs to."""
        directory = os.path.dirname(path)
        while not os.path.isdir(directory) and os.path.dirname(directory) != directory:
            directory = os.path.dirname(directory)
        exists = os.path.lexists(path)
        if self._through_link(path):
            return
        why = self.pruner.why(path, os.path.isdir(path), self._named_chain(path))
        if why is not None:  # a change is not a path the user named: excludes apply
            self.notice(f"{self.display(path)}: skipped ({why})")
            return
        root = self.store_of(directory)
        if root is not None and root.holds(path):
            self._plan(root).report_all()
        elif exists:
            self._add_file(path, named=True)

    def add_store(self, root: Root, report: set[str] | None) -> None:
        """Check the store at ``root``, reporting on the paths in ``report`` (files, or
        folders for what is below them) or, when ``None``, on all of it."""
        self._plan(root).report = report

    def _through_link(self, path: str) -> bool:
        """Whether ``path`` is reached through a symlinked folder below the working
        directory (never followed: the path is passed over, with a notice)."""
        if not path.startswith(self.cwd.rstrip(os.sep) + os.sep):
            return False
        for folder in self._named_chain(path):
            if folder != self.cwd and os.path.islink(folder):
                shown = self.display(folder)
                self.notice(
                    f"{self.display(path)}: skipped (reached through {shown}, a symlink, "
                    "which memlint never follows)"
                )
                return True
        return False

    def _named_chain(self, path: str) -> list[str]:
        """The folders from the working directory (or the root) down to ``path``."""
        chain = []
        current = os.path.dirname(path)
        while True:
            chain.append(current)
            if current == self.cwd:
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        return chain[::-1]

    def _plan(self, root: Root, explicit: bool = False) -> _Plan:
        plan = self.plans.get(root.path)
        if plan is None:
            plan = self.plans[root.path] = _Plan(
                root.path, root.reason, explicit, content=root.content, indexed=root.indexed
            )
        return plan

    def _add_directory(self, path: str) -> None:
        root = self.store_of(path)
        if root is not None and root.holds(path + os.sep):
            plan = self._plan(root)
            if root.path == path:
                plan.report_all()
            else:
                plan.add_report(path)
            nested, _ = self._scan_for_roots(path, claimed="index")
            for found in nested:  # stores with their own index below: separate, as from above
                if found.path != root.path:
                    self._plan(found).report_all()
            return
        roots, notes = self._scan_for_roots(path)
        for found in roots:
            self._plan(found).report_all()
        for note in notes:
            if not any(
                note.startswith(found.path + os.sep) and found.holds(note) for found in roots
            ):
                self.loose_notes[note] = None

    def _add_file(self, path: str, named: bool = False) -> None:
        root = self.store_of(os.path.dirname(path))
        if root is not None and root.holds(path):
            self._plan(root).add_report(path)
        elif path.endswith(".jsonl"):
            self.loose_notes[path] = None
        elif named and path.endswith(".md"):
            why = (
                f"beside {INDEX_NAME} of {self.display(root.path) or '.'}, which indexes only "
                f"{self.display(root.content)}/"
                if root is not None and root.content is not None
                else "no folder above it holds MEMORY.md or memory files"
            )
            self.notice(f"{self.display(path)}: not in a store ({why})")

    def _note_beside(self, root: Root, content: str, entries: list[os.DirEntry]) -> None:
        """Say which Markdown files and folders beside an index of a subfolder are not
        the store's (``--show-files``)."""
        beside = sorted(
            entry.name + ("/" if entry.is_dir(follow_symlinks=False) else "")
            for entry in entries
            if entry.path != content
            and entry.name != INDEX_NAME
            and not entry.name.startswith(".")
            and entry.name not in SKIP_DIRS
            and (entry.name.endswith(".md") or entry.is_dir(follow_symlinks=False))
        )
        if beside:
            shown = ", ".join(beside[:8]) + (", …" if len(beside) > 8 else "")
            sub = os.path.basename(content)
            self.notice(
                f"{'.' if root.path == self.cwd else self.display(root.path)}: "
                f"{INDEX_NAME} indexes {sub}/ only; "
                f"not the store's: {shown}"
            )

    def _scan_for_roots(self, top: str, claimed: str | None = None) -> tuple[list[Root], list[str]]:
        """Store roots and JSONL files under ``top``, walking top-down: the same roots
        :meth:`store_of` finds bottom-up. ``claimed`` says what ``top`` already belongs to."""
        roots: list[Root] = []
        notes: list[str] = []
        # (directory, what claims it: "index" a store with an index above it, "folder" a
        # store without one, which does not reach into another git work tree, or None)
        stack: list[tuple[str, str | None]] = [(top, claimed)]
        while stack:
            directory, claimed = stack.pop()
            if claimed == "folder" and os.path.lexists(os.path.join(directory, ".git")):
                claimed = None
            root = self.strong_root(directory)
            if root is not None:
                roots.append(root)
                claimed = "index"
            elif claimed is None:
                reason = self.weak_reason(directory)
                if reason is not None:
                    roots.append(Root(directory, reason, indexed=False))
                    claimed = "folder"
            entries = _scandir(directory)
            if root is not None and root.content is not None:
                self._note_beside(root, root.content, entries)
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name in SKIP_DIRS:
                        continue
                    why = self.pruner.why(entry.path, True)
                    if why is not None:
                        self.notice(f"{self.display(entry.path)}/: skipped ({why})")
                        continue
                    inside = root is None or root.content in (None, entry.path)
                    stack.append((entry.path, claimed if inside else None))
                elif (
                    entry.name.endswith(".jsonl")
                    and entry.is_file(follow_symlinks=False)
                    and self.pruner.why(entry.path, False) is None
                ):
                    notes.append(entry.path)
        roots.sort(key=lambda r: r.path)
        return roots, sorted(notes)

    # -- loading ---------------------------------------------------------------

    def load(self) -> list[Store]:
        return list(self.each_store())

    def each_store(self) -> Iterator[Store]:
        """The stores, each loaded when the one before was taken (root order, then the
        folders of loose note stores): a run may drop a store before the next loads."""
        roots = set(self.plans)
        for root in sorted(self.plans):
            yield self._load_store(self.plans[root], roots)
        yield from self._load_loose_notes()

    def _load_store(self, plan: _Plan, roots: set[str]) -> Store:
        config = self.configured.get(plan.root)
        store = Store(
            root=plan.root,
            display_root=self.display(plan.root) or ".",
            reason=plan.reason,
            report=plan.report,
            local_only=bool(config and config.local_only),
        )
        settings = self._settings_of(plan.root)
        if settings is not self.settings:
            store.settings = settings
            self._caps[plan.root] = settings.max_file_size  # the store's, not the cwd's
            excluded = _Excludes(set(settings.exclude) | set(settings.extend_exclude))
        else:
            excluded = self.pruner.excludes
        cache = None
        if self.caches is not None:  # (so a run without the cache does not import it)
            from memlint.cache import config_key

            cache = self.caches.for_store(plan.root, config_key(settings, self.cwd))
        pruner = self.pruner
        memory_sources: list[SourceFile] = []
        released = 0  # memory sources whose text was dropped (read again on use)
        release_at = self._release_at()
        root_prefix = plan.root + os.sep
        # (directory, its store-relative prefix, its display prefix): no per-file slicing
        stack = [(plan.root, "", self.display(root_prefix))]
        while stack:
            directory, rel_dir, display_dir = stack.pop()
            at_root = directory == plan.root
            entries = _listing(directory)
            if not at_root and _is_store_root(directory, entries, self.configured):
                continue  # a nested store: its own, planned or not (a file named alone)
            if entries is None and rel_dir:  # memories under it would look missing (IX003)
                unlistable = Skipped(directory, display_dir, "unlistable", "cannot be listed")
                store.skipped.append(unlistable)
            if cache is not None and entries and not (at_root and plan.content is not None):
                unreleased = released == len(memory_sources)
                entries = self._known_memories(
                    entries, directory, rel_dir, display_dir, excluded, cache, memory_sources
                )
                if unreleased:  # (the files it adds are not read: nothing to release)
                    released = len(memory_sources)
            for entry in entries or []:
                name = entry.name
                if (
                    at_root
                    and plan.content is not None
                    and name != INDEX_NAME
                    and not name.endswith(".jsonl")
                    and entry.path != plan.content
                ):
                    continue  # beside an index of a subfolder: not the store's
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
                    if name.startswith(".") or pruner.why(path, True) is not None:
                        continue
                    if not plan.indexed and os.path.lexists(os.path.join(path, ".git")):
                        continue  # another work tree: not part of a store without an index
                    stack.append((path, rel + "/", display_dir + name + "/"))
                    continue
                if not name.endswith((".md", ".jsonl")):
                    continue
                path, display = entry.path, display_dir + name
                if not entry.is_file(follow_symlinks=False):
                    store.skipped.append(Skipped(path, display, "special", _special_kind(path)))
                    continue
                if name.endswith(".jsonl"):
                    if pruner.why(path, False) is not None:
                        store.excluded.append(rel)
                    elif path in settings.notes or is_note_store(path):  # the store's own
                        store.notes.append(self._read(path, rel, display))
                    else:  # another schema: its bytes are still checked (privacy, encoding)
                        store.files.append(self._read(path, rel, display))
                        store.other_jsonl.append((display, _why_not_notes(path)))
                    continue
                if rel == INDEX_NAME:
                    source = self._read(path, rel, display)
                    store.files.append(source)
                    _defer_index(store, source, cache)
                    continue
                if name.startswith(".") or excluded.match(rel, name):
                    store.excluded.append(rel)
                    continue
                if pruner.why_in(directory, name, path) is not None:
                    store.excluded.append(rel)
                    continue
                if release_at is not None and cache is None and path not in self.overrides:
                    # read by the pool's workers (or below, when too few for one)
                    memory_sources.append(
                        SourceFile.deferred(path, rel, display, None, self._read_again)
                    )
                    continue
                memory_sources.append(self._read_memory(entry, rel, display, cache))
                if release_at is not None and len(memory_sources) >= release_at:
                    for source in memory_sources[released:]:
                        self._release(source, cache)
                    released = len(memory_sources)
        if release_at is not None and cache is None and len(memory_sources) < release_at:
            memory_sources = [self._read_now(source) for source in memory_sources]
        walked = {s.path for s in memory_sources}
        walked.update(s.path for s in store.files)
        walked.update(s.path for s in store.notes)
        in_memory = (p for p in self.overrides if p.startswith(root_prefix) and p not in walked)
        for path in sorted(in_memory):  # in-memory files that are not on disk
            found = self.store_of(os.path.dirname(path))
            if os.path.lexists(path) or found is None or found.path != plan.root:
                continue
            if not found.holds(path):
                continue
            rel = path[len(root_prefix) :].replace(os.sep, "/")
            if path.endswith(".md") and rel != INDEX_NAME and self._left_out(path, plan.root):
                store.excluded.append(rel)
                continue
            source = self._read(path, rel, self.display(path))
            if rel == INDEX_NAME:
                store.files.append(source)
                _defer_index(store, source, cache)
            elif path.endswith(".jsonl"):
                store.notes.append(source)
            elif path.endswith(".md"):
                memory_sources.append(source)
        for path in sorted(plan.report or ()):  # named, yet not one of the store's files
            if path not in walked and path not in self.overrides and os.path.isfile(path):
                why = self._left_out(path, plan.root) or "not one of its files"
                self.notice(f"{self.display(path)}{NOT_CHECKED}{why}; a store decides its files)")
        memory_sources.sort(key=_REL)
        store.files.extend(memory_sources)
        store.files.sort(key=_REL)
        store.notes.sort(key=_REL)
        store.skipped.sort(key=lambda s: s.path)
        store.excluded.sort()
        store.index_entry = next(
            (s for s in store.skipped if s.path == os.path.join(plan.root, INDEX_NAME)), None
        )
        readable = [source for source in memory_sources if source.readable]

        def parse_memories(early=None):
            from memlint.parse import load_memories  # not imported on a memo hit

            fingerprints = _runs_near_duplicates(settings)
            return load_memories(readable, cache, self.jobs, fingerprints, early)

        memo = cache.memo(store) if cache is not None else None
        if memo is not None:
            store.profile, store.profile_reason, store.memo = memo.profile, memo.reason, memo
            store.profile_guess = memo.guess
            store.defer_memories(parse_memories)
            return store
        early = None
        if self.early is not None and release_at is not None:

            def guess(sample: list) -> str:
                probe = Store(store.root, store.display_root, store.reason, notes=store.notes)
                probe.index, probe.memories = store.index, sample
                return detect_profile(probe, config).profile

            early = self.early(store, settings, guess)
        store.memories = parse_memories(early)
        if early is not None and early.found:
            store.early = early
        store.profile, store.profile_reason, store.profile_guess = detect_profile(store, config)
        return store

    def _left_out(self, path: str, root: str) -> str | None:
        """Why the walk of the store at ``root`` passes over the file ``path``, if it does
        (a named file is checked only if it is one of the store's files: one store model)."""
        below = self._named_chain(path)
        chain = [folder for folder in below if folder.startswith(root + os.sep)]
        for folder in chain:
            if os.path.basename(folder).startswith("."):
                return f"in {os.path.basename(folder)}/, a hidden folder"
        if os.path.basename(path).startswith("."):
            return "a hidden file"
        return self.pruner.why(path, False, chain)

    def cap_of(self, path: str) -> int:
        """The size cap a file at ``path`` is read under: its store's (the config nearest
        the store's folder, not the file's), else its folder's."""
        root = self.store_of(os.path.dirname(path))
        return self._settings_of(
            root.path if root is not None else os.path.dirname(path)
        ).max_file_size

    def _settings_of(self, folder: str) -> Settings:
        """The settings of ``folder``: its nearest config file's, else the run's."""
        return self.settings_for(folder) if self.settings_for else self.settings

    def _load_loose_notes(self) -> list[Store]:
        by_dir: dict[str, list[str]] = {}
        for path in sorted(self.loose_notes):
            if path in self._settings_of(os.path.dirname(path)).notes or is_note_store(path):
                by_dir.setdefault(os.path.dirname(path), []).append(path)
            else:
                self.notice(
                    f"{self.display(path)}: not a note store ({_why_not_notes(path)}); "
                    "list it in `notes = [...]` to lint it as one"
                )
        stores = []
        for directory, paths in sorted(by_dir.items()):
            store = Store(
                root=directory,
                display_root=self.display(directory) or ".",
                reason="holds note stores",
                profile="notes",
                profile_reason="only JSONL note stores here",
            )
            settings = self._settings_of(directory)  # its folder's, as a store's own
            if settings is not self.settings:
                store.settings = settings
                self._caps[directory] = settings.max_file_size
            for path in paths:
                rel = os.path.basename(path)
                store.notes.append(self._read(path, rel, self.display(path)))
            stores.append(store)
        return stores

    def _known_memories(
        self,
        entries: list[os.DirEntry],
        directory: str,
        rel_dir: str,
        display_dir: str,
        excluded: _Excludes,
        cache: StoreCache,
        memory_sources: list[SourceFile],
    ) -> list[os.DirEntry]:
        """Take the memory files of ``directory`` (listed as ``entries``) whose names
        alone decide that they are the store's, in bulk: their ``lstat`` signatures are
        compared with the cache's in C-level passes, and each file it knows unchanged is
        added to ``memory_sources`` unread. Returns the entries left for the walk's checks
        one by one (folders, links, other files, names a pattern decides, overrides, and
        the files changed since the cache read them)."""
        names_out = self.pruner.plain_exclusions(directory)
        if names_out is None or not excluded.names_only:
            return entries
        names_out = names_out | excluded.exact
        plain, rest = [], []
        for entry in entries:
            name = entry.name
            if (
                name.endswith(".md")
                and entry.is_file(follow_symlinks=False)
                and name[0] != "."
                and name not in names_out
                and (rel_dir or name != INDEX_NAME)
            ):
                plain.append(entry)
            else:
                rest.append(entry)
        if self.overrides:
            rest += [entry for entry in plain if entry.path in self.overrides]
            plain = [entry for entry in plain if entry.path not in self.overrides]
        names = [entry.name for entry in plain]
        rels = list(map(rel_dir.__add__, names))
        known = cache.known_many(rels, plain)
        if known is None:
            return entries  # an lstat failed: file by file
        deferred = SourceFile.deferred
        read = self._read_deferred
        for entry, rel, name, found in zip(plain, rels, names, known, strict=True):
            if found is None:
                rest.append(entry)  # changed: read by the walk (which releases texts)
            else:
                memory_sources.append(deferred(entry.path, rel, display_dir + name, found, read))
        return rest

    def _read_memory(
        self, entry: os.DirEntry, rel: str, display: str, cache: StoreCache | None
    ) -> SourceFile:
        """A memory file, read now, or deferred when ``cache`` knows it unchanged."""
        path = entry.path
        sig = None
        if cache is not None and path not in self.overrides:
            from memlint.cache import signature

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

    def _read_now(self, source: SourceFile) -> SourceFile:
        """A memory file left for the pool's workers to read, read here (too few for a pool)."""
        if source.pending is None:
            return source
        read = self._read(source.path, source.rel, source.display)
        self._drop_raw(read)
        return read

    def _release_at(self) -> int | None:
        """How many memory files a store has when their text is no longer kept here:
        in lint mode, when a pool parses them (and runs the one-file rules)."""
        if self.keep_raw or self.early is None:
            return None
        from memlint.parallel import pool_threshold

        return pool_threshold(self.jobs)

    def _release(self, source: SourceFile, cache: StoreCache | None) -> None:
        """Drop the text of ``source``, read again (and checked unchanged) on use."""
        if source.pending is not None or source.path in self.overrides:
            return  # (not read yet: asking for its text would read it)
        text = source.text
        if text is None:
            return
        from memlint.cache import text_digest  # (here: a run without the cache imports none)

        digest = cache.digest(source) if cache is not None else text_digest(source)
        source.release(Known(digest, DIRECTIVE_MARK in text), self._read_again)

    def _cap(self, path: str, rel: str) -> int:
        """The size cap of the file ``path`` (``rel`` in its store): its store's."""
        return self._caps.get(path[: len(path) - len(rel) - 1], self.settings.max_file_size)

    def _read_again(self, source: SourceFile) -> None:
        """Read ``source`` again; bytes that changed since the first read are refused."""
        from memlint.cache import text_digest

        known = source.known
        read_into(source, self._cap(source.path, source.rel))
        if source.text is not None and known is not None and text_digest(source) != known.digest:
            source.text = None
            source.problem = ReadProblem("unreadable", "changed while memlint was checking it")
        self._drop_raw(source)

    def _read_deferred(self, source: SourceFile) -> None:
        read_into(source, self._cap(source.path, source.rel))
        self._drop_raw(source)

    def _drop_raw(self, source: SourceFile) -> None:
        if not self.keep_raw and source.text is not None:
            source.raw = b""  # lint mode: the text is all that is needed from here

    def _read(self, path: str, rel: str, display: str) -> SourceFile:
        data = self.overrides.get(path)
        if data is None:
            return read_source(path, rel, display, self._cap(path, rel))
        return source_from_bytes(path, rel, display, data, self._cap(path, rel))


def source_from_bytes(path: str, rel: str, display: str, data: bytes, max_size: int) -> SourceFile:
    """``data`` read as the file ``path`` (stdin, an editor's buffer), as a read would."""
    source = SourceFile(path=path, rel=rel, display=display)
    if len(data) > max_size:
        source.problem = ReadProblem("too-large", f"over the {max_size}-byte cap")
    else:
        decode_into(source, data)
    return source


def discover(paths: list[str], settings: Settings, *args, **options) -> list[Store]:
    """Stores for ``paths`` (default ``.``), each loaded whole; the other arguments are
    :func:`discover_each`'s.

    ``touched`` are paths a change added, edited or deleted (``--staged``): their
    stores are checked whole. ``notices`` receives what was passed over and why.
    ``settings_for`` gives the settings of a store's folder (its nearest config file)
    when they may differ from ``settings``, which decide what is walked.

    ``stdin`` is ``(filename, data)``: lint ``data`` as that file, reporting only it.
    Without ``keep_raw`` the bytes of decoded memory files are dropped once read
    (and hashed for the cache): linting needs only their text. ``early`` (see
    ``Discovery``) runs the one-file rules while a pool parses a large store.
    """
    return list(discover_each(paths, settings, *args, **options))


def discover_each(
    paths: list[str],
    settings: Settings,
    cwd: str | None = None,
    stdin: tuple[str, bytes] | None = None,
    caches: CacheSet | None = None,
    jobs: int | None = None,
    keep_raw: bool = True,
    touched: tuple[str, ...] = (),
    notices: list[str] | None = None,
    settings_for=None,
    early=None,
) -> Iterator[Store]:
    """The stores of :func:`discover`, each loaded when the one before was taken (paths
    are resolved first: ``UsageError`` is raised before any store loads); ``notices``
    is complete once every store was taken."""
    finder = Discovery(
        settings,
        os.path.abspath(cwd or os.getcwd()),
        caches,
        jobs,
        keep_raw,
        settings_for,
        early=early,
    )
    if stdin is not None:
        finder.add_override(*stdin)
    for raw in paths or ([] if stdin or touched else ["."]):
        finder.add_path(raw)
    for path in touched:
        finder.add_touched(os.path.normpath(os.path.join(finder.cwd, path)))
    return _stores_then_notices(finder, notices)


def _stores_then_notices(finder: Discovery, notices: list[str] | None) -> Iterator[Store]:
    yield from finder.each_store()
    if notices is not None:
        notices.extend(finder.notices)


def auto_memory_candidates(cwd: str) -> list[str]:
    """Where Claude Code keeps the auto memory of the project at ``cwd``:
    ``~/.claude/projects/<slug>/memory`` (``$CLAUDE_CONFIG_DIR`` replaces ``~/.claude``),
    where the slug is the project path with every character but ASCII letters and digits
    replaced by ``-``. The project is the git work tree holding ``cwd`` (its main work
    tree for a linked one), else ``cwd``; both are tried, in that order."""
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    projects = []
    top = _git_project(cwd)
    for project in (top, cwd):
        if project is not None and project not in projects:
            projects.append(project)
    return [
        os.path.join(base, "projects", re.sub(r"[^A-Za-z0-9]", "-", project), "memory")
        for project in projects
    ]


def _git_project(directory: str) -> str | None:
    """The work tree above ``directory`` (read from ``.git``, git is not run); for a
    linked work tree (``.git`` is a file naming ``…/.git/worktrees/<name>``), the main one."""
    current = directory
    while True:
        marker = os.path.join(current, ".git")
        if os.path.isdir(marker) and not os.path.islink(marker):
            return current
        if os.path.isfile(marker) and not os.path.islink(marker):
            text = read_head(marker, 4096).decode("utf-8", "replace").strip()
            gitdir = text[len("gitdir:") :].strip() if text.startswith("gitdir:") else ""
            gitdir = os.path.normpath(os.path.join(current, gitdir))
            head, sep, _ = gitdir.partition(os.sep + os.path.join(".git", "worktrees") + os.sep)
            return head if sep else current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _defer_index(store: Store, source: SourceFile, cache: StoreCache | None) -> None:
    """Parse ``MEMORY.md`` when first needed (a cached whole-store result never needs it),
    its entries from ``cache`` while it is unchanged."""
    if source.text is None:
        store.index = None
        return

    def load():
        from memlint.parse import load_index

        return load_index(source, cache)

    store.defer_index(load)


def _scandir(directory: str) -> list[os.DirEntry]:
    """The entries of ``directory``, in no particular order (callers sort what they keep)."""
    return _listing(directory) or []


# folder -> its entries as last listed, kept while a run is recorded (``replay``: the
# record is built from what the run saw, and the ``lstat`` each entry already made)
listed: dict[str, list[os.DirEntry]] | None = None


def _listing(directory: str) -> list[os.DirEntry] | None:
    """The entries of ``directory``, or ``None`` when it cannot be listed."""
    try:
        with os.scandir(directory) as iterator:
            entries = list(iterator)
    except OSError:
        return None
    if listed is not None:
        listed[directory] = entries
    return entries


GLOB_CHARS = frozenset("*?[")


class _Excludes:
    """``exclude`` patterns: plain names and paths matched by set lookup, globs by fnmatch."""

    def __init__(self, patterns: set[str]) -> None:
        self.exact = {p.rstrip("/") for p in patterns if GLOB_CHARS.isdisjoint(p)}
        self.globs = sorted(p.rstrip("/") for p in patterns if not GLOB_CHARS.isdisjoint(p))
        # only file names (no globs, no paths): a file's name alone decides
        self.names_only = not self.globs and all("/" not in p for p in self.exact)

    def match(self, rel: str, name: str) -> bool:
        """Whether ``rel`` or its file name ``name`` is excluded."""
        if name in self.exact or rel in self.exact:
            return True
        return bool(self.globs) and any(
            fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(name, pattern)
            for pattern in self.globs
        )

    def which(self, rel: str, name: str) -> str | None:
        """The pattern that excludes ``rel`` (or its name), if any."""
        for candidate in (name, rel):
            if candidate in self.exact:
                return candidate
        for pattern in self.globs:
            if fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(name, pattern):
                return pattern
        return None


class Pruner:
    """Which folders and files a walk passes over, and why: ``exclude``/``extend-exclude``
    (a file or folder name, or a path relative to the config file's folder) and, with
    ``respect-gitignore``, what git ignores. As in ruff, an entry follows the settings of
    its folder (``settings_for``: the nearest config file above it), else ``settings``."""

    def __init__(self, settings: Settings, settings_for=None) -> None:
        self.settings = settings
        self.settings_for = settings_for
        self.excludes = _Excludes(set(settings.exclude) | set(settings.extend_exclude))
        self.gitignore = GitIgnore()
        self._by_folder: dict[str, tuple[_Excludes, str, bool]] = {}
        self._by_settings: dict[int, tuple[_Excludes, str, bool]] = {}

    def _rules_of(self, folder: str) -> tuple[_Excludes, str, bool]:
        """The excludes, their base folder and ``respect-gitignore`` for entries of ``folder``."""
        found = self._by_folder.get(folder)
        if found is None:
            settings = self.settings_for(folder) if self.settings_for else self.settings
            found = self._by_settings.get(id(settings))
            if found is None:
                found = self._by_settings[id(settings)] = (
                    self.excludes
                    if settings is self.settings
                    else _Excludes(set(settings.exclude) | set(settings.extend_exclude)),
                    settings.config_dir.rstrip(os.sep) + os.sep,
                    settings.respect_gitignore,
                )
            self._by_folder[folder] = found
        return found

    def why(self, path: str, is_dir: bool, above: list[str] | None = None) -> str | None:
        """Why ``path`` is passed over, or ``None``; ``above`` are folders above it that a
        walk would have had to enter (for paths named on the command line)."""
        for folder in above or ():
            if folder != path:
                reason = self._why(folder, True)
                if reason is not None:
                    return f"{reason}, in {os.path.basename(folder)}/"
        return self._why(path, is_dir)

    def plain_exclusions(self, folder: str) -> frozenset[str] | set[str] | None:
        """The file names excluded in ``folder`` when a name alone decides whether one
        of its files is passed over (``why_in``'s common case), else ``None``."""
        excludes, _, respect_gitignore = self._rules_of(folder)
        if not excludes.names_only or (respect_gitignore and self.gitignore.chain(folder)):
            return None
        return excludes.exact

    def why_in(self, folder: str, name: str, path: str) -> str | None:
        """``why`` for the file ``path``, named ``name``, in ``folder`` (a walk's entry)."""
        excludes, _, respect_gitignore = self._rules_of(folder)
        plain = excludes.names_only and name not in excludes.exact  # the walk's common case
        if plain and not (respect_gitignore and self.gitignore.chain(folder)):
            return None
        return self._why(path, False, folder, name)

    def _why(
        self, path: str, is_dir: bool, folder: str | None = None, name: str | None = None
    ) -> str | None:
        folder = os.path.dirname(path) if folder is None else folder
        excludes, base, respect_gitignore = self._rules_of(folder)
        name = os.path.basename(path) if name is None else name
        rel = path[len(base) :].replace(os.sep, "/") if path.startswith(base) else name
        pattern = excludes.which(rel, name)
        if pattern is not None:
            return f"excluded by `{pattern}`"
        if respect_gitignore and self.gitignore.ignored(path, is_dir, folder):
            return "ignored by git"
        return None


class GitIgnore:
    """git's ignore rules, read with ``pathspec`` (git itself is never run): the
    ``.gitignore`` files from the work tree's top down to a path (the deeper file
    wins), then ``.git/info/exclude``, then the user's ``~/.config/git/ignore``.
    Outside a git work tree nothing is ignored."""

    def __init__(self) -> None:
        self._tops: dict[str, str | None] = {}
        self._chains: dict[str, list[tuple[str, GitIgnoreSpec]]] = {}

    def top(self, directory: str) -> str | None:
        if directory in self._tops:
            return self._tops[directory]
        found: str | None
        if os.path.lexists(os.path.join(directory, ".git")):
            found = directory
        else:
            parent = os.path.dirname(directory)
            found = None if parent == directory else self.top(parent)
        self._tops[directory] = found
        return found

    def chain(self, directory: str) -> list[tuple[str, GitIgnoreSpec]]:
        """``(folder, spec)`` pairs that apply to entries of ``directory``, deepest first."""
        chain = self._chains.get(directory)
        if chain is not None:
            return chain
        top = self.top(directory)
        if top is None:
            chain = []
        elif directory == top:
            chain = [
                (top, spec)
                for spec in (
                    _ignore_spec(os.path.join(top, ".gitignore")),
                    _ignore_spec(info_exclude(top)),
                    _ignore_spec(global_excludes()),
                )
                if spec is not None
            ]
        else:
            own = _ignore_spec(os.path.join(directory, ".gitignore"))
            chain = ([(directory, own)] if own is not None else []) + self.chain(
                os.path.dirname(directory)
            )
        self._chains[directory] = chain
        return chain

    def ignored(self, path: str, is_dir: bool, directory: str | None = None) -> bool:
        """Whether git ignores ``path`` (in ``directory``, when the caller knows it)."""
        chain = self.chain(os.path.dirname(path) if directory is None else directory)
        for folder, spec in chain:
            rel = path[len(folder) + 1 :].replace(os.sep, "/") + ("/" if is_dir else "")
            verdict = spec.check_file(rel).include
            if verdict is not None:
                return verdict
        return False


IGNORE_FILE_BYTES = 1024 * 1024


def _ignore_spec(path: str | None) -> GitIgnoreSpec | None:
    """The ignore patterns in ``path`` (a regular file, never followed), or ``None``."""
    if path is None:
        return None
    data = read_head(path, IGNORE_FILE_BYTES)
    if not data.strip():
        return None
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(data.decode("utf-8", "replace").splitlines())


def _runs_near_duplicates(settings: Settings) -> bool:
    """Whether DU001 may run (its fingerprints are then computed while parsing)."""
    return is_selected(
        NEAR_DUPLICATE, True, settings.select, settings.extend_select, settings.ignore
    )


def global_excludes() -> str | None:
    """The user's global ignore file: ``core.excludesFile`` of the user's own git config
    (``$XDG_CONFIG_HOME/git/config``, then ``~/.gitconfig``, which wins, as git reads them),
    else ``$XDG_CONFIG_HOME/git/ignore``. No repository config is read and git is not run;
    a value that is not an absolute (or ``~/``) path is passed over."""
    home = os.path.expanduser("~")
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    found = os.path.join(config, "git", "ignore")
    for path in (os.path.join(config, "git", "config"), os.path.join(home, ".gitconfig")):
        value = _core_excludes_file(path)
        if value is not None and os.path.isabs(os.path.expanduser(value)):
            found = os.path.expanduser(value)
    return found


GIT_SECTION = re.compile(r"^\s*\[([^\]]*)\]")
GIT_EXCLUDES_FILE = re.compile(
    r'^\s*excludesfile\s*=\s*(?:"([^"\\]*)"|([^"#;]*?))\s*(?:[#;].*)?$', re.IGNORECASE
)


def _core_excludes_file(path: str) -> str | None:
    """The last ``excludesFile`` of the ``[core]`` section of the git config file ``path``
    (a regular file of the user's, read up to 1 MiB), or ``None``."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            text = handle.read(IGNORE_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    found = None
    in_core = False
    for line in text.splitlines():
        section = GIT_SECTION.match(line)
        if section is not None:
            in_core = section.group(1).strip().lower() == "core"
            continue
        value = GIT_EXCLUDES_FILE.match(line) if in_core else None
        if value is not None:
            found = value.group(1) if value.group(1) is not None else value.group(2)
    return found or None


def _indexed_subfolder(directory: str) -> str | None:
    """The one subfolder ``directory``'s ``MEMORY.md`` links into, when every local link
    of the index points there (``- [X](memory/x.md)``): the index sits one level up."""
    head = read_head(os.path.join(directory, INDEX_NAME), INDEX_HEAD_BYTES)
    targets = [
        target
        for target in INDEX_LINK.findall(head.decode("utf-8", "replace"))
        if "://" not in target and not target.startswith(("/", "../"))
    ]
    firsts = {target.lstrip("./").split("/", 1)[0] for target in targets}
    if len(firsts) != 1 or not all("/" in target.lstrip("./") for target in targets):
        return None
    sub = os.path.join(directory, firsts.pop())
    if not os.path.isdir(sub) or os.path.islink(sub):
        return None
    if os.path.lexists(os.path.join(sub, INDEX_NAME)):
        return None  # the subfolder has an index of its own: a store of its own
    return sub


def _memory_folder_reason(directory: str, settings: Settings) -> str | None:
    """Why ``directory`` (without an index) is a store, or ``None``: it is a ``memory/``,
    ``memories/`` or ``.claude/agent-memory/<agent>/`` folder whose Markdown has
    frontmatter, or most of its Markdown files carry memory frontmatter (a
    ``description`` and a memory ``type``)."""
    excluded = set(settings.exclude) | set(settings.extend_exclude)
    names = sorted(
        entry.name
        for entry in _scandir(directory)
        if entry.name.endswith(".md")
        and entry.name not in excluded
        and not entry.name.startswith(".")
        and entry.is_file(follow_symlinks=False)
    )
    if not names:
        return None
    sample = [
        read_head(os.path.join(directory, name), 4096).decode("utf-8", "replace")
        for name in names[:25]
    ]
    base = os.path.basename(directory)
    parent = os.path.dirname(directory)
    if base.lower() in LAYOUT_NAMES:
        layout = f"a {base}/ folder"
    elif os.path.basename(parent) == "agent-memory" and (
        os.path.basename(os.path.dirname(parent)) == ".claude"
    ):
        layout = "a .claude/agent-memory/<agent>/ folder"
    else:
        layout = None
    if layout is not None and any(_frontmatter(head) for head in sample):
        return f"is {layout} whose Markdown has frontmatter (no {INDEX_NAME})"
    memory_like = sum(
        1 for head in sample if "\ndescription:" in _frontmatter(head) and TYPE_LINE.search(head)
    )
    if memory_like and memory_like * 2 >= len(sample):
        return (
            f"holds memory files: {memory_like} of {len(sample)} Markdown files have "
            f"memory frontmatter (no {INDEX_NAME})"
        )
    return None


def _frontmatter(head: str) -> str:
    """The frontmatter block at the start of ``head`` when it has a ``name`` or
    ``description`` key, else ``""``."""
    if not head.startswith("---"):
        return ""
    end = head.find("\n---", 3)
    block = head[: end if end != -1 else len(head)]
    return block if FRONTMATTER_KEY.search(block) else ""


def _why_not_notes(path: str) -> str:
    """Why a JSONL file is not a note store (for ``--show-files``)."""
    records, notes = note_sample(path)
    if records == 0:
        return "empty"
    return f"{notes} of its first {records} records have a `fact`, or a `time` and a `project`"


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


def _is_store_root(directory: str, entries, configured) -> bool:
    """Whether ``directory`` (listed as ``entries``) is a store root of its own: it has
    an index or a ``[[stores]]`` entry (``Discovery.strong_root``, without a syscall)."""
    return directory in configured or any(entry.name == INDEX_NAME for entry in entries or ())


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
