"""``memlint check --stdin-filename PATH -``: lint stdin as one file of its store."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from memlint.cli import main
from tests.helpers import write_files

STORE = {
    "mem/MEMORY.md": "# Memory\n\n- [Tea](user_tea.md) — tea\n",
    "mem/user_tea.md": "---\nname: user_tea\ndescription: tea\ntype: user\n---\nGreen.\n",
    "mem/user_coffee.md": "---\nname: user_coffee\ndescription: x\ntype: user\n---\nno newline",
}


def _run(monkeypatch, capsys, data: bytes, *args: str) -> tuple[int, list[dict], str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code = main(["check", "--isolated", "--output-format", "json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out or "[]"), captured.err


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, STORE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_stdin_replaces_the_file_on_disk(store, monkeypatch, capsys):
    code, found, _ = _run(
        monkeypatch,
        capsys,
        b"no newline here",
        "--select",
        "FS008",
        "--stdin-filename",
        "mem/user_tea.md",
        "-",
    )
    assert code == 0  # FS008 is an info
    assert [(d["code"], d["filename"]) for d in found] == [("FS008", "mem/user_tea.md")]
    assert (store / "mem/user_tea.md").read_text(encoding="utf-8").endswith("Green.\n")


def test_only_the_stdin_file_is_reported(store, monkeypatch, capsys):
    code, found, _ = _run(
        monkeypatch,
        capsys,
        STORE["mem/user_tea.md"].encode(),
        "--select",
        "FS008",
        "--stdin-filename",
        "mem/user_tea.md",
        "-",
    )
    assert (code, found) == (0, [])


def test_new_file_sees_the_rest_of_the_store(store, monkeypatch, capsys):
    text = "---\nname: user_milk\ndescription: milk\ntype: user\n---\nSee [[user_tea]].\n"
    _, found, _ = _run(
        monkeypatch,
        capsys,
        text.encode(),
        "--select",
        "LK,IX002",
        "--stdin-filename",
        "mem/user_milk.md",
        "-",
    )
    assert [d["code"] for d in found] == ["IX002"]
    assert found[0]["filename"] == "mem/user_milk.md"
    assert not (store / "mem/user_milk.md").exists()


def test_invalid_utf8_on_stdin(store, monkeypatch, capsys):
    _, found, _ = _run(
        monkeypatch,
        capsys,
        b"caf\xe9\n",
        "--select",
        "FS002",
        "--stdin-filename",
        "mem/user_tea.md",
        "-",
    )
    assert [d["code"] for d in found] == ["FS002"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-"], "needs --stdin-filename"),
        (["--stdin-filename", "mem/user_tea.md"], "needs the path `-`"),
    ],
)
def test_usage_errors(store, monkeypatch, capsys, args, message):
    code, _, err = _run(monkeypatch, capsys, b"x\n", *args)
    assert code == 2 and message in err


def test_fix_writes_fixed_text_to_stdout_and_nothing_to_disk(store):
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    draft = "---\nname: user_tea\ndescription: tea\ntype: user\n---\nGreen, no newline"
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "memlint", "check", "--isolated", "--select", "FS008"),
            *("--fix", "--stdin-filename", "mem/user_tea.md", "-"),
        ],
        input=draft.encode(),
        capture_output=True,
        cwd=store,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (draft + "\n").encode()
    assert b"1 fixed" in proc.stderr
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before
