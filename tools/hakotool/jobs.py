"""Independent runs side by side: how many at once, and results in order.

Under icount every boot is deterministic and shares nothing with another,
so `make test`'s boots and `make report`'s experiments can run at the same
time with the same results.  default_jobs() is one per host core, as far as
memory holds (about 1.5 GiB for the largest run: 8 CPUs, a 1 GiB guest and
the cost model); run_ordered() runs them and hands each result on in the
order given, as soon as it and every one before it are done, so what is
printed does not depend on how many ran at once.
"""
from __future__ import annotations

import os
import queue
import threading

RUN_KIB = 1536 * 1024


def available_kib(meminfo: str = "/proc/meminfo") -> int:
    """MemAvailable in KiB, or 0 if it cannot be read."""
    try:
        with open(meminfo, encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def default_jobs(cpus: int | None = None, mem_kib: int | None = None) -> int:
    """One run per host core, and no more than memory holds."""
    cpus = cpus or os.cpu_count() or 1
    if mem_kib is None:
        mem_kib = available_kib()
    by_memory = max(1, mem_kib // RUN_KIB) if mem_kib else cpus
    return max(1, min(cpus, by_memory))


def run_ordered(items, work, jobs: int, done) -> None:
    """work(item) for every item, JOBS at a time; done(index, item, result) in item order.

    With jobs <= 1 everything runs in this thread, one after another.  An
    exception in work() is passed on to the caller after the others finish."""
    items = list(items)
    if jobs <= 1 or len(items) <= 1:
        for i, item in enumerate(items):
            done(i, item, work(item))
        return
    results: dict[int, object] = {}
    errors: list[BaseException] = []
    finished: queue.Queue[int] = queue.Queue()
    todo: queue.Queue[int] = queue.Queue()
    for i in range(len(items)):
        todo.put(i)

    def worker() -> None:
        while True:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            try:
                results[i] = work(items[i])
            except BaseException as exc:          # reported once all are done
                errors.append(exc)
                results[i] = None
            finished.put(i)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(jobs, len(items)))]
    for t in threads:
        t.start()
    next_index = 0
    ready: set[int] = set()
    while next_index < len(items):
        ready.add(finished.get())
        while next_index in ready:
            if not errors:
                done(next_index, items[next_index], results.pop(next_index))
            next_index += 1
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
