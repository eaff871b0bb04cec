"""Paper 002's section of the report: server communication, Table 2, Figs. 5, 8 and 9,
on x86 and then on SH-4 (sh4.py).

Called by report.markdown() with the result folder, the plots dict it fills
and the paper's verdicts (criteria.py); returns the section's Markdown lines.
"""
from __future__ import annotations

from pathlib import Path

from ...reportkit import boot_of, draw, status_block
from ...results import load_records
from . import partials, sh4, tables


def section(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 002 — fast inter-server communication on AnT (SH-4)", ""]
    icount = results / "bench-ispc.jsonl"
    if not icount.is_file():
        return out + status_block(v) + sh4.report_lines(results)
    joined = tables.joins(icount)
    f = tables.Figures(load_records(icount), [load_records(p) for p in joined])
    profiles = ", ".join(f.profiles()) or "none"
    out += status_block(v)
    from . import criteria as p002
    boot = boot_of(load_records(icount))
    out += [f"Mode: QEMU **icount**, {boot}, client and servers on CPU 0. Units: **insns** "
            "= guest instructions (median); **cycles** = the cost model's cycles per "
            f"operation (profiles: {profiles}; `modern` Skylake, `p4` Pentium 4); the paper's "
            "are µs on its SH-4. The verdicts read the `p4` cycles. Run: `./hako bench ispc`, "
            "with `--model modern` and `--model p4`; tables by `./hako paper 002 tables`.", ""]
    judged = p002.JUDGED_PROFILE

    def change(name):
        a, b = f.modelled(judged, f"{name}_baseline"), f.modelled(judged, f"{name}_fast")
        return f"{100 * (b - a) / a:+.1f} %" if a and b is not None else "—"
    sw = p002.PAPER_T2["process_switch"]
    out += ["### Table 2 — partial operations", ""] + tables.table2(f) + [""]
    out += ["* Server side: the fast mode never unmaps the server's ICA window, so its peel "
            "only unlinks the area and its first access finds the translation still there.",
            "* Application side: fast paste fills the page-table entry (costlier, as the "
            "paper's application paste), so the first access no longer faults, but it still "
            "misses the TLB once: the peel invalidated the entry and x86 has no software TLB "
            "load.",
            f"* Process switch: {change('process_switch')} in `{judged}` cycles (the paper: "
            f"{sw[0]} → {sw[2]} µs): every CR3 load drops the non-global translations; the x86 "
            "remedy is PCID, which QEMU's TCG does not offer, so it can be neither tested nor "
            "measured here.", ""]
    out += ["### Fig. 8 — basic operations, server side apart", ""] + tables.fig8(f) + [""]
    panels = tables.fig8_panels(f)
    if panels:
        figs["ispc-fig8.svg"] = draw("basic_operations", panels)
        out += ["![Paper 002 Fig. 8: basic operations, baseline against fast, per unit and "
                "data size](ispc-fig8.svg)", ""]
    out += fig8_per_operation(f, judged)
    out += ["### Fig. 5 — where a round trip goes before the optimisation (baseline)", ""]
    out += tables.fig5(f, "baseline") + [""]
    bars = tables.fig5_bars(f, "baseline")
    if bars:
        figs["ispc-fig5.svg"] = draw("round_trip_shares", bars)
        out += ["![Paper 002 Fig. 5: a baseline round trip's partial operations, share "
                "of the measured round trip](ispc-fig5.svg)", ""]
    out += [f"The paper found about {p002.PAPER_FIG5_SHARE:g} % of a request (with a 4 KB data "
            "ICA) in paste, peel, first access and switch; the \"paste, peel, first access, "
            "switch\" rows are Hako's share. In cycles the switch's share grows, being TLB "
            "refills.", ""]
    out += fig5_estimate(f, figs, judged)
    out += ["### Fig. 9 — direct against stepwise return, by depth", ""]
    out += tables.fig9(f)
    series = {}
    for mode in tables.MODES:
        step = tables.relay_series(f.insns, mode, "stepwise")
        direct = tables.relay_series(f.insns, mode, "direct")
        if len(step) >= 2 and len(direct) == len(step):
            series[mode] = {"stepwise": step, "direct": direct}
    if series:
        figs["ispc-fig9.svg"] = draw("direct_return", series)
        out += ["![Paper 002 Fig. 9: round trip and saving by depth](ispc-fig9.svg)", ""]
    limits, worst = [], 0.0
    for mode, sd in series.items():
        m = tables.stage_model(sd["stepwise"], sd["direct"])
        limits.append(100 * m["limit"])
        for i, (a, b) in enumerate(zip(sd["stepwise"], sd["direct"]), 1):
            worst = max(worst, abs(100 * (a - b) / a - 100 * tables.model_saving(m, i)))
    if limits:
        out += [f"The paper reports about {p002.PAPER_FIG9_SAVING:g} % at every depth. Hako's "
                "saving starts at zero with one server and approaches the per-stage limit "
                f"(s−d)/s, {min(limits):.1f}–{max(limits):.1f} % in instructions, because the "
                "fixed part of a round trip (the client's request, the last server's work, one "
                "return) is about as large as one stage's stepwise cost; a flat curve would "
                "need that part to be small. The per-stage model departs from the measurement "
                f"by at most {worst:.1f} points in instructions.", ""]
    return out + sh4.report_lines(results)


def fig8_per_operation(f: tables.Figures, judged: str) -> list[str]:
    """Fig. 8 as the paper compares it: the saving per request and result
    return, and which partial operation saves what (partials.py)."""
    from . import criteria as p002
    rows = partials.fig8_rows(f, judged)
    req, ret = p002.PAPER_FIG8["sync_request"], p002.PAPER_FIG8["sync_return"]
    out = ["### Fig. 8 per operation — the saving and the partial operations it comes from", "",
           f"The paper compares each basic operation before and after: requests "
           f"{req[0]:g}–{req[1]:g} % and result returns {ret[0]:g}–{ret[1]:g} % faster, which it "
           "puts down to the server's paste and peel, the first access and the switch. Its "
           "per-operation values are drawn in its figure only, so each operation is also "
           "composed here from Table 2 the way the paper describes it (one system call, the "
           "ICAs peeled from the sender and pasted into the receiver, the receiver's first "
           "access to the control ICA, one switch; its data ICA is not touched), once from the "
           f"paper's microseconds and once from Hako's `{judged}` cycles; the compositions leave "
           "out what lies beyond the partial operations (queueing, waking). The verdict reads "
           f"ispcbench's measured windows in `{judged}` cycles (the asynchronous request, which "
           "has no region, in instructions).", ""]
    out += partials.fig8_saving_table(rows, p002.PAPER_FIG8, judged) + [""]
    out += ["Points of each operation's time saved by each partial operation: the paper's "
            f"composition / the same composition from Hako's `{judged}` cycles / ispcbench's "
            "window composed (negative: dearer after):", ""]
    out += partials.fig8_parts_table(rows) + [""]
    out += partials.fig8_explanation(rows, judged) + [""]
    get = lambda name: f.modelled(judged, name)  # noqa: E731
    units = tables.unit_costs(get, "baseline")
    if units:
        t2 = p002.PAPER_T2
        sw = p002.change(get("process_switch_baseline"), get("process_switch_fast"))
        fa, sw0 = t2["first_access"][0], t2["process_switch"][0]
        ratio_paper, ratio_hako = fa / sw0, units["first_access_server"] / units["switch"]
        out += [f"Where the difference lies: on the SH-4 the first access ({fa:g} µs, a TLB "
                f"miss taken as an exception) cost {ratio_paper:.2f} times the switch "
                f"({sw0:g} µs); on the `{judged}` profile the server's first access costs "
                f"{units['first_access_server']:,.0f} cycles against the switch's "
                f"{units['switch']:,.0f} ({ratio_hako:.2f} times), so removing it is a "
                f"{'smaller' if ratio_hako < ratio_paper else 'larger'} part of each operation "
                "here than in the paper. The switch, which the paper's partitioned "
                f"TLB made {-p002.change(*t2['process_switch'][::2]):.0f} % cheaper, changes by "
                f"{sw:+.1f} % here: every CR3 load drops the non-global translations (x86's "
                "remedy, PCID, is not offered by QEMU's TCG). ispcbench's synchronous request "
                "ends when the server's receive returns, before the server's first access, so "
                "its measured saving holds the client's peel that fast mode skips and none of "
                "the first access; its return holds the client's first access, and its "
                "asynchronous request is the call alone, which fast mode leaves as it is.", ""]
    return out


def fig5_estimate(f: tables.Figures, figs: dict, judged: str) -> list[str]:
    """Fig. 5's estimate bars from the JUDGED profile's cycles (partials.py)."""
    from . import criteria as p002
    rows = partials.fig5_estimate(lambda name: f.modelled(judged, name))
    out = ["### Fig. 5's estimate — the request's partial operations scaled as the paper did", "",
           f"The paper's estimate bars are AnT's Pentium 4 times ({partials.P4_MHZ / 1000:g} GHz) "
           f"multiplied by {partials.PAPER_SCALE:g}, the clock ratio to its "
           f"{partials.SH4_MHZ:g} MHz SH-4, beside the SH-4's measured times; it found the "
           "measured shorter. Its estimates are drawn only, not given as numbers, so the paper's "
           "column is its measured Table 2 (before). Hako's estimate is the same arithmetic on "
           f"its `{judged}` cycles per partial operation (paste and peel less their own system "
           "call, the switch less its two semaphore calls), counted as in the paper's request "
           "with a 4 KB data ICA: one system call, two peels, two pastes, the server's first "
           "access to the control ICA, one switch. Multiplying a 2.8 GHz time by the clock "
           "ratio is counting the Pentium 4's cycles at 240 MHz.", ""]
    out += partials.fig5_table(rows) + [""]
    bars = partials.fig5_bars(rows)
    if bars:
        figs["ispc-fig5-estimate.svg"] = draw("estimate_bars", bars)
        out += ["![Paper 002 Fig. 5 estimate: a request's partial operations, the paper's "
                "SH-4 against Hako's p4 cycles scaled](ispc-fig5-estimate.svg)", ""]
    if rows:
        hako, paper = partials.shares(rows, "estimate"), partials.shares(rows, "paper")
        mine, top = partials.ranking(hako), partials.ranking(paper)
        t = rows["total"]
        out += [f"The paper's largest share is the {top[0]} ({paper[top[0]]:.0f} %), Hako's "
                f"estimate's the {mine[0]} ({hako[mine[0]]:.0f} %); in order, the paper "
                f"{', '.join(top)}, Hako {', '.join(mine)}. Scaled the paper's way Hako's "
                f"request comes to {t['estimate']:.1f} µs against the paper's measured "
                f"{t['paper']:.1f} µs (×{t['estimate'] / t['paper']:.2f}): "
                f"{'below' if t['estimate'] < t['paper'] else 'above'} it, where the paper's "
                "own estimate was above its measurement.", ""]
    return out
