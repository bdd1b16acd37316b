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


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _call(index: int):
    return _job(index)


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


BLOCK = 64  # items per message between a shard worker and this process


def owner(item: int, workers: int) -> int:
    """The shard worker that holds ``item``: blocks of ``BLOCK`` are dealt in turn."""
    return item // BLOCK % workers


class Shards:
    """Items ``0..count-1`` dealt in blocks to forked workers that keep, between
    two stages, what they computed for their own items.

    Stage one runs ``first(item)`` on every item; it returns ``(result, kept)``:
    the result comes back here, ``kept`` stays in the worker. Stage two
    (``ask``) runs ``job(kept, params)`` on the items asked for, each in the
    worker that kept it, then the workers end. Results come back in item order,
    as they arrive. When a worker dies (killed for memory, a crash in C code, an
    exception), this process runs its remaining items instead: ``first`` again,
    and ``job`` on ``here(item)``, this process's own equivalent of ``kept``.
    """

    def __init__(self, count: int, workers: int, first: Callable[[int], tuple]) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._count = count
        self._first = first
        pipes = [(context.Pipe(duplex=False), context.Pipe(duplex=False)) for _ in range(workers)]
        self._inboxes = [down_write for (_, down_write), _ in pipes]
        self._outboxes = [up_read for _, (up_read, _) in pipes]
        self._processes = []
        for worker, ((down_read, _), (_, up_write)) in enumerate(pipes):
            others = [
                c for pair in pipes for c in (*pair[0], *pair[1]) if c not in (down_read, up_write)
            ]
            process = context.Process(
                target=_serve,
                args=(worker, workers, count, first, down_read, up_write, others),
                daemon=True,
            )
            process.start()
            self._processes.append(process)
        for (down_read, _), (_, up_write) in pipes:
            down_read.close()
            up_write.close()
        self._alive = [True] * workers

    @property
    def workers(self) -> int:
        return len(self._processes)

    def first_results(self) -> Iterator:
        """Stage one's results, in item order."""
        for start in range(0, self._count, BLOCK):
            items = range(start, min(start + BLOCK, self._count))
            found = self._receive(owner(start, self.workers))
            if found is None or len(found) != len(items):
                found = [self._first(item)[0] for item in items]
            yield from found

    def ask(
        self, items: list[int], job: Callable, params, here: Callable[[int], object]
    ) -> Iterator:
        """Send stage two (``items``, each once; stage one's results all taken) to the
        workers; the returned iterator yields ``job``'s results in item order.
        ``job`` must be a module-level function and ``params`` picklable. The
        results are received by threads meanwhile, so the workers never wait
        for this process to read (it runs other work until it iterates)."""
        import pickle
        import threading

        owned: list[list[int]] = [[] for _ in range(self.workers)]
        for item in items:
            owned[owner(item, self.workers)].append(item)
        received: list[list] = [[] for _ in range(self.workers)]
        readers = []
        for worker, mine in enumerate(owned):  # each is sent a list, maybe empty
            if not self._alive[worker]:
                continue
            try:
                request = pickle.dumps((job, params, mine), pickle.HIGHEST_PROTOCOL)
                self._inboxes[worker].send_bytes(request)
            except (OSError, ValueError):
                self._dead(worker)
                continue
            if not mine:
                continue
            reader = threading.Thread(
                target=self._drain, args=(worker, len(mine), received[worker]), daemon=True
            )
            reader.start()
            readers.append(reader)
        if not items:
            self.close()
            return iter(())
        return self._answers(items, received, readers, job, params, here)

    def _drain(self, worker: int, expected: int, into: list) -> None:
        """Receive ``worker``'s stage-two results (fewer if it dies)."""
        while len(into) < expected:
            found = self._receive(worker)
            if not found or len(into) + len(found) > expected:
                self._dead(worker)
                return
            into.extend(found)

    def _answers(self, items, received, readers, job, params, here) -> Iterator:
        try:
            for reader in readers:
                reader.join()
            taken = [0] * self.workers
            for item in items:
                worker = owner(item, self.workers)
                mine = received[worker]
                if taken[worker] < len(mine):
                    yield mine[taken[worker]]
                    mine[taken[worker]] = None
                else:  # its worker died: run it here
                    yield job(here(item), params)
                taken[worker] += 1
        finally:
            self.close()

    def _receive(self, worker: int) -> list | None:
        """The next message of ``worker``, or ``None`` once it died."""
        if not self._alive[worker]:
            return None
        import pickle

        try:
            found = pickle.loads(self._outboxes[worker].recv_bytes())
        except Exception:  # EOF: the worker died, or sent something broken
            self._dead(worker)
            return None
        return found if isinstance(found, list) else None

    def _dead(self, worker: int) -> None:
        self._alive[worker] = False
        self._processes[worker].kill()

    def close(self) -> None:
        """End the workers (those waiting for stage two see their inbox close)."""
        for connection in (*self._inboxes, *self._outboxes):
            connection.close()
        for process in self._processes:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()


def _serve(worker, workers, count, first, inbox, outbox, others) -> None:
    """A shard worker's life: stage one on its blocks, then the stage two it is sent."""
    import pickle

    status = 1
    try:
        for connection in others:
            connection.close()
        kept = {}
        for start in range(worker * BLOCK, count, workers * BLOCK):
            found = []
            for item in range(start, min(start + BLOCK, count)):
                result, kept[item] = first(item)
                found.append(result)
            outbox.send_bytes(pickle.dumps(found, pickle.HIGHEST_PROTOCOL))
        try:
            job, params, items = pickle.loads(inbox.recv_bytes())
        except EOFError:  # no stage two
            status = 0
            return
        for start in range(0, len(items), BLOCK):
            found = [job(kept.pop(item), params) for item in items[start : start + BLOCK]]
            outbox.send_bytes(pickle.dumps(found, pickle.HIGHEST_PROTOCOL))
        status = 0
    except BaseException:  # this process will run the rest: no traceback here
        pass
    finally:
        os._exit(status)
