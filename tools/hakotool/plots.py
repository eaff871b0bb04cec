"""The report's plots, drawn with matplotlib as SVG text that is the same
byte for byte on every run and every machine with the same matplotlib:

  * the Agg backend (no display), DejaVu Sans (the font matplotlib ships);
  * text kept as SVG text (`svg.fonttype` none) and the axes placed at fixed
    positions (no tight_layout), so the bytes do not hang on the font file's
    version: Debian's matplotlib uses the system's DejaVu, pip's its own
    copy, and glyph outlines or text extents from them would differ;
  * `svg.hashsalt` fixed, so the ids matplotlib derives for clip paths and
    markers do not come from a random salt;
  * no metadata: no date, no "Creator" naming the matplotlib version.

Each function takes plain numbers (the callers read the result files) and
returns the SVG text, without the XML prologue so it can be inlined in HTML.
The bytes also hang on matplotlib's version: tools/deps.sh installs Debian
12's (3.6.3), and pins the same version when it falls back to pip.
"""
from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "svg.hashsalt": "hako-report",
    "svg.fonttype": "none",
    "axes.grid": True,
    "grid.color": "#dddddd",
    "path.simplify": False,
}
COLOURS = {"sequential": "#c0392b", "packed": "#2471a3", "stepwise": "#c0392b",
           "direct": "#2471a3", "paper": "#777777", "baseline": "#c0392b", "fast": "#2471a3",
           "best": "#2471a3", "worst": "#c0392b"}
# Paper 002 Fig. 5's partial operations, in stacking order.
PARTS = {"system call": "#9467bd", "ICA paste": "#1f77b4", "ICA peel": "#ff7f0e", "first access": "#2ca02c",
         "process switch": "#d62728", "system calls": "#9467bd", "rest": "#c7c7c7"}


def unit_label(unit: str) -> str:
    """An axis label for a table's short unit: "insns", "PROFILE cycles"."""
    if unit == "insns":
        return "guest instructions"
    if unit.endswith(" cycles"):
        return f"modelled cycles ({unit.removesuffix(' cycles')})"
    return unit


def slug(text: str) -> str:
    """An SVG id part from a label: lower case, words joined by '-'."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def name_bars(bars, prefix: str) -> None:
    """Give each bar of a BarContainer the id PREFIX-i (ids must be unique)."""
    for i, bar in enumerate(bars):
        bar.set_gid(f"{prefix}-{i}")


def to_svg(fig) -> str:
    """The figure as SVG text, from `<svg` on, deterministic."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def interference(base: int, lines: dict[str, list[tuple[int, int]]]) -> str:
    """Paper 000's Fig. 6: the compute process's loops per second against
    k interrupts per 10 ms, sequential and packed (left, the paper's form),
    and the loops lost to I/O (right: under icount the loss is a fraction
    of a percent, so the left lines are nearly flat; the paper's figures,
    30 % below its baseline, would flatten them further and go in the text)."""
    with plt.rc_context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
        for mode, pts in lines.items():
            ks = [k for k, _ in pts]
            left.plot(ks, [v for _, v in pts], marker="o", ms=3, label=mode,
                      color=COLOURS.get(mode), gid=mode)
            right.plot([0] + ks, [0] + [base - v for _, v in pts], marker="o", ms=3,
                       label=mode, color=COLOURS.get(mode), gid=f"{mode}-lost")
        left.axhline(base, color="#555555", ls="--", lw=1, label=f"no I/O ({base:,})")
        left.set_title("loops in 1 s of guest time (paper's form)")
        left.set_xlabel("interrupts per 10 ms (k)")
        left.set_ylabel("loops")
        left.ticklabel_format(axis="y", style="plain", useOffset=False)
        left.legend(fontsize=7, loc="lower left")
        right.set_title("loops lost to I/O")
        right.set_xlabel("interrupts per 10 ms (k)")
        right.set_ylabel("loops lost")
        right.legend(fontsize=7, loc="upper left")
        fig.suptitle("Paper 000 Fig. 6, interference: Hako under QEMU icount "
                     "(guest instructions), RTL8139 on the loop's CPU")
        # Room left of each panel for seven-digit tick labels and the y label.
        fig.subplots_adjust(left=0.12, right=0.98, bottom=0.14, top=0.82, wspace=0.3, hspace=0.45)
        return to_svg(fig)


