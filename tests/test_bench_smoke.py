"""The benchmark runs end to end on a tiny store and reports what it promises."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import generate_store

BENCH = Path(__file__).resolve().parents[1] / "bench"
MIB = 1024 * 1024


def fake_peer(folder: Path, name: str, version_line: str) -> None:
    """An executable ``name`` in ``folder`` that prints ``version_line`` and exits 0."""
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(f"#!/bin/sh\necho '{version_line}'\n")
    script.chmod(0o755)


def load_run_bench():
    spec = importlib.util.spec_from_file_location("run_bench", BENCH / "run_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def test_large_stores_split_so_index_and_notes_rules_run(tmp_path: Path) -> None:
    store = generate_store(tmp_path / "s", 60, seed=2, defect_rate=0.3, notes=30, store_files=25)
    parts = sorted(p.name for p in store.iterdir())
    assert parts == ["store-00", "store-01", "store-02"]
    assert sum(len(list((store / p).rglob("*.md"))) - 1 for p in parts) == 60
    assert all((store / p / "notes.jsonl").stat().st_size < MIB for p in parts)
    check = ["check", str(store), "--no-cache", "--output-format", "json", "--exit-zero"]
    result = subprocess.run(
        [sys.executable, "-m", "memlint", *check],
        capture_output=True,
        text=True,
        check=True,
    )
    codes = {item["code"] for item in json.loads(result.stdout)}
    assert "FS005" not in codes
    assert {"IX002", "IX003"} <= codes and {"NT005", "NT008"} <= codes


def test_a_10k_index_stays_under_the_file_cap(tmp_path: Path) -> None:
    """The index grows by one line a memory: 200 lines under 1/50 of the cap is a 10k
    index (one store, the generator's largest) under the 1 MiB cap."""
    store = generate_store(tmp_path / "s", 200, seed=4)
    assert (store / "MEMORY.md").stat().st_size < MIB * 200 / 10_000


def test_peers_that_do_not_run_are_named_with_the_reason(tmp_path: Path) -> None:
    peers = tmp_path / "peers"
    fake_peer(peers, "lychee", "lychee 9.9.9")
    fake_peer(peers, "markdownlint-cli2", "Usage: something else")
    found = load_run_bench().find_peers(str(peers), str(tmp_path))
    assert found["lychee"]["version"] == "lychee 9.9.9"
    assert found["lychee"]["path"] == str(peers / "lychee")
    assert found["markdownlint-cli2"]["path"] is None
    assert found["markdownlint-cli2"]["missing"].startswith("does not run")
    nowhere = load_run_bench().find_peers(str(tmp_path / "none"), str(tmp_path))
    assert {peer["missing"] for peer in nowhere.values()} == {"not found"}


def test_run_bench_on_a_tiny_store(tmp_path: Path) -> None:
    fake_peer(tmp_path / "peers", "lychee", "lychee 0.0.0-fake")
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
            "--server-sizes",
            "300",
            "--markdown",
            "--peers",
            "--peer-path",
            str(tmp_path / "peers"),
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
    assert size["codes"] and all(count > 0 for count in size["codes"].values())
    assert size["timings"]["lychee"]["ok"] and size["cold_over_peer"]["lychee"] > 0
    assert summary["peers"]["markdownlint-cli2"]["missing"] == "not found"
    assert "markdownlint-cli2" not in size["timings"]
    assert "peer    markdownlint-cli2  not found; install: npm install" in result.stdout
    assert "memlint cold / lychee:" in result.stdout
    assert "| command | 40 files |" in result.stdout
    assert "| memlint cold / lychee | " in result.stdout
    by_label = {target["label"]: target for target in summary["targets"]}
    assert by_label["check 10-file store, x python -c pass"]["value"] > 0
    assert by_label["cold 10k, x floor"]["value"] is None
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
        assert [row["exit_code"] for row in summary["server"]["sizes"]] == [0]
        assert summary["server"]["cli_files"] == 300
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
