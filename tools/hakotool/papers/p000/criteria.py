"""Paper 000 (interrupt packaging, Tender OS, Myrinet NIC): published numbers and criteria.

Hako's figures come from results/bench-intr.jsonl (`./hako bench intr`),
guest instructions under icount (1 instruction = 1 ns of guest time), the
paper's are µs on a Pentium II 450 MHz.  Only ratios within one machine
are compared, except Table 3's delay, whose size is set by the batch
period T, the same 10 ms in both.

When the same run was made with the cost model (`./hako bench intr --model
pentium2-450`: results/bench-intr.joined.jsonl from that run, its meta
record the result file's), Table 2's saving and break-even and Fig. 6's
loops are judged on the modelled figures (modelled.py: device register
accesses priced), the other checks on instructions.
"""
from __future__ import annotations

import math
from pathlib import Path

from ...results import load_meta, load_records
from ...verdict import Verdict, decide, fmt, holds, ran, same_experiment, size
from . import modelled, triggers

# Table 2, µs: (phase, packed, sequential); "—" where the paper has none.
TABLE2 = (("registration s", "2.80", "—"), ("pre-processing t1", "3.00", "3.00"),
          ("main handler t2", "16.17", "16.77"), ("post-processing t3", "1.82", "1.82"))
PUBLISHED = {
    "s": 2.80, "t1": 3.00, "t2_pack": 16.17, "t2_seq": 16.77, "t3": 1.82,
    "total_pack_per_n": 18.97, "total_pack_const": 2.02, "total_seq_per_n": 21.59,
    "total_pack_n10": 191.7, "total_seq_n10": 215.9,
    "breakeven_n": 1.25,
    # Table 3: average delay, µs, packed at N = 10, T = 10 ms; sequential.
    "delay_packed_us": 4592.0, "delay_seq_us": 19.77, "delay_n": 10, "delay_t_ms": 10,
    "delay_per_n_us": 8.09, "delay_const_us": 11.09,
    # Fig. 6: loops in 1 s with 10 interrupts per 10 ms; no I/O.
    "fig6_packed": 394000, "fig6_seq": 372000, "fig6_none": 532000, "fig6_k": 10,
    "fig6_model_gain_pct": 0.3,
}
# Table 3: the measured delays must follow the paper's model within this
# fraction wherever a batch holds more than one interrupt.
DELAY_MODEL_TOLERANCE = 0.05
NS_PER_INSN = 1        # icount shift 0: one instruction is one ns of guest time


def saving_pct(seq: float, packed: float) -> float:
    return 100.0 * (seq - packed) / seq


def figures(results: Path) -> dict:
    """The measured figures the criteria read, from bench-intr.jsonl."""
    path = results / "bench-intr.jsonl"
    recs = load_records(path) if path.is_file() else []
    f: dict = {}
    phases = next((r for r in recs if r.get("kind") == "intr-phases"), None)
    if phases:
        f["phases"] = phases
    f["totals"] = {r["n"]: r for r in recs if r.get("kind") == "intr-total"}
    brk = next((r for r in recs if r.get("kind") == "intr-breakeven"), None)
    if brk:
        f["breakeven_n"] = brk["measured_n"]
    f["delays"] = [r for r in recs if r.get("kind") == "intr-delay"]
    inter = [r for r in recs if r.get("kind") == "intr-interference"]
    f["none"] = next((r["loops"] for r in inter if r["mode"] == "none"), None)
    f["loops"] = {m: {r["k"]: r["loops"] for r in inter if r["mode"] == m}
                  for m in ("sequential", "packed")}
    f.update(triggers.figures(recs))
    joined = results / "bench-intr.joined.jsonl"
    if recs and joined.is_file() and load_meta(joined) == load_meta(path):
        jrecs = load_records(joined)
        m = modelled.figures(jrecs)
        if m and "error" not in m:
            f["modelled"] = m
        g = modelled.grouping(jrecs)
        if g:
            f["modelled_grouping"] = g
    return f


