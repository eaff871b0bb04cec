"""Paper 002's section of the report: server communication, Table 2, Figs. 5, 8 and 9,
on x86 and then on SH-4 (sh4.py).

Called by report.markdown() with the result folder, the plots dict it fills
and the paper's verdicts (criteria.py); returns the section's Markdown lines.
"""
from __future__ import annotations

from pathlib import Path

from ...reportkit import boot_of, draw, status_block
from ...results import load_records
from . import sh4, tables


def section(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 002 — fast inter-server communication on AnT (SH-4)", ""]
    icount = results / "bench-ispc.jsonl"
    if not icount.is_file():
        return out + status_block(v) + sh4.report_lines(results)
    joined = sorted(results.glob("bench-ispc-*.joined.jsonl"))
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
    req, ret = p002.PAPER_FIG8["sync_request"], p002.PAPER_FIG8["sync_return"]

    def saved(get, data):
        a, b = get(f"sync_roundtrip_{data}_baseline"), get(f"sync_roundtrip_{data}_fast")
        return f"{100 * (a - b) / a:.1f} %" if a and b is not None else "—"
    cyc = lambda name: f.modelled(judged, name)  # noqa: E731
    out += [f"The paper saw requests {req[0]:g}–{req[1]:g} % and result returns "
            f"{ret[0]:g}–{ret[1]:g} % faster. Hako's fast mode saves {saved(f.insns, 'nodata')} "
            f"(no data) and {saved(f.insns, '4k')} (4 KiB) of a round trip's instructions, "
            f"{saved(cyc, 'nodata')} and {saved(cyc, '4k')} of its `{judged}` cycles: what it "
            "removes is instructions, while the switches' TLB refills, which it cannot remove, "
            "are a larger share of the cycles. The asynchronous request alone gains nothing, "
            "by design (docs/results.md).", ""]
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
