"""The names memlint looks for in a tree: the index, config files and the folders it
never enters, and where git keeps a work tree's ``info/exclude``. Only ``os`` is
imported, so the replay can read them before anything else loads."""

import os
import stat

INDEX_NAME = "MEMORY.md"
CONFIG_NAMES = (".memlint.toml", "memlint.toml", "pyproject.toml")
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".memlint_cache",
        ".hypothesis",
    }
)


def info_exclude(top: str) -> str:
    """The ``info/exclude`` file git reads for the work tree at ``top``: in ``.git``, or,
    when ``.git`` is a file (``gitdir: PATH``: a linked work tree, a submodule), in the
    folder its gitdir's ``commondir`` names, else in the gitdir (``git rev-parse
    --git-path info/exclude``). Read, never run; a link or non-regular file is not read."""
    gitdir = os.path.join(top, ".git")
    text = _small_file(gitdir)
    if text is not None:
        if not text.startswith("gitdir:"):
            return os.path.join(gitdir, "info", "exclude")
        gitdir = os.path.join(top, text[len("gitdir:") :].strip())
        common = _small_file(os.path.join(gitdir, "commondir"))
        if common:
            gitdir = os.path.join(gitdir, common.strip())
    return os.path.normpath(os.path.join(gitdir, "info", "exclude"))


def _small_file(path: str) -> str | None:
    """The first line of a regular file (never a link, FIFO or device), else ``None``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, 4096).decode("utf-8", "replace").split("\n", 1)[0]
    except OSError:
        return None
    finally:
        os.close(fd)
