"""Every git call memlint makes: pinned to one repository, hardened so that nothing
in the repository chooses a program for git to run.

A repository is hostile input: a committed folder that looks like a git directory,
or a ``.git/config`` unpacked from an archive, can name programs (a promisor
remote's ``uploadpack``, ``core.fsmonitor``, a pager, an ssh command...). So:

- the work tree is found first, by walking up from the file in Python to the first
  ``.git``; a folder on the way that looks like a git directory is refused, and git
  must agree that the work tree is that folder and its git dir ``<top>/.git``;
- every later call names that git dir and work tree explicitly (no discovery);
- settings given on git's command line (which win over every config file) and the
  environment turn off each way a config file could start a program or reach out;
- only commands that run no diff driver, textconv or filter (``rev-parse``,
  ``cat-file blob``, ``ls-files``, ``diff --name-status --no-ext-diff --no-textconv``);
- git is found on ``PATH`` (absolute entries only), runs with no stdin, no pager,
  no optional locks and a timeout; ``GIT_*`` variables other than the ones listed
  in ``KEPT_ENV`` are dropped.
"""

from __future__ import annotations

import os

from memlint.records import NamedTuple

GIT_TIMEOUT = 20
consulted = False  # whether this process looked for a repository (``replay`` records no such run)
STAGED = ":0:"
NOT_A_REPOSITORY = "not in a git repository"

HARDENING = (
    "safe.bareRepository=explicit",  # never use a bare-looking folder found by discovery
    "core.fsmonitor=false",  # a program run whenever the index is read
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.askPass=",
    "core.sshCommand=",
    "credential.helper=",
    "diff.external=",
    "protocol.allow=never",
)
HARDENING_ENV = {
    "GIT_NO_LAZY_FETCH": "1",  # a partial clone's missing object is never fetched
    "GIT_ALLOW_PROTOCOL": "",  # no transport, whatever protocol.<name>.allow says
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "GIT_OPTIONAL_LOCKS": "0",
}
# the user's own settings (GIT_INDEX_FILE is kept when it lies in the git dir)
KEPT_ENV = ("GIT_CEILING_DIRECTORIES", "GIT_CONFIG_GLOBAL")


class GitUnavailable(Exception):
    """Why git cannot answer (shown as a one-line notice)."""


class GitRefused(GitUnavailable):
    """git is not run because the work tree looks tampered with: a check that needs git
    fails closed (reports this) rather than passing unchecked."""


class Repository(NamedTuple):
    """A work tree memlint may run git in: its root and its git directory (real paths)."""

    top: str
    git_dir: str


def _program(top: str) -> str:
    """git's absolute path, from the absolute entries of ``PATH`` outside the work tree
    ``top`` only (a relative entry, or an activated virtualenv or ``node_modules/.bin``
    inside the checkout, would find a ``git`` committed to the repository)."""
    names = ("git.exe", "git") if os.name == "nt" else ("git",)
    work_tree = os.path.join(os.path.realpath(top), "")
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        in_tree = os.path.join(os.path.realpath(folder), "").startswith(work_tree)
        if not os.path.isabs(folder) or in_tree:
            continue
        for name in names:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    raise GitUnavailable("git is not installed")


def _environment(git_dir: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in KEPT_ENV}
    index = os.environ.get("GIT_INDEX_FILE")
    if index and git_dir is not None:  # a pre-commit hook's index of a partial commit
        index = os.path.realpath(index)
        if os.path.dirname(index) == git_dir:
            env["GIT_INDEX_FILE"] = index
    env.update(HARDENING_ENV)
    return env


def _run(where: str, repo: Repository | None, *args: str, env=None) -> bytes:
    """``git args`` run in the folder ``where``, in ``repo`` (else found from ``where``)."""
    import subprocess  # only runs that read git pay for the import

    command = [_program(repo.top if repo is not None else where), "--no-pager", "-C", where]
    if repo is not None:
        command += [f"--git-dir={repo.git_dir}", f"--work-tree={repo.top}"]
    for setting in HARDENING:
        command += ["-c", setting]
    try:
        done = subprocess.run(
            [*command, *args],
            capture_output=True,
            timeout=GIT_TIMEOUT,
            env=env or _environment(repo.git_dir if repo else None),
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise GitUnavailable(f"git did not answer within {GIT_TIMEOUT} s") from None
    except OSError as exc:
        raise GitUnavailable(f"cannot run git ({exc.strerror})") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitUnavailable(lines[-1] if lines else f"git exited with {done.returncode}")
    return done.stdout


def _looks_like_git_dir(folder: str) -> bool:
    """Whether git's discovery could take ``folder`` for a (bare) git directory."""
    has = os.path.lexists
    return has(os.path.join(folder, "HEAD")) and (
        has(os.path.join(folder, "objects")) or has(os.path.join(folder, "commondir"))
    )


def _work_tree_top(folder: str) -> str:
    """The nearest folder at or above ``folder`` holding ``.git``, walking as git would;
    a folder on the way that looks like a git directory is refused."""
    global consulted
    consulted = True
    ceilings = {
        os.path.realpath(path)
        for path in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep)
        if os.path.isabs(path)
    }
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        if _looks_like_git_dir(folder):
            raise GitRefused(
                f"{folder} looks like a git directory inside the work tree; git is not run there"
            )
        parent = os.path.dirname(folder)
        if parent == folder or parent in ceilings:
            raise GitUnavailable(NOT_A_REPOSITORY)
        folder = parent


