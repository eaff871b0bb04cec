"""`./hako bench vclock`: the cost model's per-vCPU clocks on work whose
parallel elapsed time is known (user/vclockcheck).

The guest runs the same work three ways, each a global region: one thread
alone; K threads at once, one per CPU (the elapsed time should be one's
divided by K); the same K threads serialised by one lock (one's, the sum).
This module reads each way's elapsed time from the joined records (the
plugin's `elapsed` of the region, tools/costmodel/vclock.h) and judges the
two ratios against what they must be:

    parallel:  one / parallel   within TOLERANCE of K
    serial:    serial / one     within TOLERANCE of 1

for both clocks (modelled cycles and instructions).  Under icount those
runs repeat exactly, so the figures do too.

A fourth way reads DISK_READS blocks from the AHCI disk on one CPU, the
disk's interrupt routed to that CPU; the driver marks each read's modelled
service time (ahci.c's AHCI_MODEL_READ_NS, which disk_read_ns reads from
the source, so the check and the driver cannot disagree), so the elapsed
time must be at least the reads' service times summed, and at most
DISK_OVERHEAD more (the CPU's own path of each read: the call, the driver,
the interrupt, the wake-up).  At the plugin's default mhz=1000 a ns of
service is one cycle and one instruction.  QEMU completes the disk's reads
on host threads, but the reader takes each completion interrupt only once it
sleeps (kernel/mpio/mpio.h), so this way's elapsed instructions repeat from
boot to boot; its cycles may differ by a cache miss or two (the idle CPUs'
work while QEMU waits for the host varies).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from .paths import repo_root

TOLERANCE = 0.03                 # "within a few per cent" (issue of the instrument)
CLOCKS = ("cycles", "insns")
# Where the disk's modelled service time of one 4 KiB read is defined.
AHCI_SOURCE = "kernel/drivers/block/ahci/ahci.c"
AHCI_READ_NS = "AHCI_MODEL_READ_NS"
# The CPU's share on top of the device time, at most (a read's path is ~2,000
# instructions, ~12,000 modelled cycles on `modern`, against 50,000).
DISK_OVERHEAD = 0.5


def c_define(source: Path, name: str) -> int:
    """The integer a C source file's `#define NAME VALUE` gives; ValueError
    unless the file defines NAME exactly once, as a decimal number."""
    found = re.findall(rf"^\s*#\s*define\s+{re.escape(name)}\s+(\d+)[uUlL]*\s*(?:/[*/].*)?$",
                       source.read_text(errors="replace"), re.M)
    if len(found) != 1:
        raise ValueError(f"{source}: {len(found)} numeric #define {name}, not one")
    return int(found[0])


@functools.cache
def disk_read_ns() -> int:
    """ahci.c's AHCI_MODEL_READ_NS, from the source tree this harness is in
    (the environment's HAKO_ROOT may name a scratch tree without it)."""
    return c_define(repo_root({}) / AHCI_SOURCE, AHCI_READ_NS)


def elapsed_by_way(records: list[dict]) -> tuple[int, dict[str, dict[str, int]]]:
    """(K, {way: {"cycles": ..., "insns": ...}}) from the joined vclock records."""
    k, found = 0, {}
    for r in records:
        if r.get("kind") != "vclock":
            continue
        elapsed = (r.get("model") or {}).get("elapsed")
        if elapsed:
            found[r["way"]] = elapsed
        if r["way"] in ("parallel", "serial"):
            k = int(r["k"])
    return k, found


def disk_reads(records: list[dict]) -> int:
    """How many reads the disk way timed (0: no disk way)."""
    return next((int(r.get("reads", 0)) for r in records
                 if r.get("kind") == "vclock" and r.get("way") == "disk"), 0)


def checks(records: list[dict]) -> list[dict]:
    """One row per (way, clock): the measured ratio, the expected one, whether it holds."""
    k, ways = elapsed_by_way(records)
    rows = []
    one = ways.get("one")
    for way, expect in (("parallel", float(k)), ("serial", 1.0)):
        for clock in CLOCKS:
            measured = None
            if one and way in ways and ways[way][clock]:
                a, b = one[clock], ways[way][clock]
                measured = a / b if way == "parallel" else b / a
            ok = measured is not None and abs(measured - expect) <= TOLERANCE * expect
            rows.append({"way": way, "clock": clock, "k": k, "measured": measured,
                         "expected": expect, "ok": ok,
                         "one": one[clock] if one else None,
                         "elapsed": ways[way][clock] if way in ways else None})
    reads = disk_reads(records)
    device = reads * disk_read_ns()
    for clock in CLOCKS:
        measured = None
        if device and "disk" in ways:
            measured = ways["disk"][clock] / device
        ok = measured is not None and 1.0 <= measured <= 1.0 + DISK_OVERHEAD
        rows.append({"way": "disk", "clock": clock, "k": k, "measured": measured,
                     "expected": 1.0, "ok": ok, "one": device or None,
                     "elapsed": ways["disk"][clock] if "disk" in ways else None})
    return rows


def render(records: list[dict], model: str) -> str:
    rows = checks(records)
    if not rows or rows[0]["one"] is None:
        return "vclock: no elapsed times in the records (run with --model PROFILE)\n"
    k = rows[0]["k"]
    lines = [f"vclock: the same work one way, K = {k} CPUs in parallel and K serialised by a "
             f"lock, and {disk_reads(records)} disk reads against their modelled service "
             f"times; parallel elapsed time on the per-vCPU clocks ({model})",
             f"  {'way':<9} {'clock':<7} {'one':>12} {'elapsed':>12} {'ratio':>7} "
             f"{'expected':>8}  verdict  ('one' of the disk: the reads' service times)"]
    for row in rows:
        if row["way"] == "disk":
            what = f"elapsed / service, {1:.1f} to {1 + DISK_OVERHEAD:.1f}"
        else:
            what = ("one / parallel" if row["way"] == "parallel" else "serial / one") + \
                f", within {TOLERANCE:.0%}"
        ratio = f"{row['measured']:.3f}" if row["measured"] is not None else "-"
        lines.append(f"  {row['way']:<9} {row['clock']:<7} {row['one'] or 0:>12,} "
                     f"{row['elapsed'] or 0:>12,} {ratio:>7} {row['expected']:>8.1f}  "
                     f"{'holds' if row['ok'] else 'FAILS'} ({what})")
    return "\n".join(lines) + "\n"


def failures(records: list[dict]) -> str | None:
    """Why the check fails, or None."""
    bad = [f"{r['way']} {r['clock']}" for r in checks(records) if not r["ok"]]
    return ("vclock ratios off: " + ", ".join(bad)) if bad else None
