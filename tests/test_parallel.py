"""Parsing in a process pool gives exactly the serial result."""

from __future__ import annotations

import multiprocessing
import os
import time
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
    (store / "latin1.md").write_bytes(b"---\nname: latin1\n---\ncaf\xe9 password: hunter2hunter\n")
    (store / "nul.md").write_bytes(b"---\nname: nul\n---\n\x00\n")
    (store / "suppressed.md").write_text(
        "---\nname: suppressed\ndescription: d\n---\n"
        "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789  <!-- memlint: ignore[PV001] -->\n"
        "<!-- memlint: ignore[LK001] -->\n"
    )
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


def test_shard_workers_read_parse_and_run_local_rules(generated: Path, monkeypatch) -> None:
    """Without a cache, a large store's memory files are read, parsed and given their
    one-file rules by shard workers: this process reads none of them (unless a
    cross-file rule or a problem asks), and the results are the serial ones."""
    from memlint import parse

    settings = Settings()
    rules = selected_rules(settings)
    serial = snapshot(generated, jobs=1)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    made = []
    real = parse.ShardedMemories
    monkeypatch.setattr(parse, "ShardedMemories", lambda *a: made.append(real(*a)) or made[-1])
    (store,) = discover([str(generated)], settings, cwd=str(generated), jobs=2)
    assert len(made) == 1 and store.sharded is made[0]
    unread = [s for s in store.files if s._pending is not None]
    assert len(unread) >= 140  # all but the index and the unreadable files
    assert all(s.known is not None for s in unread)
    facts = [memory_facts(m) for m in store.memories]
    found = lint_store(store, settings, rules, None, 2)
    assert (facts, found) == serial
    assert store.sharded is None
    assert not multiprocessing.active_children()


def test_shard_workers_fill_a_cold_cache(generated: Path, tmp_path: Path, monkeypatch) -> None:
    serial = snapshot(generated, jobs=1)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    old = 10**9 * (time.time() - 60)  # old enough for the signatures to be trusted
    for path in generated.rglob("*.md"):
        os.utime(path, ns=(int(old), int(old)))
    cold = CacheSet(str(tmp_path / "cache"), "key")
    assert snapshot(generated, jobs=2, caches=cold) == serial
    cold.save()
    warm = CacheSet(str(tmp_path / "cache"), "key")
    assert snapshot(generated, jobs=1, caches=warm) == serial
    (cache,) = warm.stores.values()
    assert len(cache._signatures) >= 150  # recorded from what the workers learned


class Died(Exception):
    pass


def _square(kept: int, params: int) -> int:
    if kept == 77 and os.getpid() != params:
        os._exit(1)  # a worker killed in stage two
    return kept * kept


@pytest.mark.parametrize("stage_one", ["works", "dies", "raises"])
def test_shards_keep_order_and_survive_dead_workers(stage_one: str) -> None:
    """A worker lost in stage one (killed, or an exception) has its items run here,
    both stages; in stage two the worker holding item 77 is always killed."""
    parent = os.getpid()

    def first(item: int):
        if os.getpid() != parent and item == 130:
            if stage_one == "dies":
                os._exit(1)
            if stage_one == "raises":
                raise Died
        return -item, item

    shards = parallel.Shards(300, 2, first)
    assert list(shards.first_results()) == [-item for item in range(300)]
    items = [5, 64, 77, 128, 129, 200, 299, 3]
    answers = shards.ask(items, _square, parent, lambda item: item)
    assert list(answers) == [item * item for item in items]
    assert not multiprocessing.active_children()


def test_shards_end_without_stage_two() -> None:
    shards = parallel.Shards(10, 2, lambda item: (item, item))
    assert list(shards.first_results()) == list(range(10))
    assert list(shards.ask([], _square, 0, lambda item: item)) == []
    assert not multiprocessing.active_children()


def test_pool_with_partial_cache(generated: Path, tmp_path: Path, monkeypatch) -> None:
    serial = snapshot(generated, jobs=1)
    caches = CacheSet(str(tmp_path / "cache"), "key")
    snapshot(generated, jobs=1, caches=caches)
    caches.save()
    changed = sorted(generated.glob("*.md"))[:20]
    for path in changed:
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    expected = snapshot(generated, jobs=1)
    assert expected != serial
    monkeypatch.setattr(parallel, "MIN_FILES", 5)
    warm = CacheSet(str(tmp_path / "cache"), "key")
    assert snapshot(generated, jobs=0, caches=warm) == expected


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
