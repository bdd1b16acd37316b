"""Settings per folder, as in ruff: each store gets the nearest config file above it."""

from __future__ import annotations

import io

import pytest

from memlint.cli import main
from tests.helpers import write_files


def memory(name: str) -> str:
    return f"---\nname: {name}\ndescription: about {name}\ntype: user\n---\nBody of {name}.\n"


TREE = {
    "a/MEMORY.md": "- [A](user_a.md) — a\n- [G](gone.md) — g\n",
    "a/user_a.md": memory("user_a"),
    "b/MEMORY.md": "- [B](user_b.md) — b\n- [G](gone.md) — g\n",
    "b/user_b.md": memory("user_b"),
    "b/.memlint.toml": 'ignore = ["IX003"]\n',
    "memlint.toml": 'fail-on = "error"\n',
}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    write_files(tmp_path, TREE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", "--output-format", "concise", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_each_store_gets_its_nearest_config(tree, capsys):
    code, out, _ = run(capsys)
    assert code == 1
    assert "a/MEMORY.md:2:7: IX003" in out and "b/MEMORY.md" not in out
    assert run(capsys)[1] == out  # the second run reads each store's own cache


def test_the_same_stores_get_the_same_settings_from_any_folder(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree / "b")
    code, out, _ = run(capsys, "..")
    assert code == 1 and "a/MEMORY.md:2:7: IX003" in out and "b/MEMORY.md" not in out


def test_a_config_file_given_applies_to_every_store(tree, capsys):
    code, out, _ = run(capsys, "--config", "b/.memlint.toml")
    assert code == 0 and "IX003" not in out
    code, out, _ = run(capsys, "--isolated")
    assert "a/MEMORY.md:2:7: IX003" in out and "b/MEMORY.md:2:7: IX003" in out


def test_show_settings_names_the_file_that_applies_to_a_path(tree, capsys):
    _, out, _ = run(capsys, "--show-settings", "b/user_b.md", "a")
    assert "Settings for b/user_b.md\nSettings path: " + str(tree / "b" / ".memlint.toml") in out
    assert f"ignore = ('IX003',)  # {tree / 'b' / '.memlint.toml'}" in out
    assert "Settings for a\nSettings path: " + str(tree / "memlint.toml") in out


def test_a_memvet_config_in_a_store_folder_is_skipped_once(tree, capsys):
    (tree / "b" / ".memlint.toml").write_text('[tokens]\nwatch = ["*.md"]\nbudget = 9\n')
    code, out, err = run(capsys)
    assert code == 1 and "b/MEMORY.md:2:7: IX003" in out
    assert err.count(f"memlint: skipping {tree / 'b' / '.memlint.toml'}") == 1


def test_a_bad_config_in_a_store_folder_is_exit_2(tree, capsys):
    (tree / "b" / ".memlint.toml").write_text("bogus = 1\n")
    code, out, err = run(capsys)
    assert code == 2 and out == "" and "unknown option(s): bogus" in err


FIX_TREE = {
    ".memlint.toml": 'ignore = ["FS008"]\n',
    "a/.memlint.toml": 'ignore = ["FS008", "IX005"]\n',
    "a/MEMORY.md": "- [A](user_a.md) — a\n- [A](user_a.md) — a\n",
    "a/user_a.md": memory("user_a").rstrip("\n"),
    "b/.memlint.toml": 'extend-select = ["FS008"]\n',
    "b/MEMORY.md": "- [B](user_b.md) — b\n- [B](user_b.md) — b\n",
    "b/user_b.md": memory("user_b").rstrip("\n"),
}


def findings(capsys, *argv: str) -> set[tuple[str, str]]:
    _, out, _ = run(capsys, *argv)
    return {
        (line.split(":", 1)[0], line.split(": ", 2)[1].split()[0])
        for line in out.splitlines()
        if line.startswith(("a/", "b/"))
    }


def test_fix_uses_each_stores_own_settings_as_check_does(tmp_path, monkeypatch, capsys):
    write_files(tmp_path, FIX_TREE)
    monkeypatch.chdir(tmp_path)
    before = {(path, code) for path, code in findings(capsys) if code in ("FS008", "IX005")}
    assert before == {("b/MEMORY.md", "IX005"), ("b/user_b.md", "FS008")}
    a_before = {name: (tmp_path / "a" / name).read_bytes() for name in ("MEMORY.md", "user_a.md")}
    run(capsys, "--fix")
    after = findings(capsys)
    assert not after & before  # what check found in b was fixed
    assert (tmp_path / "b" / "user_b.md").read_text().endswith("Body of user_b.\n")
    assert (tmp_path / "b" / "MEMORY.md").read_text() == "- [B](user_b.md) — b\n"
    for name, data in a_before.items():  # the working directory's config would fix IX005
        assert (tmp_path / "a" / name).read_bytes() == data


def test_show_settings_of_a_file_names_the_settings_its_store_is_linted_with(
    tmp_path, monkeypatch, capsys
) -> None:
    """A store is linted with its root's settings: --show-settings on a file in a
    subfolder with a config file of its own names the root's, not the subfolder's."""
    from memlint.cli import main

    (tmp_path / "mem" / "sub").mkdir(parents=True)
    (tmp_path / "mem" / "MEMORY.md").write_text("- [x](sub/x.md) — x\n", encoding="utf-8")
    (tmp_path / "mem" / "sub" / "x.md").write_text(
        "---\nname: x\ndescription: x\nmetadata:\n  type: user\n---\nx\n", encoding="utf-8"
    )
    (tmp_path / "mem" / "sub" / ".memlint.toml").write_text('select = ["PV"]\n')
    monkeypatch.chdir(tmp_path)
    main(["check", "--show-settings", "mem/sub/x.md"])
    assert "Settings path: (none)" in capsys.readouterr().out


def test_a_stores_size_cap_is_its_own_from_any_folder(tmp_path, capsys, monkeypatch):
    """``max-file-size`` of the working folder's config does not reach a store elsewhere
    (it has its own settings): the read cap was the working folder's while the cache was
    keyed by the store's settings, so a warm run reported what a cold one did not."""
    write_files(
        tmp_path,
        {
            "work/.memlint.toml": "max-file-size = 10\n",
            "store/MEMORY.md": "- [A](user_a.md) — a\n",
            "store/user_a.md": memory("user_a") + "[[ghost]]\n",
            "other/MEMORY.md": "- [B](user_b.md) — b\n",
            "other/user_b.md": memory("user_b"),
            "other/.memlint.toml": "max-file-size = 100000\n",
        },
    )
    monkeypatch.chdir(tmp_path / "store")
    own = run(capsys, ".")[1]
    assert "LK001" in own and "FS005" not in own
    monkeypatch.chdir(tmp_path / "work")
    for extra in ([], ["--no-cache"], []):
        code, out, _ = run(capsys, "../store", *extra)
        assert out.replace(f"{tmp_path / 'store'}/", "") == own, extra
    text = (tmp_path / "other" / "user_b.md").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
    code, out, _ = run(capsys, "-", "--stdin-filename", "../other/user_b.md", "--no-cache")
    assert (code, out) == (0, "All checks passed (1 store).\n")


def test_stdin_is_read_to_its_stores_cap_not_to_a_config_inside_the_store(
    tmp_path, capsys, monkeypatch
):
    """A config in a folder inside a store does not set that store's settings, so stdin
    named into that folder is read up to the store's cap: read to the inner config's
    smaller cap, a truncated text was linted (FS008) and ``--fix -`` printed it with a
    newline spliced into the middle of the user's text."""
    text = memory("user_a") + "A body line that takes this file well past one hundred bytes.\n"
    write_files(
        tmp_path,
        {
            "store/MEMORY.md": "- [A](sub/user_a.md) — a\n",
            "store/sub/user_a.md": text,
            "store/sub/.memlint.toml": "max-file-size = 100\n",
        },
    )
    assert len(text.encode()) > 101
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "store", "--no-cache") == (0, "All checks passed (1 store).\n", "")
    stdin = ("-", "--stdin-filename", "store/sub/user_a.md", "--no-cache")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert run(capsys, *stdin) == (0, "All checks passed (1 store).\n", "")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, _ = run(capsys, "--fix", *stdin)
    assert (code, out) == (0, text)


def test_a_stores_note_files_are_its_own_config_s_from_any_folder(tmp_path, capsys, monkeypatch):
    """``notes = [...]`` of the working folder's config does not make a JSONL file of a
    store elsewhere a note store: it did with --no-cache, while a warm run reused the
    file's cached results as another schema's (exit 0 against exit 1)."""
    write_files(
        tmp_path,
        {
            "work/.memlint.toml": 'notes = ["../store/log.jsonl"]\n',
            "store/MEMORY.md": "- [A](user_a.md) — a\n",
            "store/user_a.md": memory("user_a"),
            "store/log.jsonl": '{"event": "x"}\n',
        },
    )
    monkeypatch.chdir(tmp_path / "store")
    assert run(capsys, ".") == (0, "All checks passed (1 store).\n", "")
    monkeypatch.chdir(tmp_path / "work")
    for extra in ([], ["--no-cache"]):
        assert run(capsys, "../store", *extra) == (0, "All checks passed (1 store).\n", ""), extra
    (tmp_path / "store" / ".memlint.toml").write_text('notes = ["log.jsonl"]\n')
    for extra in ([], ["--no-cache"]):
        code, out, _ = run(capsys, "../store", *extra)
        assert code == 1 and "NT005" in out, extra
