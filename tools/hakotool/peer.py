"""`./hako bench peer`: Hako beside Debian's Linux in the same emulator.

One sitting runs five boots, all pc, icount, `-cpu max`, QEMU's same
devices (qemu.machine_args):

  * Hako's sysbench (4 CPUs) and ispcbench (2 CPUs), the profiles of
    `./hako bench sys` and `./hako bench ispc`, under their own run names
    (results/bench-peer-hako-{sys,ispc}.jsonl) so the other benches' files
    are left alone;
  * Debian's Linux kernel (`make deps` extracts its vmlinuz into
    build/peer/, tools/deps.sh) on sysbench's profile, with an initramfs
    whose /init is tools/peer/linuxbench.c, built static on the host, with
    the default mitigations, with `mitigations=off`, and with the default
    ones but without ERMS/FSRM (VARIANTS says why)
    (results/bench-peer-linux-{default,mitigations-off,no-erms}.jsonl).

Then it prints the side-by-side table from those files (render(),
which the report's peer section uses too).  With `--model PROFILE` the
cost model rides along on Hako's two boots and on Linux's default one
(LINUX_LARGE and CPU_NUMBER say how it follows Linux), and a second table
gives modelled cycles per operation.  "Hako slower" marks a row where
Hako's figure is above Linux's lowest.

Determinism: Hako's boots are byte-identical under icount; Linux's were
not at first (a few medians moved by tens to hundreds of instructions,
the maxima more).  Two things fixed it: `-rtc ...,clock=vm` (RTC_ARGS;
Linux reads the CMOS clock at boot, which otherwise runs on host time)
and, on Linux's command line, nokaslr, norandmaps and
clearcpuid=rdrand,rdseed (QEMU's TCG answers RDRAND from the host's
randomness, which seeds the kernel's layouts and hashes).  With both, two
sittings print byte-identical result lines.
"""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

from . import cpio, runner
from . import model as costmodel
from .qemu import ACCEL_ARGS, Profile, env_extra, machine_args, qemu_command
from .results import load_records
from .runner import (EXIT_BUILD, EXIT_GUEST_FAILED, EXIT_PASSED, EXIT_USAGE, BootOutcome,
                     file_digest, finish, launch, report, run_boot, run_meta)

PEER_DIR = "build/peer"
KERNEL = "build/peer/vmlinuz"
# "PACKAGE VERSION" of the Debian package vmlinuz came from (tools/deps.sh).
KERNEL_PACKAGE = "build/peer/vmlinuz.package"
# Where linuxbench's cpu_number offset was seen (the cost model needs it, below).
CPU_NUMBER = "build/peer/vmlinuz.cpu_number"
BENCH_SOURCES = ("tools/peer/linuxbench.c", "tools/peer/sysinfo.c")
# Hako's region marker (<hako/region.h> and the uapi ids) without Hako's libc:
# user/include and its arch folder (<arch/region.h>) go after the system's headers.
BENCH_INCLUDES = ("-Ikernel/uapi", "-idirafter", "user/include", "-idirafter", "user/include/hako/arch/x86_64")
BENCH_DEPENDS = (*BENCH_SOURCES, "tools/peer/sysinfo.h", "user/include/hako/region.h",
                 "user/include/hako/arch/x86_64/arch/region.h", "kernel/uapi/hako_region.h",
                 "kernel/uapi/hako_region_ids.h")
BENCH_BINARY = "build/peer/linuxbench"
INITRAMFS = "build/peer/initramfs.cpio"

# The Linux boots use sysbench's profile (`./hako bench sys`).
LINUX_PROFILE = Profile(machine="pc", smp=4, mode="icount")
BASE_CMDLINE = "console=ttyS0 quiet panic=-1 nokaslr norandmaps clearcpuid=rdrand,rdseed"
# (name in file names, what the command line adds, column, short name).  The third is
# not a security setting but a check of the instrument: with ERMS/FSRM
# Linux copies and clears with `rep movsb`/`rep stosb`, which icount counts
# once per byte; clearcpuid=erms,fsrm makes it use its word-at-a-time
# loops, so the column shows how much of Linux's count is that artefact.
VARIANTS = (("default", "", "Linux default", "default"),
            ("mitigations-off", "mitigations=off", "Linux mitigations=off", "off"),
            ("no-erms", "clearcpuid=erms,fsrm", "Linux default, no ERMS/FSRM", "no ERMS"))
