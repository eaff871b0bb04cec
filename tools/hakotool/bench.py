"""Registry of benchmark profiles for `./hako bench NAME`.

Each entry of BENCHES describes one experiment: the boot Profile (machine,
CPUs, memory, mode, extra QEMU args, guest command words) and its timeout.
Running a bench boots it once, stores results/bench-<NAME>.jsonl and
prints the bench table from the guest's `"kind":"bench"` records (and the
tlbstep table from `"kind":"tlbstep"` ones).  A bench whose figures do not
repeat (a disk under icount) boots N times instead (Bench.boots, or
`--boots N`), results/bench-<NAME>-1.jsonl ... -N.jsonl, and its table
tool takes the median over the boots.  With model=PROFILE the
cost-model plugin rides along and the table gets the modelled columns
from results/bench-<NAME>.joined.jsonl.
"""
from __future__ import annotations

import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Callable

from . import drvproc_tables
from . import faults_table
from . import fuzz_table
from . import model as costmodel
from . import paths
from .preempt_table import check_bound, render_before_after
from .qemu import Profile
from .results import load_records
from .runner import EXIT_USAGE, run_boot
from .summary import render_bench_only

# intrbench's calls where the cost model starts an epoch (--model): one per
# configuration of Table 2 and case of Fig. 6, and the parts that follow
# them, so each call's epoch ends where the next thing starts
# (papers/p000/modelled.py).
INTR_ELF = "build/user/intrbench.elf"
INTR_EPOCHS = tuple((INTR_ELF, symbol) for symbol in
                    ("run_config", "part_delay", "part_interference", "one_case", "part_adaptive"))

# The kernel's servers= list for ispcbench: its own helper servers are OS
# servers there, so in fast mode they get the ICA window like the others.
ISPC_SERVERS = "nameserver,echo,ramdisk,ispcbench"


@dataclasses.dataclass(frozen=True)
class Bench:
    """One registered experiment."""

    profile: Profile
    timeout: float = 300.0
    about: str = ""
    # Several boots of one experiment: one per (label, kernel options), the
    # options added to the profile's command line, results/bench-NAME-LABEL.jsonl,
    # then one table over them; empty: one boot, results/bench-NAME.jsonl.
    variants: tuple[tuple[str, str], ...] = ()
    # The cost-model profile used when --model is not given, if the plugin
    # is built (its figures are the ones the table is judged on).
    default_model: str = ""
    # With variants: the last one's records -> why it failed, or None.
    check: Callable[[list], str | None] | None = None
    # Boots of the same profile, for figures that differ from boot to boot:
    # results/bench-NAME-1.jsonl ... -N.jsonl (1: one boot, bench-NAME.jsonl).
    boots: int = 1


# The soak's calls: at least ten million.
SOAK_CALLS = 10_000_000

# mp-tcg's vCPUs: one per host core, at least 2 (a funnel needs a master
# and another CPU) and at most 8 (mp's machine).
TCG_CPUS = max(2, min(8, os.cpu_count() or 2))

