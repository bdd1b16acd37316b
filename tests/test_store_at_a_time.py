"""A check loads, lints and lets go of one store at a time (peak memory is one store's),
with the report of loading every store first."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from memlint import api, console, parallel
from memlint.cache import CacheSet
from memlint.config import Settings
from memlint.discovery import Discovery
from memlint.sources.document import SourceFile
from memlint.store import Memory
from tests.helpers import generate_store


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Three sub-stores with findings of every kind, and loose notes beside them."""
    top = tmp_path / "tree"
    generate_store(top, 120, seed=5, defect_rate=0.3, notes=30, store_files=40)
    odd = "---\nname: [x, &a y]\n---\n[[a]]\nConnect with password: `0penBmc7`\n"
    (top / "store-01" / "odd.md").write_text(odd)
    loose = top / "loose"
    loose.mkdir()
    notes = '{"time": "2025-01-01T00:00:00Z", "fact": "a"}\n{"fact": 1}\n'
    (loose / "facts.jsonl").write_text(notes)
    return top


def all_loaded_first(top: Path, jobs: int = 1, caches: CacheSet | None = None) -> api.Report:
    """What a check reported when every store was loaded before any was linted."""
    stores = api.load([str(top)], Settings(), jobs=jobs, caches=caches, cwd=str(top))
    return api.lint(stores, Settings(), caches, jobs)


def rendered(report: api.Report, output_format: str) -> str:
    options = console.ReportOptions(output_format=output_format)
    return console.render_report(report, options)


@pytest.mark.parametrize("jobs", [1, 2])
def test_one_store_at_a_time_reports_as_all_loaded_first(
    tree: Path, jobs: int, monkeypatch
) -> None:
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    expected = all_loaded_first(tree, jobs)
    report = api.check([str(tree)], Settings(), jobs=jobs, cwd=str(tree))
    assert len(expected.roots) == 4 and report.roots == expected.roots
    codes = {d.code[:2] for d in report.diagnostics}
    assert {"IX", "NT", "LK", "FM", "PV"} <= codes
    assert report.diagnostics == expected.diagnostics
    for output_format in ("full", "json", "sarif", "github"):
        assert rendered(report, output_format) == rendered(expected, output_format)


def test_one_store_at_a_time_with_a_cache(tree: Path, tmp_path: Path) -> None:
    expected = all_loaded_first(tree)
    caches = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32)
    cold = api.check([str(tree)], Settings(), caches=caches, cwd=str(tree))
    warm = api.check([str(tree)], Settings(), caches=caches.reopened(), cwd=str(tree))
    assert cold.diagnostics == warm.diagnostics == expected.diagnostics
    assert rendered(warm, "full") == rendered(expected, "full")
    again = api.load([str(tree)], Settings(), caches=caches.reopened(), cwd=str(tree))
    assert [store.memo is not None for store in again] == [True, True, True, False]


def test_a_store_cache_is_saved_and_let_go_before_the_next_store_loads(
    tree: Path, tmp_path: Path, monkeypatch
) -> None:
    caches = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32)
    opened: list[tuple[str, weakref.ref]] = []
    held_at_load: list[list[str]] = []
    original = Discovery._load_store

    def load_store(self, plan, roots):
        held_at_load.append([root for root, ref in opened if ref() is not None])
        opened.append((plan.root, weakref.ref(caches.for_store(plan.root))))
        return original(self, plan, roots)

    monkeypatch.setattr(Discovery, "_load_store", load_store)
    api.check([str(tree)], Settings(), caches=caches, cwd=str(tree))
    assert held_at_load == [[], [], []] and len(opened) == 3
    assert not caches.stores


def live_files(root: str) -> set[str]:
    """Paths under ``root`` of the source files and memories still in this process
    (reachable or not: cyclic garbage counts)."""
    prefix = root + "/"
    found = set()
    for thing in gc.get_objects():
        if isinstance(thing, Memory):
            thing = thing.file
        if isinstance(thing, SourceFile) and thing.path.startswith(prefix):
            found.add(thing.path)
    return found


def test_a_store_is_let_go_before_the_next_one_loads(tree: Path, monkeypatch) -> None:
    """When store N+1 starts loading, nothing holds store N, its memories or its files
    (freed by reference counts alone, no collector pass), but the files with findings,
    which the report shows."""
    loaded: list[tuple[weakref.ref, str, int]] = []
    alive_at_load: list[tuple[bool, ...]] = []
    kept_at_load: list[set[str]] = []
    original = Discovery._load_store

    def load_store(self, plan, roots):
        alive_at_load.append(tuple(ref() is not None for ref, _, _ in loaded))
        kept_at_load.append(set().union(*(live_files(root) for _, root, _ in loaded)))
        store = original(self, plan, roots)
        loaded.append((weakref.ref(store), store.root, len(store.memories)))
        return store

    gc.disable()
    try:
        monkeypatch.setattr(Discovery, "_load_store", load_store)
        report = api.check([str(tree)], Settings(), jobs=1, cwd=str(tree))
    finally:
        gc.enable()
    assert [count for _, _, count in loaded] == [40, 41, 40]
    assert alive_at_load == [(), (False,), (False, False)]
    reported = {d.path for d in report.diagnostics}
    assert kept_at_load[1] and kept_at_load[2] > kept_at_load[1]
    assert kept_at_load[2] <= reported and kept_at_load[2] <= set(report.sources)