LINUX_TIMEOUT = 600.0
# Linux reads the CMOS clock at boot (Hako does not), by default the host's
# time: the RTC's own clock, fixed, keeps the boot's instruction count and so
# the phase of the timer ticks against the benchmarks the same every run.
RTC_ARGS = ("-rtc", "base=2000-01-01T00:00:00,clock=vm")

# The cost model (--model) on Linux: the plugin finds the running CPU through
# GS base at the per-CPU variable cpu_number (its offset from /proc/kallsyms,
# printed by linuxbench, kept in CPU_NUMBER), and Linux's ranges mapped with
# large pages, fixed by nokaslr: the direct map (1 GiB pages where it can,
# counted as 2 MiB: the model has no 1 GiB pages) and the kernel image.
LINUX_LARGE = ("ffff888000000000:400000000000", "ffffffff80000000:40000000")
# Under the model a Linux boot takes ~5x as long: only this variant is modelled.
MODELLED_VARIANT = "default"

# Hako's side: (run name, the bench whose profile it boots).
HAKO_RUNS = (("bench-peer-hako-sys", "sys"), ("bench-peer-hako-ispc", "ispc"))

# Hako's server round trip nearest seL4's Call + ReplyRecv: ispc_call and
# ispc_reply_recv, the message in registers, the fastpath, one CPU.
CALL_ROW = ("request + reply, no data, one CPU (Hako ispc_call + ispc_reply_recv, the message "
            "in registers, fast)")
CALL_FIGURE = "sync_roundtrip_call_nodata_fast"

# seL4 beside it, quoted (this harness does not build seL4: it is in no
# package registry): x86_64, release build, sel4bench's IPC benchmark with
# its own rdtsc pairs, booted once in exactly Hako's QEMU set-up; guest
# instructions, the same on every run.
SEL4_SETUP = ("seL4 (x86_64, release build, sel4bench's IPC benchmark: fastpath, two address "
              "spaces, no message words), booted in Hako's QEMU set-up (QEMU 10, pc, -cpu max, "
              "-icount shift=0,sleep=off, 128 MiB, one CPU) and timed by its own rdtsc pairs; "
              "quoted from that one measurement, not run by this harness (seL4 is not packaged "
              "where Hako's tools come from)")
SEL4 = (("seL4_Call, one way", 194),
        ("seL4_ReplyRecv, one way", 221),
        ("Call + ReplyRecv round trip, sel4bench's 8-instruction loop subtracted", 421),
        ("Call + ReplyRecv round trip, a plain rdtsc difference (as Hako's)", 429),
        ("null system call, net (raw 113)", 100))
SEL4_ROUND_TRIP = 421

