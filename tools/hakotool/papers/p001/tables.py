"""Paper 001's tables, printed from iotest's result lines beside the paper's.

    ./hako paper 001 tables [--run] [--icount FILE...] [--tcg FILE...]

Reads the files the benches write:

  * results/bench-mp.jsonl — `./hako bench mp` (testdev, ramdisk), icount,
    8 CPUs and the I/O processor (Table 2's commands): each run's elapsed
    guest time.  Under icount every vCPU advances one
    instruction counter, so this is the SUM of all CPUs' work plus the
    time all of them sat idle: it cannot show a parallel speed-up.
  * results/bench-mp-disk-1.jsonl ... -N.jsonl — `./hako bench mp-disk`,
    the same on the disks (Table 1 on ahci0 and nvme0, Table 2 on ahci0),
    one file per boot.  A disk completes when QEMU's host threads do;
    unpaced, each boot gives its own improvement.  The bench paces the
    completions (iotest --pace on) and, under --model, holds each look
    until QEMU has finished, so its boots repeat; the tables print the
    median over the boots with the smallest and largest, "median
    (min…max)", and the note under each counts the runs alike in every
    boot.  (An older single bench-mp-disk.jsonl is
    read when there are none.)  Their lines carry the device's counters
    over each run (iotest --counts on): the last table says where the
    requests completed and where the interrupts went.
  * results/NAME.model.jsonl beside each — the cost-model plugin's lines of
    the same boots run with `--model modern`: per run (one global region)
    every vCPU's instructions, i.e. each CPU's busy work.  From them a
    makespan bound (below).
    The same lines carry each run's parallel elapsed time on the model's
    per-vCPU clocks (hakotool/papers/p001/parallel.py): rows of their own,
    and a table of funnelled and symmetric elapsed time per K.
  * results/bench-mp-tcg-1.jsonl ... -N.jsonl — `./hako bench mp-tcg`:
    multi-threaded TCG, host time, one vCPU per host core, N sittings
    (boots) of the same grid; within a sitting a cell's figure is the
    median of its repeats, and the tables print the median over the
    sittings with the smallest and largest, as for the disks.  (An older
    single bench-mp-tcg.jsonl is read when there are none.)

The makespan bound, in instructions (= ns at icount shift 0, the unit of
testdev's delay): the largest of the busiest CPU's work, the device's
serial service time (testdev serves one request at a time: k x loops x
delay) and one process's own chain: its loops x (delay + wait), plus an
equal share of the run's CPU work that is not busy-waiting (the reads,
the funnel's migrations, the exits).  A process does its own reads one
after another wherever they run, so a funnelled read on the master is
on its chain as much as a symmetric one on its own CPU; the equal share
stands for it because the workers are alike.  For the disk the guest
does not know the device's time under icount, so the bound is CPU work
only.

For the disks a third figure: every CPU's instructions in the run, added
up.  The icount elapsed time is that sum plus the gaps in which every CPU
sat idle; with a disk those gaps are how long QEMU's host threads took
(icount skips ahead to the next timer when they are late), which is what
does not repeat.  Without them what is left is the work each mode does
for the same reads, the funnel's migrations and the interrupts included.

Improvement is the paper's: (T_funnel / T_symmetric - 1) x 100 for
Table 1, (T_master / T_policy - 1) x 100 for Table 2, and for the NVMe
table (T_ahci_funnel / T_x - 1) x 100, x each of AHCI symmetric, NVMe
funnel and NVMe symmetric, all from the same boot.  Within one boot a
cell's figure is the median of its repeats (TCG); across boots the
improvements are taken per boot, then their median.

--run first runs the three benches (the icount ones with --model modern).
Everything else is pure functions of the records, tested on canned
lines in tests/harness/test_mp_tables.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import argparse
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

from ...paths import repo_root
from ...results import load_records
from .criteria import PAPER_KS, PAPER_T1, PAPER_T2  # noqa: F401
from . import parallel

ROOT = repo_root()
TURN_INSNS = 5          # one turn of iotest's busy loop (user/iotest/run.c)
WAIT_UNIT = 1000        # turns per wait count

# The paper's tables live with its criteria (hakotool/papers/p001.py).
POLICIES = ("master", "fixed", "issuer", "idle", "busiest", "broadcast", "load")
PAPER_POLICY = {"master": "2a-1", "fixed": "2a-2", "issuer": "2b-1", "idle": "2b-2",
                "busiest": "2b-3", "broadcast": "2b-4", "load": "—"}
PAPER_DEV = {"ahci0": "scsihd", "nvme0": "scsihd", "testdev0": "testdev", "ramdisk0": "ramdisk"}
DEV_ORDER = ("ahci0", "nvme0", "testdev0", "ramdisk0")
DISKS = ("ahci0", "nvme0")          # completions on QEMU's host threads: paced to repeat
# The disks' third figure: icount elapsed time holds the gaps in which every
# CPU sat idle waiting for QEMU's host threads; the plugin's instructions
# per CPU, added up, are the same time without them.
WORK = "Σ of all CPUs' instructions, idle gaps left out (cost model; disks only)"
TCG = "TCG real time, median"


# ---- reading -----------------------------------------------------------

def load_model_vcpus(path: Path) -> dict[int, dict[int, int]]:
    """Per region, each vCPU's instructions, from the plugin's lines."""
    out: dict[int, dict[int, int]] = {}
    if not path.exists():
        return out
    for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if isinstance(line, dict) and line.get("kind") == "region":
            out.setdefault(int(line["region"]), {})[int(line["vcpu"])] = int(line["insns"])
    return out


def model_path(icount: Path) -> Path:
    """The plugin's file beside an icount results file (NAME.model.jsonl)."""
    return icount.with_name(icount.name.removesuffix(".jsonl") + ".model.jsonl")


