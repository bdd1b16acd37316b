"""The repository can neither choose the git program nor switch a git check off."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.security.common import memlint
from tests.security.test_git_attacks import GT001_CONFIG, NOTE, embedded, markers  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_a_git_in_an_absolute_path_entry_inside_the_work_tree_is_not_run(embedded, markers):  # noqa: F811
    """An activated virtualenv or ``node_modules/.bin`` inside the checkout puts an
    absolute folder of the repository first on ``PATH``."""
    folder = embedded / ".venv" / "bin"
    folder.mkdir(parents=True)
    fake = folder / "git"
    fake.write_text(f"#!/bin/sh\ntouch {markers / 'fake-git'}\nexit 1\n")
    fake.chmod(0o755)
    path = os.pathsep.join([str(folder), os.environ["PATH"]])
    (embedded / "notes" / "HEAD").unlink()  # no longer looks like a git directory
    done = memlint(embedded, "check", "--isolated", "--base", "HEAD", "notes/", env={"PATH": path})
    assert sorted(p.name for p in markers.iterdir()) == []
    assert "Traceback" not in done.stderr and "NT016 skipped" not in done.stderr, done.stderr


def test_a_decoy_git_folder_does_not_switch_the_append_only_check_off(tmp_path):
    """A pull request that rewrites a note store's history and adds ``notes/HEAD`` and
    ``notes/objects/`` (so that git is not run there) must not pass."""

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "notes.jsonl").write_text(NOTE + NOTE.replace("one", "two"))
    git("init", "-q")
    git(
        "-c",
        "user.email=a@example.com",
        "-c",
        "user.name=t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "0",
    )
    git("add", "-A")
    git("-c", "user.email=a@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base")
    (notes / "notes.jsonl").write_text(NOTE.replace("one fact", "rewritten"))
    (notes / "objects").mkdir()
    (notes / "HEAD").write_text("")
    for args, env in (
        (["--base", "HEAD"], {}),
        ([], {"PRE_COMMIT": "1"}),
    ):
        if env:
            git("add", "-A")
        done = memlint(tmp_path, "check", "--isolated", *args, "notes/notes.jsonl", env=env)
        assert done.returncode == 1 and "NT016" in done.stdout, done.stdout + done.stderr
        assert "looks like a git directory" in done.stdout


def test_a_decoy_git_folder_does_not_switch_gt001_off(tmp_path):
    """A local-only store committed together with ``HEAD`` and ``objects/`` in it."""
    (tmp_path / ".memlint.toml").write_text(GT001_CONFIG)
    notes = tmp_path / "notes"
    (notes / "objects").mkdir(parents=True)
    (notes / "HEAD").write_text("")
    (notes / "notes.jsonl").write_text(NOTE)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True, capture_output=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True, capture_output=True)
    done = memlint(tmp_path, "check", "--output-format", "concise", ".")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "notes/notes.jsonl:1:1: GT001 error: cannot tell whether git tracks" in done.stdout