# The table: (measure, Hako's run and figure or None, Linux's figure).
ROWS = (
    ("null system call (Hako sys_null, Linux getppid)",
     ("sys", "null_syscall"), "null_syscall"),
    ("getpid", ("sys", "getpid"), "getpid"),
    ("process switch, one way (semaphore ping-pong, one CPU, round trip / 2)",
     ("sys", "process_switch_oneway"), "process_switch_oneway"),
    ("process switch, round trip", ("sys", "process_switch_roundtrip"),
     "process_switch_roundtrip"),
    ("first-touch page fault (one 4 KiB page)", ("sys", "page_fault_first_touch"),
     "page_fault_first_touch"),
    ("spawn + exit + wait", ("sys", "spawn_exit_wait"), "spawn_exit_wait"),
    ("cross-CPU wake-up (post on CPU 0 to the waiter's return on CPU 1)",
     ("sys", "cross_cpu_wakeup"), "cross_cpu_wakeup"),
    ("request + reply, no data, one CPU (Hako ISPC fast; Linux Unix socket, 64 B each way)",
     ("ispc", "sync_roundtrip_nodata_fast"), "unix_64b_same_cpu"),
    ("request + reply, no data, one CPU (Hako ISPC baseline)",
     ("ispc", "sync_roundtrip_nodata_baseline"), "unix_64b_same_cpu"),
    ("request + reply, 4 KiB each way, one CPU (Hako ISPC fast; Linux Unix socket)",
     ("ispc", "sync_roundtrip_4k_fast"), "unix_4k_same_cpu"),
    ("request + reply, 4 KiB each way, one CPU (Hako ISPC baseline)",
     ("ispc", "sync_roundtrip_4k_baseline"), "unix_4k_same_cpu"),
    (CALL_ROW, ("ispc", CALL_FIGURE), "unix_64b_same_cpu"),
    ("request + reply, 4 KiB each way, one CPU (Hako ispc_call + ispc_reply_recv, fast)",
     ("ispc", "sync_roundtrip_call_4k_fast"), "unix_4k_same_cpu"),
    ("Unix socket round trip, 64 B each way, cross-CPU", None, "unix_64b_cross_cpu"),
    ("Unix socket round trip, 4 KiB each way, cross-CPU", None, "unix_4k_cross_cpu"),
    ("pipe round trip, 4 KiB each way, one CPU", None, "pipe_4k_same_cpu"),
    ("pipe round trip, 4 KiB each way, cross-CPU", None, "pipe_4k_cross_cpu"),
)


def linux_name(variant: str) -> str:
    return f"bench-peer-linux-{variant}"


def linux_cmdline(extra: str) -> str:
    """BASE_CMDLINE and EXTRA, their clearcpuid= lists joined into one (Linux
    reads only one of several)."""
    words, cleared = [], []
    for word in f"{BASE_CMDLINE} {extra}".split():
        if word.startswith("clearcpuid="):
            if not cleared:
                words.append("clearcpuid=")
            cleared += word.removeprefix("clearcpuid=").split(",")
        else:
            words.append(word)
    return " ".join("clearcpuid=" + ",".join(cleared) if w == "clearcpuid=" else w
                    for w in words)


def linux_argv(profile: Profile, append: str, env: dict | None = None) -> list[str]:
    """QEMU's argv for the Linux peer: Hako's machine, devices and accelerator."""
    return (qemu_command(env) + machine_args(profile) + list(ACCEL_ARGS[profile.mode])
            + list(RTC_ARGS) + ["-kernel", KERNEL, "-initrd", INITRAMFS, "-append", append]
            + env_extra(env))


def initramfs(init: bytes) -> bytes:
    """The peer's initramfs: /init and what it mounts on, /dev/console for its output."""
    return cpio.pack([cpio.directory("dev"), cpio.char_device("dev/console", 5, 1),
                      cpio.directory("proc"), cpio.directory("sys"), cpio.file("init", init)])


# ---- preparing: the kernel, the benchmark, the initramfs ---------------------

def kernel_package(root: Path) -> str:
    path = root / KERNEL_PACKAGE
    return path.read_text().strip() if path.is_file() else "unknown package"


def ensure_kernel(root: Path, err) -> str | None:
    """Fetch the kernel through tools/deps.sh if it is missing; None, or what failed."""
    if (root / KERNEL).is_file() and (root / KERNEL_PACKAGE).is_file():
        return None
    err.write(f"hako: no {KERNEL}; fetching Debian's kernel (bash tools/deps.sh peer-kernel)\n")
    err.flush()
    code = subprocess.call(["bash", "tools/deps.sh", "peer-kernel"], cwd=root)
    if code != 0 or not (root / KERNEL).is_file():
        return f"could not fetch Debian's kernel into {KERNEL} (tools/deps.sh peer-kernel)"
    return None


