"""Whole-run replay: a warm ``memlint check`` whose inputs did not change prints what
the run that recorded them printed, without importing the engine, a rule or a parser.

After a plain ``check`` of folders (no path named is a file; no fix, ``-o``, stdin,
``--staged``, ``--auto-memory`` or ``--show-*``) that used the result cache, memlint
seals in the cache folder, under the cache's key (:mod:`memlint.cachedir`), what the
run wrote to stdout and stderr (write by write, already masked: no secret is stored
that was not printed masked) and its exit status, with what the output depends on:

- the run's key: memlint's and Python's versions, the Python environment
  (``sys.prefix``), the parsed command line, the working directory, the environment
  variables memlint reads (``ENV_NAMES``, ``ENV_PREFIXES``), whether stdout and stderr
  are terminals, their encodings, the terminal's size;
- every entry below each folder walked (each store's root, each folder named, the
  working directory when none is), except inside ``SKIP_DIRS``: name, type and
  ``lstat`` signature (size, mtime, ctime, inode, device);
- the folders above those and the working directory, to the root: their type and
  inode, and the signature (or absence) of what discovery and the configuration look
  for there (``ANCESTOR_NAMES``: an index, config files, ``.git``, ``.gitignore``); when
  a folder named has no index of its own, also their Markdown and JSONL files (a
  folder above may then hold the store). A run with an index in a folder above that is
  no store of its own is not recorded;
- git's ``info/exclude`` of each ``.git`` seen (``treenames.info_exclude``), the user's
  git config and ignore files, the ``--config`` files named, the paths named, and the
  parts of each index target looked up outside its store's walk (``Store.outside_walk``).

A run with the same key replays that output when all of this is unchanged; anything
else runs as usual (and records anew). The record keeps the digest of each
``CHUNK`` parts of that observation in walk order, so a replay stops at the first
part that changed instead of walking the rest for nothing (an edit of 1% of 10,000
files is met in the first chunk or two: ~1 ms of the ~55 ms walk). A file whose
mtime or ctime was less than ``RACY_NS`` before the recording run started is compared
by content instead (the digest of the bytes that run read); a folder changed that
recently, or such a file the run did not read, and nothing is recorded. Nothing is
recorded either when the run consulted git (``gitbase.consulted``: rules that read git
are never cached) or wrote past the streams (``sys.stdout.buffer``).
"""

from __future__ import annotations

import os
import sys
from stat import S_ISDIR, S_ISLNK, S_ISREG

from memlint.treenames import CONFIG_NAMES, INDEX_NAME, SKIP_DIRS, info_exclude

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any

FORMAT = 2  # 2: the observation's digest per ``CHUNK`` parts
CHUNK = 512  # the parts of an observation digested together
RACY_NS = 2_000_000_000  # cache.RACY_NS: a signature younger than this is not trusted
RELEVANT_NAMES = frozenset({*CONFIG_NAMES, ".git", ".gitignore"})
# what discovery and the configuration look for in the folders above a store
ANCESTOR_NAMES = (
    INDEX_NAME,
    *CONFIG_NAMES,
    ".gitignore",
    ".git",
    os.path.join(".git", "info", "exclude"),
)
RELEVANT_SUFFIXES = (".md", ".jsonl")
# what memlint reads from the environment (a test finds every variable read in the
# sources and checks it is covered)
ENV_NAMES = frozenset(
    {
        "HOME",
        "USERPROFILE",
        "LOCALAPPDATA",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "COLUMNS",
        "LINES",
        "NO_COLOR",
        "FORCE_COLOR",
        "PRE_COMMIT",
    }
)
ENV_PREFIXES = ("MEMLINT_", "GIT_", "XDG_", "LC_", "PYTHON", "CLAUDE_", "GITHUB_")
OUTPUT_OPTIONS = (  # options whose run writes files or reads more than the walk sees
    "no_cache",
    "fix",
    "diff",
    "fix_only",
    "output_file",
    "stdin_filename",
    "staged",
    "auto_memory",
    "show_settings",
    "show_files",
    "show_loaded",
)


