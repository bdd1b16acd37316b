"""Per-file work in a process pool; below a threshold, in this process.

Workers are forked, so they inherit everything already loaded (sources,
parsed memories, rule contexts) and receive only indexes; they send back
compact results (parse facts, diagnostics). Results come back in index
order, the same list as running serially. The pool pays off only for large
stores (measured: its start-up and result transfer cost about 0.1 s), so it
starts at ``MIN_FILES`` items and when at least two CPUs are usable.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

MIN_FILES = 5000
_job: Callable[[int], object] | None = None


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def pool_size(files: int, jobs: int | None) -> int:
    """Workers to use for ``files`` items: 1 means serial. ``jobs`` None or 0 is automatic."""
    if jobs is not None and jobs > 0:
        wanted = jobs
    elif files < MIN_FILES:
        return 1
    else:
        wanted = usable_cpus()
    if wanted < 2 or files < 2 or not _can_fork():
        return 1
    return min(wanted, usable_cpus(), files)


def pool_threshold(jobs: int | None) -> int | None:
    """The fewest files a pool is used for with ``jobs``, ``None`` when it never is
    (whether processes can be forked is asked only when a pool starts)."""
    if jobs is None or jobs <= 0:
        return MIN_FILES if usable_cpus() >= 2 else None
    return 2 if jobs >= 2 and usable_cpus() >= 2 else None


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _call(index: int) -> object:
    job = _job
    assert job is not None  # set before the workers were forked
    return job(index)


class Batch:
    """``job(0..count-1)`` started in forked workers (or run here when serial).

    If a worker dies (killed for memory, or a crash in C code), the jobs whose
    results did not arrive run in this process instead: a run never hangs on a
    lost worker, and its results are the same.
    """

    def __init__(
        self, job: Callable[[int], object], count: int, jobs: int | None, items: int | None = None
    ) -> None:
        """``items``: how many files the jobs cover, when a job is more than one file
        (the pool's threshold counts files); then every job is its own pool task."""
        global _job
        self._job = job
        self._count = count
        workers = pool_size(count if items is None else items, jobs)
        self._pool = None
        if workers == 1:
            self._results = [job(index) for index in range(count)]
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        chunk = 1 if items is not None else max(1, count // (workers * 16))
        context = multiprocessing.get_context("fork")
        self._pool = ProcessPoolExecutor(workers, mp_context=context)
        _job = job
        try:  # a fork-context executor forks every worker at the first submission
            self._pending = self._pool.map(_call, range(count), chunksize=chunk)
        finally:
            _job = None  # the workers were forked with it; this process needs it no more

    def results(self) -> Iterator:
        """Every result, in index order, as the workers deliver them (each can be
        consumed and dropped before the next arrives)."""
        if self._pool is None:
            yield from self._results
            return
        from concurrent.futures.process import BrokenProcessPool

        delivered = 0
        try:
            for result in self._pending:
                yield result
                delivered += 1
        except BrokenProcessPool:  # a worker died: finish here
            for index in range(delivered, self._count):
                yield self._job(index)
        finally:
            # Idle workers are joined (the command then exits without waiting for
            # them); after an error, they are left to end on their own.
            self._pool.shutdown(wait=delivered == self._count, cancel_futures=True)
            self._pool = None
