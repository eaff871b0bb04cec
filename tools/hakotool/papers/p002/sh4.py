"""Paper 002 on the SH-4: the tables of `./hako bench ispc --arch sh4`.

On the SH-4 the TLB is loaded by the kernel's miss handler, which counts
every miss it serves; ispcbench prints, beside each region's figure (guest
instructions under icount, median), a "bench-tlb" line with the region's
misses and iterations.  A run with the cost model (`./hako bench ispc --arch
sh4 --model sh7751r`, its join kept as results/JOINED_FILE) adds each
region's modelled cycles per operation (the SH7751R's caches and memory,
tools/costmodel/profiles/sh7751r.profile), which the tables show beside
the instructions when the records carry them, and Table 2 also as µs at
the SH7751R's 240 MHz.  The report's verdicts judge those cycles when the
join is the same experiment as results/RESULT_FILE (load_join: the same
commit, image and command line), else the instructions.  Baseline mode
refills all 64 UTLB entries; fast mode is paper 002's method
(kernel/arch/sh4/utlb.c: 32 general entries, 8 reserved 1 MiB entries for
the servers' ICAs, 24 reserved 4 KiB entries for the applications', loaded
at paste).  The tables put the two modes side by side, before -> after,
as the paper's Table 2, Fig. 8 and Fig. 9 do, with the paper's
microseconds (SH-4, 240 MHz) beside them, and the x86 figures of
results/bench-ispc.jsonl when that file is there.

    ./hako paper 002 sh4 [FILE]     the tables of FILE (results/bench-ispc-sh4.jsonl)

Everything is a pure function of the records (tests/harness/test_ispc_sh4.py).
"""
from __future__ import annotations

import dataclasses

import argparse
import sys
from pathlib import Path

from ...model import CLOCK_MHZ
from ...paths import repo_root
from ...results import load_meta, load_records, same_experiment_run
from ...verdict import Verdict, decide, holds, ran
from . import criteria
from .criteria import INSNS, PAPER_FIG8, PAPER_FIG9_SAVING, PAPER_T2
from .tables import F8_ROWS, MODES, T2_ROWS, name_of, num, pct, table

RESULT_FILE = "bench-ispc-sh4.jsonl"
X86_FILE = "bench-ispc.jsonl"
# The cost model's profile of the r2d's SH7751R, and the report's copy of its join.
SH4_PROFILE = "sh7751r"
JOINED_FILE = f"bench-ispc-sh4-{SH4_PROFILE}.joined.jsonl"


# The classes of address a miss is counted in ("bench-tlb-class" lines,
# uapi/hako_perf.h's HAKO_TLB_MISS_*).
MISS_CLASSES = ("code", "stack", "data", "ica", "kernel")
# switch.c's working sets (pages the application touches between requests).
SWITCH_WS = (0, 8, 16, 24, 32, 48)
# The process switch the way the paper measured it: between an application
# and a server in ISPC traffic, the benchmark's own processes (no pages
# touched besides their own): what Table 2's SH-4 row judges when present.
SWITCH_IN_TRAFFIC = "switch_ispc_w0"


def load_join(results: Path) -> list[dict] | None:
    """The records of results/JOINED_FILE when its run is the same experiment
    as results/RESULT_FILE's (results.same_experiment_run: the same commit,
    image, initrd, machine and command line), else None."""
    path, joined = results / RESULT_FILE, results / JOINED_FILE
    if not path.is_file() or not joined.is_file():
        return None
    if not same_experiment_run(load_meta(path), load_meta(joined)):
        return None
    return load_records(joined)