def eligible(args) -> bool:
    """Whether the run ``args`` asks for can be recorded and replayed."""
    return (
        args.command == "check"
        and not any(getattr(args, name) for name in OUTPUT_OPTIONS)
        and "-" not in args.paths
        and "GITHUB_STEP_SUMMARY" not in os.environ  # the github format writes there
    )


def _digest(data: bytes) -> bytes:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).digest()


def run_key(args, cwd: str) -> bytes:
    """Everything of the run's own that its output depends on (``args`` as parsed)."""
    from memlint import __version__

    streams = []
    size = None
    for stream in (sys.stdout, sys.stderr):
        tty = stream.isatty()
        streams.append((tty, stream.encoding, stream.errors))
        if tty and size is None:
            try:
                size = tuple(os.get_terminal_size(stream.fileno()))
            except (OSError, ValueError):
                size = ()
    environ = sorted(
        (name, value)
        for name, value in os.environ.items()
        if name in ENV_NAMES or name.startswith(ENV_PREFIXES)
    )
    options = sorted(vars(args).items())
    text = repr(
        (FORMAT, __version__, sys.version, sys.prefix, options, cwd, environ, streams, size)
    )
    return _digest(text.encode("utf-8", "surrogatepass"))


def _record_name(args, cwd: str) -> str:
    """The file of the record of ``args`` run in ``cwd`` (one per command line)."""
    text = repr((cwd, sorted(vars(args).items())))
    return "replay-" + _digest(text.encode("utf-8", "surrogatepass")).hex()[:24]


class Changed(Exception):
    """Replaying: a chunk of the observation differs from the record's."""