def _pin(top: str) -> Repository:
    """The repository at ``top``, once git agrees its work tree is ``top`` and its
    git dir ``<top>/.git`` (or what a ``.git`` file there names)."""
    env = _environment(None)
    env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(top)  # never look above ``top``
    out = _run(top, None, "rev-parse", "--show-toplevel", "--absolute-git-dir", env=env)
    lines = out.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) != 2 or os.path.realpath(lines[0]) != top:
        raise GitUnavailable(f"git does not take {top} for the work tree")
    git_dir = os.path.realpath(lines[1])
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git) and git_dir != os.path.realpath(dot_git):
        raise GitUnavailable(f"git's directory for {top} is not {dot_git}")
    return Repository(top, git_dir)


def repository(folder: str) -> Repository:
    """The repository whose work tree holds ``folder``."""
    return _pin(_work_tree_top(os.path.realpath(folder)))


def repo_path(path: str) -> tuple[Repository, str]:
    """The repository holding ``path`` and ``path`` relative to its top (with ``/``)."""
    repo = repository(os.path.dirname(os.path.abspath(path)))
    rel = os.path.relpath(os.path.realpath(os.path.abspath(path)), repo.top)
    if rel.startswith(".."):
        raise GitUnavailable(NOT_A_REPOSITORY)
    return repo, rel.replace(os.sep, "/")


def resolve(repo: Repository, rev: str) -> str:
    """The commit id ``rev`` names (``rev`` may not start with ``-``)."""
    if not rev or rev.startswith("-") or "\n" in rev or "\x00" in rev:
        raise GitUnavailable(f"invalid revision {rev!r}")
    try:
        out = _run(repo.top, repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except GitUnavailable:
        raise GitUnavailable(f"unknown revision {rev!r}") from None
    return out.decode("ascii", "replace").strip()


def content_at(repo: Repository, commit: str, rel: str) -> bytes:
    """``rel``'s bytes in ``commit``, or in the index when ``commit`` is :data:`STAGED`."""
    where = f"{STAGED}{rel}" if commit == STAGED else f"{commit}:{rel}"
    try:
        return _run(repo.top, repo, "cat-file", "blob", where)
    except GitUnavailable:
        place = "the index" if commit == STAGED else commit[:12]
        raise GitUnavailable(f"the file is not in {place}") from None


def listed(repo: Repository, folder: str, *options: str) -> set[str]:
    """``git ls-files -z options -- .`` in ``folder``: paths relative to ``folder``."""
    out = _run(folder, repo, "ls-files", "-z", *options, "--", ".")
    return {part for part in out.decode("utf-8", "surrogateescape").split("\0") if part}


def staged_changes(folder: str) -> tuple[list[str], list[str]]:
    """The paths the staged change adds or modifies, and those it deletes (a rename is
    both: renames are not detected), for the work tree holding ``folder``; absolute,
    below ``folder``'s own spelling of the work tree's top (``folder`` may be reached
    through a symlink)."""
    repo = repository(folder)
    names = ("--name-status", "--no-renames", "--no-ext-diff", "--no-textconv", "-z")
    out = _run(repo.top, repo, "diff", "--cached", *names)
    top = os.path.abspath(folder)
    while os.path.realpath(top) != repo.top and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    fields = out.split(b"\0")
    changed: list[str] = []
    deleted: list[str] = []
    for status, name in zip(fields[0::2], fields[1::2], strict=False):
        if not status:
            continue
        path = os.path.join(top, os.fsdecode(name))
        (deleted if status.startswith(b"D") else changed).append(path)
    return changed, deleted
