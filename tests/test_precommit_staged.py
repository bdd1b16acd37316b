"""The ``memlint-staged`` hook, run by real pre-commit on scratch git repositories:
deletions, renames, index-only edits and unindexed additions inside a store are caught.

The hook is declared as a ``repo: local`` hook built from this checkout's manifest
(its ``pass_filenames``, ``always_run`` and arguments), run with ``language: system``
by this interpreter, so no package index is needed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import write_files

CHECKOUT = Path(__file__).resolve().parents[1]
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "memlint tests",
    "GIT_AUTHOR_EMAIL": "tests@invalid",
    "GIT_COMMITTER_NAME": "memlint tests",
    "GIT_COMMITTER_EMAIL": "tests@invalid",
}


def memory(name: str) -> str:
    return f"---\nname: {name}\ndescription: about {name}\ntype: user\n---\nBody of {name}.\n"


STORE = {
    ".claude/memory/MEMORY.md": "# Memory\n\n- [A](user_a.md) — a\n- [B](user_b.md) — b\n",
    ".claude/memory/user_a.md": memory("user_a"),
    ".claude/memory/user_b.md": memory("user_b"),
    "README.md": "# Project\n",
}


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def _hook(hook_id: str) -> dict:
    """The manifest's hook, as a local hook run by this interpreter and checkout."""
    manifest = yaml.safe_load((CHECKOUT / ".pre-commit-hooks.yaml").read_text())
    hook = dict(next(h for h in manifest if h["id"] == hook_id))
    command, *args = shlex.split(hook["entry"])
    assert command == "memlint"
    hook["entry"] = shlex.join([sys.executable, "-m", "memlint", *args, "--no-cache"])
    hook["language"] = "system"
    hook.pop("minimum_pre_commit_version", None)
    return hook


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, **GIT_ENV}
    subprocess.run([_tool("git"), "-C", str(repo), *args], check=True, env=env, timeout=60)


@pytest.fixture
def repo(tmp_path) -> Path:
    _tool("pre-commit")
    write_files(tmp_path, STORE)
    config = {"repos": [{"repo": "local", "hooks": [_hook("memlint-staged")]}]}
    (tmp_path / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "base")
    return tmp_path


def pre_commit(repo: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        **GIT_ENV,
        "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"),
        "PRE_COMMIT_COLOR": "never",
        "PYTHONPATH": str(CHECKOUT / "src"),
    }
    return subprocess.run(
        [_tool("pre-commit"), "run", "--verbose"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_clean_change_and_an_unrelated_change_pass(repo):
    (repo / "README.md").write_text("# Project\n\nMore.\n")
    git(repo, "add", "README.md")
    done = pre_commit(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "memlint (stores the staged change touches)" in done.stdout


def test_deleting_an_indexed_memory_fails(repo):
    git(repo, "rm", "-q", ".claude/memory/user_b.md")
    done = pre_commit(repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "IX003 error: `user_b.md` does not exist" in done.stdout
    assert "--> .claude/memory/MEMORY.md:4:7" in done.stdout


def test_renaming_a_memory_without_the_index_fails(repo):
    git(repo, "mv", ".claude/memory/user_b.md", ".claude/memory/user_bee.md")
    done = pre_commit(repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "IX003 error: `user_b.md` does not exist" in done.stdout
    assert "the memory named `user_b` is the file `user_bee.md`" in done.stdout
    assert "--> .claude/memory/MEMORY.md:4:7" in done.stdout


def test_an_index_only_edit_that_drops_an_entry_fails(repo):
    index = repo / ".claude/memory/MEMORY.md"
    index.write_text("# Memory\n\n- [A](user_a.md) — a\n")
    git(repo, "add", ".claude/memory/MEMORY.md")
    done = pre_commit(repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "IX002 [*] error" in done.stdout and "--> .claude/memory/user_b.md:1:1" in done.stdout


def test_adding_an_unindexed_memory_fails(repo):
    write_files(repo, {".claude/memory/user_c.md": memory("user_c")})
    git(repo, "add", ".claude/memory/user_c.md")
    done = pre_commit(repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "IX002 [*] error" in done.stdout and "--> .claude/memory/user_c.md:1:1" in done.stdout
