"""Paper 001's benches: `./hako bench mp`, `mp-disk`, `mp-tcg` (user/iotest), their tables."""
from __future__ import annotations

import os

from ...bench import Bench, Boots
from ...qemu import Profile
from ...reportkit import Step
from ...results import load_records
from . import tables

# mp-tcg's vCPUs: one per host core, at least 2 (a funnel needs a master
# and another CPU) and at most 8 (mp's machine).
TCG_CPUS = max(2, min(8, os.cpu_count() or 2))


def iotest_table(boots: Boots) -> str:
    """Paper 001's tables (tables.py) from this bench's own files: the icount
    ones (with the cost model's file beside each) or, for a TCG bench, its
    sittings; then where the files are and how to print every table."""
    runs = sum(1 for _, records in boots.runs for r in records if r.get("kind") == "iotest")
    if not runs:
        return ""
    files = tables.boot_files(boots.results, boots.name)
    if boots.bench.profile.mode == "tcg":
        text = tables.render([], [load_records(p) for p in files])
    else:
        text = tables.render([(load_records(p), tables.load_model_vcpus(tables.model_path(p)))
                              for p in files], [])
    where = (f"results/bench-{boots.name}.jsonl" if len(boots.runs) == 1 else
             f"results/bench-{boots.name}-1..{len(boots.runs)}.jsonl")
    return text + f"{runs} iotest runs in {where}; all of paper 001's tables: " \
                  "./hako paper 001 tables\n"


BENCHES: dict[str, Bench] = {
    # Paper 001 (user/iotest).  "mp": Table 1's grid on testdev and the
    # ramdisk at the paper's six wait counts (2 loops a process from wait
    # 50 on), then Table 2's seven policies on testdev (whose timing is the
    # guest's own) with its commands executed by the I/O processor, CPU 8
    # (iop=8: TOP-1's HDC PU), which interrupts the policy's CPU when each
    # completes, as the paper's HD subsystem did; 8 CPUs run processes.
    # No disk in this boot, so it prints the same every run.
    # "mp-disk": the disks, in boots of their own: Table 1 on the AHCI disk
    # (the paper's scsihd) and on the NVMe disk (a queue pair and an MSI-X
    # vector per CPU; its funnel sends every read to CPU 0's queue), then
    # Table 2's seven policies on the AHCI disk at wait 100.  QEMU finishes
    # a disk's read on a host thread, so an unpaced completion interrupt
    # lands at an instruction that varies from boot to boot; with --pace on
    # each command's interrupt is held at the device until its datasheet
    # service time has passed on the guest's clock (uapi/hako_blk.h,
    # HAKO_BLK_PACE), and the disks read from QEMU's null-co driver
    # (disks.py), so a boot repeats exactly up to the first completion QEMU
    # had not finished in time (each run's "paced_late"; a busy host makes
    # them).  Three boots, and tables.py prints the median, the spread and
    # the late completions; every run's line carries the device's counters
    # (--counts on), to check where the interrupts went.  8 CPUs: the paper
    # had 9 OS CPUs, and K runs past 8 to show the gains vanish; the loop
    # counts are kept small to keep the boots short (docs/results.md).
    "mp": Bench(
        profile=Profile(machine="pc", smp=9, mode="icount", cmdline="iop=8",
                        words=("iotest", "all", "--devs", "testdev0,ramdisk0", "--pin", "on",
                               "--waits", "0,10,20,50,100,200", "--loops", "10",
                               "--longloops", "2", "--t2loops", "5", "--t2iop", "on")),
        timeout=1200.0,
        table=iotest_table,
        about="multiprocessor device access, paper 001 (iotest): Table 1 on testdev and the "
              "ramdisk at waits 0-200, Table 2 on testdev through the I/O processor, pc, 9 CPUs "
              "(8 and the IOP), icount (--model modern: parallel elapsed time)",
    ),
    "mp-disk": Bench(
        profile=Profile(machine="pc", smp=8, mode="icount", disk="both", disk_null=True,
                        words=("iotest", "all", "--devs", "ahci0,nvme0", "--t2dev", "ahci0",
                               "--loops", "10", "--t2loops", "5", "--pin", "on",
                               "--counts", "on", "--pace", "on")),
        timeout=1200.0,
        boots=3,
        table=iotest_table,
        about="paper 001 on the disks (iotest): Table 1 on AHCI and NVMe, Table 2 on AHCI, "
              "pc, 8 CPUs, icount, paced completions (under --model each look waits for QEMU: "
              "none is late), 3 boots, about 75 s a boot with --model modern on an idle 2-core host",
    ),
    # The whole grid in multi-threaded TCG, real time: one vCPU per host core
    # (TCG_CPUS).  Host time is noise at icount's 10 loops (runs of
    # 2-20 ms), so 100 loops a process (50 for Table 2, on the disk and on
    # testdev, beside both icount tables), five runs of every cell for a
    # median, and three sittings for the spread (tables.py).
    "mp-tcg": Bench(
        profile=Profile(machine="pc", smp=TCG_CPUS, mode="tcg", disk="ahci",
                        words=("iotest", "all", "--loops", "100", "--t2loops", "50",
                               "--t2dev", "ahci0,testdev0", "--pin", "on", "--reps", "5")),
        timeout=1200.0,
        boots=3,
        table=iotest_table,
        about="paper 001's iotest grid in multi-threaded TCG (host time: run it on a quiet "
              f"host), pc, {TCG_CPUS} CPUs (one per host core, 2 to 8), AHCI disk, 5 runs a "
              "cell, 3 sittings, ~6 min on 2 cores",
    ),
}

# The report's runs of them (`make report`, report.py) and the result files
# its section reads, each with the bench that makes it.
REPORT_STEPS = (
    Step("mp", "001", ("mp", "--model", "modern"),
         "device access, iotest Tables 1-2 at six waits, 8 CPUs and the IOP (~140 s)",
         seconds=140),
    Step("mp-disk", "001", ("mp-disk", "--model", "modern"),
         "the same on AHCI and NVMe, paced, three boots that repeat (~5 min)",
         seconds=300),
)
REPORT_INPUTS = (
    ("bench-mp.jsonl", "./hako bench mp --model modern"),
    ("bench-mp.model.jsonl", "./hako bench mp --model modern"),
    ("bench-mp-disk-[0-9]*.jsonl", "./hako bench mp-disk --model modern"),
)
