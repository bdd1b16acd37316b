"""Where memlint's result cache lives, who may write it, and its sealed files.

Light on purpose (``os`` and ``stat`` only at import): the whole-run replay
(:mod:`memlint.replay`) opens the cache before anything else is imported.

A cache memlint did not write is never trusted. The cache lives in the user's
cache folder (``$XDG_CACHE_HOME/memlint`` or ``~/.cache/memlint``), one folder
per project (by the real path of the working directory), or in ``--cache-dir``.
Every file starts with an HMAC-SHA256 of its content under a random key kept in
the user's cache folder (``key``, mode 0600, never in the work tree): a file whose
MAC does not match is not read. A cache folder or key that is a symlink (or
reached through one inside the working directory) or belongs to another user is
refused, and so is a cache folder holding files memlint did not write.
"""

from __future__ import annotations

import os
import stat

MAGIC = b"memlint-cache\x00"
MAC_SIZE = 32  # HMAC-SHA256
HEADER_SIZE = len(MAGIC) + MAC_SIZE
KEY_NAME = "key"
KEY_SIZE = 32
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by memlint.\n"
)


def _read_own(path: str) -> bytes | None:
    """The bytes of the regular file ``path`` (never through a symlink), or ``None``."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with open(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        return stream.read()


def sealed_head(path: str, size: int) -> bytes:
    """Up to ``size`` bytes of the body of the sealed file at ``path``, unauthenticated:
    only to tell that a file cannot hold what is looked for (``unseal`` before any use)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return b""
        return os.read(handle, HEADER_SIZE + size)[HEADER_SIZE:]
    except OSError:
        return b""
    finally:
        os.close(handle)


def _mac(secret: bytes, body) -> bytes:
    import hmac

    return hmac.digest(secret, body, "sha256")


def unseal(path: str, secret: bytes) -> memoryview | None:
    """The body of the sealed file at ``path`` if this user's ``secret`` authenticates
    it, else ``None``."""
    data = _read_own(path)
    if data is None or len(data) < HEADER_SIZE or not data.startswith(MAGIC):
        return None
    import hmac

    body = memoryview(data)[HEADER_SIZE:]
    if not hmac.compare_digest(data[len(MAGIC) : HEADER_SIZE], _mac(secret, body)):
        return None
    return body


def seal(path: str, secret: bytes, body: bytes) -> None:
    """Write ``body`` sealed with ``secret`` at ``path``, atomically (temp file +
    rename); a failure leaves the old file intact."""
    directory = os.path.dirname(path)
    try:
        prepare_dir(directory)
        handle, temp = _new_private_file(directory)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(MAGIC + _mac(secret, body))
                out.write(body)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        return


def _new_private_file(directory: str) -> tuple[int, str]:
    """A file created in ``directory`` under a random name, mode 0600, never one that
    existed (``tempfile.mkstemp``'s flags, without importing ``tempfile``, ``shutil``
    and ``random``: a pre-commit run writes one cache file and imported them all)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(TEMP_ATTEMPTS):
        temp = os.path.join(directory, f".tmp-{os.urandom(8).hex()}.pickle")
        try:
            return os.open(temp, flags, 0o600), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


TEMP_ATTEMPTS = 100


def cache_folder(cache_dir: str | None, cwd: str, create: bool) -> tuple[str, bytes] | None:
    """The cache folder of a run in ``cwd`` (``cache_dir``: ``--cache-dir``) and this
    user's key, created if ``create``; ``None`` when there is none yet. Raises
    ``CacheRefused`` for a folder or key someone else controls."""
    home = user_cache_home()
    directory = cache_directory(cache_dir, cwd)
    _no_symlink_in_work_tree(directory, os.path.abspath(cwd))
    secret = _secret(home, create) if _own_folder(home, create) else None
    if secret is None or not _own_folder(directory, create):
        return None
    _check_cache_folder(directory)
    return directory, secret


def folder_name(path: str) -> str:
    """The name of the cache files of the folder ``path`` (a hash of it)."""
    import hashlib

    return hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def cache_directory(requested: str | None, cwd: str) -> str:
    """Where the result cache of a run in ``cwd`` lives: ``requested`` (``--cache-dir``),
    else this project's folder (by its real path) in the user's cache."""
    return os.path.abspath(requested) if requested else project_cache_dir(cwd)


def remove_cache(directory: str) -> bool:
    """Delete the cache ``directory``; ``False`` when there is none. Refuses (``OSError``)
    a symlink or a directory without memlint's ``CACHEDIR.TAG``: memlint deletes only
    what it created."""
    if not os.path.lexists(directory):
        return False
    if os.path.islink(directory) or not os.path.isdir(directory):
        raise OSError(f"{directory}: not a directory memlint created; not removed")
    tag = _read_own(os.path.join(directory, "CACHEDIR.TAG"))  # never a FIFO or a link
    if tag is None or not tag.startswith(TAG.encode()):
        raise OSError(f"{directory}: has no memlint CACHEDIR.TAG; not removed")
    import shutil

    shutil.rmtree(directory)
    return True


def prepare_dir(directory: str) -> None:
    """Create the cache directory with ``CACHEDIR.TAG`` and a ``.gitignore`` of ``*``."""
    os.makedirs(directory, mode=0o700, exist_ok=True)
    for name, content in (("CACHEDIR.TAG", TAG), (".gitignore", "*\n")):
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            handle = os.open(os.path.join(directory, name), flags, 0o600)
        except FileExistsError:
            continue
        with open(handle, "w", encoding="utf-8") as out:
            out.write(content)


class CacheRefused(Exception):
    """Why the run goes on without the cache (a folder or key someone else controls)."""


def user_cache_home() -> str:
    """memlint's folder in the user's cache directory."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        if os.name == "nt":
            base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        else:
            base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memlint")