class Sh4Figures:
    """Medians (instructions), TLB misses per operation and, in a cost-model
    join, modelled cycles per operation, by figure name.  JOINED: the
    modelled figures' records when they are another file's (load_join),
    else RECORDS' own."""

    def __init__(self, records: list[dict], joined: list[dict] | None = None):
        self.median = {r["name"]: r["median"] for r in records
                       if r.get("kind") == "bench" and "name" in r}
        modelled = [r for r in (records if joined is None else joined)
                    if r.get("kind") == "bench" and "name" in r
                    and (r.get("model") or {}).get("per_iter")]
        self.model = {r["name"]: r["model"]["per_iter"] for r in modelled}
        self.profile = str(modelled[0]["model"].get("profile", "")) if modelled else ""
        self.per_op = {r["name"]: r["misses"] / r["iters"] for r in records
                       if r.get("kind") == "bench-tlb" and r.get("iters")}
        self.by_class = {r["name"]: {c: r.get(c, 0) / r["iters"] for c in MISS_CLASSES}
                         for r in records if r.get("kind") == "bench-tlb-class" and r.get("iters")}

    def insns(self, name: str):
        return self.median.get(name)

    def misses(self, name: str):
        return self.per_op.get(name)

    def cycles(self, name: str):
        """Modelled cycles per operation (the region's mean), None without a join."""
        return (self.model.get(name) or {}).get("cycles")

    def switch_added_cycles(self, w: int, mode: str):
        """What a switch adds in modelled cycles (one way less alone), or None."""
        a, b = self.cycles(f"switch_ispc_w{w}_{mode}"), self.cycles(f"switch_alone_w{w}_{mode}")
        return None if a is None or b is None else a - b

    def switch_parts(self, w: int, mode: str) -> dict | None:
        """What a switch adds in modelled cycles (one way less alone, per
        operation) by where they go (SWITCH_PARTS), from the plugin's
        counters; None without a join that has them (an older plugin's)."""
        a = self.model.get(f"switch_ispc_w{w}_{mode}")
        b = self.model.get(f"switch_alone_w{w}_{mode}")
        if not a or not b or any(a.get(k) is None or b.get(k) is None for k in PART_COUNTERS):
            return None
        d = {k: a[k] - b[k] for k in PART_COUNTERS}
        parts = {
            "handler": d["handler_cycles"],
            "icache": d["l1i_cycles"] - d["handler_l1i_cycles"],
            "ocache": (d["mem_cycles"] - d["l1i_cycles"])
            - (d["handler_mem_cycles"] - d["handler_l1i_cycles"]),
            "issue": (d["insns"] - d["paired"]) - (d["handler_insns"] - d["handler_paired"]),
        }
        parts["other"] = d["cycles"] - sum(parts.values())
        return {"cycles": d["cycles"], **parts, "handler_insns": d["handler_insns"],
                "paired": d["paired"]}

    def switch_added(self, w: int, mode: str):
        """What a switch adds in ISPC traffic with W pages (switch.c): one way
        less the same calls and pages without a switch, (insns, misses per
        switch, {class: misses per switch}); None without the figures."""
        name, alone = f"switch_ispc_w{w}_{mode}", f"switch_alone_w{w}_{mode}"
        a, b = self.insns(name), self.insns(alone)
        ma, mb = self.misses(name), self.misses(alone)
        ca, cb = self.by_class.get(name), self.by_class.get(alone)
        if None in (a, b, ma, mb) or not ca or not cb:
            return None
        return a - b, ma - mb, {c: ca[c] - cb[c] for c in MISS_CLASSES}


# The plugin's counters a switch's cycles are split by (tools/costmodel/model.h).
PART_COUNTERS = ("cycles", "insns", "paired", "mem_cycles", "l1i_cycles", "handler_insns",
                 "handler_paired", "handler_cycles", "handler_l1i_cycles", "handler_mem_cycles")
# Where a switch's modelled cycles go (Sh4Figures.switch_parts), as the table names them.
SWITCH_PARTS = (("handler", "TLB-miss handler"), ("icache", "I-cache misses"),
                ("ocache", "operand-cache misses"), ("issue", "instructions issued"),
                ("other", "ITLB refills, registers"))


def one_way(name: str) -> bool:
    """A figure of half a ping-pong (its region counts two operations per
    pair of clock reads): the process switch, alone or in ISPC traffic."""
    return name.startswith(("process_switch", "switch_ispc", "switch_alone"))


def without_clock(get, name: str):
    """GET(name) less GET of its mode's clock (half of it for a one-way
    figure); None without both."""
    value, clock = get(name), get(f"clock_{name.rsplit('_', 1)[-1]}")
    if value is None or clock is None:
        return None
    return value - (clock / 2 if one_way(name) else clock)


