"""A cache memlint did not write never changes what it reports, and memlint never
writes through a cache folder someone else controls."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.security.common import memlint

SECRET_MEMORY = (
    "---\nname: deploy\ndescription: How staging deploys run\ntype: project\n---\n"
    "Log in to the staging dashboard as `deploy`, password: hunter2-correct-horse\n\n"
    "**Why:** staging is shared.\n\n**How to apply:** before each deploy.\n"
)
INDEX = "# Memory\n\n- [Deploy](project_deploy.md) — how staging deploys run\n"

# The attacker's own memlint: PV001 finds nothing. Run at the victim's path, it writes
# a cache that says "no findings" for the store holding the password.
FORGE = """
import sys
import memlint.rules.pv.pv001_credential as rule
rule.check = lambda ctx, source: iter(())
from memlint.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "project"
    store = root / "memory"
    store.mkdir(parents=True)
    (store / "MEMORY.md").write_text(INDEX)
    (store / "project_deploy.md").write_text(SECRET_MEMORY)
    return root


def _forge(project: Path, attacker_home: Path, *args: str) -> None:
    """The attacker's run, writing its cache where the victim's run may look."""
    env = {**os.environ, "XDG_CACHE_HOME": str(attacker_home)}
    done = subprocess.run(
        [sys.executable, "-c", FORGE, "check", ".", "--exit-zero", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "PV001" not in done.stdout, done.stderr


def _checkout_again(project: Path) -> None:
    """The files as a fresh checkout writes them: same bytes, new mtime."""
    for path in project.rglob("*.md"):
        path.write_bytes(path.read_bytes())


def _reports_the_password(done) -> bool:
    return done.returncode == 1 and "PV001" in done.stdout


def test_a_cache_committed_in_the_work_tree_is_never_read(project, tmp_path):
    _forge(project, tmp_path / "attacker-cache", "--cache-dir", ".memlint_cache")
    assert list((project / ".memlint_cache").glob("*"))  # the planted cache
    _checkout_again(project)
    done = memlint(project, "check", ".", "--output-format", "concise")
    assert _reports_the_password(done), done.stdout + done.stderr


def test_a_cache_sealed_with_another_users_key_is_never_used(project, tmp_path):
    """CI that still passes ``--cache-dir`` pointing into the checkout."""
    _forge(project, tmp_path / "attacker-cache", "--cache-dir", ".memlint_cache")
    _checkout_again(project)
    done = memlint(
        project, "check", ".", "--output-format", "concise", "--cache-dir", ".memlint_cache"
    )
    assert _reports_the_password(done), done.stdout + done.stderr
    again = memlint(
        project, "check", ".", "--output-format", "concise", "--cache-dir", ".memlint_cache"
    )
    assert again.stdout == done.stdout  # its own cache, now warm, says the same


def test_a_symlinked_cache_folder_is_refused(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "cache-link").symlink_to(outside)
    done = memlint(project, "check", ".", "--output-format", "concise", "--cache-dir", "cache-link")
    assert _reports_the_password(done)
    assert "symlink" in done.stderr and "without the cache" in done.stderr
    assert list(outside.iterdir()) == []


def test_a_cache_folder_below_a_symlinked_folder_is_refused(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "build").symlink_to(outside)
    args = ("check", ".", "--output-format", "concise", "--cache-dir", "build/cache")
    done = memlint(project, *args)
    assert _reports_the_password(done)
    assert "symlink" in done.stderr and list(outside.iterdir()) == []


def test_a_committed_cache_symlink_is_never_written_through(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".memlint_cache").symlink_to(outside)
    done = memlint(project, "check", ".", "--output-format", "concise")
    assert _reports_the_password(done)
    assert list(outside.iterdir()) == []


def test_a_symlinked_user_cache_folder_is_refused(project, tmp_path):
    home = tmp_path / "user-cache"
    home.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (home / "memlint").symlink_to(outside)
    done = memlint(project, "check", ".", "--output-format", "concise", cache_home=home)
    assert _reports_the_password(done)
    assert "without the cache" in done.stderr
    assert list(outside.iterdir()) == []


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_a_cache_key_others_can_read_is_refused(project, tmp_path):
    home = tmp_path / "user-cache"
    memlint(project, "check", ".", cache_home=home)
    key = home / "memlint" / "key"
    assert key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)
    done = memlint(project, "check", ".", "--output-format", "concise", cache_home=home)
    assert _reports_the_password(done)
    assert "not a private file" in done.stderr


@pytest.mark.parametrize("folder", ["memory", "."])
def test_a_cache_folder_holding_other_files_is_never_written_into(project, folder):
    """``--cache-dir`` naming a store (or the checkout): memlint's ``.gitignore`` of
    ``*`` there would make the next run pass over the store and its password."""
    before = sorted(p.name for p in (project / folder).iterdir())
    done = memlint(project, "check", ".", "--output-format", "concise", "--cache-dir", folder)
    assert _reports_the_password(done)
    assert "without the cache" in done.stderr
    assert sorted(p.name for p in (project / folder).iterdir()) == before
    assert _reports_the_password(memlint(project, "check", ".", "--output-format", "concise"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_clean_never_waits_on_a_fifo_named_like_the_cache_tag(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    os.mkfifo(folder / "CACHEDIR.TAG")
    done = memlint(tmp_path, "clean", "--cache-dir", "cache")
    assert done.returncode == 2 and "not removed" in done.stderr
    assert (folder / "CACHEDIR.TAG").exists()
