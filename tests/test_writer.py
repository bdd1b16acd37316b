"""The atomic, checked, transactional writer."""

from __future__ import annotations

import os
import stat
import unicodedata

import pytest

from memlint import writer
from memlint.writer import Change, WriteError, commit


def _store(tmp_path, files):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return str(tmp_path)


def _leftovers(directory) -> list[str]:
    return [name for name in os.listdir(directory) if name.startswith(writer.TEMP_PREFIX)]


def test_replace_keeps_mode_and_bytes(tmp_path):
    root = _store(tmp_path, {"a.md": b"\xef\xbb\xbfold\r\n"})
    path = os.path.join(root, "a.md")
    os.chmod(path, 0o640)
    commit(root, [Change(path, b"\xef\xbb\xbfold\r\n", b"\xef\xbb\xbfnew\r\n")])
    assert (tmp_path / "a.md").read_bytes() == b"\xef\xbb\xbfnew\r\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert _leftovers(root) == []


def test_changed_during_run_is_refused(tmp_path):
    root = _store(tmp_path, {"a.md": b"edited by someone else\n"})
    path = os.path.join(root, "a.md")
    with pytest.raises(WriteError, match="changed during the run"):
        commit(root, [Change(path, b"what memlint read\n", b"fixed\n")])
    assert (tmp_path / "a.md").read_bytes() == b"edited by someone else\n"
    assert _leftovers(root) == []


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "notes", "outside"])
def test_refuses_unsafe_targets(tmp_path, kind):
    store = tmp_path / "store"
    store.mkdir()
    (tmp_path / "elsewhere.md").write_bytes(b"x\n")
    (store / "a.md").write_bytes(b"x\n")
    (store / "notes.jsonl").write_bytes(b"x\n")
    path = {
        "symlink": store / "link.md",
        "hardlink": store / "a.md",
        "notes": store / "notes.jsonl",
        "outside": store / ".." / "elsewhere.md",
    }[kind]
    if kind == "symlink":
        path.symlink_to(store / "a.md")
    if kind == "hardlink":
        os.link(store / "a.md", store / "twin.md")
    with pytest.raises(WriteError):
        commit(str(store), [Change(str(path), b"x\n", b"y\n")])
    assert (store / "a.md").read_bytes() == b"x\n"
    assert (tmp_path / "elsewhere.md").read_bytes() == b"x\n"


def test_create_never_overwrites_even_a_case_or_normalization_variant(tmp_path):
    root = _store(tmp_path, {"Index.md": b"x\n", unicodedata.normalize("NFD", "café.md"): b"y\n"})
    for name in ("Index.md", "index.md", unicodedata.normalize("NFC", "café.md")):
        with pytest.raises(WriteError):
            commit(root, [Change(os.path.join(root, name), None, b"new\n")])
    commit(root, [Change(os.path.join(root, "MEMORY.md"), None, b"new\n")])
    assert (tmp_path / "MEMORY.md").read_bytes() == b"new\n"
    assert (tmp_path / "Index.md").read_bytes() == b"x\n"
    assert _leftovers(root) == []


def test_failed_transaction_restores_written_files_and_removes_created(tmp_path, monkeypatch):
    root = _store(tmp_path, {"a.md": b"a\n", "b.md": b"b\n"})
    real_replace = writer.replace_file
    calls = []

    def failing_second(path, new, expected, mode):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", path)
        real_replace(path, new, expected, mode)

    monkeypatch.setattr(writer, "replace_file", failing_second)
    changes = [
        Change(os.path.join(root, "new.md"), None, b"created\n"),
        Change(os.path.join(root, "a.md"), b"a\n", b"A\n"),
        Change(os.path.join(root, "b.md"), b"b\n", b"B\n"),
    ]
    with pytest.raises(WriteError, match="No space left"):
        commit(root, changes)
    assert (tmp_path / "a.md").read_bytes() == b"a\n"
    assert (tmp_path / "b.md").read_bytes() == b"b\n"
    assert not (tmp_path / "new.md").exists()
    assert _leftovers(root) == []


def test_rename_is_no_clobber_and_rolls_back(tmp_path, monkeypatch):
    root = _store(tmp_path, {"a.md": b"a\n", "b.md": b"b\n", "c.md": b"c\n"})
    with pytest.raises(WriteError, match="already exists"):
        commit(
            root, [Change(os.path.join(root, "a.md"), b"a\n", b"a\n", os.path.join(root, "b.md"))]
        )
    monkeypatch.setattr(writer, "replace_file", _raise_oserror)
    changes = [
        Change(os.path.join(root, "a.md"), b"a\n", b"a\n", rename_to=os.path.join(root, "z.md")),
        Change(os.path.join(root, "c.md"), b"c\n", b"C\n"),
    ]
    with pytest.raises(WriteError):
        commit(root, changes)
    assert sorted(os.listdir(root)) == ["a.md", "b.md", "c.md"]
    assert (tmp_path / "c.md").read_bytes() == b"c\n"


def _raise_oserror(path, *args):
    raise OSError(5, "Input/output error", path)


def test_remove_stale_temps_matches_only_its_own_names(tmp_path):
    stale = tmp_path / ".memlint-0123456789abcdef.tmp"
    stale.write_bytes(b"half")
    os.utime(stale, (0, 0))  # left long ago
    keep = tmp_path / ".memlint-notes.md"
    keep.write_bytes(b"user file")
    assert writer.remove_stale_temps({str(tmp_path)}) == [str(stale)]
    assert keep.exists() and not stale.exists()