class Judged:
    """Sh4Figures as the paper's criteria (criteria.py) read figures: each one
    less the two clock reads it includes (half of them for the one-way
    process switch, half a ping-pong), in instructions (insns(): less the
    clock's span) and in modelled cycles (cycles(): less the clock region's
    cycles, which hold the two reads whole as every region does).  The
    process switch is the one in ISPC traffic (SWITCH_IN_TRAFFIC, the
    paper's setting) where the records have it, else the ping-pong alone.

    CYCLES: the criteria judge the cycles (PROFILE is the join's profile),
    else the instructions (PROFILE is criteria.INSNS); modelled() answers
    for PROFILE only, so Fig. 8's figures without a region fall back to
    insns() as on x86.  UNIT names the judged figures in the verdicts."""

    def __init__(self, f: Sh4Figures, cycles: bool = False):
        self.f = f
        self.judges_cycles = cycles and all(f.cycles(f"clock_{m}") is not None for m in MODES)
        self.profile = f.profile if self.judges_cycles else INSNS
        self.unit = criteria.unit_of(self.profile)

    def less_clock(self, get, name: str):
        """GET(name) less the clock, as the class says; None without both."""
        mode = name.rsplit("_", 1)[-1]
        if name.startswith("process_switch") and get(f"{SWITCH_IN_TRAFFIC}_{mode}") is not None:
            name = f"{SWITCH_IN_TRAFFIC}_{mode}"         # the switch in ISPC traffic
        return without_clock(get, name)

    def insns(self, name: str):
        return self.less_clock(self.f.insns, name)

    def cycles(self, name: str):
        return self.less_clock(self.f.cycles, name)

    def modelled(self, profile: str, name: str, counter: str = "cycles"):
        if profile != self.profile:
            return None
        return self.cycles(name) if self.judges_cycles else self.insns(name)


def misses(value) -> str:
    return num(value, 2)


def table2(f: Sh4Figures, x86: dict[str, int] | None = None) -> list[str]:
    """The partial operations, before -> after, instructions and misses."""
    header = ["operation", "side", "insns before", "insns after", "change",
              "TLB misses before", "TLB misses after"]
    cyc = CycleCells(f)
    header += cyc.header("cycles before", "cycles after", "change")
    if x86:
        header += ["x86 insns before", "x86 insns after"]
    header += cyc.micro_header() + ["paper before (µs)", "paper after (µs)", "paper change"]
    clock = [f.insns(f"clock_{m}") for m in MODES]
    rows = [["two clock reads (in every row)", "application", num(clock[0]), num(clock[1]),
             change_cell(*clock), "-", "-"] + cyc.pair([f"clock_{m}" for m in MODES]) +
            (["-", "-"] if x86 else []) + cyc.micro(()) + ["", "", ""]]
    for label, base, side, paper_col in T2_ROWS:
        names = [name_of(base, side, m) for m in MODES]
        ins = [f.insns(n) for n in names]
        row = [label, side or "application", num(ins[0]), num(ins[1]),
               change_cell(ins[0], ins[1]), misses(f.misses(names[0])), misses(f.misses(names[1]))]
        row += cyc.pair(names)
        if x86:
            row += [num(x86.get(n)) for n in names]
        row += cyc.micro(names)
        before, server, app = PAPER_T2[base]
        after = {None: server, 1: server, 2: app}[paper_col]
        row += [f"{before}", f"{after}", change_cell(before, after)]
        rows.append(row)
    names = [f"{SWITCH_IN_TRAFFIC}_{m}" for m in MODES]
    ins = [f.insns(n) for n in names]
    if ins != [None, None]:
        before, _, after = PAPER_T2["process_switch"]
        rows.append(["process switch in ISPC traffic (one way)", "application", num(ins[0]),
                     num(ins[1]), change_cell(ins[0], ins[1]), misses(f.misses(names[0])),
                     misses(f.misses(names[1]))] + cyc.pair(names) + (["-", "-"] if x86 else []) +
                    cyc.micro(names) + [f"{before}", f"{after}", change_cell(before, after)])
    return table(header, rows) + cyc.micro_note()


