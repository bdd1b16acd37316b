"""GT001 against a real git repository."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.helpers import lint_dir, summary, write_files

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

FILES = {
    "memory/MEMORY.md": "- [Role](user_role.md) — who\n- [Prefs](user_prefs.md) — tea\n",
    "memory/user_role.md": "---\nname: Role\ndescription: who\ntype: user\n---\nBody\n",
    "memory/user_prefs.md": "---\nname: Prefs\ndescription: tea\ntype: user\n---\nBody\n",
    "memory/user_secret.md": "---\nname: S\ndescription: s\ntype: user\n---\nBody\n",
    ".gitignore": "memory/user_secret.md\n",
}


def _git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _lint(root, monkeypatch, local_only=True):
    monkeypatch.chdir(root)
    config = {"stores": [{"path": "memory", "local-only": local_only}]}
    return summary(lint_dir(root, select=["GT001"], config=config))


def test_tracked_and_trackable_files_are_reported(tmp_path, monkeypatch):
    write_files(tmp_path, FILES)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "memory/user_role.md")
    found = _lint(tmp_path, monkeypatch)
    assert found == [
        ("GT001", "memory/MEMORY.md", 1, 1),
        ("GT001", "memory/user_prefs.md", 1, 1),
        ("GT001", "memory/user_role.md", 1, 1),
    ]


def test_ignored_store_and_non_local_store_pass(tmp_path, monkeypatch):
    write_files(tmp_path, {**FILES, ".gitignore": "memory/\n"})
    _git(tmp_path, "init", "-q")
    assert _lint(tmp_path, monkeypatch) == []
    assert _lint(tmp_path, monkeypatch, local_only=False) == []


def test_outside_a_repository_nothing_is_reported(tmp_path, monkeypatch):
    write_files(tmp_path, FILES)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert _lint(tmp_path, monkeypatch) == []
