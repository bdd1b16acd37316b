"""Failing cases a case file cannot express: vanished files, symlinks, FIFOs,
directories named like files, and a crashing rule."""

from __future__ import annotations

import os

import pytest

import memlint.discovery
from memlint.cli import main
from memlint.rules.lk import lk001_pending_wikilink
from tests.helpers import lint_files, summary

MEMORY = "---\nname: {0}\ndescription: d\nmetadata:\n  type: user\n---\nBody.\n"


def _store(*stems: str) -> dict:
    files = {"MEMORY.md": "".join(f"- [{s}]({s}.md) — d\n" for s in stems)}
    files.update({f"{s}.md": MEMORY.format(s) for s in stems})
    return files


def test_unreadable_file_is_reported(tmp_path, monkeypatch):
    """A file removed between listing and reading is FS001, not a traceback."""
    real_read = memlint.discovery.read_source

    def vanish_then_read(path, rel, display, max_bytes):
        if rel == "b.md":
            os.unlink(path)
        return real_read(path, rel, display, max_bytes)

    monkeypatch.setattr(memlint.discovery, "read_source", vanish_then_read)
    found = lint_files(tmp_path, _store("a", "b"), select=["FS001"])
    assert summary(found) == [("FS001", "b.md", 1, 1)]
    assert "No such file" in found[0].message


def test_readable_files_are_not_fs001(tmp_path):
    assert lint_files(tmp_path, _store("a", "b"), select=["FS001"]) == []


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinks_are_reported_not_followed(tmp_path):
    store = tmp_path / "store"
    outside = tmp_path / "outside.md"
    outside.write_text(MEMORY.format("outside"), encoding="utf-8")
    lint_files(store, _store("a"))
    os.symlink(outside, store / "escape.md")
    os.symlink(store / "a.md", store / "inner.md")
    os.symlink(store / "gone.md", store / "dangling.md")
    os.symlink(store / "loop.md", store / "loop.md")
    found = lint_files(store, {}, select=["FS006"])
    messages = {d.display_path.rsplit("/", 1)[-1]: d.message for d in found}
    assert sorted(messages) == ["dangling.md", "escape.md", "inner.md", "loop.md"]
    assert "outside the store" in messages["escape.md"]
    assert "dangling" in messages["dangling.md"]
    assert "loop" in messages["loop.md"]
    assert "inside the store" in messages["inner.md"]
    assert all(d.code == "FS006" for d in found)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_not_a_regular_file_and_never_read(tmp_path):
    files = _store("a")
    lint_files(tmp_path, files)
    os.mkfifo(tmp_path / "pipe.md")
    found = lint_files(tmp_path, {}, select=["FS007"])
    assert summary(found) == [("FS007", "pipe.md", 1, 1)]
    assert "FIFO" in found[0].message


def test_memory_md_as_a_directory_is_reported(tmp_path):
    (tmp_path / "MEMORY.md").mkdir()
    files = _store("a")
    del files["MEMORY.md"]
    found = lint_files(tmp_path, files, select=["FS007"])
    assert summary(found) == [("FS007", "MEMORY.md", 1, 1)]


def test_crashing_rule_is_reported_and_exits_2(tmp_path, monkeypatch, capsys):
    def crash(ctx, memory):
        raise KeyError("boom")

    from tests.helpers import write_files

    write_files(tmp_path, _store("a"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(lk001_pending_wikilink, "check", crash)
    status = main(["check", "--no-cache", "--output-format", "concise", "."])
    out = capsys.readouterr().out
    assert status == 2
    assert "MX002" in out and "LK001" in out and "KeyError" in out


def test_hidden_class_matches_unicodedata():
    """FS010's character class holds exactly the hidden categories (or unassigned points)."""
    import sys
    import unicodedata

    from memlint.rules.fs.fs010_hidden_unicode import HIDDEN, HIDDEN_CATEGORIES

    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        category = unicodedata.category(ch)
        expected = category in HIDDEN_CATEGORIES and ch not in "\t\r\n"
        matched = HIDDEN.match(ch) is not None
        assert matched == expected or (matched and category == "Cn"), hex(code)


def test_ascii_prefilter_agrees_with_the_hidden_class():
    from memlint.rules.fs.fs010_hidden_unicode import HIDDEN, may_hide

    for code in range(128):
        assert may_hide(chr(code)) == (HIDDEN.match(chr(code)) is not None), hex(code)
    assert may_hide("caf\u00e9") and may_hide("a\u200bb")


def test_refused_name_fix_says_why(tmp_path):
    from tests.helpers import lint_files

    files = {
        "MEMORY.md": "- [a](a.md) — a\n- [b](b.md) — b\n- [c](c.md) — c\n",
        "a.md": "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\nBody\n",
        "b.md": "---\nname: b\ndescription: b\nmetadata:\n  type: user\n---\nBody\n",
        "c.md": "---\nname: |\n  other\ndescription: c\nmetadata:\n  type: user\n---\nBody\n",
    }
    (found,) = lint_files(tmp_path, files, select=["ID001"])
    assert found.fix is None
    assert found.notes == ("no automatic fix: `name` is a block scalar; edit `name` by hand",)
