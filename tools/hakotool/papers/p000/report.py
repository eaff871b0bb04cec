"""Paper 000's section of the report: interrupt packaging, Tables 2 and 3, Fig. 6,
the grouping by type, the urgent and time triggers, and the adaptive mode.

Called by report.markdown() with the result folder, the plots dict it fills
and the paper's verdicts (criteria.py); returns the section's Markdown lines.
"""
from __future__ import annotations

from pathlib import Path

from ...reportkit import boot_of, draw, n, pct, read, status_block, table

def section(results: Path, figs: dict, v=()) -> list[str]:
    from .criteria import PUBLISHED as P, TABLE2, saving_pct
    recs = read(results, "bench-intr.jsonl")
    out = ["## Paper 000 — interrupt packaging (Tender OS, Myrinet NIC)", ""]
    phases = next((r for r in recs if r.get("kind") == "intr-phases"), None)
    if not phases:
        return out + status_block(v)
    out += status_block(v)
    out += [f"Mode: QEMU **icount**, {boot_of(recs)}, `--net hub` (the e1000 sends, the RTL8139 "
            "receives), minimum-size frames. Unit: **guest instructions** (the TSC runs at one "
            "tick per instruction, one per ns of guest time); the paper's unit is µs on a "
            "Pentium II. Run: `./hako bench intr`.", ""]
    p = phases
    t1p = p["t1_pack"] + p["copy"]
    seq = p["t1_seq"] + p["t2_seq"] + p["t3_seq"]
    const = t1p + p["t3_pack"] - p["s"]
    totals = {r["n"]: r for r in recs if r.get("kind") == "intr-total"}
    out += ["### Table 2 — one interrupt's phases (medians)", ""]
    rows = [("registration s", n(p["s"]), "—", *TABLE2[0][1:]),
            ("pre-processing t1", f"{n(p['t1_pack'])} + {n(p['copy'])} (volatile copy)",
             n(p["t1_seq"]), *TABLE2[1][1:]),
            ("main handler t2", n(p["t2_pack"]), n(p["t2_seq"]), *TABLE2[2][1:]),
            ("post-processing t3", n(p["t3_pack"]), n(p["t3_seq"]), *TABLE2[3][1:]),
            ("model total for N", f"{n(p['s'] + p['t2_pack'])} N + {n(const)}", f"{n(seq)} N",
             f"{P['total_pack_per_n']} N + {P['total_pack_const']}", f"{P['total_seq_per_n']} N")]
    paper_saving = saving_pct(P["total_seq_n10"], P["total_pack_n10"])
    t = totals.get(10)
    if t:
        rows.append(("N = 10, measured", n(t["packed_measured"]),
                     f"{n(t['seq_measured'])} (−{t['saving_permille'] / 10:.1f} %)",
                     f"{P['total_pack_n10']} (model)",
                     f"{P['total_seq_n10']} (−{paper_saving:.1f} %)"))
    out += table(("phase", "Hako packed (insns)", "Hako sequential (insns)",
                  "paper packed (µs)", "paper sequential (µs)"), rows) + [""]
    brk = next((r for r in recs if r.get("kind") == "intr-breakeven"), None)
    pre_post = p["t1_seq"] + p["t3_seq"]
    bullets = [f"* s = {n(p['s'])} {'<' if p['s'] < pre_post else '≥'} t1 + t3 = {n(pre_post)} "
               "(sequential), the paper's condition for a saving."]
    if t:
        hako_saving = t["saving_permille"] / 10
        bullets.append(
            f"* The saving at N = 10 is {hako_saving:.1f} %, the paper's {paper_saving:.1f} %."
            + (" Under icount a device register access costs one instruction, while the "
               "paper's PCI accesses were slow; what packing removes here is the full trap "
               "entry, the I/O APIC mask change and its lock, which are instructions."
               if hako_saving > paper_saving else ""))
    bullets += [f"* Main handler {n(p['t2_seq'] - p['t2_pack'])} instructions shorter packed "
                f"({pct(p['t2_seq'] - p['t2_pack'], p['t2_seq'])}; the paper's "
                f"{saving_pct(P['t2_seq'], P['t2_pack']):.1f} %), for the paper's first reason: "
                "the volatile data (the ISR read and write-back) was copied at registration. "
                "Its second, the cache, cannot show in instructions.",
                (f"* Break-even N: {brk['model_n_x100'] / 100:.2f} by the model, "
                 f"{brk['measured_n']} measured (paper: {P['breakeven_n']}); a batch of one pays "
                 "the batch loop the model does not count." if brk else "* Break-even: no record."),
                ""]
    out += bullets
    out += ["Total cost of N interrupts (instructions):", ""]
    out += table(("N", "sequential measured", "model", "packed measured", "model", "saving"),
                 [(k, n(t["seq_measured"]), n(t["seq_model"]), n(t["packed_measured"]),
                   n(t["packed_model"]), f"{t['saving_permille'] / 10:.1f} %")
                  for k, t in sorted(totals.items())]) + [""]
    delays = [r for r in recs if r.get("kind") == "intr-delay"]
    out += ["### Table 3 — average delay, interrupt to the end of its main handler", ""]
    out += table(("mode", "N", "T", "measured (insns)", "model (insns)"),
                 [(r["mode"] if r["mode"] != "tick" else "packed at the timer tick",
                   "—" if r["mode"] == "sequential" else r["n"], f"{r['t_ns'] // 1000000} ms",
                   n(r["measured"]), n(r["model"])) for r in delays]) + [""]
    fits = [abs(r["measured"] - r["model"]) / r["model"] for r in delays
            if r["mode"] == "packed" and r["n"] > 1]
    at = next((r for r in delays if r["mode"] == "packed" and r["n"] == P["delay_n"]
               and r["t_ns"] == P["delay_t_ms"] * 1_000_000), None)
    text = (f"Paper: packed ½((N−1)/N)T + {P['delay_per_n_us']}N + {P['delay_const_us']} µs, "
            f"{n(int(P['delay_packed_us']))} µs at N = {P['delay_n']}, T = {P['delay_t_ms']} ms; "
            f"sequential {P['delay_seq_us']} µs.")
    if fits and at:
        text += (f" Hako's packed delays with more than one interrupt a batch depart from the "
                 f"same model by at most {100 * max(fits):.1f} %; at N = {P['delay_n']}, "
                 f"T = {P['delay_t_ms']} ms the delay is {at['measured'] / 1e6:.2f} ms, the "
                 f"paper's {P['delay_packed_us'] / 1000:.2f} ms: the term in T dominates both.")
    out += [text + " The tick row departs from the model because the tick's phase is "
            "unrelated to the arrivals'.", ""]
    inter = [r for r in recs if r.get("kind") == "intr-interference"]
    base = next((r["loops"] for r in inter if r["mode"] == "none"), 0)
    lines = {m: sorted((r["k"], r["loops"]) for r in inter if r["mode"] == m)
             for m in ("sequential", "packed")}
    out += ["### Fig. 6 — interference", ""]
    if base and all(lines.values()):
        figs["intr-interference.svg"] = draw("interference", base, lines)
        k = P["fig6_k"]
        seqk, pkk = dict(lines["sequential"]).get(k), dict(lines["packed"]).get(k)
        out += ["![Paper 000 Fig. 6: loops per second against interrupts per 10 ms]"
                "(intr-interference.svg)", ""]
        rows = [(j, n(s), n(dict(lines["packed"]).get(j, "-")))
                for j, s in lines["sequential"]]
        out += table(("k", "Hako sequential (loops)", "Hako packed (loops)"), rows) + [""]
        if seqk and pkk:
            paper_gain = 100 * (P["fig6_packed"] - P["fig6_seq"]) / P["fig6_seq"]
            ahead = [j for j, s in lines["sequential"] if dict(lines["packed"]).get(j, 0) > s]
            out += [f"At k = {k}: Hako packed {n(pkk)}, sequential {n(seqk)} "
                    f"({100 * (pkk - seqk) / seqk:+.3f} %), no I/O {n(base)}; paper packed "
                    f"{n(P['fig6_packed'])}, sequential {n(P['fig6_seq'])} ({paper_gain:+.2f} %), "
                    f"no I/O {n(P['fig6_none'])}. Hako's packed mode is ahead at k = "
                    f"{', '.join(map(str, ahead)) or 'none'}. The I/O takes "
                    f"{pct(base - seqk, base)} of the loop's time here (sequential), "
                    f"{pct(P['fig6_none'] - P['fig6_seq'], P['fig6_none'])} in the paper; the "
                    f"paper's own model predicted +{P['fig6_model_gain_pct']} % and attributed "
                    "the rest to cache locality of back-to-back handlers, which icount does not "
                    "model.", ""]
    return out + triggers_section(recs) + modelled_section(results)