BENCHES: dict[str, Bench] = {
    "core": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("kbench",)),
        timeout=300.0,
        about="in-kernel micro-benchmarks (kbench), pc, 4 CPUs, icount",
    ),
    "intr": Bench(
        profile=Profile(machine="pc", smp=2, mode="icount", net="hub", words=("intrbench",),
                        model_epochs=INTR_EPOCHS),
        timeout=3600.0,
        about="interrupt packaging, paper 000 (intrbench), sequential/packed/adaptive, "
              "both NICs on a hub, pc, 2 CPUs, icount",
    ),
    "ispc": Bench(
        profile=Profile(machine="pc", smp=2, mode="icount", words=("ispcbench",),
                        cmdline="servers=" + ISPC_SERVERS),
        timeout=600.0,
        about="server communication, paper 002 (ispcbench), baseline and fast, pc, 2 CPUs, icount",
    ),
    "tlbstep": Bench(
        profile=Profile(machine="pc", smp=1, mode="icount", words=("tlbstep",)),
        timeout=120.0,
        about="the TLB-step check: pages touched after a CR3 reload (kernel/measure/tlbstep.c), "
              "for --model, pc, 1 CPU, icount",
    ),
    # Paper 001 (user/iotest).  "mp": Table 1's grid on testdev and the
    # ramdisk, then Table 2's seven policies on testdev (whose timing is the
    # guest's own); no disk in this boot, so it prints the same every run.
    # "mp-disk": the disks, in boots of their own because a disk's
    # completions land when QEMU's host threads finish and would shift
    # everything after them: Table 1 on the AHCI disk (the paper's scsihd)
    # and on the NVMe disk (a queue pair and an MSI-X vector per CPU; its
    # funnel sends every read to CPU 0's queue), then Table 2's seven
    # policies on the AHCI disk at wait 100.  Nothing in it repeats, so
    # three boots, and mp_tables.py prints the median and the spread; every
    # run's line carries the device's counters (--counts on), to check where
    # the interrupts went.  8 CPUs: the paper had 9 OS CPUs, and K runs past
    # 8 to show the gains vanish; the loop counts are kept small to keep the
    # boots short (docs/results.md).
    "mp": Bench(
        profile=Profile(machine="pc", smp=8, mode="icount",
                        words=("iotest", "all", "--devs", "testdev0,ramdisk0", "--pin", "on",
                               "--loops", "10", "--t2loops", "5")),
        timeout=1200.0,
        about="multiprocessor device access, paper 001 (iotest): Table 1 on testdev and the "
              "ramdisk, Table 2 on testdev, pc, 8 CPUs, icount (--model modern: per-CPU work)",
    ),
    "mp-disk": Bench(
        profile=Profile(machine="pc", smp=8, mode="icount", disk="both",
                        words=("iotest", "all", "--devs", "ahci0,nvme0", "--t2dev", "ahci0",
                               "--loops", "10", "--t2loops", "5", "--pin", "on",
                               "--counts", "on")),
        timeout=1200.0,
        boots=3,
        about="paper 001 on the disks (iotest): Table 1 on AHCI and NVMe, Table 2 on AHCI, "
              "pc, 8 CPUs, icount, 3 boots (not repeatable: disks complete on QEMU host "
              "threads), ~1 min a boot with --model modern",
    ),
    # The whole grid in multi-threaded TCG, real time: one vCPU per host core
    # (TCG_CPUS).  Host time is noise at icount's 10 loops (runs of
    # 2-20 ms), so 100 loops a process (50 for Table 2, on the disk and on
    # testdev, beside both icount tables), five runs of every cell for a
    # median, and three sittings for the spread (mp_tables.py).
    "mp-tcg": Bench(
        profile=Profile(machine="pc", smp=TCG_CPUS, mode="tcg", disk="ahci",
                        words=("iotest", "all", "--loops", "100", "--t2loops", "50",
                               "--t2dev", "ahci0,testdev0", "--pin", "on", "--reps", "5")),
        timeout=1200.0,
        boots=3,
        about="paper 001's iotest grid in multi-threaded TCG (host time: run it on a quiet "
              f"host), pc, {TCG_CPUS} CPUs (one per host core, 2 to 8), AHCI disk, 5 runs a "
              "cell, 3 sittings, ~6 min on 2 cores",
    ),
    "kperf": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub", words=("kperf",)),
        timeout=600.0,
        about="paper 004: every system call of syscalls.def, best and worst case (kperf), "
              "pc, 4 CPUs, both NICs on a hub, icount",
    ),
    # Paper 004's isochronous scheduler (user/isochbench): start/stop, the
    # periodic and normal thread switch, and the release-latency histograms
    # under hogs, then under an interrupt flood (sequential, packed).
    "isoch": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub", words=("isochbench",)),
        timeout=900.0,
        about="paper 004: periodic threads (isochbench): start/stop, periodic vs normal switch, "
              "release-latency histograms under hogs and a NIC flood, pc, 4 CPUs, icount, ~5 min",
    ),
    # The deterministic part of it, for the report: start/stop and the two
    # switches only (the histograms move by tens of instructions between runs).
    "isoch-calls": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub",
                        words=("isochbench", "start", "switch")),
        timeout=300.0,
        about="paper 004 Tables 3-4: start/stop of cyclic execution and the periodic vs "
              "normal thread switch (isochbench start switch), pc, 4 CPUs, icount",
    ),
    # Paper 004's Table 2: preemption-off sections under stress
    # (user/preemptstress), attributed per call with irqtrace=on.
    # Paper 004's Table 2 before and after the serialising thread
    # (kernel/sched/serialiser.c): serialise=off keeps the old inline paths.
    # The cost model counts each section in its own vCPU's instructions
    # (tools/costmodel/sections.h), which the icount TSC cannot; the bound is
    # checked in time at the profile's clock, 166 MHz for pentium166.
    "preempt": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("preemptstress",),
                        cmdline="irqtrace=on"),
        timeout=900.0,
        about="paper 004 Table 2: longest preemption-off section per call under stress "
              "(preemptstress, irqtrace=on), serialise=off then on, pc, 4 CPUs, icount, "
              "cost model pentium166 (paper 004's slowest PC) by default, ~6 min",
        variants=(("before", "serialise=off"), ("after", "serialise=on")),
        default_model="pentium166",
        check=check_bound,
    ),
    # Paper 003 (user/drvbench): the network drivers in the kernel, then as
    # processes; one CPU, as the paper's machine.
    "drvproc": Bench(
        profile=Profile(machine="pc", smp=1, mode="icount", net="hub", words=("drvbench",)),
        timeout=300.0,
        variants=(("kernel", ""), ("process", "drvproc=rtl8139,e1000")),
        about="paper 003: drivers as processes (drvbench): interrupt path, copy-in, driver call, "
              "frames/s, drivers in the kernel then as processes, pc, 1 CPU, icount",
    ),
    # Paper 003 phase 2 (user/faultinject): faults injected into both network
    # drivers as processes while frames flow between them.
    "faults": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub",
                        cmdline="drvproc=rtl8139,e1000", words=("faultinject", "2000", "1")),
        timeout=900.0,
        about="paper 003 phase 2: 2000 faults injected into the driver processes while frames "
              "flow (faultinject 2000 1): crashes, restarts, frames lost, pc, 4 CPUs, icount",
    ),
    # The standing soak (user/fuzz): SOAK_CALLS fuzzed system calls from
    # many threads and processes on 4 CPUs with both cards; fuzz_table.py reads
    # the result and the log's faults.
    "soak": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub",
                        words=("fuzz", str(SOAK_CALLS), "1")),
        timeout=7200.0,
        about=f"the standing soak: {SOAK_CALLS:,} fuzzed system calls (user/fuzz), threads, "
              "child processes spawned and killed, both NICs on a hub, pc, 4 CPUs, icount",
    ),
    "sys": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("sysbench",)),
        timeout=300.0,
        about="system-call micro-benchmarks from user space (sysbench), pc, 4 CPUs, icount",
    ),
}