def switch_curve(f: Sh4Figures) -> list[str]:
    """The process switch in ISPC traffic by the application's working set:
    per mode one way (half a ping-pong, then the pages) and what a switch
    adds to the same calls and pages without one, in instructions and TLB
    misses, and the added misses by class of address."""
    header = ["pages touched"]
    cyc = CycleCells(f)
    for mode in MODES:
        header += [f"{mode}: one way", "added by a switch", "misses per switch"]
        header += cyc.header("cycles added")
    header += ["misses per switch by class (baseline -> fast)"]
    rows = []
    for w in SWITCH_WS:
        added = [f.switch_added(w, m) for m in MODES]
        if added == [None, None]:
            continue
        cells = [str(w)]
        for mode, a in zip(MODES, added):
            cells += [num(f.insns(f"switch_ispc_w{w}_{mode}"))] + \
                ([num(a[0]), misses(a[1])] if a else ["-", "-"])
            if cyc.on:
                cells.append(num(f.switch_added_cycles(w, mode)))
        cells.append(", ".join(f"{c} {misses(added[0][2][c]) if added[0] else '-'} -> "
                               f"{misses(added[1][2][c]) if added[1] else '-'}"
                               for c in MISS_CLASSES))
        rows.append(cells)
    if not rows:
        return []
    return table(header, rows) + ["", "One way: half of (post, wait, touch the pages) between "
                                      "the application and its server, after a request with a "
                                      "control and a 4 KiB data ICA; added: less the same calls "
                                      "and pages without a switch. The paper: 8.3 -> 5.8 µs "
                                      "(-30 %), from fewer TLB misses."] + cyc.note()


def switch_attribution(f: Sh4Figures) -> list[str]:
    """Where the cycles a switch adds go, per working set and mode, and the
    change from baseline to fast: the TLB-miss handler's code (its
    instructions and its own cache misses and register accesses), the
    instruction- and operand-cache misses of everything else, the
    instructions issued (pairs issued in one cycle count once), and the
    rest (ITLB refills from the UTLB, device registers)."""
    header = ["pages touched", "mode", f"{f.profile} cycles added"] + \
        [label for _, label in SWITCH_PARTS] + ["handler insns", "pairs"]
    rows = []
    for w in SWITCH_WS:
        parts = [f.switch_parts(w, m) for m in MODES]
        if None in parts:
            continue
        for mode, p in zip(MODES, parts):
            rows.append([str(w), mode, num(p["cycles"])] + [num(p[k]) for k, _ in SWITCH_PARTS] +
                        [num(p["handler_insns"]), num(p["paired"])])
        base, fast = parts
        rows.append([str(w), "fast - baseline", signed(fast["cycles"] - base["cycles"])] +
                    [signed(fast[k] - base[k]) for k, _ in SWITCH_PARTS] +
                    [signed(fast["handler_insns"] - base["handler_insns"]),
                     signed(fast["paired"] - base["paired"])])
    if not rows:
        return []
    return table(header, rows) + ["", "Cycles per switch, one way less the same calls and pages "
                                      "without a switch (as the column \"cycles added\" above); "
                                      "the parts add up to it. TLB-miss handler: everything its "
                                      "code (VBR + 0x400 up to the fault path) costs, its cache "
                                      "misses and register accesses included; the cache columns: "
                                      "the misses of all other code."]


def signed(value) -> str:
    """A change, signed, rounded to a whole cycle or instruction."""
    return "-" if value is None else f"{value:+,.0f}"