def direct_return(series: dict[str, dict[str, list[float]]], paper_saving: float = 40.0) -> str:
    """Paper 002's Fig. 9: a request's round trip through n servers,
    stepwise and direct return (left, per mode), and the saving (right)
    beside the paper's about 40 %.  SERIES: mode -> {"stepwise", "direct"}."""
    with plt.rc_context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
        # The modes apart by line and marker (baseline dashed with open squares,
        # fast solid with dots), the legend's lines long enough to show the dashes.
        styles = {"baseline": ("--", "s", "white"), "fast": ("-", "o", None)}
        for mode, s in series.items():
            n = list(range(1, len(s["stepwise"]) + 1))
            ls, marker, face = styles.get(mode, ("-", "o", None))
            for how in ("stepwise", "direct"):
                left.plot(n, s[how], marker=marker, ms=4, ls=ls, mfc=face or COLOURS[how],
                          color=COLOURS[how], label=f"{how}, {mode}")
            saved = [100.0 * (a - b) / a for a, b in zip(s["stepwise"], s["direct"])]
            colour = "#2c3e50" if mode == "fast" else "#7f8c8d"
            right.plot(n, saved, marker=marker, ms=4, ls=ls, mfc=face or colour,
                       color=colour, label=f"Hako, {mode}")
        right.axhline(paper_saving, color=COLOURS["paper"], ls=":", label="paper (about 40 %)")
        left.set_title("round trip (guest instructions)")
        left.set_xlabel("stages (servers in the chain)")
        left.set_ylabel("guest instructions")
        left.ticklabel_format(axis="y", style="plain", useOffset=False)
        left.legend(fontsize=7, handlelength=4)
        right.set_title("saved by direct return, %")
        right.set_xlabel("stages (servers in the chain)")
        right.set_ylabel("saved, %")
        right.set_ylim(0, 60)
        right.legend(fontsize=7, loc="lower right", handlelength=4)
        fig.suptitle("Paper 002 Fig. 9, direct against stepwise return: Hako under QEMU icount")
        fig.subplots_adjust(left=0.1, right=0.98, bottom=0.14, top=0.82, wspace=0.28, hspace=0.45)
        return to_svg(fig)


def improvement_curves(panels: list[tuple[str, dict[int, list]]], ks: list[int]) -> str:
    """Paper 001's Table 1 as curves by k: one panel per (device, figure
    source), one line per wait count; PANELS: (title, {wait: values})."""
    with plt.rc_context(STYLE):
        cols = 3
        rows = (len(panels) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(10, 3.0 * rows), squeeze=False)
        for ax, (title, waits) in zip([a for row in axes for a in row], panels):
            for wait, values in sorted(waits.items()):
                pts = [(k, v) for k, v in zip(ks, values) if v is not None]
                if pts:
                    ax.plot([k for k, _ in pts], [v for _, v in pts], marker="o", ms=3,
                            label=f"wait {wait}")
            ax.set_title(title, fontsize=7)
            ax.set_xlabel("processes (k)")
            ax.set_ylabel("improvement, %")
            ax.legend(fontsize=7)
        for ax in [a for row in axes for a in row][len(panels):]:
            ax.set_visible(False)
        fig.suptitle("Paper 001 Table 1: improvement of symmetric over funnelled access, "
                     "% (interrupts to the master)")
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.09, top=0.88, wspace=0.3, hspace=0.4)
        return to_svg(fig)