def build_initramfs(root: Path, env: dict) -> str | None:
    """Compile linuxbench static and pack it; None, or the compiler's complaint."""
    binary = root / BENCH_BINARY
    binary.parent.mkdir(parents=True, exist_ok=True)
    newest = max((root / dep).stat().st_mtime for dep in BENCH_DEPENDS)
    if not binary.is_file() or binary.stat().st_mtime < newest:
        argv = [env.get("CC", "gcc"), "-static", "-O2", "-Wall", "-Werror",
                f"-ffile-prefix-map={root}=.", *BENCH_INCLUDES, "-o", BENCH_BINARY, *BENCH_SOURCES]
        proc = subprocess.run(argv, cwd=root, capture_output=True, text=True)
        if proc.returncode != 0:
            return ("cannot build the Linux benchmark (needs glibc's static libc.a, "
                    f"libc6-dev; `make deps`):\n{proc.stdout}{proc.stderr}")
    data = initramfs(binary.read_bytes())
    target = root / INITRAMFS
    if not target.is_file() or target.read_bytes() != data:
        target.write_bytes(data)
    return None


# ---- running ------------------------------------------------------------------

def linux_plugin_args(profile_name: str, out_rel: str, cpu_number: str) -> list[str]:
    """The cost-model plugin's QEMU arguments for a Linux boot."""
    flag, spec = costmodel.plugin_args(profile_name, out_rel)
    spec += f",cpu_id_offset={cpu_number}" + "".join(f",large={r}" for r in LINUX_LARGE)
    return [flag, spec]


def remember_cpu_number(root: Path, records) -> None:
    value = next((r.get("value") for r in records
                  if r.get("kind") == "peer-info" and r.get("name") == "cpu_number"), None)
    if isinstance(value, str) and re.fullmatch(r"0x[0-9a-f]+", value):
        path = root / CPU_NUMBER
        if not path.is_file() or path.read_text().strip() != value:
            path.write_text(value + "\n")


def run_linux(root: Path, variant: str, extra: str, *, quiet: bool, keep_log: bool,
              env: dict, out, err, name: str = "", model: str = "") -> BootOutcome:
    """One Linux boot; with MODEL, the cost model rides along and the
    records are joined to its regions (results/NAME.joined.jsonl)."""
    name = name or linux_name(variant)
    append = linux_cmdline(extra)
    argv = linux_argv(LINUX_PROFILE, append, env)
    out_rel = costmodel.model_rel(name)
    if model:
        argv += linux_plugin_args(model, out_rel, (root / CPU_NUMBER).read_text().strip())
        (root / out_rel).unlink(missing_ok=True)
    err.write(f"hako: Linux peer ({kernel_package(root)}), {LINUX_PROFILE.machine}, "
              f"{LINUX_PROFILE.smp} CPUs, {LINUX_PROFILE.mode}"
              f"{f', cost model {model}' if model else ''}: {append}\n")
    err.flush()
    meta = {**run_meta(LINUX_PROFILE, root, env, argv), "guest": "linux", "cmdline": append,
            "profile": model or None}
    meta["build"] = {**meta["build"], "image": file_digest(root / KERNEL),
                     "initrd": file_digest(root / INITRAMFS)}
    outcome = launch(argv, name, LINUX_TIMEOUT * (5 if model else 1), quiet, root, env, out)
    done = next((r for r in outcome.records if r.get("kind") == "peer-done"), None)
    if outcome.exit_code == EXIT_PASSED and (done is None or done.get("failed")):
        outcome.exit_code, outcome.reason = EXIT_GUEST_FAILED, "linuxbench did not finish cleanly"
    finish(outcome, root, keep_log, meta)
    remember_cpu_number(root, outcome.records)
    if model and (root / out_rel).is_file():
        joined, _ = costmodel.join_records(outcome.records, costmodel.load_model(root / out_rel))
        costmodel.write_joined(costmodel.joined_path(root, name), joined, meta)
        outcome.joined = joined
    report(outcome, root, err)
    return outcome


