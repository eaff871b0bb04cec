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
           "direct": "#2471a3", "paper": "#777777"}


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
        right.legend(fontsize=7, loc="upper left")
        fig.suptitle("Paper 000 Fig. 6, interference: Hako under QEMU icount "
                     "(guest instructions), RTL8139 on the loop's CPU")
        fig.subplots_adjust(left=0.08, right=0.98, bottom=0.14, top=0.82, wspace=0.25, hspace=0.45)
        return to_svg(fig)


def direct_return(series: dict[str, dict[str, list[float]]], paper_saving: float = 40.0) -> str:
    """Paper 002's Fig. 9: a request's round trip through n servers,
    stepwise and direct return (left, per mode), and the saving (right)
    beside the paper's about 40 %.  SERIES: mode -> {"stepwise", "direct"}."""
    with plt.rc_context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
        styles = {"baseline": "--", "fast": "-"}
        for mode, s in series.items():
            n = list(range(1, len(s["stepwise"]) + 1))
            for how in ("stepwise", "direct"):
                left.plot(n, s[how], marker="o", ms=3, ls=styles.get(mode, "-"),
                          color=COLOURS[how], label=f"{how}, {mode}")
            saved = [100.0 * (a - b) / a for a, b in zip(s["stepwise"], s["direct"])]
            right.plot(n, saved, marker="o", ms=3, ls=styles.get(mode, "-"),
                       color="#2c3e50" if mode == "fast" else "#7f8c8d", label=f"Hako, {mode}")
        right.axhline(paper_saving, color=COLOURS["paper"], ls=":", label="paper (about 40 %)")
        left.set_title("round trip (guest instructions)")
        left.set_xlabel("stages (servers in the chain)")
        left.ticklabel_format(axis="y", style="plain", useOffset=False)
        left.legend(fontsize=7)
        right.set_title("saved by direct return, %")
        right.set_xlabel("stages (servers in the chain)")
        right.set_ylim(0, 60)
        right.legend(fontsize=7, loc="lower right")
        fig.suptitle("Paper 002 Fig. 9, direct against stepwise return: Hako under QEMU icount")
        fig.subplots_adjust(left=0.08, right=0.98, bottom=0.14, top=0.82, wspace=0.25, hspace=0.45)
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