def boot_files(results: Path, name: str) -> list[Path]:
    """A repeated bench's result files (bench-NAME-I.jsonl), one per boot, in
    boot order; the older single bench-NAME.jsonl if there are none."""
    numbered = re.compile(rf"bench-{re.escape(name)}-(\d+)\.jsonl")
    found = sorted(((int(m.group(1)), p) for p in results.glob(f"bench-{name}-*.jsonl")
                    if (m := numbered.fullmatch(p.name))), key=lambda pair: pair[0])
    if found:
        return [p for _, p in found]
    single = results / f"bench-{name}.jsonl"
    return [single] if single.exists() else []


def disk_files(results: Path) -> list[Path]:
    """mp-disk's boots (see boot_files)."""
    return boot_files(results, "mp-disk")


def tcg_files(results: Path) -> list[Path]:
    """mp-tcg's sittings (see boot_files)."""
    return boot_files(results, "mp-tcg")


def runs(records: list[dict]) -> list[dict]:
    return [r for r in records if r.get("kind") == "iotest" and not r.get("failed")]


def makespan_bound(run: dict, vcpus: dict[int, int] | None) -> int | None:
    """The bound of the module docstring, in instructions; None without the model."""
    if not vcpus:
        return None
    delay_ns = int(run.get("delay_us", 0)) * 1000
    loops, k, wait = run["loops"], run["k"], run["wait"]
    wait_insns = wait * WAIT_UNIT * TURN_INSNS
    rest = max(0, sum(vcpus.values()) - k * loops * wait_insns)
    chain = loops * (delay_ns + wait_insns) + rest // k
    return max(max(vcpus.values()), k * loops * delay_ns, chain)


def cell_values(records: list[dict], model: dict[int, dict[int, int]] | None = None,
                figure: str = "bound"):
    """{(table, dev, wait, k, setting): [figure per rep]} where setting is
    the mode (t1) or the policy (t2); the figure is elapsed_ns, or with
    MODEL the makespan bound, or with FIGURE "work" the sum of every CPU's
    instructions, for the disks only."""
    cells: dict[tuple, list[int]] = {}
    for r in runs(records):
        setting = r["mode"] if r["table"] == "t1" else r["policy"]
        if model is None:
            value = r["elapsed_ns"]
        elif figure == "work":
            vcpus = model.get(r.get("region", -1))
            if r["dev"] not in DISKS or not vcpus:
                continue
            value = sum(vcpus.values())
        else:
            value = makespan_bound(r, model.get(r.get("region", -1)))
            if value is None:
                continue
        cells.setdefault((r["table"], r["dev"], r["wait"], r["k"], setting), []).append(value)
    return cells


def median(values):
    return statistics.median(values) if values else None


def improvement(slow, fast):
    """(slow / fast - 1) x 100, or None."""
    if slow is None or fast is None or fast <= 0:
        return None
    return (slow / fast - 1.0) * 100.0


