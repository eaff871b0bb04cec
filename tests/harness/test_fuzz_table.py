"""Tests for tools/hakotool/fuzz_table.py: the soak's summary and verdict."""
from hakotool import fuzz_table

RECORD = {
    "kind": "fuzz", "name": "fuzz", "seed": 1, "ms": 85, "calls": 38022, "child_calls": 18000,
    "children": {"spawned": 9, "finished": 3, "killed": 6, "self_ended": 0, "faulted": 0,
                 "unprivileged": 4},
    "helpers": 48, "bad_child_status": 0, "free_before": 29545, "free_after": 29545,
    "ica_free_before": 1024, "ica_free_after": 1024,
    "per_call": {"null": {"n": 438, "ok": 438, "tsc": 1},
                 "write": {"n": 122, "ok": 11, "tsc": 2, "EFAULT": 111},
                 "read": {"n": 324, "ok": 25, "tsc": 3, "EFAULT": 111, "EINVAL": 188}},
    "ok": True,
}

LOG = [
    "fuzz: 20000 calls, seed 1, 8 threads, 3 child processes",
    "hello from pid 11",
    "pid 5 (fuzz): page fault at 0, rip 400868: killed",
    "drvproc: drv-rtl8139 (pid 3) did not register in 500 ms: killed",
    "KERNEL FAULT: #PF page fault (vector 14) on cpu 3",
    "PANIC sched: thread 7 queued twice",
    "fuzz: 38022 calls in 85 ms, 9 children (6 killed, 0 faulted)",
]


def test_fault_lines_are_the_kernels_kills_faults_and_panics():
    assert fuzz_table.fault_lines(LOG) == [LOG[2], LOG[4], LOG[5]]
    assert fuzz_table.fault_lines(["fuzz: 9 children (6 killed, 0 faulted)"]) == []


def test_verdict():
    assert fuzz_table.verdict(RECORD, [], 38000) is None
    assert "fewer than" in fuzz_table.verdict(RECORD, [], 10_000_000)
    assert "fault line" in fuzz_table.verdict(RECORD, [LOG[2]], 1)
    assert "free frames" in fuzz_table.verdict(dict(RECORD, free_after=29544), [], 1)
    assert "ok=false" in fuzz_table.verdict(dict(RECORD, ok=False), [], 1)
    assert "no fuzz record" in fuzz_table.verdict(None, [], 1)


def test_fuzz_record_is_the_last():
    assert fuzz_table.fuzz_record([{"kind": "boot"}, RECORD]) is RECORD
    assert fuzz_table.fuzz_record([{"kind": "boot"}]) is None


def test_render():
    text = fuzz_table.render(RECORD, [], 38000)
    assert text.startswith("soak: 38,022 calls in 85 ms of guest time (seed 1), 3 distinct calls\n")
    assert "9 spawned: 3 finished, 6 killed by the fuzzer, 0 ended themselves, 0 faulted" in text
    assert "29545 before, 29545 after" in text
    assert "read                 324 calls,        25 ok; EINVAL 188, EFAULT 111" in text
    assert text.endswith("soak: passed\n")
    failed = fuzz_table.render(RECORD, [LOG[4]], 38000)
    assert "  fault: KERNEL FAULT" in failed and "soak: FAILED: 1 fault line(s)" in failed
    assert fuzz_table.render(None, [], 1).startswith("soak: no fuzz record\n")


def test_bench_soak_summary_reads_the_log_and_drops_it_on_a_pass(tmp_path):
    import io
    from hakotool import bench
    from hakotool.runner import BootOutcome

    def outcome(lines, record):
        log = tmp_path / "bench-soak.log"
        log.write_text("\n".join(lines) + "\n")
        return BootOutcome("bench-soak", 0, "guest passed", records=[record], log=log)

    good = dict(RECORD, calls=bench.SOAK_CALLS)
    out = io.StringIO()
    done = outcome(LOG[:2], good)
    assert bench.soak_summary(done, False, out) == 0
    assert out.getvalue().endswith("soak: passed\n") and not done.log.exists()
    out = io.StringIO()
    failed = outcome(LOG, good)
    assert bench.soak_summary(failed, False, out) == 1
    assert "3 in the log" in out.getvalue() and failed.log.exists()
