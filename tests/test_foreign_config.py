"""A `.memlint.toml` written for memvet (memlint's name until memvet v0.12) is passed over."""

from __future__ import annotations

import pytest

from memlint.cli import main
from tests.helpers import write_files

GOOD = "---\nname: a\ndescription: a memory\nmetadata:\n  type: user\n---\nBody.\n"
STORE = {
    "mem/MEMORY.md": "- [A](a.md) — a memory\n- [B](b.md) — b\n",
    "mem/a.md": GOOD,
    "mem/b.md": {"bytes": "---\nname: b\n---\ncaf\xe9\n"},
}
MEMVET = (
    '[pointers]\nfiles = ["MEMORY.md"]\nroots = ["memory"]\n\n'
    '[tokens]\nwatch = ["memory/*.md"]\nbudget = 400\n'
)


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, STORE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_memvet_config_alone_is_skipped_with_one_notice(store, capsys):
    (store / ".memlint.toml").write_text(MEMVET)
    code, out, err = run(capsys, "--select", "FS002")
    assert code == 1 and "FS002" in out  # linted with defaults, not exit 2
    notices = [line for line in err.splitlines() if "skipping" in line]
    assert notices == [
        f"memlint: skipping {store / '.memlint.toml'}: "
        "memvet's configuration ([pointers], [tokens]), not memlint's"
    ]
    _, out, _ = run(capsys, "--show-settings")
    assert "Settings path: (none)" in out
    assert f"Skipped: {store / '.memlint.toml'} (memvet's configuration" in out


def test_memvet_config_next_to_tool_memlint_uses_pyproject(store, capsys):
    (store / ".memlint.toml").write_text(MEMVET)
    (store / "pyproject.toml").write_text('[tool.memlint]\nselect = ["FS004"]\n')
    code, _, err = run(capsys)
    assert code == 0 and "skipping" in err
    _, out, _ = run(capsys, "--show-settings")
    assert f"Settings path: {store / 'pyproject.toml'}" in out
    assert f"select = ('FS004',)  # {store / 'pyproject.toml'}" in out


def test_memvet_config_next_to_memlint_toml_uses_memlint_toml(store, capsys):
    (store / ".memlint.toml").write_text(MEMVET)
    (store / "memlint.toml").write_text('select = ["FS004"]\n')
    (store / "pyproject.toml").write_text('[tool.memlint]\nselect = ["FS002"]\n')
    assert run(capsys)[0] == 0
    _, out, _ = run(capsys, "--show-settings")
    assert f"Settings path: {store / 'memlint.toml'}" in out


def test_memvet_config_in_a_parent_folder_is_skipped_too(store, capsys, monkeypatch):
    (store / ".memlint.toml").write_text(MEMVET)
    monkeypatch.chdir(store / "mem")
    code, _, err = run(capsys, "--select", "FS002")
    assert code == 1 and "skipping" in err


def test_mixed_file_is_still_an_error(store, capsys):
    (store / ".memlint.toml").write_text('select = ["FS002"]\n' + MEMVET)
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert "unknown option(s): pointers, tokens" in err
    assert "memvet's tables" in err


def test_an_explicit_memvet_config_is_an_error_that_says_why(store, capsys):
    (store / "vet.toml").write_text(MEMVET)
    code, _, err = run(capsys, "--config", "vet.toml")
    assert code == 2 and "memvet's tables: keep them in .memvet.toml" in err


def test_unknown_keys_without_memvet_tables_are_still_an_error(store, capsys):
    (store / ".memlint.toml").write_text("bogus-option = 1\n")
    code, _, err = run(capsys)
    assert code == 2 and "unknown option(s): bogus-option" in err and "skipping" not in err


def test_show_settings_names_the_origin_of_each_setting(store, capsys):
    (store / "memlint.toml").write_text('ignore = ["LK001"]\n')
    _, out, _ = run(
        capsys, "--show-settings", "--fail-on", "warning", "--config", "max-file-size = 9"
    )
    assert f"ignore = ('LK001',)  # {store / 'memlint.toml'}" in out
    assert "fail_on = <Severity.WARNING: 1>  # command line" in out
    assert "max_file_size = 9  # --config" in out
    assert "redaction_marker = '[REDACTED]'  # default" in out
