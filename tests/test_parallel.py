"""Parsing in a process pool gives exactly the serial result."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlint import parallel
from memlint.cache import CacheSet
from memlint.config import Settings
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.parse import memory_facts
from tests.helpers import generate_store

pytestmark = pytest.mark.skipif(
    not parallel._can_fork() or parallel.usable_cpus() < 2, reason="needs fork and 2 CPUs"
)


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    store = generate_store(tmp_path / "store", 150, seed=11, defect_rate=0.3)
    (store / "odd.md").write_text("---\nname: [x, &a y]\ndescription: *a\n---\n[[a]]\n")
    return store


def snapshot(root: Path, jobs: int, caches: CacheSet | None = None):
    settings = Settings()
    rules = selected_rules(settings)
    stores = discover([str(root)], settings, cwd=str(root), caches=caches, jobs=jobs)
    facts = [memory_facts(m) for store in stores for m in store.memories]
    found = []
    for store in stores:
        cache = caches.for_store(store.root) if caches is not None else None
        found.extend(lint_store(store, settings, rules, cache))
    return facts, found


def test_pool_equals_serial(generated: Path, monkeypatch) -> None:
    serial = snapshot(generated, jobs=1)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    assert parallel.pool_size(150, None) >= 2
    assert snapshot(generated, jobs=0) == serial
    assert snapshot(generated, jobs=2) == serial


def test_pool_with_partial_cache(generated: Path, tmp_path: Path, monkeypatch) -> None:
    serial = snapshot(generated, jobs=1)
    caches = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32)
    snapshot(generated, jobs=1, caches=caches)
    caches.save()
    changed = sorted(generated.glob("*.md"))[:20]
    for path in changed:
        text = path.read_text(encoding="utf-8") + "\nSee [[nowhere-at-all]].\n"
        path.write_text(text, encoding="utf-8")
    expected = snapshot(generated, jobs=1)
    assert expected != serial
    monkeypatch.setattr(parallel, "MIN_FILES", 5)
    warm = CacheSet(str(tmp_path / "cache"), "key", b"k" * 32)
    assert snapshot(generated, jobs=0, caches=warm) == expected


def test_cross_file_rules_of_a_large_store_use_the_pool_when_one_file_is_named(
    generated: Path, tmp_path: Path, monkeypatch
) -> None:
    """Pre-commit names one file of a large store: its cross-file rules still read the
    whole store, so they run in the pool, with the serial run's findings."""
    import os

    from memlint import engine

    named = str(sorted(generated.glob("*.md"))[3])
    settings = Settings()
    rules = selected_rules(settings)

    def findings(jobs: int) -> list:
        (store,) = discover([named], settings, cwd=str(generated), jobs=jobs)
        return lint_store(store, settings, rules, None, jobs)

    serial = findings(1)
    assert serial and {d.path for d in serial} == {named}
    pids = tmp_path / "pids"
    run = engine._run

    def recording(rule, store, settings, targets):
        with open(pids, "a") as handle:
            handle.write(f"{os.getpid()} {rule.meta.code}\n")
        return run(rule, store, settings, targets)

    monkeypatch.setattr(engine, "_run", recording)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    assert findings(0) == serial
    ran = [line.split() for line in pids.read_text().splitlines()]
    parent = str(os.getpid())
    here = {code for pid, code in ran if pid == parent}
    after_pool = {r.meta.code for r in rules if r.meta.external} | {"MX001"}
    assert {"DU001", "ID007", "LK001"} <= {code for pid, code in ran if pid != parent}
    assert here <= after_pool  # the rules that run after the pool ran here, no other


def test_small_stores_stay_serial() -> None:
    assert parallel.pool_size(100, None) == 1
    assert parallel.pool_size(1, 4) == 1


def test_a_dead_worker_neither_hangs_nor_changes_results(monkeypatch) -> None:
    """A worker killed mid-run (out of memory, a crash in C code): the rest runs here."""
    import os

    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    parent = os.getpid()

    def job(index: int) -> int:
        if index == 7 and os.getpid() != parent:
            os._exit(1)
        return index * index

    batch = parallel.Batch(job, 200, 2)
    assert list(batch.results()) == [index * index for index in range(200)]
