"""Regression tests of issue 16: interrupts, races, failed rollbacks, stdin, --show-fixes."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from memlint import writer
from memlint.cli import main
from tests.helpers import write_files

INDEX = "# I\n- [a](a.md) — a\n- [b](b.md) — b\n"


def memory(name: str) -> str:
    return f"---\nname: {name}\ndescription: {name}\nmetadata:\n  type: user\n---\nno final newline"


@pytest.fixture
def store(tmp_path, monkeypatch):
    """Two memories without a final newline: --fix changes both (FS008)."""
    write_files(tmp_path, {"MEMORY.md": INDEX, "a.md": memory("a"), "b.md": memory("b")})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _contents(root):
    return {name: (root / name).read_bytes() for name in ("MEMORY.md", "a.md", "b.md")}


def test_ctrl_c_right_after_a_rename_rolls_back_and_exits_130(store, monkeypatch, capsys):
    """SIGINT lands after the first file was moved into place, before its undo step
    would have been recorded: the file must still be restored."""
    before = _contents(store)
    real_replace = os.replace
    calls = []

    def interrupted_replace(source, target):
        real_replace(source, target)
        calls.append(target)
        if len(calls) == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted_replace)
    try:
        status = main(["check", "--isolated", "--fix", "."])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped as a traceback")
    err = capsys.readouterr().err
    assert status == 130
    assert "interrupted" in err and "Traceback" not in err
    assert _contents(store) == before
    assert not [n for n in os.listdir(store) if n.startswith(writer.TEMP_PREFIX)]


def test_a_failed_rollback_names_the_files_left_changed(store, monkeypatch, capsys):
    real_replace_file = writer.replace_file
    calls = []

    def failing(path, new, expected, mode):
        calls.append(path)
        if len(calls) == 1:
            return real_replace_file(path, new, expected, mode)
        raise OSError(5, "Input/output error", path)  # the second write, and the rollback

    monkeypatch.setattr(writer, "replace_file", failing)
    status = main(["check", "--isolated", "--fix", "."])
    err = capsys.readouterr().err
    assert status == 2
    first = os.path.basename(calls[0])
    assert "no file of" not in err
    assert "left changed" in err and first in err


def test_a_concurrent_runs_live_temp_file_is_left_alone(tmp_path):
    live = tmp_path / ".memlint-0123456789abcdef.tmp"  # just written by another run
    live.write_bytes(b"being written")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        running = tmp_path / f".memlint-{sleeper.pid}-0123456789abcdef.tmp"
        running.write_bytes(b"being written")
        dead = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"],
            capture_output=True,
            text=True,
            check=True,
        )
        gone = tmp_path / f".memlint-{dead.stdout.strip()}-fedcba9876543210.tmp"
        gone.write_bytes(b"left by a killed run")
        removed = writer.remove_stale_temps({str(tmp_path)})
    finally:
        sleeper.kill()
        sleeper.wait()
    assert removed == [str(gone)]
    assert live.exists() and running.exists()


def test_stdin_fix_counts_only_what_reaches_stdout(store, monkeypatch, capsys):
    """An unindexed memory read from stdin: IX002's fix would edit MEMORY.md, which a
    stdin run never writes, so it is not reported as fixed."""
    data = memory("c").encode() + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    main(["check", "--isolated", "--fix", "--stdin-filename", "c.md", "-"])
    captured = capsys.readouterr()
    assert captured.out == data.decode()
    assert "fixed" not in captured.err
    assert "IX002" in captured.err
    assert (store / "MEMORY.md").read_text() == INDEX


def test_show_fixes_names_the_file_that_was_changed(tmp_path, monkeypatch, capsys):
    files = {
        "MEMORY.md": "# I\n- [a](a.md) — a\n",
        "a.md": memory("a") + "\n",
        "sub/b.md": memory("b") + "\n",
    }
    write_files(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    main(["check", "--isolated", "--fix", "--show-fixes", "."])
    out = capsys.readouterr().out
    listing = out[out.index("Fixed 1 problem:") :]
    assert "- MEMORY.md:" in listing and "sub/b.md" not in listing


def test_ctrl_c_between_link_and_unlink_of_mv_restores_the_store(tmp_path, monkeypatch, capsys):
    """``memlint mv`` moves by link() then unlink(); SIGINT between the two left both names."""
    files = {
        "MEMORY.md": "- [a](a.md) — a\n- [b](b.md) — b\n",
        "a.md": memory("a") + "\n",
        "b.md": memory("b") + "\nSee [[a]].\n",
    }
    write_files(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    real_link = os.link

    def interrupted_link(source, target, *args, **kwargs):
        real_link(source, target, *args, **kwargs)
        if os.path.basename(os.fspath(target)) == "c.md":
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "link", interrupted_link)
    try:
        status = main(["mv", "a", "c"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped as a traceback")
    assert status == 130 and "interrupted" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == before
    assert all((tmp_path / rel).read_text() == text for rel, text in files.items())


def test_ctrl_c_before_writing_says_nothing_was_changed(store, monkeypatch, capsys):
    from memlint import fixer

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fixer, "_settle", interrupted)
    before = _contents(store)
    assert main(["check", "--isolated", "--fix", "."]) == 130
    assert "interrupted; no file was changed" in capsys.readouterr().err
    assert _contents(store) == before