class CycleCells:
    """The modelled-cycle columns of a table, present only when the figures
    come from a cost-model join (Sh4Figures.model)."""

    def __init__(self, f: Sh4Figures):
        self.f, self.on = f, bool(f.model)

    def header(self, *labels: str) -> list[str]:
        """LABELS, the first naming the profile, or none without a join."""
        if not self.on:
            return []
        return [f"{self.f.profile} {labels[0]}", *labels[1:]]

    def pair(self, names, saved: bool = False) -> list[str]:
        """Cycles of the two modes' NAMES and their change (SAVED: as a saving)."""
        if not self.on:
            return []
        c = [self.f.cycles(n) for n in names]
        return [num(c[0]), num(c[1]), pct(*c) if saved else change_cell(*c)]

    def note(self) -> list[str]:
        return [f"Cycles: the cost model's `{self.f.profile}` cycles per operation (the "
                "region's mean, two clock reads included)."] if self.on else []

    def mhz(self):
        """The profile's clock (model.CLOCK_MHZ), None without a join or a known clock."""
        return CLOCK_MHZ.get(self.f.profile) if self.on else None

    def micro_header(self) -> list[str]:
        return [f"{self.f.profile} µs before", "µs after"] if self.mhz() else []

    def micro(self, names) -> list[str]:
        """The cycles of the two modes' NAMES less the clock's, as µs at the
        profile's clock (the paper's unit; "-" for no NAMES)."""
        mhz = self.mhz()
        if not mhz:
            return []
        if not names:
            return ["-", "-"]
        return [num(None if c is None else c / mhz, 1)
                for c in (without_clock(self.f.cycles, n) for n in names)]

    def micro_note(self) -> list[str]:
        mhz = self.mhz()
        return ["", f"µs: the `{self.f.profile}` cycles less the clock row's (half of them for "
                f"the one-way switch) at {mhz} MHz, the paper's SH-4 clock."] if mhz else []


def change_cell(before, after) -> str:
    """after against before, signed %."""
    if before in (None, 0) or after is None:
        return "-"
    return f"{100.0 * (after - before) / before:+.1f} %"


def fig8(f: Sh4Figures) -> list[str]:
    """The basic operations, before -> after; misses for those with a region."""
    cyc = CycleCells(f)
    header = ["operation", "data", "side", "insns before", "insns after", "saved",
              "TLB misses before", "TLB misses after"] + \
        cyc.header("cycles before", "cycles after", "saved") + ["paper saved"]
    rows = []
    for data in ("nodata", "4k"):
        for label, base, side in F8_ROWS:
            names = [f"{base}_{data}_{m}" for m in MODES]
            ins = [f.insns(n) for n in names]
            if ins == [None, None]:
                continue
            paper = PAPER_FIG8.get(base)
            rows.append([label, "4 KiB" if data == "4k" else "none", side, num(ins[0]),
                         num(ins[1]), pct(*ins), misses(f.misses(names[0])),
                         misses(f.misses(names[1]))] + cyc.pair(names, saved=True) +
                        [f"{paper[0]:.0f}-{paper[1]:.0f} %" if paper else ""])
    return table(header, rows)


def fig9(f: Sh4Figures) -> list[str]:
    """Direct against stepwise return through n servers, in each mode."""
    header = ["stages"]
    cyc = CycleCells(f)
    for mode in MODES:
        header += [f"{mode}: stepwise", "direct", "saved", "misses stepwise", "misses direct"]
        header += cyc.header("saved (cycles)")
    rows = []
    for n in range(1, 17):
        cells = [str(n)]
        found = False
        for mode in MODES:
            step, direct = f"relay_{n}_stepwise_{mode}", f"relay_{n}_direct_{mode}"
            s, d = f.insns(step), f.insns(direct)
            found = found or s is not None
            cells += [num(s), num(d), pct(s, d), misses(f.misses(step)), misses(f.misses(direct))]
            if cyc.on:
                cells.append(pct(f.cycles(step), f.cycles(direct)))
        if not found:
            break
        rows.append(cells)
    return table(header, rows) + ["", f"The paper: direct return saves about "
                                      f"{PAPER_FIG9_SAVING:.0f} % at every depth."]


def render(records: list[dict], x86: list[dict] | None = None) -> str:
    f = Sh4Figures(records)
    x86_median = Sh4Figures(x86).median if x86 else None
    out = ["Paper 002 on SH-4 (r2d, icount): before = baseline mode (the UTLB's 64 entries "
           "refilled by the miss handler), after = fast mode with the paper's UTLB partition. "
           "insns: guest instructions, median, with the span of two clock reads that every "
           "row includes (the clock is a system call on SH-4); TLB misses: served by the miss "
           "handler per operation, mean.", "",
           "Table 2: partial operations", ""]
    out += table2(f, x86_median)
    out += ["", "Fig. 8: basic operations", ""] + fig8(f)
    out += ["", "Fig. 9: direct against stepwise return", ""] + fig9(f)
    curve = switch_curve(f)
    if curve:
        out += ["", "Process switch in ISPC traffic, by the pages the application touches", ""]
        out += curve
    parts = switch_attribution(f)
    if parts:
        out += ["", "Where the cycles a switch adds go", ""] + parts
    return "\n".join(out).rstrip() + "\n"