def project_cache_dir(cwd: str) -> str:
    """The default cache folder of runs from ``cwd``: one per project, by real path."""
    return os.path.join(user_cache_home(), "projects", folder_name(os.path.realpath(cwd)))


def _is_own(st: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()


def _own_folder(path: str, create: bool) -> bool:
    """Whether the folder ``path`` exists (created if ``create``); refused when it is
    a symlink, not a folder, or another user's."""
    if create:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except OSError as exc:
            raise CacheRefused(f"cannot create the cache folder {path} ({exc.strerror})") from None
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        raise CacheRefused(f"the cache folder {path} is a symlink or not a folder")
    if not _is_own(st):
        raise CacheRefused(f"the cache folder {path} belongs to another user")
    return True


def _no_symlink_in_work_tree(directory: str, cwd: str) -> None:
    """Refuse a cache folder under ``cwd`` reached through a symlink (a committed
    ``cache -> ~/somewhere`` would make memlint create folders and write there)."""
    rel = os.path.relpath(directory, cwd)
    if rel == os.curdir or rel.startswith(os.pardir):
        return
    path = cwd
    for part in rel.split(os.sep):
        path = os.path.join(path, part)
        if os.path.islink(path):
            raise CacheRefused(f"the cache folder {directory} is reached through a symlink")


def _check_cache_folder(path: str) -> None:
    """Refuse the folder ``path`` unless it is empty or tagged as a cache
    (``CACHEDIR.TAG``): in a folder holding other files (a store, the checkout) a
    ``.gitignore`` of ``*`` would make memlint pass over what it holds."""
    try:
        with os.scandir(path) as entries:
            names = {entry.name: entry for entry in entries}
    except OSError as exc:
        raise CacheRefused(f"cannot list the cache folder {path} ({exc.strerror})") from None
    tag = names.get("CACHEDIR.TAG")
    if names and not (tag is not None and tag.is_file(follow_symlinks=False)):
        raise CacheRefused(f"the cache folder {path} holds files memlint did not write")


def _read_secret(path: str) -> bytes | None:
    """The key at ``path``, ``None`` if there is none; refused unless it is this
    user's regular file, readable by no one else."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return None
    except OSError:
        raise CacheRefused(f"the cache key {path} cannot be read or is a symlink") from None
    with open(handle, "rb") as stream:
        st = os.fstat(handle)
        private = os.name == "nt" or not st.st_mode & 0o077
        if not (stat.S_ISREG(st.st_mode) and _is_own(st) and private):
            raise CacheRefused(f"the cache key {path} is not a private file of this user")
        secret = stream.read(KEY_SIZE + 1)
    if len(secret) != KEY_SIZE:
        raise CacheRefused(f"the cache key {path} is damaged (delete it to start afresh)")
    return secret


def _secret(home: str, create: bool) -> bytes | None:
    """This user's cache key, created (0600, atomically) on first use if ``create``."""
    path = os.path.join(home, KEY_NAME)
    found = _read_secret(path)
    if found is not None or not create:
        return found
    import secrets
    import tempfile

    handle, temp = tempfile.mkstemp(dir=home, prefix=".key-")  # created 0600
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(secrets.token_bytes(KEY_SIZE))
        os.link(temp, path)  # fails if another run created the key first
    except FileExistsError:
        pass
    except OSError as exc:
        raise CacheRefused(f"cannot create the cache key {path} ({exc.strerror})") from None
    finally:
        os.unlink(temp)
    return _read_secret(path)
