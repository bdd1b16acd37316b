"""The Action never runs memlint with a cache that came from the checkout."""

from __future__ import annotations

from pathlib import Path

import yaml

ACTION = Path(__file__).resolve().parents[2] / "action.yml"


def test_every_memlint_step_keeps_its_cache_under_runner_temp():
    steps = yaml.safe_load(ACTION.read_text(encoding="utf-8"))["runs"]["steps"]
    running = [step for step in steps if "$MEMLINT_ARGS" in step.get("run", "")]
    assert running
    for step in running:
        assert step["env"]["XDG_CACHE_HOME"].startswith("${{ runner.temp }}/"), step["name"]
        assert "--cache-dir" not in step["run"]