# ---- verdicts (the report's SH-4 column) ---------------------------------

SH4_RESULTS = (("002 T2 SH-4", "Table 2 on SH-4: partial operations, baseline against the "
                "paper's UTLB partition"),
               ("002 Fig. 8 SH-4", "Fig. 8 on SH-4: request and result return"),
               ("002 Fig. 9 SH-4", "Fig. 9 on SH-4: direct against stepwise return"))


def relabel(v: Verdict, result: str, title: str, unit: str, extra=()) -> Verdict:
    """The x86 criterion's checks, judged again under the SH-4 result's
    name, its title saying what they judged (UNIT: "sh7751r cycles", "insns")."""
    return on_sh4(decide(result, f"{title} ({unit})", list(v.checks) + list(extra)))


def on_sh4(v: Verdict) -> Verdict:
    """A verdict of the same result measured on SH-4 (counted apart in the report)."""
    return dataclasses.replace(v, arch="sh4")


def first_access_checks(f: Sh4Figures) -> list:
    """The paper's method itself: a pasted ICA's first access misses before
    and not after, on both sides (main)."""
    checks = []
    for side, name in (("application", "first_access"), ("server", "first_access_server")):
        before, after = f.misses(f"{name}_baseline"), f.misses(f"{name}_fast")
        checks.append(holds(f"first access, {side}: its TLB miss gone",
                            before is not None and after is not None and before >= 0.5
                            and after < 0.05,
                            f"{misses(before)} -> {misses(after)} misses per access", main=True))
    return checks


def switch_checks(j: Judged) -> list:
    """The paper's reason for its faster switch: fewer TLB misses per switch
    in ISPC traffic with the partition (W 0, the benchmark's own processes)."""
    f = j.f
    base, fast = f.switch_added(0, "baseline"), f.switch_added(0, "fast")
    if not base or not fast:
        return []
    added = f"{num(base[0])} -> {num(fast[0])} insns"
    if j.judges_cycles:
        added += (f", {num(f.switch_added_cycles(0, 'baseline'))} -> "
                  f"{num(f.switch_added_cycles(0, 'fast'))} {j.unit}")
        parts = [f.switch_parts(0, m) for m in MODES]
        if None not in parts:
            added += " (" + ", ".join(f"{label} {signed(parts[1][k] - parts[0][k])}"
                                      for k, label in SWITCH_PARTS) + ")"
    return [holds("process switch in ISPC traffic: fewer TLB misses per switch",
                  fast[1] < base[1],
                  f"{misses(base[1])} -> {misses(fast[1])} misses per switch; a switch adds "
                  f"{added}")]


def verdicts(results: Path) -> list[Verdict]:
    """Table 2, Fig. 8 and Fig. 9 on SH-4, judged by paper 002's criteria on
    the figures less the clock (Judged): the SH7751R's modelled cycles when
    the same run's join is there (load_join; x86's judge the p4 cycles),
    else the instructions; Table 2 also on the misses."""
    path = results / RESULT_FILE
    f = Sh4Figures(load_records(path), load_join(results)) if path.is_file() else None
    if not f or f.insns("clock_baseline") is None or not f.per_op:
        why = (f"no results/{RESULT_FILE} with clock and TLB-miss lines "
               "(`./hako bench ispc --arch sh4`)")
        return [on_sh4(decide(r, t, [ran("ispcbench on SH-4", False, why)]))
                for r, t in SH4_RESULTS]
    j = Judged(f, cycles=True)
    (t2, t2_title), (f8, f8_title), (f9, f9_title) = SH4_RESULTS
    return [relabel(criteria.table2(j, profile=j.profile), t2, t2_title, j.unit,
                    first_access_checks(f) + switch_checks(j)),
            relabel(criteria.fig8(j, profile=j.profile), f8, f8_title, j.unit),
            relabel(criteria.fig9(j, profile=j.profile), f9, f9_title, j.unit)]


