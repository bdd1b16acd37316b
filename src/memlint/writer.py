"""Atomic, checked, all-or-nothing writes of fixed files.

Each file is written to a ``.memlint-<hex>.tmp`` file in its own directory,
fsynced, given the original mode, compared once more with the bytes read at
lint time, then moved into place with ``os.replace`` and the directory fsynced.
Bytes go in and out unchanged, so encoding, BOM, line endings and the final
newline are whatever the fix produced. A :class:`Change` list is one
transaction: when a later step fails, every earlier step is undone.

A SIGKILL can leave a temp file behind; :func:`remove_stale_temps` deletes
those (exact name pattern only) at the start of the next fixing run.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat

from memlint.records import dataclass
from memlint.store import fold

TEMP_PREFIX = ".memlint-"
TEMP_NAME = re.compile(r"\.memlint-(?:(\d{1,10})-)?[0-9a-f]{16}\.tmp")
STALE_AFTER = 3600  # seconds: a temp file whose writer may still be alive is left alone
NOTES_SUFFIX = ".jsonl"
READ_ONLY = "is read-only (no write permission for its owner); not changing it"


class WriteError(Exception):
    """A change that cannot be made safely; ``path`` is the file concerned.

    ``left_changed`` names the files a failed rollback could not restore.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.left_changed: list[str] = []


@dataclass(frozen=True, slots=True)
class Change:
    """Turn ``path`` (holding ``old``, or absent when ``old`` is None) into ``new``.

    With ``rename_to`` the file is first moved there (never over an existing file).
    """

    path: str
    old: bytes | None
    new: bytes
    rename_to: str | None = None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inside(root: str, path: str) -> bool:
    """Whether ``path`` (resolved, links included) lies under ``root``."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real != real_root and real.startswith(real_root.rstrip(os.sep) + os.sep)


def check_target(root: str, path: str, expected: bytes | None) -> os.stat_result | None:
    """Refuse what must never be written; return the file's stat (None for a new file)."""
    if path.endswith(NOTES_SUFFIX):
        raise WriteError(path, "note stores are never edited")
    if not inside(root, path):
        raise WriteError(path, "outside the store root")
    if expected is None:
        ensure_absent(path)
        return None
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise WriteError(path, f"cannot stat ({exc.strerror or exc})") from None
    if stat.S_ISLNK(st.st_mode):
        raise WriteError(path, "is a symlink; not replacing it")
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(path, "not a regular file")
    if st.st_nlink > 1:
        raise WriteError(path, "has other hard links; not splitting them")
    if not st.st_mode & stat.S_IWUSR:  # not os.access: root may write anything
        raise WriteError(path, READ_ONLY)
    try:
        data = read_bytes(path)
    except OSError as exc:
        raise WriteError(path, f"cannot read ({exc.strerror or exc})") from None
    if digest(data) != digest(expected):
        raise WriteError(path, "changed during the run; left as it is")
    return st


def ensure_absent(path: str, allow: str | None = None) -> None:
    """Refuse ``path`` when it, or a case/normalization variant of its name, exists.

    ``allow`` names a file that may match (the file being renamed itself).
    """
    if os.path.lexists(path) and (allow is None or not os.path.samefile(path, allow)):
        raise WriteError(path, "already exists")
    directory, name = os.path.split(path)
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise WriteError(path, f"cannot list its directory ({exc.strerror or exc})") from None
    key = fold(name)
    for other in names:
        if other != name and fold(other) == key:
            other_path = os.path.join(directory, other)
            if allow is not None and os.path.samefile(other_path, allow):
                continue
            raise WriteError(path, f"collides with existing {other!r} (case or normalization)")