def release_latency(loads: list[tuple[str, dict[int, list[int]]]], bucket_ns: int) -> str:
    """Paper 004's periodic threads: the release-latency histogram per load
    (one panel each), a line per CPU, as cyclictest's histograms are drawn;
    counts on a log scale, the last bucket holding everything beyond it."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, len(loads), figsize=(3.2 * len(loads), 3.2), squeeze=False)
        for ax, (load, cpus) in zip(axes[0], loads):
            for cpu, hist in sorted(cpus.items()):
                xs = [(i + 1) * bucket_ns / 1000 for i in range(len(hist))]
                ax.step(xs, [max(h, 0.5) for h in hist], where="mid", lw=1,
                        label=f"CPU {cpu}", gid=f"{load}-cpu{cpu}")
            ax.set_yscale("log")
            ax.set_ylim(0.5, None)
            ax.set_title(load, fontsize=9)
            ax.set_xlabel("release latency, µs (last: beyond)")
        axes[0][0].set_ylabel("releases")
        axes[0][0].legend(fontsize=7, loc="upper right")
        fig.suptitle("Paper 004, periodic threads (1 ms period): release latency under load, "
                     "Hako under QEMU icount (1 instruction = 1 ns)")
        fig.subplots_adjust(left=0.07, right=0.99, bottom=0.17, top=0.82, wspace=0.25)
        return to_svg(fig)


def round_trip_shares(bars: list[tuple[str, list[tuple[str, float]], float]],
                      paper_share: float = 90.0) -> str:
    """Paper 002's Fig. 5: where one synchronous round trip goes before the
    optimisation, a stacked bar per (data size, unit) of the partial
    operations' shares of the measured round trip, in %.  BARS: (label,
    [(part, value)], measured total); the first four parts are the ones
    the paper found about 90 % in, stacked from 0 so the dotted line
    compares with their end.  A negative rest (the parts, measured alone,
    add up to more than the round trip) is not drawn; its share is written."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(9, 4.2))
        ys = list(range(len(bars)))[::-1]
        for y, (label, parts, total) in zip(ys, bars):
            left = 0.0
            for part, value in parts:
                share = 100.0 * value / total
                if share <= 0:
                    continue
                drawn = ax.barh([y], [share], left=left, height=0.6, color=PARTS.get(part),
                                label=part if y == ys[0] else None)
                name_bars(drawn, f"fig5-{slug(label)}-{slug(part)}")
                left += share
            four = 100.0 * sum(v for _, v in parts[:4]) / total
            rest = 100.0 * parts[-1][1] / total
            note = f"{four:.0f} %" + (f" (rest {rest:.0f} %)" if rest < 0 else "")
            ax.text(103, y, note, va="center", fontsize=8)
        ax.axvline(paper_share, color=COLOURS["paper"], ls=":", lw=1.5,
                   label=f"paper: about {paper_share:.0f} % in the first four")
        ax.set_yticks(ys)
        ax.set_yticklabels([f"{label} ({total:,.0f})" for label, _, total in bars])
        ax.set_xlim(0, 118)
        ax.set_xticks(range(0, 101, 20))
        ax.set_xlabel("share of the measured round trip, % (right: paste + peel + "
                      "first access + switch)")
        ax.legend(fontsize=7, ncol=4, loc="lower center", bbox_to_anchor=(0.5, 1.0))
        fig.suptitle("Paper 002 Fig. 5, a synchronous round trip before the optimisation "
                     "(baseline mode):\nHako under QEMU icount, in guest instructions and "
                     "modelled cycles (the round trip in brackets)")
        fig.subplots_adjust(left=0.27, right=0.98, bottom=0.12, top=0.76)
        return to_svg(fig)