def run_peer(*, quiet: bool = False, keep_log: bool = False, model: str = "",
             root: Path | None = None, env: dict | None = None, build: bool = True,
             out=None, err=None) -> int:
    """The whole sitting; prints the table; returns the first failure's exit code."""
    from .bench import registry
    from .paths import repo_root
    env = dict(os.environ) if env is None else env
    root = repo_root(env) if root is None else Path(root)
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if model:
        if runner.build_enabled(env):
            runner.run_make(root, "costmodel", env)   # a stale plugin is rebuilt
        problem = costmodel.check_model(root, model, LINUX_PROFILE.mode)
        if problem:
            err.write(f"hako: {problem}\n")
            return EXIT_USAGE
    problem = ensure_kernel(root, err) or build_initramfs(root, env)
    if problem:
        err.write(f"hako: {problem}\n")
        return EXIT_BUILD
    # No modelled figures of an earlier sitting may stand beside this one's.
    for stale in (root / "results").glob("bench-peer-*" + costmodel.JOINED_SUFFIX):
        stale.unlink()
    first_failure = 0
    benches = registry()
    for name, bench in HAKO_RUNS:
        b = benches[bench]
        profile = dataclasses.replace(b.profile, model=model)
        outcome = run_boot(profile, name, b.timeout, quiet=quiet, keep_log=keep_log,
                           build=build, root=root, env=env, out=out, err=err)
        first_failure = first_failure or outcome.exit_code
    # The modelled variant last: an unmodelled boot before it notes cpu_number.
    order = sorted(VARIANTS, key=lambda v: bool(model) and v[0] == MODELLED_VARIANT)
    for variant, extra, _, _ in order:
        modelled = model if variant == MODELLED_VARIANT else ""
        if modelled and not (root / CPU_NUMBER).is_file():
            err.write(f"hako: no {CPU_NUMBER}: Linux did not say where cpu_number is; "
                      "not modelled\n")
            modelled = ""
        outcome = run_linux(root, variant, extra, quiet=quiet, keep_log=keep_log,
                            env=env, out=out, err=err, model=modelled)
        first_failure = first_failure or outcome.exit_code
    out.write("\n" + render(root / "results") + "\n")
    out.flush()
    return first_failure


# Every figure linuxbench prints (on 2 or more CPUs).
LINUX_FIGURES = tuple(dict.fromkeys(fig for _, _, fig in ROWS))


def missing_figures(records) -> list[str]:
    have = medians(records)
    return [name for name in LINUX_FIGURES if name not in have]


def check_linux(root: Path, env: dict, err) -> tuple[bool, str]:
    """`make test`'s peer step: one Linux boot, every figure printed; (ok, why not)."""
    problem = ensure_kernel(root, err) or build_initramfs(root, env)
    if problem:
        return False, problem.splitlines()[0]
    with open(os.devnull, "w") as quiet:
        outcome = run_linux(root, "default", "", quiet=True, keep_log=False, env=env,
                            out=quiet, err=err, name="test-peer-linux")
    if outcome.exit_code != EXIT_PASSED:
        where = f" (log: {outcome.log.relative_to(root)})" if outcome.log else ""
        return False, outcome.reason + where
    missing = missing_figures(outcome.records)
    if missing:
        return False, "no figure " + ", ".join(missing)
    return True, ""


# ---- the table ------------------------------------------------------------------

@dataclasses.dataclass
class Figures:
    """The medians of one sitting, its modelled cycles if it had the cost
    model, and what the Linux boots said about themselves."""

    hako: dict[str, dict[str, int]]        # "sys"/"ispc" -> name -> median
    linux: dict[str, dict[str, int]]       # variant -> name -> median
    info: dict[str, dict[str, str]]        # variant -> "release", "cmdline", "cpu_flags", ...
    vulns: dict[str, dict[str, str]]       # variant -> vulnerability -> state
    hako_cycles: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)
    linux_cycles: dict[str, float] = dataclasses.field(default_factory=dict)  # MODELLED_VARIANT's
    profile: str = ""                      # the cost-model profile, "" without