def table2(f: dict, pub: dict = PUBLISHED) -> Verdict:
    """Table 2: one interrupt's phases and the total for N.
    Reproduced: packing saves at N = 10 within ×2 of the paper's saving
    (main); the registration costs less than the pre- and post-processing it
    replaces (the paper's condition s < t1 + t3) and its share of them is
    within ×2 of the paper's; the main handler is shorter packed, by a
    share within ×2 of the paper's; packing wins from N = ceil(break-even)."""
    title = "Table 2: one interrupt's phases, total for N"
    p, n10 = f.get("phases"), f.get("totals", {}).get(10)
    if not p or not n10:
        return decide("000 T2", title, [ran("intrbench's phases", False,
                                            "no intr-phases or N = 10 record in bench-intr.jsonl")])
    paper_saving = saving_pct(pub["total_seq_n10"], pub["total_pack_n10"])
    pre_post = p["t1_seq"] + p["t3_seq"]
    brk = math.ceil(pub["breakeven_n"])
    m = f.get("modelled")
    saving = n10["saving_permille"] / 10 if "saving_permille" in n10 \
        else saving_pct(n10["seq_measured"], n10["packed_measured"])
    breakeven = f.get("breakeven_n", brk + 1)
    unit = ""
    if m:
        saving, breakeven = m["totals"][10]["saving_pct"], m["breakeven_n"]
        unit = f" in modelled cycles ({m['profile']})"
    shown = (breakeven if breakeven <= modelled.N_MAX else "—") if m else f.get("breakeven_n", "—")
    checks = [
        ran("intrbench's phases", True, ""),
        size(f"saving at N = 10{unit}", saving, paper_saving, main=True, unit=" %"),
        holds("s < t1 + t3", p["s"] < pre_post,
              f"s = {fmt(p['s'])} against t1 + t3 = {fmt(pre_post)}"),
        size("registration's share of t1 + t3", p["s"] / pre_post,
             pub["s"] / (pub["t1"] + pub["t3"])),
        size("main handler shortened by packing", saving_pct(p["t2_seq"], p["t2_pack"]),
             saving_pct(pub["t2_seq"], pub["t2_pack"]), unit=" %"),
        holds(f"packing wins from N = {brk}", breakeven <= brk,
              f"break-even N = {shown} measured{unit}, the paper's {fmt(pub['breakeven_n'])}"),
    ]
    return decide("000 T2", title, checks)


def table3(f: dict, pub: dict = PUBLISHED) -> Verdict:
    """Table 3: average delay from an interrupt to the end of its main handler.
    Reproduced: packed at the paper's N and T, the delay is within ×2 of the
    paper's (main: the batch's wait dominates it); the sequential delay is
    below the packed one; every packed delay with more than one interrupt a
    batch follows the paper's model within DELAY_MODEL_TOLERANCE."""
    title = "Table 3: average delay, packed against sequential"
    t_ns = pub["delay_t_ms"] * 1_000_000
    delays = f.get("delays", [])
    packed = next((r for r in delays if r["mode"] == "packed" and r["n"] == pub["delay_n"]
                   and r["t_ns"] == t_ns), None)
    seq = next((r for r in delays if r["mode"] == "sequential" and r["t_ns"] == t_ns), None)
    if not packed or not seq:
        return decide("000 T3", title, [ran("intrbench's delays", False,
                                            "no packed N = 10, T = 10 ms or sequential delay")])
    fits = [abs(r["measured"] - r["model"]) / r["model"] for r in delays
            if r["mode"] == "packed" and r["n"] > 1]
    worst = max(fits) if fits else 1.0
    checks = [
        ran("intrbench's delays", True, ""),
        size(f"packed delay at N = {pub['delay_n']}, T = {pub['delay_t_ms']} ms",
             packed["measured"] * NS_PER_INSN / 1000, pub["delay_packed_us"], main=True,
             unit=" µs"),
        holds("sequential delay below packed", seq["measured"] < packed["measured"],
              f"sequential {fmt(seq['measured'])} against packed {fmt(packed['measured'])} "
              "instructions"),
        holds(f"packed delays follow the model within {DELAY_MODEL_TOLERANCE:.0%}",
              worst <= DELAY_MODEL_TOLERANCE,
              f"largest departure from the model {100 * worst:.1f} %"),
    ]
    return decide("000 T3", title, checks)


