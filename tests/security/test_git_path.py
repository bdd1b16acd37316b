"""git is never run from inside the repository it is asked about."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.security.common import memlint
from tests.security.test_git_attacks import embedded, markers  # noqa: F401 (fixtures)

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