# Benches that are several boots, run by their own module.
SITTINGS = {
    "peer": "Hako's sysbench and ispcbench beside Debian's Linux in the same QEMU (icount), "
            "Linux with default mitigations and with mitigations=off (peer.py), ~2 min",
}


def describe() -> str:
    """Known bench names with their descriptions, one per line."""
    about = {name: bench.about for name, bench in BENCHES.items()} | SITTINGS
    width = max(len(name) for name in about)
    return "\n".join(f"  {name:<{width}}  {text}" for name, text in sorted(about.items()))


def run_bench(name: str, *, quiet: bool = False, keep_log: bool = False, model: str = "",
              boots: int = 0, out=None, err=None, **boot_kwargs) -> int:
    """Boot the named bench, then print its table; returns the exit code.
    BOOTS: how many boots of a repeated bench (0: the bench's own count)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if name == "peer":
        from .peer import run_peer
        boot_kwargs.pop("verbose", None)         # peer's boots echo as --quiet says
        return run_peer(quiet=quiet, keep_log=keep_log, model=model, out=out, err=err,
                        **boot_kwargs)
    bench = BENCHES.get(name)
    if bench is None:
        err.write(f"hako: unknown bench {name!r}; known benches:\n{describe()}\n")
        return EXIT_USAGE
    if not model and bench.default_model:
        if (root_of(boot_kwargs) / costmodel.PLUGIN).is_file():
            model = bench.default_model
        else:
            err.write(f"hako: {costmodel.PLUGIN} not built (make costmodel): "
                      f"no {bench.default_model} figures, the table falls back to the TSC\n")
    if bench.variants:
        return run_variants(name, bench, model, quiet=quiet, keep_log=keep_log, out=out,
                            err=err, **boot_kwargs)
    boots = boots or bench.boots
    if boots > 1:
        return run_repeated(name, bench, model, boots, quiet=quiet, keep_log=keep_log,
                            out=out, err=err, **boot_kwargs)
    profile = dataclasses.replace(bench.profile, model=model)
    outcome = run_boot(profile, f"bench-{name}", bench.timeout, quiet=quiet,
                       keep_log=keep_log or name == "soak", out=out, err=err, **boot_kwargs)
    if name == "soak":
        return soak_summary(outcome, keep_log, out)
    records = outcome.joined if outcome.joined is not None else outcome.records
    iotest = [r for r in records or () if r.get("kind") == "iotest"]
    if iotest:
        out.write(iotest_tables(root_of(boot_kwargs) / "results", name, bench))
        out.write(f"{len(iotest)} iotest runs in results/bench-{name}.jsonl; "
                  "all of paper 001's tables: python3 tools/mp_tables.py\n")
    elif name == "faults":
        out.write(faults_table.render(records or []))
    elif records:
        out.write(render_bench_only(records, outcome.meta))
        if name == "intr" and outcome.joined is not None:
            from .papers.p000 import modelled
            out.write("\n" + modelled.render(modelled.figures(outcome.joined)))
    out.flush()
    return outcome.exit_code


def soak_summary(outcome, keep_log: bool, out) -> int:
    """The soak's summary from its record and its log's fault lines; the log
    is kept only when asked or when the soak failed."""
    lines = []
    if outcome.log is not None and outcome.log.exists():
        lines = outcome.log.read_text(encoding="utf-8", errors="replace").splitlines()
    faults = fuzz_table.fault_lines(lines)
    record = fuzz_table.fuzz_record(outcome.records or [])
    out.write(fuzz_table.render(record, faults, SOAK_CALLS))
    out.flush()
    failed = outcome.exit_code != 0 or fuzz_table.verdict(record, faults, SOAK_CALLS) is not None
    if not failed and not keep_log and outcome.log is not None:
        outcome.log.unlink(missing_ok=True)
    return outcome.exit_code or (1 if failed else 0)


def root_of(boot_kwargs: dict) -> Path:
    return Path(boot_kwargs.get("root") or paths.repo_root(boot_kwargs.get("env")))


def iotest_tables(results: Path, name: str, bench: Bench) -> str:
    """Paper 001's tables (tools/mp_tables.py) from this bench's own files
    in RESULTS: the icount ones (with the cost model's file beside each)
    or, for a TCG bench, its sittings."""
    import mp_tables
    files = mp_tables.boot_files(results, name)
    if bench.profile.mode == "tcg":
        return mp_tables.render([], [load_records(p) for p in files])
    return mp_tables.render([(load_records(p), mp_tables.load_model_vcpus(
        mp_tables.model_path(p))) for p in files], [])


def repeat_files(results: Path, name: str) -> dict[int, list[Path]]:
    """A repeated bench's files in RESULTS by boot number: bench-NAME-I.jsonl
    and what goes with it (.model.jsonl, .joined.jsonl)."""
    stem = f"bench-{name}-"
    found: dict[int, list[Path]] = {}
    for path in results.glob(f"{stem}*.jsonl"):
        number = path.name[len(stem):].split(".", 1)[0]
        if number.isdigit():
            found.setdefault(int(number), []).append(path)
    return found


def run_repeated(name: str, bench: Bench, model: str, boots: int, *, quiet: bool = False,
                 keep_log: bool = False, out, err, **boot_kwargs) -> int:
    """BOOTS boots of one profile, results/bench-NAME-1.jsonl ... -BOOTS.jsonl.
    An earlier sitting's files are removed first (its plugin files too, and
    the boots beyond BOOTS), so what is on disk is one sitting's, the
    whole of it unless a boot failed: the first failing boot's code ends it."""
    results = root_of(boot_kwargs) / "results"
    for files in repeat_files(results, name).values():
        for path in files:
            path.unlink()
    profile = dataclasses.replace(bench.profile, model=model)
    runs = 0
    started = time.monotonic()
    for number in range(1, boots + 1):
        outcome = run_boot(profile, f"bench-{name}-{number}", bench.timeout, quiet=quiet,
                           keep_log=keep_log, out=out, err=err, **boot_kwargs)
        if outcome.exit_code != 0:
            out.flush()
            return outcome.exit_code
        records = outcome.joined if outcome.joined is not None else outcome.records
        runs += sum(1 for r in records or () if r.get("kind") == "iotest")
    if runs:
        out.write(iotest_tables(results, name, bench))
    out.write(f"{boots} boots in {time.monotonic() - started:.0f} s -> "
              f"results/bench-{name}-1..{boots}.jsonl")
    out.write(f"; {runs} iotest runs, tables: python3 tools/mp_tables.py\n" if runs else "\n")
    out.flush()
    return 0


