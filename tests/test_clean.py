"""``memlint clean`` removes the result cache, and only a directory memlint created."""

from __future__ import annotations

import os

import pytest

from memlint.cachedir import cache_directory
from memlint.cli import main
from tests.helpers import write_files


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    # wherever the default cache lives, keep it inside this test's folder
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "user-cache"))
    write_files(tmp_path, {"mem/MEMORY.md": "# Memory\n"})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_clean_removes_the_cache_check_wrote(workdir, capsys):
    assert main(["check", "mem"]) == 0
    directory = cache_directory(None, os.getcwd())
    assert os.path.isdir(directory)
    capsys.readouterr()
    assert main(["clean"]) == 0
    assert not os.path.lexists(directory)
    assert capsys.readouterr().out == f"Removed {directory}\n"
    assert main(["clean"]) == 0
    assert capsys.readouterr().out == f"No cache at {directory}\n"


def test_clean_takes_the_cache_dir_check_was_given(workdir):
    assert main(["check", "mem", "--cache-dir", "elsewhere"]) == 0
    assert (workdir / "elsewhere" / "CACHEDIR.TAG").is_file()
    assert main(["clean", "--cache-dir", "elsewhere"]) == 0
    assert not (workdir / "elsewhere").exists()


def test_clean_refuses_what_memlint_did_not_create(workdir, capsys):
    (workdir / "precious").mkdir()
    (workdir / "precious" / "notes.txt").write_text("keep me")
    assert main(["clean", "--cache-dir", "precious"]) == 2
    assert "has no memlint CACHEDIR.TAG; not removed" in capsys.readouterr().err
    assert (workdir / "precious" / "notes.txt").read_text() == "keep me"
    assert main(["check", "mem", "--cache-dir", "real"]) == 0
    os.symlink(workdir / "real", workdir / "link")
    assert main(["clean", "--cache-dir", "link"]) == 2
    assert (workdir / "real" / "CACHEDIR.TAG").is_file()