class Observation:
    """What the inputs of a run look like on disk, as the digests of its ``parts``,
    ``CHUNK`` at a time (``marks``); replaying (``expected``: the recorded digests),
    :class:`Changed` is raised at the first that differs.

    ``cache_folder`` is the cache folder, whose own files change with every run: there only
    what discovery could read is observed (folders, Markdown, JSONL, config files).
    Recording (``limit``: the run's start less ``RACY_NS``), a file changed after
    ``limit`` is compared by content: ``digests`` gives what the run read of it (path
    -> digest); when it has no such file, or a folder changed after ``limit``,
    ``refused`` says why nothing can be recorded.
    Replaying, ``content`` (path -> (size, digest)) names the files compared by
    content."""

    def __init__(
        self,
        content: dict,
        cache_folder: str | None,
        limit: int | None = None,
        digests=None,
        listed: dict | None = None,
        expected: tuple[bytes, ...] | None = None,
    ) -> None:
        self.parts: list = []
        self.marks: list[bytes] = []
        self.expected = expected
        self.listed = listed or {}  # folder -> entries the run listed (``discovery.listed``)
        self.cache_folder = cache_folder
        self.content = content
        self.racy: dict[str, set[str]] = {}  # folder -> names of its files in ``content``
        for path in content:
            self.racy.setdefault(os.path.dirname(path), set()).add(os.path.basename(path))
        self.limit = limit
        self.digests = digests
        self.refused: str | None = None
        self.gits: list[str] = []

    def walk(self, top: str) -> None:
        """Every entry below ``top``, never through a symlink nor into ``SKIP_DIRS``."""
        parts = self.parts
        if self.limit is not None:  # recording: its entries are those the run saw
            try:
                st = os.lstat(top)
                if max(st.st_mtime_ns, st.st_ctime_ns) >= self.limit:
                    self.refused = f"{top} changed as the run started"
            except OSError:
                self.refused = f"{top} is gone"
        stack = [top]
        while stack:
            if len(parts) >= CHUNK:
                self._mark()
            folder = stack.pop()
            seen = self.listed.get(folder)
            if seen is not None:  # recording: the entries the run listed
                parts.append(folder)
                self._entries(folder, seen, stack)
                continue
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
            try:
                handle = os.open(folder, flags)
            except OSError as exc:
                parts.append((folder, exc.errno))
                continue
            parts.append(folder)
            try:
                with os.scandir(handle) as entries:
                    self._entries(folder, entries, stack)
            except OSError as exc:
                parts.append(("", exc.errno))
            finally:
                os.close(handle)

    def _entries(self, folder: str, entries, stack: list[str]) -> None:
        """Observe the ``entries`` of ``folder``; the folders to walk go on ``stack``."""
        parts = self.parts
        limit = self.limit
        racy = self.racy.get(folder, ())
        if folder == self.cache_folder:  # the cache folder: only what discovery could read there
            entries = [
                entry
                for entry in entries
                if entry.name in RELEVANT_NAMES
                or entry.name.endswith(RELEVANT_SUFFIXES)
                or entry.is_dir(follow_symlinks=False)
            ]
        for entry in entries:
            if len(parts) >= CHUNK:
                self._mark()
            name = entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:  # gone since it was listed
                parts.append((name, exc.errno))
                self.refused = f"{folder}/{name} changed while the run went on"
                continue
            mode = st.st_mode
            if limit is not None and max(st.st_mtime_ns, st.st_ctime_ns) >= limit:
                if not S_ISDIR(mode):
                    racy = self._racy(folder, name, st.st_size)
                elif name not in SKIP_DIRS and os.path.join(folder, name) != self.cache_folder:
                    self.refused = f"{folder}/{name}/ changed as the run started"
            if name == ".git":
                self.gits.append(folder)
            if S_ISDIR(mode):
                parts.append((name, mode, st.st_ino, st.st_dev))
                if name not in SKIP_DIRS:
                    stack.append(os.path.join(folder, name))
            elif name in racy:
                parts.append((name, mode, "content"))
            else:
                size, ino, dev = st.st_size, st.st_ino, st.st_dev
                parts.append((name, mode, size, st.st_mtime_ns, st.st_ctime_ns, ino, dev))
                if S_ISLNK(mode):  # never followed, but where it points is reported
                    parts.append(_link_target(os.path.join(folder, name)))

    def above(self, folder: str) -> None:
        """The entries of ``folder`` (above the walked ones) that discovery or the
        configuration can read."""
        parts = self.parts
        parts.append(folder)
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    if name not in RELEVANT_NAMES and not name.endswith(RELEVANT_SUFFIXES):
                        continue
                    st = entry.stat(follow_symlinks=False)
                    if name == ".git":
                        self.gits.append(folder)
                    if self.limit is not None and max(st.st_mtime_ns, st.st_ctime_ns) >= self.limit:
                        self.refused = f"{entry.path} changed as the run started"
                    parts.append(
                        (name, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                    )
        except OSError as exc:
            parts.append(("", exc.errno))

    def probe(self, path: str, follow: bool = False) -> None:
        """``path``'s type and signature, or why it has none."""
        try:
            st = os.stat(path) if follow else os.lstat(path)
        except (OSError, ValueError) as exc:
            self.parts.append((path, getattr(exc, "errno", None)))
            return
        recent = self.limit is not None and max(st.st_mtime_ns, st.st_ctime_ns) >= self.limit
        if recent and not S_ISDIR(st.st_mode):
            self.refused = f"{path} changed as the run started"
        signature: tuple[int, ...] = (st.st_mode, st.st_ino, st.st_dev)
        if not S_ISDIR(st.st_mode):
            signature += (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        self.parts.append((path, signature))

    def _racy(self, folder: str, name: str, size: int) -> set[str] | tuple:
        """Recording: compare the file ``name`` of ``folder``, changed too recently, by
        the content the run read; the names of the folder's files so compared."""
        path = os.path.join(folder, name)
        found = self.digests.get(path) if self.digests is not None else None
        if found is None or read_digest(path, size) != found:
            self.refused = f"{path} changed as the run started"
        else:
            self.content[path] = (size, found)
            self.racy.setdefault(folder, set()).add(name)
        return self.racy.get(folder, ())

    def _mark(self) -> None:
        """Digest the parts observed since the last mark (and let them go)."""
        import marshal

        mark = _digest(marshal.dumps(self.parts, 2))  # version 2: no references
        self.parts.clear()
        expected, count = self.expected, len(self.marks)
        if expected is not None and (count >= len(expected) or expected[count] != mark):
            raise Changed
        self.marks.append(mark)

    def digest(self) -> tuple[bytes, ...]:
        """The digests of every chunk (replaying: all equal to ``expected``)."""
        self._mark()
        if self.expected is not None and len(self.marks) != len(self.expected):
            raise Changed
        return tuple(self.marks)


def _link_target(path: str) -> tuple:
    """What discovery says of the symlink ``path``: its target, resolved, and whether
    that exists (``discovery._link_detail``)."""
    try:
        target = os.readlink(path)
        st = os.stat(path)
        found: tuple = (st.st_mode, st.st_ino, st.st_dev)
    except OSError as exc:
        found = (exc.errno,)
        target = ""
    return (target, os.path.realpath(path), *found)


def read_digest(path: str, size: int) -> bytes | None:
    """``cache.source_digest`` of the regular file ``path`` if it holds ``size`` bytes."""
    import hashlib

    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags)
    except OSError:
        return None
    with open(handle, "rb") as stream:
        if not S_ISREG(os.fstat(handle).st_mode):
            return None
        data = stream.read(size + 1)
    if len(data) != size:
        return None
    return hashlib.sha256(data).digest()[:16]


def _chain(path: str) -> list[str]:
    """``path`` and every folder above it."""
    found = [path]
    while True:
        parent = os.path.dirname(path)
        if parent == path:
            return found
        found.append(parent)
        path = parent


def observe(record: tuple, observation: Observation) -> tuple[bytes, ...]:
    """The digests of the inputs named by ``record`` (walked, above, probed, followed)."""
    walked, above, probed, followed = record
    for top in walked:
        observation.walk(top)
    for folder in above:
        observation.above(folder)
    for folder in sorted(set(observation.gits)):
        observation.probe(info_exclude(folder))
    for path in probed:
        observation.probe(path)
    for path in followed:
        observation.probe(path, follow=True)
    return observation.digest()


# -- replaying ---------------------------------------------------------------------


def replayed(args) -> int | None:
    """Replay the recorded output of this run if its inputs did not change: the exit
    status, else ``None`` (the run goes on as usual)."""
    if not eligible(args):
        return None
    from memlint.cachedir import CacheRefused, cache_folder, unseal

    cwd = os.getcwd()
    if not all(os.path.isdir(os.path.join(cwd, path)) for path in args.paths):
        return None  # a file named (pre-commit): such runs are not recorded
    try:
        found = cache_folder(args.cache_dir, cwd, create=False)
    except (CacheRefused, OSError):
        return None  # the run goes on, and says why the cache is refused
    if found is None:
        return None
    directory, secret = found
    body = unseal(os.path.join(directory, _record_name(args, cwd)), secret)
    if body is None:
        return None
    import marshal

    try:
        loaded = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    record = _checked(loaded)
    if record is None or record[0] != run_key(args, cwd):
        return None
    _, inputs, content, expected, writes, status = record
    try:
        observe(inputs, Observation(dict(content), directory, expected=expected))
    except Changed:
        return None
    for path, (size, digest) in content.items():
        if read_digest(path, size) != digest:
            return None
    for to_stderr, text in writes:
        (sys.stderr if to_stderr else sys.stdout).write(text)
    return status


def _strings(found) -> bool:
    return type(found) is tuple and all(type(item) is str for item in found)


def _checked(loaded) -> tuple | None:
    """``loaded`` if it is a record of this format, every field of the right type."""
    if not (type(loaded) is tuple and len(loaded) == 7 and loaded[0] == FORMAT):
        return None
    _, key, inputs, content, expected, writes, status = loaded
    if not (
        type(key) is bytes
        and type(inputs) is tuple
        and len(inputs) == 4
        and all(map(_strings, inputs))
        and type(content) is dict
        and type(expected) is tuple
        and all(type(mark) is bytes for mark in expected)
        and type(writes) is tuple
        and type(status) is int
    ):
        return None
    for path, value in content.items():
        if not (
            type(path) is str
            and type(value) is tuple
            and len(value) == 2
            and type(value[0]) is int
            and type(value[1]) is bytes
        ):
            return None
    for write in writes:
        if not (
            type(write) is tuple
            and len(write) == 2
            and type(write[0]) is bool
            and type(write[1]) is str
        ):
            return None
    return key, inputs, content, expected, writes, status


# -- recording ---------------------------------------------------------------------


class _Tee:
    """A text stream that passes writes on and keeps them; anything that reaches past
    it (its binary buffer, its descriptor) spoils the record."""

    def __init__(self, stream, recording: Recording, to_stderr: bool) -> None:
        self._stream = stream
        self._recording = recording
        self._to_stderr = to_stderr

    def write(self, text: str) -> int:
        self._recording.writes.append((self._to_stderr, text))
        return self._stream.write(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def __getattr__(self, name: str):
        if name not in ("encoding", "errors", "closed", "name", "mode", "line_buffering"):
            self._recording.refused = f"the run used sys.{name} of a stream"
        return getattr(self._stream, name)


class Recording:
    """What a run wrote, and what it read (``seen``), to record when it ends."""

    def __init__(self, args, cwd: str) -> None:
        import time

        self.started_ns = time.time_ns()
        self.args = args
        self.cwd = cwd
        self.key = run_key(args, cwd)
        self.name = _record_name(args, cwd)  # before the run changes ``args``
        self.writes: list[tuple[bool, str]] = []
        self.refused: str | None = None
        self.roots: list[str] | None = None
        self.caches: Any = None  # cache.CacheSet (not imported here)
        self.named = [os.path.normpath(os.path.join(cwd, path)) for path in args.paths]
        # a folder named without an index of its own: discovery looks for memory files
        # in the folders above it too (``Discovery.store_of``), so they are listed
        self.weak = any(
            not os.path.lexists(os.path.join(path, INDEX_NAME)) for path in self.named or [cwd]
        )
        self.above_before = self._above_now(self._ancestors())
        self.listed: dict = {}  # folder -> entries, as the run listed them

    def _ancestors(self) -> set[str]:
        """The folders above the paths named, and the working directory and those above it."""
        found = set(_chain(self.cwd))
        for path in self.named:
            found.update(_chain(os.path.dirname(path)))
        return found

    def _above(self, ancestors) -> tuple[tuple[str, ...], list[str]]:
        """The folders above the walked ones to list (``weak``), and the paths to probe
        in each."""
        folders = sorted(ancestors)
        probed = [os.path.join(folder, name) for folder in folders for name in ANCESTOR_NAMES]
        return tuple(folders if self.weak else ()), probed

    def _above_now(self, ancestors) -> tuple[bytes, ...]:
        observation = Observation({}, None)
        listed, probed = self._above(ancestors)
        for folder in listed:
            observation.above(folder)
        for path in probed:
            observation.probe(path)
        return observation.digest()

    def seen(self, roots: list[str], caches) -> None:
        """The roots of the stores the run checked and the cache it used."""
        self.roots = roots
        self.caches = caches

    def finish(self, status: int) -> None:
        """Seal the record, if the run can be replayed."""
        if self.refused is not None or self.roots is None or self.caches is None:
            return
        from memlint import gitbase

        if gitbase.consulted:
            return
        named = self.named
        walked = _outermost({*(named or [self.cwd]), *self.roots})
        ancestors = {
            folder
            for folder in {*_chains([os.path.dirname(top) for top in walked]), *self._ancestors()}
            if not any(folder == w or folder.startswith(w + os.sep) for w in walked)
        }
        if any(os.path.lexists(os.path.join(folder, INDEX_NAME)) for folder in ancestors):
            return  # an index above that is no store of this run: not modelled here
        if self._above_now(self._ancestors()) != self.above_before:
            return  # a folder above changed while the run went on
        outside = self._outside()
        if outside is None:
            return
        listed, probed = self._above(ancestors)
        inputs = (
            tuple(walked),
            listed,
            tuple(sorted({*named, *walked, *_chains(walked), *outside, *probed})),
            tuple(self._followed()),
        )
        limit = self.started_ns - RACY_NS
        observation = Observation({}, self.caches.directory, limit, self._digests(), self.listed)
        expected = observe(inputs, observation)
        if observation.refused is not None:
            return
        import marshal

        from memlint.cachedir import seal

        record = (
            FORMAT,
            self.key,
            inputs,
            observation.content,
            expected,
            tuple(self.writes),
            status,
        )
        path = os.path.join(self.caches.directory, self.name)
        seal(path, self.caches.secret, marshal.dumps(record))

    def _digests(self) -> _Digests:
        return _Digests(self.roots or [], self.caches)

    def _outside(self) -> list[str] | None:
        """Each part of each index target looked up outside its store's walk (``None``
        when a store's result is not its whole memo)."""
        found = []
        for root in self.roots or ():
            outside = _store_cache(self.caches, root).outside
            if outside is None:
                return None
            for rel, _ in outside:
                current = root
                for part in rel.split("/"):
                    if part in ("", ".", ".."):
                        break
                    current = os.path.join(current, part)
                    found.append(current)
        return found

    def _followed(self) -> list[str]:
        """The user's git config and ignore files, and the ``--config`` files named."""
        from memlint.discovery import global_excludes

        home = os.path.expanduser("~")
        config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        found = [
            os.path.join(config, "git", "config"),
            os.path.join(home, ".gitconfig"),
            os.path.join(config, "git", "ignore"),
        ]
        excludes = global_excludes()
        if excludes is not None:
            found.append(excludes)
        found.extend(os.path.join(self.cwd, value) for value in self.args.config)
        return found


class _Digests:
    """path -> the digest of the bytes the run read of it (or that the cache vouched
    for), as its store's cache keeps it (``StoreCache.digest_of``)."""

    def __init__(self, roots: list[str], caches) -> None:
        self.roots = sorted(roots, key=len, reverse=True)  # the nearest store first
        self.caches = caches

    def get(self, path: str) -> bytes | None:
        for root in self.roots:
            if path.startswith(root + os.sep):
                rel = path[len(root) + 1 :].replace(os.sep, "/")
                found = _store_cache(self.caches, root).digest_of(rel)
                if found is not None:
                    return found
        return None


def _store_cache(caches, root: str):
    """The cache of the store at ``root`` this run used (saved and let go, or not)."""
    released = caches.released or {}
    return released[root] if root in released else caches.for_store(root)


def _outermost(folders: set[str]) -> list[str]:
    """``folders`` but those a walk of another one enters (through no symlink and no
    folder of ``SKIP_DIRS``)."""
    found: list[str] = []
    for folder in sorted(folders):
        for other in found:
            if folder.startswith(other + os.sep):
                between = _chain(folder)[: -len(_chain(other))]
                if not any(os.path.basename(p) in SKIP_DIRS or os.path.islink(p) for p in between):
                    break
        else:
            found.append(folder)
    return found


def _chains(folders: list[str]) -> list[str]:
    return [path for folder in folders for path in _chain(folder)]


class recording:
    """Record the run, when it can be replayed: its writes to stdout and stderr go
    through to them and are kept; ``seen`` is given the stores it checked."""

    current: Recording | None = None

    def __init__(self, args) -> None:
        self.args = args

    def __enter__(self) -> Recording | None:
        if not eligible(self.args):
            return None
        cwd = os.getcwd()
        named = [os.path.join(cwd, path) for path in self.args.paths]
        if not all(os.path.isdir(path) and not os.path.islink(path) for path in named):
            return None  # a file named (pre-commit): its run is not recorded
        from memlint import discovery, gitbase

        gitbase.consulted = False  # (a process that ran checks before: the tests)
        found = Recording(self.args, cwd)
        recording.current = found
        discovery.listed = found.listed
        self.streams = sys.stdout, sys.stderr
        sys.stdout = _Tee(sys.stdout, found, False)  # type: ignore[assignment]
        sys.stderr = _Tee(sys.stderr, found, True)  # type: ignore[assignment]
        return found

    def __exit__(self, *exc) -> None:
        if recording.current is not None:
            sys.stdout, sys.stderr = self.streams
            recording.current = None
            from memlint import discovery

            discovery.listed = None
