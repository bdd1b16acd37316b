"""Reading a file's content at a git revision (or in the index) for the append-only check.

git runs as a subprocess with ``-C``, a timeout, no pager, no optional locks and
no fsmonitor hook; revisions starting with ``-`` are refused so they cannot be
read as options, and every path is addressed as ``<commit>:<path>``.
"""

from __future__ import annotations

import os

GIT_TIMEOUT = 20
STAGED = ":"


class GitUnavailable(Exception):
    """Why the content at a revision cannot be read (shown as a one-line notice)."""


def _git(directory: str, *args: str) -> bytes:
    import subprocess  # only runs that read git pay for the import

    command = ["git", "-C", directory, "-c", "core.fsmonitor=false", "--no-pager", *args]
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(
            command, capture_output=True, timeout=GIT_TIMEOUT, env=env, stdin=subprocess.DEVNULL
        )
    except FileNotFoundError:
        raise GitUnavailable("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitUnavailable(f"git did not answer within {GIT_TIMEOUT} s") from None
    except OSError as exc:
        raise GitUnavailable(f"cannot run git ({exc.strerror})") from None
    if done.returncode != 0:
        raise GitUnavailable(
            done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:][0]
            if done.stderr.strip()
            else f"git exited with {done.returncode}"
        )
    return done.stdout


def repo_path(path: str) -> tuple[str, str]:
    """The work tree root holding ``path`` and ``path`` relative to it (with ``/``)."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        top = _git(directory, "rev-parse", "--show-toplevel").decode("utf-8").strip()
    except GitUnavailable:
        raise GitUnavailable("not in a git repository") from None
    real = os.path.realpath(os.path.abspath(path))
    rel = os.path.relpath(real, os.path.realpath(top))
    if rel.startswith(".."):
        raise GitUnavailable("not in a git repository")
    return top, rel.replace(os.sep, "/")


def resolve(top: str, rev: str) -> str:
    """The commit id ``rev`` names (``rev`` may not start with ``-``)."""
    if not rev or rev.startswith("-") or "\n" in rev or "\x00" in rev:
        raise GitUnavailable(f"invalid revision {rev!r}")
    try:
        out = _git(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except GitUnavailable:
        raise GitUnavailable(f"unknown revision {rev!r}") from None
    return out.decode("ascii", "replace").strip()


def content_at(top: str, commit: str, rel: str) -> bytes:
    """``rel``'s bytes in ``commit``, or in the index when ``commit`` is :data:`STAGED`."""
    where = f":{rel}" if commit == STAGED else f"{commit}:{rel}"
    try:
        return _git(top, "cat-file", "blob", where)
    except GitUnavailable:
        place = "the index" if commit == STAGED else commit[:12]
        raise GitUnavailable(f"the file is not in {place}") from None
