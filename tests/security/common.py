"""Running the real ``memlint`` command as a subprocess, as CI and pre-commit do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def memlint(
    cwd: Path, *args: str, env: dict[str, str] | None = None, cache_home: Path | None = None
):
    """``python -m memlint args`` in ``cwd`` (``PYTHONPATH`` is inherited, so the sources
    under test run); the user cache lives in ``cache_home`` (default: ``cwd``'s parent)."""
    full_env = {k: v for k, v in os.environ.items() if k != "PRE_COMMIT"}
    full_env["XDG_CACHE_HOME"] = str(cache_home or cwd.parent / "user-cache")
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "memlint", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_plain(cwd: Path, *argv: str, env: dict | None = None, stdin: bytes | None = None):
    """``python -m memlint argv`` in ``cwd`` without colour; output as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "memlint", *argv],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        timeout=120,
        check=False,
        input=stdin,
    )