class Spread(float):
    """The median of several boots' figures, a float, that keeps the
    smallest (lo) and largest (hi) of them and how many there were (n)."""

    lo: float
    hi: float
    n: int

    def __new__(cls, values):
        ordered = sorted(values)
        self = super().__new__(cls, statistics.median(ordered))
        self.lo, self.hi, self.n = ordered[0], ordered[-1], len(ordered)
        return self


def over_boots(values) -> Spread | None:
    """The boots' figures (None: the boot lacks the cell) as one Spread."""
    present = [v for v in values if v is not None]
    return Spread(present) if present else None


def boot_improvement(boots: list[dict], slow: tuple, fast: tuple) -> Spread | None:
    """Per boot, the improvement of cell FAST over cell SLOW (each cell's
    median within the boot); then over the boots that have both."""
    return over_boots(improvement(median(cells.get(slow)), median(cells.get(fast)))
                      for cells in boots)


# ---- tables ------------------------------------------------------------

def fmt1(value) -> str:
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.1f}"


def fmt(value) -> str:
    """A cell: "—" for none, "m (lo…hi)" for a median over several boots."""
    if value is None:
        return "—"
    if isinstance(value, Spread) and value.n > 1:
        return f"{fmt1(value)} ({fmt1(value.lo)}…{fmt1(value.hi)})"
    return fmt1(value)


def paper_row(values: tuple, ks: list[int]) -> list:
    return [values[PAPER_KS.index(k)] if k in PAPER_KS else None for k in ks]


def table1_rows(dev: str, sources: dict[str, list[dict]], ks: list[int], waits: list[int]):
    """Rows (label, values per k) for one device: per wait count, the paper's
    row, then one per figure source that has the cell."""
    rows = []
    paper = PAPER_T1.get(PAPER_DEV.get(dev, ""), {})
    for wait in waits:
        if wait in paper:
            rows.append((f"{wait} · paper ({PAPER_DEV[dev]})", paper_row(paper[wait], ks)))
        for label, boots in sources.items():
            vals = [boot_improvement(boots, ("t1", dev, wait, k, "funnel"),
                                     ("t1", dev, wait, k, "symmetric")) for k in ks]
            if any(v is not None for v in vals):
                rows.append((f"{wait} · {label}", vals))
    return rows


def table2_rows(dev: str, sources: dict[str, list[dict]], ks: list[int], wait: int):
    rows = []
    for policy in POLICIES:
        if policy in PAPER_T2:
            rows.append((f"{PAPER_POLICY[policy]} {policy} · paper (scsihd)",
                         paper_row(PAPER_T2[policy], ks)))
        for label, boots in sources.items():
            vals = [boot_improvement(boots, ("t2", dev, wait, k, "master"),
                                     ("t2", dev, wait, k, policy)) for k in ks]
            if any(v is not None for v in vals):
                rows.append((f"{PAPER_POLICY[policy]} {policy} · {label}", vals))
    return rows


# The NVMe table's rows: each against AHCI funnelled, (dev, mode, label).
AGAINST_AHCI = (("ahci0", "symmetric", "AHCI symmetric"),
                ("nvme0", "funnel", "NVMe funnel"),
                ("nvme0", "symmetric", "NVMe symmetric"))


def nvme_rows(sources: dict[str, list[dict]], ks: list[int], waits: list[int]):
    """Rows (label, values per k): per wait count and figure source, the
    improvement of AHCI symmetric, NVMe funnel and NVMe symmetric over AHCI
    funnelled, each boot against itself."""
    rows = []
    for wait in waits:
        for label, boots in sources.items():
            for dev, mode, what in AGAINST_AHCI:
                vals = [boot_improvement(boots, ("t1", "ahci0", wait, k, "funnel"),
                                         ("t1", dev, wait, k, mode)) for k in ks]
                if any(v is not None for v in vals):
                    rows.append((f"{wait} · {what} · {label}", vals))
    return rows


def markdown(head: str, ks: list[int], rows) -> str:
    lines = [f"| {head} | " + " | ".join(f"k={k}" for k in ks) + " |",
             "|---|" + "---|" * len(ks)]
    lines += [f"| {label} | " + " | ".join(fmt(v) for v in vals) + " |" for label, vals in rows]
    return "\n".join(lines)


