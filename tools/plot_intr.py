#!/usr/bin/env python3
"""Draw paper 000's Fig. 6 (interference) from intrbench's result lines.

    tools/plot_intr.py [RESULTS.jsonl] [OUT.svg]

defaults: results/bench-intr.jsonl and docs/intr-interference.svg.

Reads the "intr-interference" records of `./hako bench intr` (loop counts
of a compute process in 1 s of guest time, with k = 1..10 interrupts per
10 ms handled sequentially or packed, and the no-I/O baseline) and writes
an SVG line chart by hand, so nothing beyond Python is needed.  The chart
shows the loops the I/O took away (baseline minus loops) per k for both
modes: under icount the whole I/O load is a fraction of a percent, so the
loop counts themselves would draw as one flat line.

The parsing and the drawing are pure functions (series, render) so the
host tests can feed them records.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 50, 60
COLOURS = {"sequential": "#c0392b", "packed": "#2471a3"}


def load(path: Path) -> list[dict]:
    """Every JSON record of a results file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def series(records) -> tuple[int, dict[str, list[tuple[int, int]]]]:
    """The baseline loop count and, per mode, (k, loops) sorted by k."""
    base, lines = 0, {"sequential": [], "packed": []}
    for r in records:
        if r.get("kind") != "intr-interference":
            continue
        if r["mode"] == "none":
            base = r["loops"]
        elif r["mode"] in lines:
            lines[r["mode"]].append((r["k"], r["loops"]))
    for points in lines.values():
        points.sort()
    if not base or not all(lines.values()):
        raise ValueError("no intr-interference records (run ./hako bench intr)")
    return base, lines


def _scale(value, lo, hi, out_lo, out_hi):
    return out_lo + (value - lo) * (out_hi - out_lo) / ((hi - lo) or 1)


def _nice_top(value: int) -> int:
    step = 10 ** max(len(str(value)) - 1, 0)
    return ((value + step - 1) // step) * step


def render(base: int, lines: dict[str, list[tuple[int, int]]]) -> str:
    """The SVG text: loops lost to I/O against k, one polyline per mode."""
    kmax = max(k for pts in lines.values() for k, _ in pts)
    lost = {m: [(k, base - loops) for k, loops in pts] for m, pts in lines.items()}
    ytop = _nice_top(max(v for pts in lost.values() for _, v in pts))
    x = lambda k: _scale(k, 0, kmax, LEFT, WIDTH - RIGHT)          # noqa: E731
    y = lambda v: _scale(v, 0, ytop, HEIGHT - BOTTOM, TOP)          # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14">'
           f'Interference (paper 000, Fig. 6): loops lost in 1 s, baseline {base:,} loops</text>',
           f'<text x="{WIDTH / 2}" y="36" text-anchor="middle" fill="#555">'
           f'QEMU icount (guest instructions), RTL8139 interrupts on the loop\'s CPU</text>']
    for i in range(6):                                   # horizontal grid and y labels
        v = ytop * i // 5
        out.append(f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{WIDTH - RIGHT}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:,}</text>')
    for k in range(0, kmax + 1):                         # x ticks
        out.append(f'<text x="{x(k):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{k}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 20}" text-anchor="middle">'
               f'interrupts per 10 ms (k)</text>')
    out.append(f'<text x="18" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {(TOP + HEIGHT - BOTTOM) / 2})">loops lost to I/O</text>')
    out.append(f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
               f'y2="{HEIGHT - BOTTOM}" stroke="black"/>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="black"/>')
    for n, (mode, pts) in enumerate(lost.items()):
        colour = COLOURS[mode]
        path = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in [(0, 0)] + pts)
        out.append(f'<polyline class="{mode}" points="{path}" fill="none" stroke="{colour}" '
                   f'stroke-width="2"/>')
        for k, v in pts:
            out.append(f'<circle cx="{x(k):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>')
        ly = TOP + 10 + 18 * n
        out.append(f'<line x1="{LEFT + 15}" y1="{ly}" x2="{LEFT + 40}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{LEFT + 46}" y="{ly + 4}">{mode}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    src = Path(argv[0] if argv else "results/bench-intr.jsonl")
    dst = Path(argv[1] if len(argv) > 1 else "docs/intr-interference.svg")
    try:
        base, lines = series(load(src))
    except (OSError, ValueError, KeyError) as exc:
        print(f"plot_intr: {src}: {exc}", file=sys.stderr)
        return 1
    dst.write_text(render(base, lines))
    print(f"plot_intr: wrote {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
