"""Registry of benchmark profiles for `./hako bench NAME`: the machinery and
the benches that belong to no paper.

Each entry describes one experiment: the boot Profile (machine, CPUs,
memory, mode, extra QEMU args, guest command words), its timeout and the
function that prints its table.  Running a bench boots it once, stores
results/bench-<NAME>.jsonl and prints the table (by default the bench
table of the guest's `"kind":"bench"` records, and the tlbstep table from
`"kind":"tlbstep"` ones).  A bench whose figures do not repeat (a disk
under icount) boots N times instead (Bench.boots, or `--boots N`),
results/bench-<NAME>-1.jsonl ... -N.jsonl, and its table takes the median
over the boots.  With model=PROFILE the cost-model plugin rides along and
the table gets the modelled columns from results/bench-<NAME>.joined.jsonl.

The papers' benches are registered by their packages
(hakotool/papers/pNNN/benches.py); registry() is every bench.
"""
from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path
from typing import Callable

from . import bandwidth
from . import fuzz_table
from . import model as costmodel
from . import paths
from .qemu import Profile
from .runner import EXIT_USAGE, run_boot
from .summary import render_bench_only


@dataclasses.dataclass(frozen=True)
class Boots:
    """What a bench's boots left, handed to its table function."""

    name: str
    bench: Bench
    results: Path                          # the results/ folder of the run
    # (label, records) of each boot: its variant's label, its number in a
    # repeated bench, or "" for the one boot of a plain bench.
    runs: list[tuple[str, list[dict]]]
    meta: dict | None                      # the last boot's run metadata
    model: str = ""                        # the cost-model profile, "" without
    joined: bool = False                   # the records are the cost model's join

    @property
    def records(self) -> list[dict]:
        """The last boot's records."""
        return self.runs[-1][1] if self.runs else []


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
    # The table printed after the boots; None: the bench table of the last
    # boot's records (of each variant's, with variants; none when repeated).
    table: Callable[[Boots], str] | None = None


def bench_table(boots: Boots) -> str:
    """The bench table of the last boot's records ("" without any)."""
    return render_bench_only(boots.records, boots.meta) if boots.records else ""


def vclock_table(boots: Boots) -> str:
    """The clock check's ratios (vclockcheck.py)."""
    from .vclockcheck import render
    return render(boots.records, boots.model)


def variant_tables(boots: Boots) -> str:
    """The bench table of each variant's boot, one after the other."""
    return "".join(f"{boots.name} ({label}):\n" + render_bench_only(records, boots.meta)
                   for label, records in boots.runs)


# The soak's calls: at least ten million.
SOAK_CALLS = 10_000_000

BENCHES: dict[str, Bench] = {
    "core": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("kbench",)),
        timeout=300.0,
        about="in-kernel micro-benchmarks (kbench), pc, 4 CPUs, icount",
    ),
    "tlbstep": Bench(
        profile=Profile(machine="pc", smp=1, mode="icount", words=("tlbstep",)),
        timeout=120.0,
        about="the TLB-step check: pages touched after a CR3 reload (kernel/measure/tlbstep.c), "
              "for --model, pc, 1 CPU, icount",
    ),
    # The standing soak (user/fuzz): SOAK_CALLS fuzzed system calls from
    # many threads and processes on 4 CPUs with both cards; fuzz_table.py reads
    # the result and the log's faults.
    # The per-vCPU clocks checked (user/vclockcheck, vclockcheck.py): one thread's
    # work against four CPUs in parallel and four serialised by a lock, and a
    # thread's disk reads against the disk's modelled service times.
    "vclock": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", disk="ahci", words=("vclockcheck",)),
        timeout=300.0,
        default_model="modern",
        about="the cost model's per-vCPU clocks on known work: K CPUs in parallel take "
              "1/K of one's time, K serialised by a lock the sum, reads from the AHCI "
              "disk at least their modelled service times (user/vclockcheck), "
              "pc, 4 CPUs, icount, --model (default modern)",
        table=lambda boots: vclock_table(boots),
    ),
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
    # `./hako bench sys --arch sh4`: the same program on the SH-4, one CPU
    # (cross_cpu_wakeup skipped); its clock is sys_clock's nanoseconds, one
    # per guest instruction under icount, in steps of the TMU's 66.7 ns.
    "sys-sh4": Bench(
        profile=Profile(arch="sh4", smp=1, mode="icount", words=("sysbench",)),
        timeout=300.0,
        about="sys on SH-4 (`bench sys --arch sh4`): sysbench, r2d, 1 CPU, icount, "
              "instructions in steps of 67 (~5 s)",
    ),
    # The cost model's check against published memory bandwidth
    # (bandwidth.py): kperf --copy --bw's lmbench-style passes with every
    # shipped profile side by side, each whole pass's rate judged against
    # the published one; kperf --copy's 256 KiB passes beside them.
    "bandwidth": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("kperf", "--copy", "--bw")),
        timeout=1200.0,
        about="the cost model's memory read, write and copy rates in MB/s per shipped profile "
              "beside published figures: lmbench-style passes (kperf --copy --bw, 16 MiB) judged "
              f"whole within {bandwidth.TOLERANCE:.0%}, kperf --copy's 256 KiB passes and their "
              "memory side for information, pc, 4 CPUs, icount, ~1 min",
        default_model=bandwidth.DEFAULT_MODEL,
        table=bandwidth.table,
    ),
}