def triggers_section(recs: list[dict]) -> list[str]:
    """The grouping, the urgent and time triggers and the adaptive mode: a table
    each (triggers.py); their verdicts are in the status table above."""
    from . import triggers as tr
    f = tr.figures(recs)
    out: list[str] = []
    g = f["grouping"]
    if all(m in g for m in tr.GROUP_MODES):
        grp, ung, seq = g["grouped"], g["ungrouped"], g["sequential"]
        out += ["### Grouping by device type (section 3.3)", "",
                f"Both cards' interrupts on CPU 1, each card sending {grp['k']} frames per 10 ms "
                "to the other (a card interrupts for what it receives and for what it sent); the "
                "batch at the 10 ms tick (N 32), grouped by type or, with `intr_ctl GROUP 0`, in "
                "arrival order across types. *Mixed*: batches holding both types; *stretches*: "
                "runs of one type's main handlers back to back, against the types the batches "
                "held. Instructions per interrupt from the phase probe (every registration, full "
                "path and batch on CPU 1, entry and exit calibrated), over both cards' "
                "interrupts. Run: `./hako bench intr` (part `grouping`).", ""]
        out += table(tr.GROUPING_HEAD, tr.grouping_rows(g)) + [""]
        out += [f"Grouped, each batch ran one stretch per type ({n(grp['runs'])} for "
                f"{n(grp['type_slots'])}); ungrouped, {n(ung['runs'])}. Per interrupt: sequential "
                f"{n(seq['per_interrupt'])}, packed grouped {n(grp['per_interrupt'])}, ungrouped "
                f"{n(ung['per_interrupt'])} instructions: grouped "
                f"{pct(abs(ung['per_interrupt'] - grp['per_interrupt']), ung['per_interrupt'])} "
                f"{'cheaper' if grp['per_interrupt'] <= ung['per_interrupt'] else 'dearer'} "
                "(in instructions the difference is the batch's own bookkeeping: ungrouped, its "
                "merge compares both cards' next entries and the statistics count a stretch at "
                "every change of type). The paper's reason for grouping, the cache, has no cost "
                "in instructions.", ""]
    u = f["urgent"]
    if all(c in u for c in tr.URGENT_CASES):
        out += ["### Trigger (3): an interrupt handled sequentially", "",
                "The RTL8139 receives 10 frames per 10 ms on CPU 1, packed with N 10 (the tick "
                "as backstop); the e1000 sends them, and its own interrupts (one per frame it "
                "sends) are masked, packed beside the RTL8139's, or sequential beside them: "
                "only the last are interrupts that must be handled sequentially. Delays of the "
                "RTL8139's entries, from the interrupt's entry stamp to the end of its main "
                "handler. On pc the two cards share an INTx line. Run: part `urgent`.", ""]
        out += table(tr.URGENT_HEAD, tr.urgent_rows(u)) + [""]
        out += ["The e1000's interrupts come right after the frames the RTL8139 registers (they "
                "are the same frames' transmissions), so with them sequential each batch holds "
                "one entry: the trigger shown at its strongest, not at an independent rate.", ""]
    if f["time"] and f["time_seq"]:
        r0 = f["time"][0]
        out += ["### Trigger (2): time T", "",
                f"The RTL8139 receives a frame every {n(r0['gap_ns'])} ns on CPU 1, packed with "
                "N 32 (never reached) and no tick, T swept; *max wait*: the longest time from an "
                "entry's arrival to the start of the batch that took it, what T bounds; the "
                "model's mean wait for evenly spaced arrivals g apart is T − (m−1)g/2 with "
                "m = ⌊T/g⌋ + 1 entries a batch. Run: part `time`.", ""]
        out += table(tr.TIME_HEAD, tr.time_rows(f)) + [""]
    if f["adaptive"]:
        out += ["### Adaptive N and T (Hako's controller on the paper's model)", "",
                "Not in the paper: N and T chosen after every batch from the arrival rate and a "
                "1 ms bound on the average delay, against sequential and packed N 10 at the "
                "tick; a compute loop on CPU 1 counts for 200 ms while a receiver process takes "
                "the frames. Run: part `adaptive`.", ""]
        out += table(tr.ADAPTIVE_HEAD, tr.adaptive_rows(f["adaptive"])) + [""]
    return out


