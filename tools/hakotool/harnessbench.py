"""`./hako bench harness`: how well the harness uses the machine.

make test's boots (testall.PLANS["full"], or the quick tier's with
--boots 2 ... the first N) run twice: one at a time, then JOBS at a time
(jobs.default_jobs(): a run per core as far as memory holds).  Each boot's
host time from the first sitting gives the bound the harness aims at:

    bound = (sum of the boots' times) / cores + the longest boot

(perfect packing of the boots on the cores, plus one boot that may start
last).  The bench prints both sittings' elapsed times, the speed-up, the
ratio of the parallel sitting to the bound (the target is at most 1.5)
and whether every boot's guest output is byte-identical between the two
sittings (under icount it must be; disk boots are left out because QEMU
completes disk I/O on host threads).  Host time is what is measured here:
it depends on the host and its load, so nothing asserts it; the figures
go to results/bench-harness.jsonl as a "harness" record.

Boots of a second arch and the ISO boot are left out too (their tools or
image may be absent); the kernels are built once before the first sitting.
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

from . import paths
from .jobs import default_jobs, run_ordered
from .results import guest_bytes
from .runner import EXIT_BUILD, EXIT_PASSED, run_boot, run_make
from .testplan import PLANS, BootCase

TARGET_RATIO = 1.5


def bench_cases(limit: int = 0) -> list[BootCase]:
    """make test's boots that repeat byte for byte on this arch: no disks, no ISO."""
    cases = [case for case in PLANS["full"].boots
             if case.arch == "x86_64" and case.disk == "none" and not case.iso]
    return cases[:limit] if limit else cases


def bound(times: list[float], cores: int) -> float:
    """The ideal elapsed time of these boots on CORES cores, plus one boot started last."""
    if not times:
        return 0.0
    return sum(times) / max(1, cores) + max(times)


@dataclasses.dataclass
class Sitting:
    """One pass over the boots: each boot's host seconds, its guest bytes, the whole span."""

    jobs: int
    elapsed: float = 0.0
    times: list[float] = dataclasses.field(default_factory=list)
    outputs: list[bytes] = dataclasses.field(default_factory=list)
    failed: list[str] = dataclasses.field(default_factory=list)


def sitting(cases: list[BootCase], jobs: int, boot) -> Sitting:
    """Every case through boot(case, name) -> BootOutcome, JOBS at a time."""
    result = Sitting(jobs)

    def done(_, case, outcome):
        result.times.append(outcome.elapsed)
        data = b""
        if outcome.jsonl and outcome.jsonl.exists():
            data = outcome.jsonl.read_bytes()
            outcome.jsonl.unlink()               # the bench's record is the only file kept
        result.outputs.append(guest_bytes(data))
        if outcome.exit_code != EXIT_PASSED:
            result.failed.append(f"{case.label}: {outcome.reason}")

    start = time.monotonic()
    run_ordered(cases, lambda case: boot(case, f"harness-j{jobs}-{case.label}"), jobs, done)
    result.elapsed = time.monotonic() - start
    return result


def summary(serial: Sitting, parallel: Sitting, cores: int) -> dict:
    """The harness record of two sittings over the same boots."""
    limit = bound(serial.times, cores)
    return {
        "kind": "harness",
        "unit": "seconds (host time)",
        "cores": cores,
        "jobs": parallel.jobs,
        "boots": len(serial.times),
        "serial_s": round(serial.elapsed, 1),
        "parallel_s": round(parallel.elapsed, 1),
        "longest_s": round(max(serial.times, default=0.0), 1),
        "bound_s": round(limit, 1),
        "speedup": round(serial.elapsed / parallel.elapsed, 2) if parallel.elapsed else 0.0,
        "ratio_to_bound": round(parallel.elapsed / limit, 2) if limit else 0.0,
        "identical": serial.outputs == parallel.outputs,
        "failed": serial.failed + parallel.failed,
    }


def render(record: dict) -> str:
    verdict = "within" if record["ratio_to_bound"] <= TARGET_RATIO else "outside"
    same = "identical" if record["identical"] else "DIFFERENT"
    lines = [
        f"harness: {record['boots']} boots of make test, host time, {record['cores']} cores",
        f"  one at a time        {record['serial_s']:8.1f} s",
        f"  {str(record['jobs']) + ' at a time':<20} {record['parallel_s']:8.1f} s"
        f"   speed-up {record['speedup']:.2f}x",
        f"  bound                {record['bound_s']:8.1f} s"
        f"   (sum / cores + longest boot {record['longest_s']:.1f} s)",
        f"  parallel / bound     {record['ratio_to_bound']:8.2f}  "
        f"   {verdict} the target {TARGET_RATIO}",
        f"  guest output         {same} in both sittings",
    ]
    lines += [f"  failed: {why}" for why in record["failed"]]
    return "\n".join(lines) + "\n"


def run_harness_bench(*, limit: int = 0, jobs: int = 0, out=None, err=None,
                      root: Path | None = None, env: dict | None = None) -> int:
    """Both sittings, the table, results/bench-harness.jsonl; 0 when every boot
    passed and the outputs are identical (the time ratio is printed, not judged)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    env = dict(os.environ) if env is None else env
    root = paths.repo_root(env) if root is None else Path(root)
    cases = bench_cases(limit)
    if env.get("HAKO_NO_BUILD") != "1":
        for target in ("kernel", "kernel-debug"):
            status, output = run_make(root, target, env, capture=True)
            if status != 0:
                err.write(output)
                return EXIT_BUILD
    cores = os.cpu_count() or 1
    jobs = jobs or default_jobs()

    def boot(case: BootCase, name: str):
        return run_boot(case.profile(), name, case.timeout, quiet=True, announce=False,
                        build=False, root=root, env=env, err=err)

    out.write(f"harness: {len(cases)} boots one at a time, then {jobs} at a time\n")
    out.flush()
    serial = sitting(cases, 1, boot)
    parallel = sitting(cases, jobs, boot)
    record = summary(serial, parallel, cores)
    results = root / "results"
    results.mkdir(exist_ok=True)
    (results / "bench-harness.jsonl").write_text(json.dumps(record, sort_keys=True) + "\n",
                                                 encoding="utf-8")
    out.write(render(record))
    out.flush()
    return 0 if record["identical"] and not record["failed"] else 1
