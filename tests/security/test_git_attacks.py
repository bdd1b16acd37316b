"""A repository that names programs in git config never gets them run.

Every test plants config that would make git run ``touch <marker>`` (one marker
per setting), runs the real ``memlint`` the way CI and pre-commit do, and asserts
that no marker was created.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.security.common import memlint

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NOTE = '{"time":"2024-01-01T00:00:00Z","project":"p","fact":"one fact."}\n'
MISSING = "0123456789012345678901234567890123456789"  # an object no repository holds
HOOKS = (
    "pre-commit",
    "post-checkout",
    "post-index-change",
    "reference-transaction",
    "fsmonitor-watchman",
)
GT001_CONFIG = 'extend-select = ["GT001"]\n\n[[stores]]\npath = "notes"\nlocal-only = true\n'


def _program_settings(markers) -> str:
    """Config that names a program (``touch markers/<setting>``) in every place git reads one."""

    def touch(name: str) -> str:
        return f"touch {markers / name}"

    return f"""[core]
\tfsmonitor = {touch("fsmonitor")}
\tpager = {touch("pager")}
\tsshCommand = {touch("sshCommand")}
\taskPass = {touch("askPass")}
\teditor = {touch("editor")}
\tgitProxy = {touch("gitProxy")}
[extensions]
\tpartialClone = origin
[remote "origin"]
\turl = {markers}/nowhere.git
\tpromisor = true
\tuploadpack = {touch("uploadpack")}
[remote "over-ssh"]
\turl = ssh://example.invalid/x.git
\tpromisor = true
[remote "over-ext"]
\turl = ext::sh -c touch% {markers}/ext
\tpromisor = true
[protocol]
\tallow = always
[protocol "file"]
\tallow = always
[protocol "ext"]
\tallow = always
[credential]
\thelper = !{touch("credential")}
[diff]
\texternal = {touch("diff-external")}
[diff "x"]
\ttextconv = {touch("textconv")}
\tcommand = {touch("diff-command")}
[filter "x"]
\tclean = {touch("clean")}
\tsmudge = {touch("smudge")}
\tprocess = {touch("process")}
[gpg]
\tprogram = {touch("gpg")}
[pager]
\trev-parse = {touch("pager-rev-parse")}
\tcat-file = {touch("pager-cat-file")}
\tls-files = {touch("pager-ls-files")}
"""


def _write_hooks(folder, markers) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in HOOKS:
        hook = folder / name
        hook.write_text(f"#!/bin/sh\ntouch {markers / ('hook-' + name)}\n")
        hook.chmod(0o755)


def _git(cwd, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _commit_and_clone(tmp_path, build) -> object:
    """A repository built by ``build(work_tree)``, committed, then cloned (as CI checks out)."""
    origin = tmp_path / "origin"
    origin.mkdir()
    _git(origin, "init", "-q")
    _git(origin, "config", "user.email", "a@example.com")
    _git(origin, "config", "user.name", "t")
    build(origin)
    (origin / ".memlint.toml").write_text(GT001_CONFIG)
    (origin / ".gitattributes").write_text("* diff=x filter=x\n")
    _git(origin, "add", "-A")
    _git(origin, "commit", "-qm", "x")
    _git(tmp_path, "clone", "-q", "origin", "clone")
    return tmp_path / "clone"


@pytest.fixture
def markers(tmp_path):
    folder = tmp_path / "markers"
    folder.mkdir()
    return folder


@pytest.fixture
def embedded(tmp_path, markers):
    """The issue's attack: a committed ``notes/`` folder that looks like a git
    directory (HEAD, objects, refs, config) beside the note store."""

    def build(work_tree):
        notes = work_tree / "notes"
        (notes / "objects" / "info").mkdir(parents=True)
        (notes / "objects" / "info" / ".keep").write_text("")
        (notes / "refs" / "heads").mkdir(parents=True)
        (notes / "refs" / "heads" / "main").write_text(MISSING + "\n")
        (notes / "HEAD").write_text("ref: refs/heads/main\n")
        (notes / "notes.jsonl").write_text(NOTE)
        header = "[core]\n\trepositoryformatversion = 1\n\tbare = false\n\tworktree = .\n"
        header += "\thooksPath = hooks\n"
        (notes / "config").write_text(header + _program_settings(markers))
        _write_hooks(notes / "hooks", markers)

    return _commit_and_clone(tmp_path, build)


@pytest.fixture
def hostile_git_dir(tmp_path, markers):
    """A checkout whose own ``.git/config`` and hooks name programs (a repository
    unpacked from an archive, or a tampered one)."""

    def build(work_tree):
        (work_tree / "notes").mkdir()
        (work_tree / "notes" / "notes.jsonl").write_text(NOTE)

    clone = _commit_and_clone(tmp_path, build)
    (clone / "notes" / "notes.jsonl").write_text(NOTE + NOTE.replace("one", "two"))
    _git(clone, "add", "-A")  # a staged change, for --staged
    config = clone / ".git" / "config"
    text = config.read_text().replace("repositoryformatversion = 0", "repositoryformatversion = 1")
    config.write_text(text + _program_settings(markers))
    _write_hooks(clone / ".git" / "hooks", markers)
    return clone


RUNS = {
    "base": (["check", "--isolated", "--base", "HEAD", "notes/notes.jsonl"], {}),
    "base-missing-object": (["check", "--isolated", "--base", MISSING, "notes/notes.jsonl"], {}),
    "pre-commit": (["check", "--isolated", "notes/notes.jsonl"], {"PRE_COMMIT": "1"}),
    "gt001-from-repo-config": (["check", "."], {}),
}
STAGED_RUN = (["check", "--isolated", "--staged"], {})


@pytest.mark.parametrize("run", list(RUNS))
def test_embedded_git_folder_never_runs_a_program(embedded, markers, run):
    args, env = RUNS[run]
    done = memlint(embedded, *args, env=env)
    assert sorted(p.name for p in markers.iterdir()) == []
    assert "Traceback" not in done.stderr and done.returncode in (0, 1)
    assert "looks like a git directory" in done.stderr + done.stdout  # says why


@pytest.mark.parametrize("run", [*RUNS, "staged"])
def test_hostile_config_of_the_checkout_never_runs_a_program(hostile_git_dir, markers, run):
    args, env = STAGED_RUN if run == "staged" else RUNS[run]
    done = memlint(hostile_git_dir, *args, env=env)
    assert sorted(p.name for p in markers.iterdir()) == []
    assert "Traceback" not in done.stderr and done.returncode in (0, 1)


def test_gt001_still_reports_through_the_hardened_git(hostile_git_dir, markers):
    done = memlint(hostile_git_dir, "check", "--output-format", "concise", ".")
    assert "notes/notes.jsonl:1:1: GT001" in done.stdout
    assert sorted(p.name for p in markers.iterdir()) == []


def test_a_git_program_committed_to_the_repository_is_not_run(embedded, markers):
    fake = embedded / "git"
    fake.write_text(f"#!/bin/sh\ntouch {markers / 'fake-git'}\n")
    fake.chmod(0o755)
    path = os.pathsep.join([".", os.environ["PATH"]])  # a relative entry finds ./git
    memlint(embedded, "check", "--isolated", "--base", "HEAD", "notes/", env={"PATH": path})
    assert sorted(p.name for p in markers.iterdir()) == []


def test_only_gitbase_starts_processes():
    """Every program memlint runs goes through the hardened module."""
    src = Path(__file__).resolve().parents[2] / "src" / "memlint"
    starting = {"subprocess", "Popen", "os.system", "os.exec", "os.spawn", "os.popen"}
    found = [
        str(path.relative_to(src))
        for path in src.rglob("*.py")
        if path.name != "gitbase.py" and any(word in path.read_text("utf-8") for word in starting)
    ]
    assert found == []
