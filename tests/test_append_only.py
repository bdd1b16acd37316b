"""NT016 against real git repositories: the base revision's lines must stay a prefix."""

import json
import shutil
import subprocess

import pytest

from memlint.cli import main
from memlint.rules.nt.nt016_append_only_violation import first_difference

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _line(n: int, fact: str = "") -> str:
    record = {
        "time": f"2024-05-0{n}T09:00:00Z",
        "project": "api",
        "fact": fact or f"Deploy window {n} is on Tuesday because traffic peaks on Monday.",
    }
    return json.dumps(record) + "\n"


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@example.com")
    _git(tmp_path, "config", "user.name", "t")
    (tmp_path / "notes.jsonl").write_text(_line(1) + _line(2) + _line(3))
    _git(tmp_path, "add", "notes.jsonl")
    _git(tmp_path, "commit", "-q", "-m", "notes")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    return tmp_path


def _check(capsys, *extra):
    status = main(
        ["check", "--isolated", "--select", "NT016", "--output-format", "concise", *extra, "."]
    )
    out, err = capsys.readouterr()
    return status, out, err


def test_append_is_fine(repo, capsys):
    (repo / "notes.jsonl").write_text(_line(1) + _line(2) + _line(3) + _line(4))
    assert _check(capsys, "--base", "HEAD")[0] == 0


def test_edit_in_the_middle(repo, capsys):
    (repo / "notes.jsonl").write_text(_line(1) + _line(2, "Deploys moved to Wednesday.") + _line(3))
    status, out, _ = _check(capsys, "--base", "HEAD")
    assert status == 1
    assert "notes.jsonl:2:1: NT016" in out and "was `" in out and "Wednesday" in out


def test_deleted_line(repo, capsys):
    (repo / "notes.jsonl").write_text(_line(1) + _line(3))
    status, out, _ = _check(capsys, "--base", "HEAD")
    assert status == 1 and "notes.jsonl:2:1" in out and "a line was deleted" in out


def test_reordered_lines(repo, capsys):
    (repo / "notes.jsonl").write_text(_line(1) + _line(3) + _line(2))
    status, out, _ = _check(capsys, "--base", "HEAD")
    assert status == 1 and "inserted or reordered" in out


def test_truncated_file(repo, capsys):
    (repo / "notes.jsonl").write_text(_line(1))
    status, out, _ = _check(capsys, "--base", "HEAD")
    assert status == 1 and "was removed" in out


def test_secret_in_changed_line_is_masked(repo, capsys):
    secret = "password=" + "Tr0ub4dor" + "&3xyz"
    (repo / "notes.jsonl").write_text(_line(1) + _line(2, f"Staging uses {secret}.") + _line(3))
    status, out, _ = _check(capsys, "--base", "HEAD")
    assert status == 1 and "Tr0ub4dor" not in out


def test_staged_against_head_in_pre_commit(repo, capsys, monkeypatch):
    monkeypatch.setenv("PRE_COMMIT", "1")
    (repo / "notes.jsonl").write_text(_line(1) + _line(3))
    assert _check(capsys)[0] == 0  # unstaged edits are not what gets committed
    _git(repo, "add", "notes.jsonl")
    status, out, _ = _check(capsys)
    assert status == 1 and "differs from HEAD" in out


def test_unknown_revision_and_missing_file_skip_with_notice(repo, capsys):
    status, out, err = _check(capsys, "--base", "no-such-rev")
    assert status == 0 and "NT016 skipped" in err and "unknown revision" in err
    status, out, err = _check(capsys, "--base", "--output=x")
    assert status in (0, 2) and "Traceback" not in err
    (repo / "new.jsonl").write_text(_line(1))
    status, out, err = _check(capsys, "--base", "HEAD")
    assert status == 0 and "new.jsonl" in err and "NT016" not in out


def test_outside_git_skips(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.jsonl").write_text(_line(1))
    status, _out, err = _check(capsys, "--base", "HEAD")
    assert status == 0 and "not in a git repository" in err


def test_first_difference():
    assert first_difference(b"a\nb\n", b"a\nb\nc\n") is None
    assert first_difference(b"a\nb", b"a\nb\n") is None
    assert first_difference(b"a\nb\n", b"a\nc\n") == 1
    assert first_difference(b"a\r\n", b"a\n") == 0
