"""``memlint hook install|uninstall`` on a fake HOME and a fake project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

OTHER_HOOKS = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": "prettier --write", "timeout": 5}],
            }
        ],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send claude"}]}],
    },
    "model": "opus",
}


@pytest.fixture
def home(tmp_path):
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    (tmp_path / "project").mkdir()
    return tmp_path / "home"


def memlint(home: Path, *args: str, path: str | None = None):
    env = {**os.environ, "HOME": str(home), "PATH": path or os.environ["PATH"]}
    env.pop("CLAUDE_CONFIG_DIR", None)
    result = subprocess.run(
        [sys.executable, "-m", "memlint", "hook", *args],
        capture_output=True,
        cwd=home.parent / "project",
        env=env,
        timeout=60,
    )
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def ours(settings: dict) -> list[tuple[str, str | None, str]]:
    return [
        (event, group.get("matcher"), hook["command"])
        for event, groups in settings.get("hooks", {}).items()
        for group in groups
        for hook in group["hooks"]
        if "memlint" in hook["command"]
    ]


def test_install_into_a_missing_user_settings_file(home):
    code, out, err = memlint(home, "install")
    assert (code, err) == (0, "")
    path = home / ".claude" / "settings.json"
    assert str(path) in out
    settings = json.loads(path.read_text())
    assert settings == {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Write|Edit|MultiEdit",
                    "hooks": [
                        {"type": "command", "command": "memlint hook claude-code", "timeout": 30}
                    ],
                }
            ]
        }
    }
    assert path.read_text().endswith("}\n")


def test_install_keeps_every_other_key_hook_and_the_indentation(home):
    path = home / ".claude" / "settings.json"
    path.write_text(json.dumps(OTHER_HOOKS, indent=4) + "\n")
    code, _, _ = memlint(home, "install", "--events", "post,pre,session,stop")
    assert code == 0
    text = path.read_text()
    settings = json.loads(text)
    assert text.startswith('{\n    "permissions"')
    assert settings["permissions"] == OTHER_HOOKS["permissions"]
    assert settings["model"] == "opus"
    assert settings["hooks"]["PostToolUse"][0] == OTHER_HOOKS["hooks"]["PostToolUse"][0]
    assert settings["hooks"]["Notification"] == OTHER_HOOKS["hooks"]["Notification"]
    assert ours(settings) == [
        ("PostToolUse", "Write|Edit|MultiEdit", "memlint hook claude-code"),
        ("PreToolUse", "Write|Edit|MultiEdit", "memlint hook claude-code --strict"),
        ("SessionStart", None, "memlint hook claude-code"),
        ("Stop", None, "memlint hook claude-code"),
    ]


def test_install_twice_changes_nothing(home):
    path = home / ".claude" / "settings.json"
    path.write_text(json.dumps(OTHER_HOOKS, indent=2) + "\n")
    memlint(home, "install", "--events", "post,stop")
    first = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    code, out, _ = memlint(home, "install", "--events", "post,stop")
    assert code == 0 and "already installed" in out
    assert path.read_bytes() == first and path.stat().st_mtime_ns == mtime


def test_uninstall_removes_only_memlint_entries(home):
    path = home / ".claude" / "settings.json"
    original = json.dumps(OTHER_HOOKS, indent=2) + "\n"
    path.write_text(original)
    memlint(home, "install", "--events", "post,pre,session,stop")
    code, _, err = memlint(home, "uninstall")
    assert (code, err) == (0, "")
    assert path.read_text() == original


def test_uninstall_without_a_settings_file_writes_nothing(home):
    code, out, _ = memlint(home, "uninstall", "--scope", "project")
    assert code == 0 and "already removed" in out
    assert not (home.parent / "project" / ".claude").exists()


@pytest.mark.parametrize(
    ("scope", "rel"),
    [("project", ".claude/settings.json"), ("local", ".claude/settings.local.json")],
)
def test_project_and_local_scopes(home, scope, rel):
    code, _, _ = memlint(home, "install", "--scope", scope)
    assert code == 0
    path = home.parent / "project" / rel
    assert ours(json.loads(path.read_text())) == [
        ("PostToolUse", "Write|Edit|MultiEdit", "memlint hook claude-code")
    ]
    assert not (home / ".claude" / "settings.json").exists()


@pytest.mark.parametrize("text", ['{"hooks": {', "[]", '{"hooks": {"Stop": {}}}'])
def test_invalid_settings_are_a_clear_error_and_never_written(home, text):
    path = home / ".claude" / "settings.json"
    path.write_text(text)
    mtime = path.stat().st_mtime_ns
    code, _, err = memlint(home, "install")
    assert code == 2
    assert err.startswith(f"memlint: error: {path}: ")
    assert err.rstrip().endswith("not changed")
    assert path.read_text() == text and path.stat().st_mtime_ns == mtime


def test_dry_run_prints_the_diff_and_writes_nothing(home):
    path = home / ".claude" / "settings.json"
    path.write_text(json.dumps(OTHER_HOOKS, indent=2) + "\n")
    before = path.read_bytes()
    code, out, _ = memlint(home, "install", "--dry-run")
    assert code == 0
    assert out.startswith(f"--- {path}\n+++ {path}\n")
    assert '+            "command": "memlint hook claude-code",' in out
    assert path.read_bytes() == before


def test_a_symlinked_settings_file_is_not_written_through(home, tmp_path):
    target = tmp_path / "dotfiles.json"
    target.write_text("{}\n")
    (home / ".claude" / "settings.json").symlink_to(target)
    code, _, err = memlint(home, "install")
    assert code == 2 and "is a symlink" in err
    assert target.read_text() == "{}\n"


def test_unknown_event_is_a_usage_error(home):
    code, _, err = memlint(home, "install", "--events", "post,later")
    assert code == 2 and "unknown event 'later'" in err


def test_install_warns_when_memlint_is_not_on_path(home):
    code, _, err = memlint(home, "install", path=str(home))
    assert code == 0
    assert err.startswith("memlint: warning: `memlint` is not on PATH")
    assert (home / ".claude" / "settings.json").exists()