def report_lines(results: Path) -> list[str]:
    """The report's SH-4 part of paper 002 (report.py), from results/RESULT_FILE."""
    out = ["### On SH-4 — the paper's UTLB partition, literally", ""]
    path = results / RESULT_FILE
    if not path.is_file():
        return out + [f"Not run: `./hako bench ispc --arch sh4` writes results/{RESULT_FILE}.", ""]
    joined = load_join(results)              # the same run's figures with modelled cycles
    f = Sh4Figures(load_records(path), joined)
    judged = Judged(f, cycles=True)
    x86_path = results / X86_FILE
    x86 = Sh4Figures(load_records(x86_path)).median if x86_path.is_file() else None
    out += ["On QEMU's r2d (SH7751R, icount) the kernel loads the UTLB itself and counts every "
            "miss; *before* is baseline mode (all 64 entries refilled by the miss handler), "
            "*after* fast mode with the paper's partition: 32 general entries, 8 reserved 1 MiB "
            "entries for the servers' ICA windows and 24 reserved 4 KiB entries for the "
            "applications' ICAs, loaded at paste (kernel/arch/sh4/utlb.c). Every instruction "
            "figure includes two clock reads (the first row: the clock is a system call on "
            "SH-4), which the verdicts take off each figure. Run: `./hako bench ispc "
            "--arch sh4`; tables: `./hako paper 002 sh4`. The cycles are the cost model's "
            f"`{SH4_PROFILE}` profile (the SH7751R's 8 KiB and 16 KiB direct-mapped caches and "
            "4-entry ITLB, no L2, memory 28 cycles at 240 MHz; a UTLB miss is its handler's "
            f"instructions), from `./hako bench ispc --arch sh4 --model {SH4_PROFILE}` "
            f"(results/{JOINED_FILE}).", ""]
    if joined is None and (results / JOINED_FILE).is_file():
        out += [f"No cycles: results/{JOINED_FILE} is not the same experiment as "
                f"results/{RESULT_FILE} (another commit, image or command line).", ""]
    out += [f"The verdicts read the **{judged.unit}**"
            + (f" (as x86's read the `{criteria.JUDGED_PROFILE}` cycles), less the clock "
               f"row's: the cycles at {CLOCK_MHZ[SH4_PROFILE]} MHz are the closer analogue of "
               "the paper's µs, "
               "the cache misses of the miss handler and of the switch priced in them; Fig. "
               "8's asynchronous request, which has no region, in instructions."
               if judged.judges_cycles else
               f", less the clock's span (no `{SH4_PROFILE}` join of the same run with the "
               "clock's region)."), ""]
    out += ["Table 2 on SH-4", ""] + table2(f, x86) + [""]
    out += ["Fig. 8 on SH-4", ""] + fig8(f) + [""]
    out += ["Fig. 9 on SH-4", ""] + fig9(f) + [""]
    curve = switch_curve(f)
    if curve:
        out += ["Process switch in ISPC traffic on SH-4, by the pages the application touches "
                "between requests", ""] + curve + [""]
    parts = switch_attribution(f)
    if parts:
        out += ["Where the cycles a switch adds go on SH-4 (the cost model's counters)", ""] + \
            parts + [""]
    return out


def bench_table(boots) -> str:
    """The table of `./hako bench ispc --arch sh4` (hakotool.bench.Boots)."""
    x86_path = boots.results / X86_FILE
    x86 = load_records(x86_path) if x86_path.is_file() else None
    return render(boots.records, x86)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hako paper 002 sh4",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path,
                        default=repo_root() / "results" / RESULT_FILE)
    args = parser.parse_args(argv)
    if not args.file.is_file():
        print(f"paper 002 sh4: no {args.file}; run ./hako bench ispc --arch sh4", file=sys.stderr)
        return 1
    x86_path = args.file.parent / X86_FILE
    sys.stdout.write(render(load_records(args.file),
                            load_records(x86_path) if x86_path.is_file() else None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