def read_bytes(path: str) -> bytes:
    """The bytes of the regular file ``path``; never waits on a FIFO or follows a link
    (``OSError`` otherwise)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _write_temp(directory: str, data: bytes, mode: int) -> str:
    """A fully written and fsynced temp file in ``directory`` with permissions ``mode``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    tmp = os.path.join(directory, f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, flags, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _unlink_quietly(tmp)
        raise
    os.close(fd)
    return tmp


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a directory; the rename is still atomic
    finally:
        os.close(fd)


def _unlink_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def replace_file(path: str, new: bytes, expected: bytes, mode: int) -> None:
    """Atomically replace ``path`` (which must still hold ``expected``) with ``new``."""
    directory = os.path.dirname(path)
    tmp = _write_temp(directory, new, mode)
    try:
        if digest(read_bytes(path)) != digest(expected):
            raise WriteError(path, "changed during the run; left as it is")
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(directory)


def create_file(path: str, data: bytes, mode: int = 0o644) -> None:
    """Create ``path`` with ``data``, never replacing anything (link() is no-clobber)."""
    directory = os.path.dirname(path)
    ensure_absent(path)
    tmp = _write_temp(directory, data, mode & ~_umask())
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise WriteError(path, "already exists") from None
    finally:
        _unlink_quietly(tmp)
    _fsync_dir(directory)


def move_file(source: str, target: str) -> None:
    """Rename ``source`` to ``target`` without ever replacing another file."""
    ensure_absent(target, allow=source)
    if os.path.lexists(target):  # a case-only rename of the same file
        os.rename(source, target)
    else:
        try:
            os.link(source, target)
        except FileExistsError:
            raise WriteError(target, "already exists") from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
                raise
            os.rename(source, target)  # no hard links here; the check above must do
        else:
            os.unlink(source)
    _fsync_dir(os.path.dirname(target))
    if os.path.dirname(source) != os.path.dirname(target):
        _fsync_dir(os.path.dirname(source))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def commit(root: str, changes: list[Change]) -> None:
    """Apply ``changes`` as one transaction, or raise :class:`WriteError` with nothing changed.

    Every target is checked before anything is written; when a later write
    fails, the files already written get their previous bytes back, created
    files are removed and renames are reversed.
    """
    modes: dict[str, int] = {}
    for change in changes:
        st = check_target(root, change.path, change.old)
        if st is not None:
            modes[change.path] = stat.S_IMODE(st.st_mode)
        if change.rename_to is not None:
            if not inside(root, change.rename_to) or change.rename_to.endswith(NOTES_SUFFIX):
                raise WriteError(change.rename_to, "outside the store root or a note store")
            ensure_absent(change.rename_to, allow=change.path)
    undo: list[tuple] = []
    try:
        for change in changes:
            path = change.path
            if change.rename_to is not None:
                undo.append(("move", change.rename_to, path))  # recorded before it happens
                move_file(path, change.rename_to)
                path = change.rename_to
            if change.old is None:
                undo.append(("remove", path, change.new))
                create_file(path, change.new)
            elif change.new != change.old:
                undo.append(("restore", path, change.old, change.new, modes[change.path]))
                replace_file(path, change.new, change.old, modes[change.path])
    except (OSError, WriteError) as exc:
        failures = _rollback(undo)
        path = getattr(exc, "path", None) or getattr(exc, "filename", None) or root
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        error = WriteError(str(path), reason)
        error.left_changed = failures
        raise error from None
    except BaseException:  # KeyboardInterrupt, SystemExit: undo, then let it go on
        _rollback(undo)
        raise


def _rollback(undo: list[tuple]) -> list[str]:
    """Undo the steps in reverse; return the paths that could not be restored.

    A step is recorded before it is taken, so the last one may not have
    happened: each undo first looks at whether there is anything to undo.
    SIGINT is ignored meanwhile, so a second Ctrl-C cannot cut a rollback short.
    """
    failures = []
    with _sigint_ignored():
        for step in reversed(undo):
            try:
                if step[0] == "move":
                    _, target, source = step
                    if not os.path.lexists(target):
                        pass  # the move never happened
                    elif not os.path.lexists(source):
                        move_file(target, source)
                    elif os.path.samefile(target, source):
                        os.unlink(target)  # cut between link() and unlink(): drop the new name
                elif step[0] == "remove":
                    if os.path.lexists(step[1]) and read_bytes(step[1]) == step[2]:
                        os.unlink(step[1])
                else:
                    _, path, old, new, mode = step
                    if read_bytes(path) != old:
                        replace_file(path, old, new, mode)
            except (OSError, WriteError):
                failures.append(step[1])
    return failures


@contextlib.contextmanager
def _sigint_ignored():
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def remove_stale_temps(directories: set[str]) -> list[str]:
    """Delete temp files a killed run left in ``directories``; return their paths.

    A temp file is stale when the process named in it is gone, or when it is
    older than ``STALE_AFTER`` (a name without a process id, or a reused id);
    another run's live temp file is never touched.
    """
    import time

    removed = []
    now = time.time()
    for directory in sorted(directories):
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            match = TEMP_NAME.fullmatch(name)
            if not match:
                continue
            path = os.path.join(directory, name)
            try:
                st = os.lstat(path)
                old = now - st.st_mtime > STALE_AFTER
                if stat.S_ISREG(st.st_mode) and (old or _gone(match.group(1))):
                    os.unlink(path)
                    removed.append(path)
            except OSError:
                continue
    return removed


def _gone(pid: str | None) -> bool:
    """Whether the process that wrote a temp file has exited (unknown: no)."""
    if pid is None or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):
        return False
    return False