def fig6(f: dict, pub: dict = PUBLISHED) -> Verdict:
    """Fig. 6: a compute process's loops while the NIC interrupts.
    Reproduced: at the paper's k, packed handling leaves the loop a gain over
    sequential within ×2 of the paper's (main); packed is ahead at every
    k >= 2; the I/O's share of the loop's time (no I/O against sequential)
    is within ×2 of the paper's."""
    title = "Fig. 6: interference with a compute process"
    k = pub["fig6_k"]
    seq, packed, none = f.get("loops", {}).get("sequential", {}), \
        f.get("loops", {}).get("packed", {}), f.get("none")
    unit = ""
    if f.get("modelled"):
        seq, packed, none = modelled.fig6_loops(f["modelled"])
        unit = f" in modelled cycles ({f['modelled']['profile']})"
    if k not in seq or k not in packed or not none:
        return decide("000 Fig. 6", title, [ran("intrbench's interference", False,
                                                f"no k = {k} or no-I/O record")])
    behind = [j for j in sorted(seq) if j >= 2 and packed.get(j, 0) < seq[j]]
    checks = [
        ran("intrbench's interference", True, ""),
        size(f"gain of packed over sequential at k = {k}{unit}", 100 * (packed[k] - seq[k]) / seq[k],
             100 * (pub["fig6_packed"] - pub["fig6_seq"]) / pub["fig6_seq"], main=True,
             unit=" %"),
        holds("packed ahead at every k >= 2", not behind,
              f"behind at k = {', '.join(map(str, behind))}" if behind else ""),
        size(f"the I/O's share of the loop's time at k = {k}{unit}", 100 * (none - seq[k]) / none,
             100 * (pub["fig6_none"] - pub["fig6_seq"]) / pub["fig6_none"], unit=" %"),
    ]
    return decide("000 Fig. 6", title, checks)


def _part_runs(f: dict, part: str, names: tuple, result: str, title: str):
    """The part's runs in the order of names, or the "not run" verdict."""
    got = f.get(part, {})
    if all(n in got for n in names):
        return [got[n] for n in names], None
    return None, decide(result, title, [ran(f"intrbench's {part} part", False,
                                            f"no intr-{part} records for {', '.join(names)}")],
                        measured=False)


def grouping(f: dict) -> Verdict:
    """Section 3.3: a batch runs the main handlers grouped by device type, in
    arrival order within a type, so that same-type handlers run back to back.
    The paper gives no figure for it alone (it credits the cache for Fig. 6's
    gain beyond its model).  Reproduced: batches held more than one type (the
    experiment); grouped, each batch ran one stretch per type it held, and
    ungrouped more (main: the mechanism shown, computed from the kernel's
    counts); packed cheaper per interrupt than sequential; grouped no dearer
    per interrupt than the same batches ungrouped (the paper's direction)."""
    title = "Grouping main handlers by device type (section 3.3)"
    runs, missing = _part_runs(f, "grouping", triggers.GROUP_MODES, "000 grouping", title)
    if missing:
        return missing
    seq, grp, ung = runs
    checks = [
        ran("intrbench's grouping part", True, ""),
        same_experiment("batches hold more than one device type",
                        grp["mixed"] > 0 and ung["mixed"] > 0,
                        f"{grp['mixed']} of {grp['batches']} batches held two types"),
        holds("mechanism shown: one stretch of handlers per type grouped, more ungrouped",
              grp["runs"] == grp["type_slots"] and ung["runs"] > ung["type_slots"],
              f"grouped {grp['runs']} stretches for {grp['type_slots']} types in batches, "
              f"ungrouped {ung['runs']} for {ung['type_slots']}", main=True),
        holds("packed cheaper per interrupt than sequential",
              grp["per_interrupt"] < seq["per_interrupt"],
              f"{fmt(grp['per_interrupt'])} against {fmt(seq['per_interrupt'])} instructions"),
        _no_dearer(f, grp, ung),
    ]
    return decide("000 grouping", title, checks, measured=False)


def _no_dearer(f: dict, grp: dict, ung: dict):
    """Grouped against ungrouped per interrupt: in modelled cycles (caches
    included, CPU 1's whole work) when the run had the cost model, else in
    the probe's instructions."""
    m = f.get("modelled_grouping")
    if m:
        a, b, unit = m["grouped"]["cycles"], m["ungrouped"]["cycles"], \
            f"modelled cycles ({m['profile']})"
    else:
        a, b, unit = grp["per_interrupt"], ung["per_interrupt"], "instructions"
    return holds("grouped no dearer per interrupt than ungrouped", a <= b,
                 f"{fmt(a)} against {fmt(b)} {unit}")


