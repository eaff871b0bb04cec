"""jobs.py: how many runs at once, and results handed on in order."""
import threading
import time

import pytest

from hakotool import jobs


def test_default_jobs_follows_cores_and_memory():
    assert jobs.default_jobs(cpus=8, mem_kib=64 * 1024 * 1024) == 8
    assert jobs.default_jobs(cpus=8, mem_kib=3 * 1024 * 1024) == 2
    assert jobs.default_jobs(cpus=2, mem_kib=512 * 1024) == 1
    assert jobs.default_jobs(cpus=4, mem_kib=0) == 4


def test_results_come_in_order_whatever_finishes_first():
    delays = [0.3, 0.0, 0.2, 0.0, 0.1]
    seen, running, most = [], [0], [0]
    lock = threading.Lock()

    def work(i):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(delays[i])
        with lock:
            running[0] -= 1
        return i * 10

    jobs.run_ordered(range(5), work, 3, lambda index, item, result: seen.append((index, result)))
    assert seen == [(0, 0), (1, 10), (2, 20), (3, 30), (4, 40)]
    assert most[0] == 3


def test_one_job_runs_in_this_thread():
    threads = []
    jobs.run_ordered([1, 2], lambda x: threads.append(threading.current_thread()), 1,
                     lambda *_: None)
    assert threads == [threading.current_thread()] * 2


def test_an_error_is_raised_after_the_others_finish():
    finished = []

    def work(x):
        if x == 1:
            raise ValueError("boom")
        time.sleep(0.1)
        finished.append(x)

    with pytest.raises(ValueError):
        jobs.run_ordered([0, 1, 2], work, 3, lambda *_: None)
    assert sorted(finished) == [0, 2]