# Benches that are several boots, run by their own module.
SITTINGS = {
    "peer": "Hako's sysbench and ispcbench beside Debian's Linux in the same QEMU (icount), "
            "Linux with default mitigations and with mitigations=off (peer.py), ~2 min",
    "harness": "the harness itself: make test's repeatable boots one at a time, then one per "
               "core; speed-up, the bound sum/cores + longest, identical outputs "
               "(harnessbench.py; host time), ~15 min on 2 cores",
    "costmodel-speed": "the cost model's slowdown: sysbench under icount without and with the "
                       "plugin (--model, default modern), wall and CPU time and their ratio "
                       "(modelspeed.py), ~1 min",
}


def registry() -> dict[str, Bench]:
    """Every registered bench: the ones above and the papers' (papers/pNNN/benches.py)."""
    from .papers import benches
    return BENCHES | benches()


def describe() -> str:
    """Known bench names with their descriptions, one per line."""
    about = {name: bench.about for name, bench in registry().items()} | SITTINGS
    width = max(len(name) for name in about)
    return "\n".join(f"  {name:<{width}}  {text}" for name, text in sorted(about.items()))


def bench_name(name: str, arch: str) -> str:
    """The registered bench NAME runs on ARCH: NAME itself on x86_64, else
    the bench NAME-ARCH (`./hako bench ispc --arch sh4` is ispc-sh4)."""
    return name if arch == "x86_64" else f"{name}-{arch}"


def run_bench(name: str, *, quiet: bool = False, keep_log: bool = False, model: str = "",
              boots: int = 0, arch: str = "x86_64", out=None, err=None, **boot_kwargs) -> int:
    """Boot the named bench, then print its table; returns the exit code.
    BOOTS: how many boots of a repeated bench (0: the bench's own count).
    ARCH: another arch's version of the bench (bench_name)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if arch != "x86_64":
        if bench_name(name, arch) not in registry():
            err.write(f"hako: bench {name!r} has no {arch} version; the {arch} benches:\n"
                      + "".join(f"  {n.removesuffix('-' + arch)}\n" for n in sorted(registry())
                                if n.endswith("-" + arch)))
            return EXIT_USAGE
        name = bench_name(name, arch)
    if name == "peer":
        from .peer import run_peer
        boot_kwargs.pop("verbose", None)         # peer's boots echo as --quiet says
        return run_peer(quiet=quiet, keep_log=keep_log, model=model, out=out, err=err,
                        **boot_kwargs)
    if name == "harness":
        from .harnessbench import run_harness_bench
        return run_harness_bench(limit=boots, out=out, err=err, root=boot_kwargs.get("root"),
                                 env=boot_kwargs.get("env"))
    if name == "costmodel-speed":
        from .modelspeed import run_speed
        boot_kwargs.pop("verbose", None)
        return run_speed(model, quiet=quiet, keep_log=keep_log, out=out, err=err, **boot_kwargs)
    bench = registry().get(name)
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
    out.write((bench.table or bench_table)(Boots(
        name, bench, root_of(boot_kwargs) / "results", [("", records or [])], outcome.meta,
        model, outcome.joined is not None)))
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
    runs = []
    started = time.monotonic()
    for number in range(1, boots + 1):
        outcome = run_boot(profile, f"bench-{name}-{number}", bench.timeout, quiet=quiet,
                           keep_log=keep_log, out=out, err=err, **boot_kwargs)
        if outcome.exit_code != 0:
            out.flush()
            return outcome.exit_code
        records = outcome.joined if outcome.joined is not None else outcome.records
        runs.append((str(number), records or []))
    if bench.table is not None:
        out.write(bench.table(Boots(name, bench, results, runs, outcome.meta, model,
                                    outcome.joined is not None)))
    out.write(f"{boots} boots in {time.monotonic() - started:.0f} s -> "
              f"results/bench-{name}-1..{boots}.jsonl\n")
    out.flush()
    return 0


def run_variants(name: str, bench: Bench, model: str, *, quiet: bool = False,
                 keep_log: bool = False, out, err, **boot_kwargs) -> int:
    """One boot per variant (results/bench-NAME-LABEL.jsonl), then the
    experiment's table over them (by default each variant's bench table);
    the first failing boot's code ends it, and the bench's check of the
    last variant gives 1 when it fails."""
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
        runs.append((label, records or []))
    out.write((bench.table or variant_tables)(Boots(
        name, bench, root_of(boot_kwargs) / "results", runs, outcome.meta, model,
        outcome.joined is not None)))
    out.flush()
    why = bench.check(runs[-1][1]) if bench.check and runs else None
    if why:
        err.write(f"hako: bench {name}, {runs[-1][0]}: {why}\n")
        return 1
    return 0