def estimate_bars(bars: list[tuple[str, list[tuple[str, float]]]]) -> str:
    """Paper 002's Fig. 5 estimate: one request (a 4 KB data ICA) by partial
    operation, a stacked bar (µs) per source: the paper's SH-4 measurement
    and Hako's `p4` cycles scaled as the paper scaled its Pentium 4 times.
    BARS: (label, [(part, µs)]); each part's share written inside its piece."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(9, 2.8))
        ys = list(range(len(bars)))[::-1]
        top = max(sum(v for _, v in parts) for _, parts in bars)
        for y, (label, parts) in zip(ys, bars):
            whole, left = sum(v for _, v in parts), 0.0
            for part, value in parts:
                drawn = ax.barh([y], [value], left=left, height=0.6, color=PARTS.get(part),
                                label=part if y == ys[0] else None)
                name_bars(drawn, f"fig5est-{slug(label)}-{slug(part)}")
                if value >= 0.06 * top:
                    ax.text(left + value / 2, y, f"{100.0 * value / whole:.0f} %", ha="center",
                            va="center", fontsize=7, color="white")
                left += value
            ax.text(whole + 0.01 * top, y, f"{whole:.1f} µs", va="center", fontsize=8)
        ax.set_yticks(ys)
        ax.set_yticklabels([label for label, _ in bars])
        ax.set_xlim(0, 1.12 * top)
        ax.set_xlabel("µs per request (inside each piece: its share)")
        ax.legend(fontsize=7, ncol=5, loc="lower center", bbox_to_anchor=(0.5, 1.0))
        fig.suptitle("Paper 002 Fig. 5, estimate: a request with a 4 KB data ICA before the "
                     "optimisation,\nthe paper's SH-4 against Hako's Pentium 4 model scaled "
                     "by the clock ratio", y=0.99)
        fig.subplots_adjust(left=0.30, right=0.98, bottom=0.18, top=0.70)
        return to_svg(fig)


def basic_operations(panels: list[tuple[str, str, list[tuple[str, float, float]]]]) -> str:
    """Paper 002's Fig. 8: each basic operation before and after the
    optimisation (baseline and fast mode), the side it is measured on in
    its name; a panel per (unit, data size), the saving written beside
    the fast bar.  PANELS: (unit, data, [(operation, baseline, fast)])."""
    units = list(dict.fromkeys(unit for unit, _, _ in panels))
    datas = list(dict.fromkeys(data for _, data, _ in panels))
    rows = {u: max(len(r) for v, _, r in panels if v == u) for u in units}
    tops = {u: max(max(b, f) for v, _, r in panels if v == u for _, b, f in r) for u in units}
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(len(units), len(datas), squeeze=False,
                                 figsize=(10, 0.42 * sum(rows.values()) + 1.0 * len(units)),
                                 gridspec_kw={"height_ratios": [rows[u] for u in units]})
        for unit, data, ops in panels:
            ax = axes[units.index(unit)][datas.index(data)]
            ys = list(range(len(ops)))[::-1]
            for mode, offset, column in (("baseline", 0.2, 1), ("fast", -0.2, 2)):
                drawn = ax.barh([y + offset for y in ys], [op[column] for op in ops], height=0.4,
                                color=COLOURS[mode], label=mode)
                name_bars(drawn, f"fig8-{slug(unit)}-{slug(data)}-{mode}")
            top = tops[unit]                   # one scale per unit: the sizes compare
            for y, (_, base, fast) in zip(ys, ops):
                ax.text(max(base, fast) + 0.02 * top, y, f"{100.0 * (base - fast) / base:.0f} %",
                        va="center", fontsize=7)
            ax.set_xlim(0, 1.15 * top)
            ax.set_yticks(ys)
            ax.set_yticklabels([op for op, _, _ in ops] if datas.index(data) == 0 else [],
                               fontsize=7)
            ax.set_title(f"{data}, {unit}", fontsize=8)
            ax.set_xlabel(f"{unit_label(unit)} per operation", fontsize=7)
            ax.ticklabel_format(axis="x", style="plain", useOffset=False)
        fig.legend(*axes[0][0].get_legend_handles_labels(), fontsize=7, ncol=2,
                   loc="upper right")
        fig.suptitle("Paper 002 Fig. 8, basic operations before (baseline) and after (fast):\n"
                     "Hako under QEMU icount; beside each pair the saving, %", x=0.45)
        fig.subplots_adjust(left=0.25, right=0.98, bottom=0.07, top=0.90, wspace=0.08,
                            hspace=0.6)
        return to_svg(fig)


def machine_comparison(reference: str, machines: list[str], paper_form: dict[str, dict[str, float]],
                       geomeans: dict[str, dict[str, float]],
                       per_call: dict[str, dict[str, list[float]]]) -> str:
    """Paper 004's Fig. 1: each machine's best and worst case side by side.
    Left, the paper's form: the mean time per call relative to the
    REFERENCE machine's best-case mean (= 1).  Right: per case, the
    geometric mean of the per-call ratios to the reference's same case,
    each call's ratio a dash.  PAPER_FORM and GEOMEANS: machine -> {"best", "worst"};
    PER_CALL: machine -> {"best": [...], "worst": [...]}."""
    xs = list(range(len(machines)))
    with plt.rc_context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
        for case, offset in (("best", -0.2), ("worst", 0.2)):
            drawn = left.bar([x + offset for x in xs], [paper_form[m][case] for m in machines],
                             width=0.4, color=COLOURS[case], label=case)
            name_bars(drawn, f"machines-mean-{case}")
            left.bar_label(drawn, fmt="%.2f", fontsize=7)
            drawn = right.bar([x + offset for x in xs], [geomeans[m][case] for m in machines],
                              width=0.4, color=COLOURS[case], alpha=0.6, label=f"{case}, geometric mean")
            name_bars(drawn, f"machines-geomean-{case}")
            right.bar_label(drawn, fmt="%.2f", fontsize=7, label_type="center")
            for x, m in zip(xs, machines):
                dots = per_call[m][case]
                right.plot([x + offset] * len(dots), dots, ls="none", marker="_", ms=6,
                           color="#333333", gid=f"machines-calls-{case}-{slug(m)}")
        for ax in (left, right):
            ax.axhline(1.0, color="#555555", lw=0.8)
            ax.set_xticks(xs)
            ax.set_xticklabels(machines, fontsize=8)
            ax.legend(fontsize=7, loc="upper left")
        left.set_title(f"mean time per call / {reference}'s best-case mean "
                       "(paper's form)", fontsize=8)
        right.set_title(f"per call, time / {reference}'s time in the same case "
                        "(dashes: calls)", fontsize=8)
        fig.suptitle("Paper 004 Fig. 1, machines compared: kperf's calls under QEMU icount, "
                     "modelled cycles at each machine's clock")
        fig.subplots_adjust(left=0.06, right=0.99, bottom=0.10, top=0.84, wspace=0.15)
        return to_svg(fig)