def modelled_section(results: Path) -> list[str]:
    """Tables 2 and Fig. 6 in modelled cycles, when the run had the cost model
    (criteria.figures: the joined file of the same run)."""
    from .criteria import PUBLISHED as P, figures, saving_pct
    from . import modelled
    f = figures(results)
    m = f.get("modelled")
    if not m:
        return []
    out = [f"### In modelled cycles ({m['profile']}, {m['mhz']} MHz)", "",
           "Run: `./hako bench intr --model " + m["profile"] + "`. Each figure is its "
           "instructions at the profile's base CPI plus the device register accesses (port, "
           "MMIO, local APIC, at the profile's `io.*` prices) the same run made, spread over "
           "its interrupts; cache and TLB cycles are not added. The phases of Table 2 cannot "
           "be split this way and stay in instructions above.", ""]
    rows = [(k, n(r["seq_insns"]), n(r["seq_cycles"]), n(r["packed_insns"]), n(r["packed_cycles"]),
             f"{r['saving_pct']:.1f} %") for k, r in m["totals"].items()]
    out += table(("N", "sequential (insns)", "sequential (cycles)", "packed (insns)",
                  "packed (cycles)", "saving (cycles)"), rows) + [""]
    paper_saving = saving_pct(P["total_seq_n10"], P["total_pack_n10"])
    out += [f"A sequential interrupt makes {m['seq_accesses_per_int']:.1f} device accesses, "
            f"{n(round(m['seq_io_per_int']))} cycles, {m['seq_io_share_pct']:.1f} % of its modelled "
            f"cost; the saving at N = 10 is {m['totals'][10]['saving_pct']:.1f} % in cycles (the "
            f"paper's {paper_saving:.1f} %), packing wins from N = {m['breakeven_n']}.", ""]
    fig = m["fig6"]
    none = fig[("none", 0)]
    rows = [(k, n(fig[("sequential", k)]["loops_cycles"]), n(fig[("packed", k)]["loops_cycles"]),
             f"{fig[('sequential', k)]['io_share_pct']:.2f} %")
            for k in sorted(k for (mode, k) in fig if mode == "sequential")]
    out += table(("k", "sequential (loops)", "packed (loops)", "device accesses' share (seq)"),
                 rows) + [""]
    k = P["fig6_k"]
    s10, p10 = fig[("sequential", k)]["loops_cycles"], fig[("packed", k)]["loops_cycles"]
    out += [f"Loops in one modelled second: no I/O {n(none['loops_cycles'])}; at k = {k} "
            f"sequential {n(s10)}, packed {n(p10)} ({100 * (p10 - s10) / s10:+.3f} %); the I/O "
            f"takes {pct(none['loops_cycles'] - s10, none['loops_cycles'])} of the loop's time, "
            f"the device accesses alone {fig[('sequential', k)]['io_share_pct']:.2f} % (the paper: "
            f"{pct(P['fig6_none'] - P['fig6_seq'], P['fig6_none'])}).", ""]
    g = f.get("modelled_grouping")
    if g:
        out += ["Grouping by device type: CPU 1's whole work in each run of the grouping part "
                "(handling and the reader threads, the same in the three; caches and TLBs "
                "included) per interrupt of both cards:", ""]
        out += table(("mode", "instructions", "modelled cycles", "L1i misses", "L1d misses"),
                     [(mode, f"{g[mode]['insns']:,.0f}", f"{g[mode]['cycles']:,.0f}",
                       f"{g[mode]['l1i']:.2f}", f"{g[mode]['l1d']:.2f}")
                      for mode in modelled.GROUP_MODES]) + [""]
    return out
