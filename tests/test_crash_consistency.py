"""SIGKILL a ``--fix`` run at random moments: every file is wholly old or wholly new.

A killed run may leave a ``.memlint-<hex>.tmp`` file (written and fsynced, never
renamed); the next fixing run removes it, which this test checks too.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from memlint.config import Settings
from memlint.engine import selected_rules
from memlint.fixer import fix_paths
from memlint.writer import TEMP_PREFIX

TRIALS = 30
FILES = 30
BUDGET_SECONDS = 25


def _old(i: int) -> bytes:
    return f"\ufeff---\nname: m{i}\ndescription: d\n---\nbody {i} é".encode()


def _new(i: int) -> bytes:
    return f"---\nname: m{i}\ndescription: d\n---\nbody {i} é\n".encode()


def _store(root) -> None:
    root.mkdir()
    (root / "MEMORY.md").write_bytes(
        "".join(f"- [m{i}](m{i}.md) — d\n" for i in range(FILES)).encode()
    )
    for i in range(FILES):
        (root / f"m{i}.md").write_bytes(_old(i))


def _fix(root, wait: float | None):
    proc = subprocess.Popen(
        [sys.executable, "-m", "memlint", "check", "--fix", "-q", "--select", "FS003,FS008", "."],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if wait is None:
        return proc.wait(timeout=60)
    time.sleep(wait)
    proc.send_signal(signal.SIGKILL)
    return proc.wait(timeout=60)


def test_sigkill_leaves_each_file_old_or_new(tmp_path):
    rng = random.Random(20240607)
    started = time.monotonic()
    baseline = tmp_path / "baseline"
    _store(baseline)
    _fix(baseline, None)
    runtime = time.monotonic() - started
    assert all((baseline / f"m{i}.md").read_bytes() == _new(i) for i in range(FILES))
    killed_mid_write = trials = 0
    settings = Settings().with_overrides(select=("FS003", "FS008"))
    for trial in range(TRIALS):
        if time.monotonic() - started > BUDGET_SECONDS and trials >= 10:
            break
        trials += 1
        root = tmp_path / f"t{trial}"
        _store(root)
        _fix(root, rng.uniform(0.2 * runtime, 1.1 * runtime))
        states = set()
        for i in range(FILES):
            data = (root / f"m{i}.md").read_bytes()
            assert data in (_old(i), _new(i)), f"trial {trial}: m{i}.md is torn"
            states.add(data == _new(i))
        killed_mid_write += states == {True, False}
        fix_paths([str(root)], settings, selected_rules(settings), cwd=str(root))
        assert all((root / f"m{i}.md").read_bytes() == _new(i) for i in range(FILES))
        assert not [n for n in os.listdir(root) if n.startswith(TEMP_PREFIX)]
    print(f"{trials} trials, {killed_mid_write} killed between the first and the last write")