def grid(records_list: list[list[dict]], table: str):
    """The devices, wait counts and Ks present for TABLE in any of the files."""
    devs, waits, ks = set(), set(), set()
    for records in records_list:
        for r in runs(records):
            if r["table"] == table:
                devs.add(r["dev"])
                waits.add(r["wait"])
                ks.add(r["k"])
    order = [d for d in DEV_ORDER if d in devs] + sorted(devs - set(DEV_ORDER))
    return order, sorted(waits), sorted(ks)


def sources_of(boots: list[tuple[list[dict], dict]], tcg: list[list[dict]],
               clocks: list[tuple[list[dict], dict]] = ()) -> dict[str, list[dict]]:
    """Figure sources in table order, each a list of per-boot {cell: [values]};
    empty ones dropped.  BOOTS: each icount boot's records with its own
    model (region ids repeat from boot to boot); TCG: each TCG sitting's
    records; CLOCKS: each icount boot's records with the plugin's
    per-region clock figures (parallel.load_elapsed)."""
    sources = {
        "icount elapsed (Σ of all CPUs' work)": [cell_values(r) for r, _ in boots],
        WORK: [cell_values(r, m, "work") for r, m in boots if m],
        "makespan bound (cost model, per-CPU work)": [cell_values(r, m) for r, m in boots if m],
        **parallel.sources(list(clocks)),
        TCG: [cell_values(records) for records in tcg],
    }
    return {label: [cells for cells in per_boot if cells]
            for label, per_boot in sources.items() if any(per_boot)}


def calibration(records: list[dict]) -> dict | None:
    return next((r for r in records if r.get("kind") == "iotest_calib"), None)


def boots_with(boots: list[tuple[list[dict], dict]], dev: str, table: str) -> int:
    """How many icount boots have runs of TABLE on DEV."""
    return sum(1 for records, _ in boots
               if any(r["dev"] == dev and r["table"] == table for r in runs(records)))


def boots_title(n: int, paced: bool = False) -> str:
    """What a disk table's title adds: its figures come from N boots, which
    do not repeat (unpaced) or are paced (PACED: they repeat up to a late
    completion, and the note counts the runs alike)."""
    how = "paced" if paced else "not repeatable"
    return f" — {how}: median (min…max) of {n} boot{'s' if n != 1 else ''}"


def paced_late(boots: list[tuple[list[dict], dict]], dev: str) -> list[int] | None:
    """Per boot with runs on DEV, its paced completions QEMU had not
    finished in time (iotest --pace on); None if no run on DEV was paced."""
    per_boot = [[r for r in runs(records) if r["dev"] == dev] for records, _ in boots]
    if not any(r.get("paced") for rs in per_boot for r in rs):
        return None
    return [sum(int(r.get("paced_late", 0)) for r in rs) for rs in per_boot if rs]


RUN_KEY = ("table", "mode", "policy", "k", "wait", "rep")


@dataclass(frozen=True)
class Alike:
    """How DEV's runs compare across boots (runs_alike): of `runs` made in every
    boot, `alike` took the same icount time (guest instructions) in each; the
    others' spread (largest minus smallest), median and largest, in
    instructions, and the largest as a share of its run's time."""
    alike: int
    runs: int
    median: int = 0
    largest: int = 0
    share: float = 0.0


