"""The Claude Code plugin folder registers `memlint server` and `memlint hook install`'s hook."""

from __future__ import annotations

import json
from pathlib import Path

from memlint import __version__
from memlint.hook_install import install

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "claude-code"


def read(name: str) -> dict:
    return json.loads((PLUGIN / name).read_text(encoding="utf-8"))


def test_manifest_names_the_plugin_at_this_version():
    manifest = read(".claude-plugin/plugin.json")
    assert manifest["name"] == "memlint"
    assert manifest["version"] == __version__


def test_language_server_runs_memlint_server_for_markdown():
    (server,) = read(".lsp.json").values()
    assert server["command"] == "memlint"
    assert server["args"] == ["server"]
    assert server["extensionToLanguage"] == {".md": "markdown"}


def test_hooks_are_the_ones_memlint_hook_install_adds():
    expected: dict = {}
    install(expected, ["post"])
    assert read("hooks/hooks.json")["hooks"] == expected["hooks"]