def medians(records) -> dict[str, int]:
    return {r["name"]: r["median"] for r in records
            if r.get("kind") == "bench" and isinstance(r.get("median"), int)}


def cycles(records) -> dict[str, float]:
    """Modelled cycles per operation of the joined records that have them."""
    out = {}
    for r in records:
        per_iter = (r.get("model") or {}).get("per_iter") or {}
        if r.get("kind") == "bench" and isinstance(per_iter.get("cycles"), (int, float)):
            out[r["name"]] = per_iter["cycles"]
    return out


def load(results: Path) -> Figures:
    def read(name: str, suffix: str = ".jsonl") -> list[dict]:
        path = results / f"{name}{suffix}"
        return load_records(path) if path.is_file() else []

    hako = {bench: medians(read(name)) for name, bench in HAKO_RUNS}
    linux, info, vulns = {}, {}, {}
    for variant, _, _, _ in VARIANTS:
        recs = read(linux_name(variant))
        linux[variant] = medians(recs)
        info[variant] = {r["name"]: r.get("value", "") for r in recs if r.get("kind") == "peer-info"}
        rel = next((r for r in recs if r.get("kind") == "peer-linux"), None)
        if rel:
            info[variant]["release"] = rel.get("release", "")
        vulns[variant] = {r["name"]: r.get("value", "") for r in recs
                          if r.get("kind") == "peer-vuln"}
    fig = Figures(hako, linux, info, vulns)
    joined = read(linux_name(MODELLED_VARIANT), costmodel.JOINED_SUFFIX)
    fig.linux_cycles = cycles(joined)
    fig.hako_cycles = {bench: cycles(read(name, costmodel.JOINED_SUFFIX))
                       for name, bench in HAKO_RUNS}
    fig.profile = next(((r.get("model") or {}).get("profile", "") for r in joined
                        if r.get("model")), "")
    return fig


def fmt(value) -> str:
    return "—" if value is None else f"{value:,}"


def ratio(linux, hako) -> str:
    """Linux / Hako: above 1 Linux takes more instructions, below 1 Hako does."""
    if not linux or not hako:
        return "—"
    return f"{linux / hako:.2f}"


def table_rows(fig: Figures) -> list[tuple[str, ...]]:
    """Per measure: Hako, each Linux variant, each Linux/Hako ratio, and
    "**Hako**" where Hako's count is above every Linux variant's."""
    rows = []
    for measure, hako_ref, linux_fig in ROWS:
        hako = fig.hako.get(hako_ref[0], {}).get(hako_ref[1]) if hako_ref else None
        lin = [fig.linux.get(v, {}).get(linux_fig) for v, _, _, _ in VARIANTS]
        known = [x for x in lin if x is not None]
        slower = "—" if hako is None or not known else ("**Hako**" if hako > min(known) else "")
        rows.append((measure, fmt(hako), *(fmt(x) for x in lin),
                     *(ratio(x, hako) for x in lin), slower))
    return rows


HEADER = (("measure", "Hako") + tuple(column for _, _, column, _ in VARIANTS)
          + tuple(f"Linux÷Hako {short}" for _, _, _, short in VARIANTS) + ("Hako slower",))


CYCLE_HEADER = ("measure", "Hako", "Linux default", "Linux÷Hako", "Hako slower")


def cycle_rows(fig: Figures) -> list[tuple[str, ...]]:
    """Per measure with both figures: modelled cycles per operation."""
    rows = []
    for measure, hako_ref, linux_fig in ROWS:
        hako = fig.hako_cycles.get(hako_ref[0], {}).get(hako_ref[1]) if hako_ref else None
        lin = fig.linux_cycles.get(linux_fig)
        if lin is None:
            continue
        slower = "—" if hako is None else ("**Hako**" if hako > lin else "")
        rows.append((measure, fmt_cycles(hako), fmt_cycles(lin),
                     ratio(lin, hako), slower))
    return rows


