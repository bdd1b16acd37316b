"""The project's own .pre-commit-config.yaml: local hooks only (nothing downloaded), and
its memlint hooks pass on this checkout: the clean fixture store has no finding at any
severity, and the example store (defective on purpose) is linted without a crash."""

from __future__ import annotations

import shlex
from pathlib import Path

import yaml

from memlint.cli import main

ROOT = Path(__file__).resolve().parents[1]


def hooks() -> list[dict]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    return [hook for repo in config["repos"] for hook in repo["hooks"]]


def test_ruff_and_memlint_run_as_local_hooks():
    assert all(hook["language"] == "system" for hook in hooks())
    entries = [hook["entry"] for hook in hooks()]
    assert any(e.startswith("ruff check") for e in entries)
    assert any(e.startswith("ruff format --check") for e in entries)
    assert sum(e.startswith("python -m memlint check") for e in entries) == 2


def test_the_memlint_hooks_pass_on_this_checkout(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    for hook in hooks():
        words = shlex.split(hook["entry"])
        if words[:3] == ["python", "-m", "memlint"]:
            assert main(words[3:]) == 0, (hook["id"], capsys.readouterr())
