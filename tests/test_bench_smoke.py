"""The benchmark runs end to end on a tiny store and reports what it promises."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_generator_is_deterministic(tmp_path: Path) -> None:
    for name in ("a", "b"):
        subprocess.run(
            [sys.executable, str(BENCH / "gen_store.py"), str(tmp_path / name), "--files", "40"],
            check=True,
            capture_output=True,
        )
    first = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*.*")}
    second = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*.*")}
    assert first == second
    assert Path("MEMORY.md") in first


def test_run_bench_on_a_tiny_store(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(BENCH / "run_bench.py"),
            "--sizes",
            "40",
            "--rounds",
            "1",
            "--startup-rounds",
            "1",
            "--hook-sizes",
            "300",
            "--workdir",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    size = summary["sizes"][0]
    assert size["files"] == 40
    assert set(size["timings"]) >= {"floor", "cold", "warm", "precommit", "warm_1pct"}
    assert all(timing["exit_codes"] == [0] for timing in size["timings"].values())
    floor, cold = size["timings"]["floor"], size["timings"]["cold"]
    assert floor["x_floor"] == floor["x_floor_min"] == 1.0
    assert cold["x_floor_min"] == cold["min_s"] / floor["min_s"] > 0
    assert summary["startup"]["python_pass"]["x_python_min"] == 1.0
    assert {"check_10", "check_300"} <= set(summary["startup"])
    assert size["identical"] == {"pool": True, "cache_cold": True, "cache_warm": True}
    assert summary["heavy_imports"] == []
    hook = summary["hook"]
    assert {name: t["exit_codes"] for name, t in hook.items()} == {
        "python_pass": [0],
        "not_memory": [0],
        "memory_300": [0],
    }
    assert hook["python_pass"]["x_python"] == 1.0
    assert "hook    memory_300" in result.stdout
    if importlib.util.find_spec("pygls") is not None:
        assert summary["server"]["exit_code"] == 0
        assert "server  didChange_300" in result.stdout
    else:
        assert summary["server"] is None
    assert "floor" in result.stdout


def test_phases_names_where_the_time_goes(tmp_path: Path) -> None:
    store = tmp_path / "store"
    subprocess.run(
        [sys.executable, str(BENCH / "gen_store.py"), str(store), "--files", "40"],
        check=True,
        capture_output=True,
    )
    result = subprocess.run(
        [sys.executable, str(BENCH / "phases.py"), str(store), "--no-cache"],
        check=True,
        capture_output=True,
        text=True,
    )
    lines = dict(line.split(None, 1) for line in result.stderr.splitlines() if line[:1] != " ")
    assert {"total", "imports", "discover", "load_memories", "lint_store", "render"} <= set(lines)
    assert "DU001" in result.stderr and "PV001" in result.stderr
    assert result.stdout == ""