def run_variants(name: str, bench: Bench, model: str, *, quiet: bool = False,
                 keep_log: bool = False, out, err, **boot_kwargs) -> int:
    """One boot per variant (results/bench-NAME-LABEL.jsonl), then the
    experiment's table over them (drvproc: the placements side by side;
    otherwise before/after); the first failing boot's code ends it, and the
    bench's check of the last variant gives 1 when it fails."""
    runs = []
    for label, options in bench.variants:
        cmdline = f"{bench.profile.cmdline} {options}".strip()
        profile = dataclasses.replace(bench.profile, model=model, cmdline=cmdline)
        outcome = run_boot(profile, f"bench-{name}-{label}", bench.timeout, quiet=quiet,
                           keep_log=keep_log, out=out, err=err, **boot_kwargs)
        if outcome.exit_code != 0:
            out.flush()
            return outcome.exit_code
        records = outcome.joined if outcome.joined is not None else outcome.records
        runs.append((label, options, records or []))
    if name == "drvproc" and len(runs) == 2:
        for label, _, records in runs:
            out.write(f"{name} ({label}):\n" + render_bench_only(records, outcome.meta))  # one mode for all
        out.write("\n" + drvproc_tables.render(runs[0][2], runs[1][2], model or None))
    else:
        out.write("\n".join(render_before_after(
            [(f"{label}: {options}", records) for label, options, records in runs])) + "\n")
    out.flush()
    why = bench.check(runs[-1][2]) if bench.check and runs else None
    if why:
        err.write(f"hako: bench {name}, {runs[-1][0]}: {why}\n")
        return 1
    return 0
