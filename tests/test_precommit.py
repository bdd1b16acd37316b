"""The pre-commit hooks, run for real with ``pre-commit try-repo``.

``try-repo`` sees tracked files only, so the hook repository is a snapshot
of this working tree (package, ``pyproject.toml``, hook manifest) committed
in a temporary git repository; pre-commit installs it into a fresh virtualenv
under ``PRE_COMMIT_HOME`` (the package index must be reachable for the build
backend and the dependencies).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import write_files

CHECKOUT = Path(__file__).resolve().parents[1]
GOOD = {
    "good/MEMORY.md": "# Memory\n\n- [Tea](user_tea.md) — tea\n",
    "good/user_tea.md": "---\nname: user_tea\ndescription: tea\ntype: user\n---\nGreen tea.\n",
}
BAD = {
    "bad/MEMORY.md": "# Memory\n\n- [Tea](user_tea.md) — tea\n",
    "bad/user_tea.md": {
        "bytes": "---\nname: user_tea\ndescription: tea\ntype: user\n---\ncaf\xe9\n"
    },
}
FIXABLE = {
    "fixable/MEMORY.md": "# Memory\n\n- [Tea](user_tea.md) — tea\n",
    "fixable/user_tea.md": "---\nname: user_tea\ndescription: tea\ntype: user\n---\nno newline",
}


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "memlint tests",
    "GIT_AUTHOR_EMAIL": "tests@invalid",
    "GIT_COMMITTER_NAME": "memlint tests",
    "GIT_COMMITTER_EMAIL": "tests@invalid",
}
SNAPSHOT = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "src")


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory):
    _tool("git")
    _tool("pre-commit")
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """This working tree's package and hook manifest, committed in a scratch repository."""
    repo = tmp_path_factory.mktemp("hook-repo")
    for name in SNAPSHOT:
        source = CHECKOUT / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, repo / name)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "snapshot")
    return repo


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, **GIT_ENV}
    subprocess.run([_tool("git"), "-C", str(repo), *args], check=True, env=env, timeout=60)


def _repo(tmp_path: Path, files: dict) -> Path:
    write_files(tmp_path, files)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    return tmp_path


def _try_repo(repo: Path, hook: str, home: Path, hook_repo: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    cmd = [_tool("pre-commit"), "try-repo", str(hook_repo), hook, "--all-files", "--verbose"]
    return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def test_manifest_is_valid():
    result = subprocess.run(
        [_tool("pre-commit"), "validate-manifest", str(CHECKOUT / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_hook_passes_good_and_fails_bad_store(tmp_path, pre_commit_home, hook_repo):
    good = _try_repo(_repo(tmp_path / "g", GOOD), "memlint", pre_commit_home, hook_repo)
    assert good.returncode == 0, good.stdout + good.stderr
    bad_repo = _repo(tmp_path / "b", {**GOOD, **BAD})
    bad = _try_repo(bad_repo, "memlint", pre_commit_home, hook_repo)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "FS002" in bad.stdout and "bad/user_tea.md" in bad.stdout


def test_fix_hook_modifies_and_fails(tmp_path, pre_commit_home, hook_repo):
    repo = _repo(tmp_path, FIXABLE)
    result = _try_repo(repo, "memlint-fix", pre_commit_home, hook_repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "files were modified by this hook" in result.stdout
    assert (repo / "fixable/user_tea.md").read_text(encoding="utf-8").endswith("no newline\n")