def fmt_cycles(value) -> str:
    return "—" if value is None else f"{round(value):,}"


def markdown_table(rows, header=None) -> list[str]:
    header = HEADER if header is None else header
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def slower_rows(rows) -> list[str]:
    return [row[0] for row in rows if row[-1] == "**Hako**"]


def render(results: Path) -> str:
    """The side-by-side table with its unit, mode and the kernel it ran against."""
    fig = load(results)
    if not any(fig.linux.values()) or not any(fig.hako.values()):
        return ("peer: no figures yet (results/bench-peer-*.jsonl); "
                "`./hako bench peer` makes them\n")
    rows = table_rows(fig)
    info = fig.info.get("default", {})
    # "... #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-2 (2026-11-16)": the last "Debian X"
    # (an earlier one is the compiler's).
    debian = (re.findall(r"Debian (\S+)", info.get("version", "")) or ["?"])[-1]
    lines = ["Hako against Linux, same QEMU: pc, -cpu max, icount shift=0 (sleep=off), "
             "128 MiB; Hako's sysbench and Linux on 4 CPUs, ispcbench on 2.",
             "Unit: guest instructions (TSC ticks under icount), the median of each "
             "figure's samples, a TSC read pair included; one way only where the measure "
             "says so, else a full round trip.",
             f"Linux: {info.get('release', '?')}, Debian's {debian}; "
             f"CPU flags as Linux sees them (default): {info.get('cpu_flags', '?')}.", ""]
    lines += markdown_table(rows)
    slow = slower_rows(rows)
    lines += ["", "Hako is slower (more instructions than Linux in any of its columns) in: "
              + ("; ".join(slow) if slow else "none of these") + ". The Linux÷Hako columns are "
              "Linux's count over Hako's: above 1, Linux runs more instructions."]
    crows = cycle_rows(fig)
    if crows:
        cslow = slower_rows(crows)
        lines += ["", f"Modelled cycles per operation, cost model `{fig.profile}` "
                  "(`./hako bench peer --model PROFILE`; Linux with its default "
                  "mitigations only): the same runs, the same regions, cycles instead of "
                  "instructions (TLB and cache misses priced, `rep` iterations still one "
                  "instruction each).", ""]
        lines += markdown_table(crows, CYCLE_HEADER)
        lines += ["", "In modelled cycles Hako is slower in: "
                  + ("; ".join(cslow) if cslow else "none of these") + "."]
    else:
        lines += ["Modelled cycles: not in this sitting (`./hako bench peer --model modern`)."]
    vd = fig.vulns.get("default", {})
    mitigated = sorted(f"{k}: {v}" for k, v in vd.items() if v != "Not affected")
    if mitigated:
        lines += ["Linux default mitigations on this CPU model: " + "; ".join(mitigated) + "."]
    lines += [""] + sel4_lines(fig)
    return "\n".join(lines) + "\n"


def sel4_lines(fig: Figures) -> list[str]:
    """seL4's IPC figures, quoted, and Hako's server round trip against them."""
    lines = ["seL4 in the same emulator, quoted: " + SEL4_SETUP + ".", ""]
    lines += markdown_table([(what, fmt(n)) for what, n in SEL4], ("seL4", "guest instructions"))
    hako = fig.hako.get("ispc", {}).get(CALL_FIGURE)
    if hako is None:
        lines += ["", f"Hako's {CALL_FIGURE}: not in this sitting."]
    else:
        lines += ["", f"Hako's round trip nearest it ({CALL_ROW.split('(', 1)[1].rstrip(')')}): "
                  f"{fmt(hako)} instructions, {hako / SEL4_ROUND_TRIP:.2f}× seL4's Call + "
                  f"ReplyRecv ({SEL4_ROUND_TRIP}); against its plain rdtsc difference "
                  f"({SEL4[3][1]}) {hako / SEL4[3][1]:.2f}×."]
    return lines
