"""Hostile file contents and names end in findings or a clear error, never a traceback."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from tests.helpers import write_files
from tests.security.common import memlint

STORE = {
    "memory/MEMORY.md": "- [A](a.md) — a\n",
    "memory/a.md": "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\nbody\n",
}
FORMATS = ("full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab", "agent")


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="needs byte file names")
@pytest.mark.parametrize("output_format", FORMATS)
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path, output_format):
    write_files(tmp_path, STORE)
    memory = "---\nname: b\ndescription: b\nmetadata:\n  type: user\n---\nbody\n"
    (tmp_path / "memory" / os.fsdecode(b"b\xff\xfe.md")).write_text(memory)
    done = memlint(tmp_path, "check", "memory", "--output-format", output_format)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1 and "IX002" in done.stdout


def test_fix_keeps_a_file_with_cr_line_breaks_in_its_own_style(tmp_path):
    """A file whose lines end in a lone CR does end with a line break: FS008 appended
    a LF, leaving the file's last break a CRLF among CRs."""
    memory = STORE["memory/a.md"].replace("\n", "\r")
    write_files(tmp_path, {**STORE, "memory/a.md": memory})
    memlint(tmp_path, "check", "--fix", "--select", "FS008", "memory")
    assert (tmp_path / "memory" / "a.md").read_bytes() == memory.encode()


def test_the_agent_fix_command_never_reads_a_file_name_as_an_option(tmp_path):
    """A memory named `--output-file=MEMORY.md` in a store at the working directory:
    run as suggested, the command wrote its report over the index."""
    write_files(
        tmp_path,
        {
            "MEMORY.md": STORE["memory/MEMORY.md"],
            "a.md": STORE["memory/a.md"],
            "--output-file=MEMORY.md": STORE["memory/a.md"].replace("name: a", "name: x"),
        },
    )
    report = memlint(tmp_path, "check", "--output-format", "agent", ".").stdout
    line = next(x for x in report.splitlines() if x.startswith("Apply the safe fixes: "))
    command = shlex.split(line.removeprefix("Apply the safe fixes: "))
    assert command[:3] == ["memlint", "check", "--fix"]
    done = memlint(tmp_path, *command[1:])
    assert done.returncode in (0, 1), done.stderr
    index = (tmp_path / "MEMORY.md").read_text()
    assert index.startswith("- [A](a.md) — a\n") and "--output-file=MEMORY.md" in index


MANIFEST = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


@pytest.mark.parametrize("hook_id", ["memlint", "memlint-fix"])
def test_a_committed_file_named_like_an_option_is_a_path_to_the_pre_commit_hooks(tmp_path, hook_id):
    """pre-commit runs ``entry + args + file names`` and puts no ``--`` before the names:
    a root-level file named ``--config=ignore=["PV"]#.md`` turned into an inline config
    that hid the store's plain-text key."""
    import yaml

    hook = next(h for h in yaml.safe_load(MANIFEST.read_text()) if h["id"] == hook_id)
    planted = '--config=ignore=["PV"]#.md'
    key = "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\nkey AKIAQ7RSTUVWXY234567\n"
    write_files(tmp_path, {**STORE, "memory/a.md": key, planted: "x\n"})
    files = ["memory/MEMORY.md", "memory/a.md", planted]
    command = [*shlex.split(hook["entry"]), *hook.get("args", []), *files]
    assert command[0] == "memlint"
    done = memlint(tmp_path, *command[1:], env={"PRE_COMMIT": "1"})
    assert "PV001" in done.stdout and done.returncode == 1, done.stdout + done.stderr


@pytest.mark.parametrize("name", [".memlint.toml", "pyproject.toml"])
def test_a_config_nested_past_the_recursion_limit_is_unreadable_toml(tmp_path, name):
    """Read as any file that is not TOML: an error for `.memlint.toml`, while a
    `pyproject.toml` memlint cannot read holds no memlint settings."""
    write_files(tmp_path, {**STORE, name: "[tool.memlint\n"})
    broken = memlint(tmp_path, "check", "memory")
    nested = "[" * 50_000 + "]" * 50_000
    write_files(tmp_path, {name: f"[tool.memlint]\nx = {nested}\n"})
    done = memlint(tmp_path, "check", "memory")
    assert "Traceback" not in done.stderr
    assert done.returncode == broken.returncode == (2 if name == ".memlint.toml" else 0)
    assert ("cannot read config" in done.stderr) == (name == ".memlint.toml")


def test_show_settings_escapes_the_paths_it_prints(tmp_path):
    """A path (named, or of a config file found) with a terminal escape sequence: the
    title could retitle the terminal, clear it, or hide the lines around it."""
    sequence = "\x1b]0;PWNED\x07\x1b[2J"
    memory = STORE["memory/a.md"]
    write_files(tmp_path, {**STORE, f"d{sequence}/.memlint.toml": "", f"d{sequence}/b.md": memory})
    done = memlint(tmp_path, "check", "--show-settings", "memory/a.md", f"d{sequence}/b.md")
    assert done.returncode == 0, done.stderr
    assert "Settings for d\\x1b]0;PWNED" in done.stdout and "Settings path: " in done.stdout
    assert "\x1b" not in done.stdout + done.stderr


def test_the_hook_escapes_what_it_logs(tmp_path):
    """Its notes on stderr name paths, such as a broken config's."""
    import json

    from tests.test_hook import run_hook

    root = tmp_path / "project\x1b]0;PWNED\x07"
    write_files(root, {**STORE, ".memlint.toml": "[x\n"})
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    event = {
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "cwd": str(root),
        "tool_input": {"file_path": str(root / "memory" / "a.md"), "content": "x"},
    }
    code, _, err = run_hook(root, json.dumps(event).encode())
    assert code == 0 and "configuration error" in err and "\x1b" not in err


@pytest.mark.parametrize("scope", ["project", "local"])
def test_hook_install_never_writes_through_a_committed_claude_symlink(tmp_path, scope):
    outside = tmp_path / "outside"
    outside.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    (project / ".claude").symlink_to(outside)
    done = memlint(project, "hook", "install", "--scope", scope)
    assert done.returncode == 2 and "symlink" in done.stderr, done.stdout + done.stderr
    assert list(outside.iterdir()) == []
