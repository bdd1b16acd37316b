"""Parsing in a process pool gives exactly the serial result."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlint import parallel
from memlint.cache import CacheSet
from memlint.config import Settings
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.facts import memory_facts
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


def test_a_large_store_with_one_file_named_runs_in_this_process(
    generated: Path, tmp_path: Path, monkeypatch
) -> None:
    """Pre-commit names one file of a large store: its cross-file rules read the whole
    store but report on that file only, so no worker is forked (each would build the
    store's tables again); the findings are those of the whole run on that file."""
    import os

    from memlint import engine

    named = str(sorted(generated.glob("*.md"))[3])
    settings = Settings()
    rules = selected_rules(settings)

    def findings(paths: list[str], jobs: int) -> list:
        (store,) = discover(paths, settings, cwd=str(generated), jobs=jobs)
        return lint_store(store, settings, rules, None, jobs)

    expected = [d for d in findings([str(generated)], 1) if d.path == named]
    assert expected
    pids = tmp_path / "pids"
    run = engine._run

    def recording(rule, store, settings, targets):
        with open(pids, "a") as handle:
            handle.write(f"{os.getpid()} {rule.meta.code}\n")
        return run(rule, store, settings, targets)

    monkeypatch.setattr(engine, "_run", recording)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    assert findings([named], 0) == expected
    ran = [line.split() for line in pids.read_text().splitlines()]
    assert {"DU001", "ID007", "LK001"} <= {code for _, code in ran}
    assert {pid for pid, _ in ran} == {str(os.getpid())}


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


def checked(root: Path, jobs: int, caches: CacheSet | None = None) -> list:
    from memlint import api

    report = api.check([str(root)], Settings(), caches=caches, jobs=jobs, cwd=str(root))
    return report.diagnostics


def test_one_pass_equals_serial_and_keeps_no_text(generated: Path, monkeypatch) -> None:
    """Parsing and the one-file rules run in one pool pass (``engine.EarlyLocal``); the
    findings are the serial ones, and memory files with none are not held in memory."""
    from memlint import api

    serial = checked(generated, jobs=1)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    taken: list[int] = []
    record_local_results_taken(monkeypatch, taken)
    assert checked(generated, jobs=0) == serial
    assert checked(generated, jobs=2) == serial
    assert taken and all(count > 100 for count in taken)
    stores = api.load([str(generated)], Settings(), jobs=2, cwd=str(generated))
    report = api.lint(stores, Settings(), jobs=2)
    (store,) = stores
    reported = {d.path for d in report.diagnostics}
    quiet = [m.file for m in store.memories if m.file.path not in reported]
    assert quiet and all(source.pending is not None for source in quiet)


def record_local_results_taken(monkeypatch, taken: list[int]) -> None:
    """Record how many one-file results each lint found from the pool's pass."""
    from memlint import engine

    init = engine._StoreRun.__init__

    def recording(self, store, *args) -> None:
        early = store.early
        init(self, store, *args)
        taken.append(len(early.found) if early is not None else 0)

    monkeypatch.setattr(engine._StoreRun, "__init__", recording)


def test_one_pass_with_a_wrong_profile_guess(generated: Path, monkeypatch) -> None:
    """The profile is guessed from a sample before the pool starts; when the store's
    profile turns out different, the one-file rules run again under the right one."""
    from memlint import engine

    serial = checked(generated, jobs=1)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    start = engine.EarlyLocal.start

    def wrong(self, sample) -> None:
        right = self.guess(sample)
        self.guess = lambda _: "freeform" if right != "freeform" else "typed"
        start(self, sample)

    monkeypatch.setattr(engine.EarlyLocal, "start", wrong)
    assert checked(generated, jobs=2) == serial


def test_one_pass_with_a_cache(generated: Path, tmp_path: Path, monkeypatch) -> None:
    serial = checked(generated, jobs=1)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    assert checked(generated, 2, CacheSet(str(tmp_path / "c"), "key", b"k" * 32)) == serial
    assert checked(generated, 2, CacheSet(str(tmp_path / "c"), "key", b"k" * 32)) == serial
    assert checked(generated, 1, CacheSet(str(tmp_path / "c"), "key", b"k" * 32)) == serial


def test_a_released_file_changed_on_disk_is_not_read_as_it_was(
    generated: Path, monkeypatch
) -> None:
    """A memory file's text is dropped once parsed and read again when a rule or the
    output needs it; bytes that changed meanwhile are refused, not mixed with the
    positions found in the first read."""
    from memlint.discovery import Discovery
    from memlint.engine import EarlyLocal

    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    finder = Discovery(Settings(), str(generated), jobs=2, keep_raw=False, early=EarlyLocal)
    finder.add_path(str(generated))
    (store,) = finder.load()
    memory = store.memories[5]
    source = memory.file
    assert source.pending is not None
    path = Path(source.path)
    path.write_text(path.read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    assert source.text is None
    assert source.problem is not None and "changed while" in source.problem.detail
    other = store.memories[6].file
    assert other.text is not None and other.problem is None


def test_a_warm_run_of_a_pooled_store_reads_no_unchanged_file(
    generated: Path, tmp_path: Path, monkeypatch
) -> None:
    """Dropping text is for files this run read: a file the cache vouches for is not
    read just to be dropped (that read every file of a warm 10k store: 0.19 s)."""
    import os
    import time

    from memlint import discovery
    from memlint.engine import EarlyLocal

    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    old = time.time() - 60  # out of the racy window: the signatures are recorded
    for path in generated.rglob("*"):
        os.utime(path, (old, old), follow_symlinks=False)
    caches = CacheSet(str(tmp_path / "c"), "key", b"k" * 32)
    checked(generated, 2, caches)  # warms the cache
    read = discovery.read_into
    reads: list[str] = []
    monkeypatch.setattr(discovery, "read_into", lambda s, *a: (reads.append(s.rel), read(s, *a)))
    settings = Settings()
    warm = CacheSet(str(tmp_path / "c"), "key", b"k" * 32)
    finder = discovery.Discovery(settings, str(generated), warm, 2, False, early=EarlyLocal)
    finder.add_path(str(generated))
    (store,) = finder.load()
    assert len(store.memories) > 100
    assert [rel for rel in reads if rel != "MEMORY.md"] == []


def test_one_pass_reports_a_crashing_rule_as_serial_does(generated: Path, monkeypatch) -> None:
    """A rule that raises after yielding: its partial findings are dropped and the crash
    is reported (MX002), in the pool's one pass as in this process."""
    from memlint.rules.ct import ct001_empty_memory

    def broken(ctx, memory):
        if memory.stem < "m":
            yield ctx.report(memory.file, 0, 0, "partial finding")
            raise RuntimeError("boom")

    monkeypatch.setattr(ct001_empty_memory, "check", broken)
    serial = checked(generated, jobs=1)
    assert any(d.code == "MX002" for d in serial)
    assert not any(d.message == "partial finding" for d in serial)
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    taken: list[int] = []
    record_local_results_taken(monkeypatch, taken)
    assert checked(generated, jobs=2) == serial
    assert taken and all(count > 100 for count in taken)


def test_a_cold_pooled_run_reads_memory_files_in_the_workers(generated: Path, monkeypatch) -> None:
    """Without a cache, a store large enough for the pool is walked here and each memory
    file is read by the worker that parses it: this process reads only the sample that
    guesses the profile (it read every file before, then dropped its text: 0.1-0.15 s
    of serial time at 10,000 files)."""
    import os

    from memlint import discovery, parse
    from memlint.engine import EarlyLocal
    from memlint.sources import document

    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    monkeypatch.setattr(parse, "SAMPLE", 8)
    parent = os.getpid()
    read = discovery.read_into
    reads: list[str] = []

    def counted(source, *args) -> None:
        if os.getpid() == parent:
            reads.append(source.rel)
        read(source, *args)

    monkeypatch.setattr(discovery, "read_into", counted)
    monkeypatch.setattr(document, "read_into", counted)  # read_source's
    finder = discovery.Discovery(
        Settings(), str(generated), jobs=2, keep_raw=False, early=EarlyLocal
    )
    finder.add_path(str(generated))
    (store,) = finder.load()
    assert len(store.memories) > 100
    assert len([rel for rel in reads if rel != "MEMORY.md"]) <= 8


def test_unreadable_memory_files_in_a_cold_pooled_run(generated: Path, monkeypatch) -> None:
    """Files a worker reads first and finds unreadable (NUL bytes, invalid UTF-8, over
    the size cap) are no memories, and get the findings of a serial run."""
    (generated / "nul.md").write_bytes(b"---\nname: nul\n---\n\x00body\n")
    (generated / "latin.md").write_bytes(b"---\nname: latin\n---\ncaf\xe9\n")
    (generated / "big.md").write_text("---\nname: big\n---\n" + "word " * 300_000)
    serial = checked(generated, jobs=1)
    assert {"nul.md", "latin.md", "big.md"} <= {Path(d.path).name for d in serial}
    monkeypatch.setattr(parallel, "MIN_FILES", 10)
    assert checked(generated, jobs=2) == serial
    assert checked(generated, jobs=0) == serial