def urgent(f: dict) -> Verdict:
    """Trigger (3), section 2.1: an interrupt that must be handled sequentially
    starts the batch.  The paper gives no figure.  Reproduced: batches ended by
    the urgent trigger with a sequential source beside the packed one, and by
    none without one or with the same interrupts packed (main: the mechanism
    shown, computed from the kernel's by_urgent counts); the packed entries
    wait less with the urgent interrupts than without (the direction)."""
    title = "Trigger (3): an interrupt handled sequentially starts the batch"
    runs, missing = _part_runs(f, "urgent", triggers.URGENT_CASES, "000 urgent", title)
    if missing:
        return missing
    closed, packed, urg = runs
    checks = [
        ran("intrbench's urgent part", True, ""),
        holds("mechanism shown: batches end by the urgent trigger only beside a sequential source",
              urg["by_urgent"] > 0 and closed["by_urgent"] == 0 and packed["by_urgent"] == 0,
              f"by urgent {urg['by_urgent']} of {urg['batches']} batches; "
              f"{closed['by_urgent']} with the e1000 masked, {packed['by_urgent']} packed beside",
              main=True),
        holds("the packed entries wait less with urgent interrupts",
              urg["delay"] < closed["delay"],
              f"mean delay {fmt(urg['delay'])} against {fmt(closed['delay'])} instructions"),
    ]
    return decide("000 urgent", title, checks, measured=False)


# A batch the T timer starts begins after the timer's interrupt entry and
# exit (about 400-700 instructions measured); the wait may pass T by this.
T_SLACK_NS = 10_000


def time_trigger(f: dict) -> Verdict:
    """Trigger (2), section 2.1: a batch when a registered interrupt has waited
    T unprocessed (a real-time device needs the wait at most T).  The paper
    gives no figure.  Reproduced: with N never reached, every batch ended by T
    (main: the mechanism shown, from the kernel's by_t counts); no entry waited
    longer than T (+ T_SLACK_NS for the timer's own interrupt); the mean delay
    added to sequential handling is at most T; it grows with T."""
    title = "Trigger (2): time T since an interrupt was left unprocessed"
    rows, seq = f.get("time", []), f.get("time_seq")
    if len(rows) < 2 or not seq:
        return decide("000 T trigger", title,
                      [ran("intrbench's time part", False,
                           "no sequential and two packed intr-time records")], measured=False)
    by_t = [r for r in rows if r["batches"] and r["by_t"] == r["batches"]]
    worst = max(rows, key=lambda r: r["wait_max"] - r["t_ns"])
    added = max(rows, key=lambda r: (r["delay"] - seq["delay"]) / r["t_ns"])
    delays = [r["delay"] for r in rows]
    checks = [
        ran("intrbench's time part", True, ""),
        holds("mechanism shown: every batch ended by T", len(by_t) == len(rows),
              f"{len(by_t)} of {len(rows)} runs (T = "
              f"{', '.join(str(r['t_ns'] // 1000) for r in rows)} µs)", main=True),
        holds("no entry waited longer than T", worst["wait_max"] <= worst["t_ns"] + T_SLACK_NS,
              f"longest wait {fmt(worst['wait_max'])} at T = {fmt(worst['t_ns'])} instructions"),
        holds("added mean delay at most T",
              added["delay"] - seq["delay"] <= added["t_ns"],
              f"{fmt(added['delay'] - seq['delay'])} at T = {fmt(added['t_ns'])} instructions"),
        holds("the delay grows with T", delays == sorted(delays) and len(set(delays)) == len(delays),
              f"mean delays {', '.join(fmt(d) for d in delays)}"),
    ]
    return decide("000 T trigger", title, checks, measured=False)


CRITERIA = (table2, table3, fig6, grouping, urgent, time_trigger)


def verdicts(results: Path) -> list[Verdict]:
    f = figures(results)
    return [criterion(f) for criterion in CRITERIA]