def runs_alike(boots: list[tuple[list[dict], dict]], dev: str) -> Alike:
    per_boot = [{tuple(r.get(k) for k in RUN_KEY): r["elapsed_ns"]
                 for r in runs(records) if r["dev"] == dev} for records, _ in boots]
    per_boot = [b for b in per_boot if b]
    if not per_boot:
        return Alike(0, 0)
    common = set.intersection(*(set(b) for b in per_boot))
    times = [[b[key] for b in per_boot] for key in common]
    spreads = sorted((max(t) - min(t), max(t)) for t in times)
    differing = [s for s in spreads if s[0]]
    if not differing:
        return Alike(len(common), len(common))
    largest, of = max(differing)
    return Alike(len(common) - len(differing), len(common), differing[len(differing) // 2][0],
                 largest, largest / of if of else 0.0)


def not_repeatable(n: int, late: list[int] | None = None, alike: Alike | None = None) -> str:
    """The note under a disk's table: why its boots differ (unpaced), or
    how many completions were late in each boot (paced: LATE) and how many
    runs took the same instructions in every boot (ALIKE: runs_alike)."""
    if late is not None:
        why = ("*Paced completions:* each command's interrupt was held at the device until its "
               "datasheet service time had passed, and under the cost model the look at that "
               "moment first waited (in host time, no guest instruction) for QEMU to have "
               "finished the command; a look that still found it busy is late (per boot: "
               f"{', '.join(map(str, late))}; from a late one on, the boot's figures may differ).")
        if alike is not None and alike.runs:
            why += (f" {alike.alike} of {alike.runs} runs took the same guest instructions in "
                    "every boot")
            if alike.alike < alike.runs:
                why += (f"; the others' spread over the boots is {alike.median:,} instructions at "
                        f"the median and at most {alike.largest:,} ({alike.share:.2%} of its run), "
                        "not traced yet (tools/costmodel/README.md), and their figures on the "
                        "model's clocks move more: the (min…max) of each cell shows how far")
            why += "."
    else:
        why = ("*Not repeatable:* the disk completes when QEMU's host threads do, so each boot "
               "gives other figures.")
    return (why + f" Each cell is the median over {n} boot{'s' if n != 1 else ''} "
            "of that boot's improvement, with the smallest and largest in brackets: "
            "median (min…max). The icount elapsed rows (the sum of all CPUs' work plus the "
            "time every CPU sat idle) hold the gaps in which all CPUs waited for the disk; "
            "the Σ-instructions rows leave them out.")


def t1_title(dev: str) -> str:
    where = ("interrupts on the issuing CPU's own vector (funnel: all reads on CPU 0's queue)"
             if dev == "nvme0" else "interrupts to the master")
    return (f"### Table 1 — {dev} (paper: {PAPER_DEV.get(dev, '?')}): improvement of symmetric "
            f"over funnel, %, {where}")


# ---- the counters: where the requests ran and the interrupts went --------

def counted(records: list[dict]) -> list[dict]:
    """The runs (failed ones too) whose lines carry iotest --counts fields."""
    return [r for r in records if r.get("kind") == "iotest" and "completed" in r]


def count_rows(records_list: list[list[dict]]):
    """One row per (device, table, setting) over every counted run of every
    boot: (label, {runs, failed, expected, done, interrupts[], completed[],
    lost, left, empty, on_issuer_runs, solo, solo_on_issuer}); left and empty
    stay None if no line had them (iotest before the kernel counted them)."""
    rows: dict[tuple, dict] = {}
    for records in records_list:
        for r in counted(records):
            setting = r["mode"] if r["table"] == "t1" else r["policy"]
            key = (r["dev"], r["table"], setting)
            row = rows.setdefault(key, {"runs": 0, "failed": 0, "expected": 0, "done": 0,
                                        "interrupts": [], "completed": [], "lost": 0,
                                        "left": None, "empty": None,
                                        "on_issuer_runs": 0, "solo": 0, "solo_on_issuer": 0})
            row["runs"] += 1
            row["failed"] += int(r.get("failed") or 0)
            row["expected"] += r["k"] * r["loops"]
            row["done"] += sum(r["completed"])
            for name in ("interrupts", "completed"):
                acc = row[name]
                acc.extend([0] * (len(r[name]) - len(acc)))
                for c, v in enumerate(r[name]):
                    acc[c] += v
            row["lost"] += sum(r.get("lost", ()))
            for name in ("left", "empty"):
                if name in r:
                    row[name] = (row[name] or 0) + sum(r[name])
            row["on_issuer_runs"] += r["completed"] == r.get("issued")
            row["solo"] += r.get("solo", 0)
            row["solo_on_issuer"] += r.get("solo_on_issuer", 0)
    dev_rank = {d: i for i, d in enumerate(DEV_ORDER)}
    setting_rank = {s: i for i, s in enumerate(("funnel", "symmetric") + POLICIES)}
    order = sorted(rows, key=lambda k: (k[1], dev_rank.get(k[0], 99), setting_rank.get(k[2], 99)))
    return [(key, rows[key]) for key in order]


def shares(values: list[int]) -> str:
    """Each CPU's share of a total, %, "a/b/c/..."; "—" for a total of 0."""
    total = sum(values)
    if not total:
        return "—"
    return "/".join(f"{100.0 * v / total:.0f}" for v in values)


def counts_table(records_list: list[list[dict]]) -> str:
    rows = count_rows(records_list)
    if not rows:
        return ""
    ncpus = max(len(row["completed"]) for _, row in rows)
    cpus = f"CPU 0…{ncpus - 1}"
    head = ("| device · table · setting | runs | reads done / expected | failed workers "
            f"| completions per CPU, % ({cpus}) | interrupts per CPU, % ({cpus}) "
            "| interrupts per read | lost races | leftover / empty interrupts "
            "| runs completing every read on its issuing CPU "
            "| solo reads completed on their issuer |")
    lines = [head, "|---|" + "---|" * 10]
    for (dev, table, setting), row in rows:
        label = f"{dev} · {'Table 1' if table == 't1' else 'Table 2'} · {setting}"
        irqs = sum(row["interrupts"])
        per_read = f"{irqs / row['done']:.2f}" if irqs and row["done"] else "—"
        solo = f"{row['solo_on_issuer']} of {row['solo']}" if row["solo"] else "—"
        spare = ("—" if row["left"] is None and row["empty"] is None
                 else f"{row['left'] or 0:,} / {row['empty'] or 0:,}")
        lines.append(f"| {label} | {row['runs']} | {row['done']:,} / {row['expected']:,} "
                     f"| {row['failed']} | {shares(row['completed'])} "
                     f"| {shares(row['interrupts'])} "
                     f"| {per_read} | {row['lost']:,} | {spare} "
                     f"| {row['on_issuer_runs']} of {row['runs']} "
                     f"| {solo} |")
    return "\n".join(lines)


def tcg_note(tcg: list[list[dict]]) -> str | None:
    """What the TCG rows are: host time, how many vCPUs, reps and sittings."""
    timed = [r for records in tcg for r in runs(records)]
    if not timed:
        return None
    cpus = sorted({r["cpus"] for records in tcg for r in records
                   if r.get("kind") == "boot" and "cpus" in r})
    reps = max(r.get("rep", 0) for r in timed) + 1
    loops = sorted({r["loops"] for r in timed})
    n = sum(1 for records in tcg if runs(records))
    calibs = [c for records in tcg if (c := calibration(records))]
    waits = ", ".join(f"{c['ns'] / 1000:.1f}" for c in calibs)
    delays = ", ".join(str(c["testdev_delay_us"]) for c in calibs)
    calib = (f" Wait count 10 took {waits} µs of host time and testdev's delay was {delays} µs "
             "in the sittings." if calibs else "")
    return (f"*TCG rows:* real (host) time in multi-threaded TCG, "
            f"{'/'.join(map(str, cpus)) or '?'} vCPUs, {'/'.join(map(str, loops))} loops a "
            f"process; in each of {n} sitting{'s' if n != 1 else ''} a cell is the median of "
            f"{reps} run{'s' if reps != 1 else ''}, and the table gives the median over the "
            "sittings with the smallest and largest: median (min…max). Host time moves with "
            "whatever else the host runs." + calib)


def render(boots: list[tuple[list[dict], dict]], tcg: list[list[dict]],
           clocks: list[tuple[list[dict], dict]] = ()) -> str:
    sources = sources_of(boots, tcg, clocks)
    icount = [r for records, _ in boots for r in records]
    out = []
    calib = calibration(icount)
    if calib:
        out.append(f"Wait count 10 = {calib['turns']:,} turns = {calib['ns']:,} guest "
                   f"instructions on one CPU (icount); testdev's delay "
                   f"{calib['testdev_delay_us']} µs (17/20 of it, the paper's ratio).")
    note = tcg_note(tcg)
    if note:
        out.append(note)
    devs, waits, ks = grid([icount, *tcg], "t1")
    for dev in devs:
        n = boots_with(boots, dev, "t1")
        out.append(t1_title(dev) + (boots_title(n, paced_late(boots, dev) is not None)
                                    if dev in DISKS else ""))
        if dev in DISKS:
            out.append(not_repeatable(n, paced_late(boots, dev), runs_alike(boots, dev)))
        out.append(markdown("wait · figure", ks, table1_rows(dev, sources, ks, waits)))
    devs2, waits2, ks2 = grid([icount, *tcg], "t2")
    for dev in devs2:
        via_iop = any(r.get("iop") for r in runs([*icount, *(r for t in tcg for r in t)])
                      if r["table"] == "t2" and r["dev"] == dev)
        for wait in waits2:
            n = boots_with(boots, dev, "t2")
            out.append(f"### Table 2 — {dev}, wait {wait}: each policy against master "
                       "(2a-1), %, symmetric (paper: scsihd)" +
                       (", commands executed by the I/O processor, which interrupts the "
                        "policy's CPU at each completion (the paper's HD subsystem)"
                        if via_iop else "") +
                       (boots_title(n, paced_late(boots, dev) is not None)
                        if dev in DISKS else ""))
            if dev in DISKS:
                out.append(not_repeatable(n, paced_late(boots, dev), runs_alike(boots, dev)))
            out.append(markdown("policy · figure", ks2, table2_rows(dev, sources, ks2, wait)))
    if "nvme0" in devs and "ahci0" in devs:
        n = boots_with(boots, "nvme0", "t1")
        out.append("### NVMe (per-CPU queues, MSI-X per queue) against AHCI funnel / symmetric: "
                   "improvement over AHCI funnelled (1a), %, Table 1's grid" +
                   boots_title(n, paced_late(boots, "nvme0") is not None))
        out.append(not_repeatable(n, paced_late(boots, "nvme0"), runs_alike(boots, "nvme0")) +
                   " Each boot's NVMe runs are set against its own AHCI funnelled runs. "
                   "AHCI symmetric (1b, interrupts to the master) is Table 1's ahci0 row; "
                   "NVMe symmetric: every CPU submits on its own queue pair and takes its "
                   "completion on its own MSI-X vector; NVMe funnel: every read moves to "
                   "CPU 0 and uses CPU 0's queue and vector.")
        out.append(markdown("wait · against AHCI funnel · figure", ks,
                            nvme_rows(sources, ks, waits)))
    for records, elapsed in clocks:
        table = parallel.elapsed_table(records, elapsed)
        if table:
            out.append("### Table 1 in parallel elapsed time (cost model's per-vCPU clocks): "
                       "funnelled and symmetric, median of the reps, beside each mode's Σ work")
            out.append(table)
    table = counts_table([records for records, _ in boots])
    if table:
        out.append("### Where the reads completed and the interrupts went (iotest --counts, "
                   "summed over every K, wait and boot)")
        out.append("Counters of the device over each run (blk_ctl INFO before and after). "
                   "nvme0's queue vectors do not pass mpio's interrupt hook, so it counts no "
                   "interrupts; its completions per CPU say where they ran. Broadcast counts "
                   "an interrupt on every CPU it was relayed to; all but one lose the race. "
                   "Leftover: an MSI that arrived where the interrupt no longer points, for "
                   "completions already handled (its handler is not run); empty: a handler "
                   "that ran and completed nothing.")
        out.append(table)
    return "\n\n".join(out) + "\n"


# ---- running -----------------------------------------------------------

def run_benches() -> int:
    for words in (["bench", "mp", "--quiet", "--model", "modern"],
                  ["bench", "mp-disk", "--quiet", "--model", "modern"],
                  ["bench", "mp-tcg", "--quiet"]):
        code = subprocess.call([str(ROOT / "hako"), *words], cwd=ROOT)
        if code != 0:
            return code
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="hako paper 001 tables",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="run the benches first")
    ap.add_argument("--icount", type=Path, nargs="*", default=None,
                    help="icount result files (default: results/bench-mp.jsonl and "
                    "mp-disk's, one per boot)")
    ap.add_argument("--tcg", type=Path, nargs="*", default=None,
                    help="TCG result files, one per sitting (default: mp-tcg's)")
    args = ap.parse_args(argv)
    if args.run and run_benches() != 0:
        return 1
    icount = args.icount
    if icount is None:
        icount = [ROOT / "results/bench-mp.jsonl", *disk_files(ROOT / "results")]
    tcg_paths = args.tcg if args.tcg is not None else tcg_files(ROOT / "results")
    present = [p for p in icount if p.exists()]
    boots = [(load_records(p), load_model_vcpus(model_path(p))) for p in present]
    clocks = [(records, parallel.load_elapsed(model_path(p))) for p, (records, _) in zip(present, boots)]
    tcg = [load_records(p) for p in tcg_paths if p.exists()]
    if not boots and not tcg:
        print(f"paper 001 tables: no results ({', '.join(map(str, [*icount, *tcg_paths]))}); "
              "run with --run", file=sys.stderr)
        return 1
    sys.stdout.write(render(boots, tcg, clocks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
