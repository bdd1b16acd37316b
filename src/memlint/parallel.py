"""Parse many memory files in a process pool; below a threshold, in this process.

Workers are forked, so they inherit the already-read sources and receive only
indexes; they send back compact facts tuples (see ``memlint.cache``), from
which the parent rebuilds each ``Memory``. The result is the same list, in
the same order, as parsing serially. The pool pays off only for large
stores (measured: its start-up and result transfer cost about 0.1 s), so it
starts at ``MIN_FILES`` files and when at least two CPUs are usable.
"""

from __future__ import annotations

import os

from memlint.cache import StoreCache, memory_facts, rebuild_memory
from memlint.sources.document import SourceFile
from memlint.store import Memory, load_memory

MIN_FILES = 5000
_pending: list[SourceFile] = []


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def pool_size(files: int, jobs: int | None) -> int:
    """Workers to use for ``files`` parses: 1 means serial. ``jobs`` None or 0 is automatic."""
    if jobs is not None and jobs > 0:
        wanted = jobs
    elif files < MIN_FILES:
        return 1
    else:
        wanted = usable_cpus()
    if wanted < 2 or files < 2 or not _can_fork():
        return 1
    return min(wanted, usable_cpus(), files)


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _facts_of(index: int) -> tuple:
    return memory_facts(load_memory(_pending[index]))


def load_memories(
    sources: list[SourceFile], cache: StoreCache | None = None, jobs: int | None = None
) -> list[Memory]:
    """The memories of ``sources`` (each with text), from ``cache`` where it has them."""
    global _pending
    memories: list[Memory | None] = [None] * len(sources)
    missing: list[int] = []
    for position, source in enumerate(sources):
        facts = cache.memory_facts(source) if cache is not None else None
        if facts is None:
            missing.append(position)
        else:
            memories[position] = rebuild_memory(source, facts)
    workers = pool_size(len(missing), jobs)
    if workers == 1:
        for position in missing:
            memory = memories[position] = load_memory(sources[position])
            if cache is not None:
                cache.remember_memory_facts(sources[position], memory_facts(memory))
        return memories
    import multiprocessing

    _pending = [sources[position] for position in missing]
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            chunk = max(1, len(missing) // (workers * 16))
            facts_list = pool.map(_facts_of, range(len(missing)), chunksize=chunk)
    finally:
        _pending = []
    for position, facts in zip(missing, facts_list, strict=True):
        memories[position] = rebuild_memory(sources[position], facts)
        if cache is not None:
            cache.remember_memory_facts(sources[position], facts)
    return memories
