"""The smaller holes of issue 14, each attacked through the real command.

Too-large stdin under ``--fix`` comes back whole; a FIFO never blocks a read; a
folder argument that yields no store (a symlinked store among them) is exit 2;
read-only files are never replaced; ``-o`` errors and closed stdin are
``memlint: error:`` lines with exit 2; a reader that goes away ends the run quietly.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import write_files

MEMLINT = [sys.executable, "-m", "memlint"]
TIMEOUT = 60
STORE = {
    "MEMORY.md": "- [a](a.md) — a\n- [b](b.md) — b\n- [c](c.md) — c\n",
    "a.md": "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\nx\n",
    "b.md": "---\nname: b\ndescription: b\nmetadata:\n  type: user\n---\nx\n",
    "c.md": "---\nname: c x\ndescription: c\nmetadata:\n  type: user\n---\nx\n",  # ID001
}


@pytest.fixture
def store(tmp_path) -> Path:
    write_files(tmp_path / "s", STORE)
    return tmp_path


def _run(cwd: Path, *argv: str, **options) -> subprocess.CompletedProcess:
    options.setdefault("capture_output", True)
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([*MEMLINT, *argv], cwd=cwd, env=env, timeout=TIMEOUT, **options)


def _is_usage_error(proc: subprocess.CompletedProcess) -> bool:
    err = proc.stderr.decode()
    return proc.returncode == 2 and err.startswith("memlint: error: ") and "Traceback" not in err


def test_fix_echoes_stdin_over_the_size_cap_whole(store):
    lines = "".join(f"line {i} of an editor buffer\n" for i in range(80_000))
    data = ("---\nname: c\ndescription: c\nmetadata:\n  type: user\n---\n" + lines).encode()
    assert len(data) > 2 * 1024 * 1024
    proc = _run(store, "check", "--fix", "-", "--stdin-filename", "s/c.md", input=data)
    assert proc.stdout == data
    assert b"FS" in proc.stderr  # reported too large, not silently passed


FIFO_SWAP = """
import os, sys
from memlint import cli, writer

write_temp = writer._write_temp

def swap_target_for_a_fifo(directory, data, mode):
    tmp = write_temp(directory, data, mode)  # checked, temp written, target not yet read
    target = os.path.join(directory, "c.md")
    os.unlink(target)
    os.mkfifo(target)
    return tmp

writer._write_temp = swap_target_for_a_fifo
sys.exit(cli.main(["check", "s", "--fix", "--no-cache"]))
"""


def test_a_file_swapped_for_a_fifo_before_the_write_never_blocks_fix(store):
    try:
        proc = subprocess.run(
            [sys.executable, "-c", FIFO_SWAP], cwd=store, capture_output=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        pytest.fail("--fix blocked on a FIFO swapped in before the write")
    assert proc.returncode == 2 and b"not a regular file" in proc.stderr
    assert stat.S_ISFIFO(os.lstat(store / "s" / "c.md").st_mode)  # left as it was
    assert not [p for p in (store / "s").iterdir() if p.name.endswith(".tmp")]


FIFO_READS = """
import os, sys
from memlint import config, hook, writer

fifo = sys.argv[1]
try:
    writer.read_bytes(fifo)
except OSError as exc:
    print("writer:", exc.strerror)
try:
    config._read_toml(fifo)
except config.ConfigError:
    print("config: refused")
print("hook:", hook._current_bytes(fifo), hook.session_writes(fifo, "."))
"""


def test_no_reader_waits_on_a_fifo(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", FIFO_READS, str(fifo)], capture_output=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        pytest.fail("a read blocked on a FIFO")
    assert proc.stdout.decode().splitlines() == [
        "writer: not a regular file",
        "config: refused",
        "hook: None {}",
    ]


def test_a_symlinked_store_folder_is_an_error(store):
    os.symlink("s", store / "link")
    for argv in (["link"], ["link/"], ["link", "--fix"], ["link", "--show-files"]):
        proc = _run(store, "check", "--no-cache", *argv)
        assert _is_usage_error(proc), argv
        assert b"symbolic link" in proc.stderr and b"All checks passed" not in proc.stdout


def test_a_folder_argument_without_a_store_is_an_error(store):
    write_files(store, {"docs/README.md": "# docs\n", "empty/.keep": ""})
    for argv in (["docs"], ["empty"], ["s", "empty"], ["docs", "--fix"]):
        proc = _run(store, "check", "--no-cache", *argv)
        assert _is_usage_error(proc), argv
        assert b"no memory store" in proc.stderr


def test_files_outside_any_store_and_the_default_path_still_pass(store):
    """pre-commit names every changed Markdown file; a code repository's run without
    paths looks for stores and finds none: neither is an error."""
    write_files(store, {"docs/README.md": "# docs\n"})
    assert _run(store, "check", "--no-cache", "docs/README.md").returncode == 0
    assert _run(store / "docs", "check", "--no-cache").returncode == 0
    assert _run(store, "check", "--no-cache", "s/a.md").returncode == 0


def test_fix_refuses_read_only_files(store):
    target = store / "s" / "c.md"
    before = target.read_bytes()
    target.chmod(0o444)
    proc = _run(store, "check", "--no-cache", "--fix", "s")
    assert proc.returncode == 2
    assert b"s/c.md: is read-only" in proc.stderr
    assert target.read_bytes() == before and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert b"ID001" in proc.stdout  # still reported
    diff = _run(store, "check", "--no-cache", "--diff", "s")  # a dry run shows no refused edit
    assert b"s/c.md: is read-only" in diff.stderr and b"+name: c" not in diff.stdout
    target.chmod(0o644)
    assert b"+name: c" in _run(store, "check", "--no-cache", "--diff", "s").stdout
    assert _run(store, "check", "--no-cache", "--fix", "s").returncode == 0
    assert b"name: c\n" in target.read_bytes()


@pytest.mark.parametrize("output", ["missing-dir/x.json", "s"])
def test_an_unwritable_output_file_is_an_error(store, output):
    proc = _run(store, "check", "--no-cache", "s", "-o", output)
    assert _is_usage_error(proc)
    assert f"cannot write {output}".encode() in proc.stderr


def test_closed_stdin_is_an_error(store):
    command = " ".join([*MEMLINT, "check", "-", "--stdin-filename", "s/a.md", "<&-"])
    proc = subprocess.run(["sh", "-c", command], cwd=store, capture_output=True, timeout=TIMEOUT)
    assert _is_usage_error(proc) and b"stdin is closed" in proc.stderr


@pytest.mark.parametrize("argv", [["rule", "--all"], ["check", "s", "--no-cache"]])
def test_a_reader_that_went_away_ends_the_run_quietly(store, argv):
    """As with ``memlint rule --all | head -1`` once head has exited."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = _run(store, *argv, stdout=write_end, stderr=subprocess.PIPE, capture_output=False)
    finally:
        os.close(write_end)
    assert proc.stderr == b""  # no traceback, no "Exception ignored"
    assert proc.returncode == 2
