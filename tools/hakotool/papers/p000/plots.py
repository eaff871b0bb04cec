"""Draw paper 000's Fig. 6 (interference) from intrbench's result lines.

    ./hako paper 000 plots [RESULTS.jsonl] [OUT.svg]

defaults: results/bench-intr.jsonl and docs/intr-interference.svg.

Reads the "intr-interference" records of `./hako bench intr` (loop counts
of a compute process in 1 s of guest time, with k = 1..10 interrupts per
10 ms handled sequentially or packed, and the no-I/O baseline) and draws
them with matplotlib (tools/hakotool/plots.py, the report's plots, whose
SVG is the same byte for byte on every run): the loop counts per k in the
paper's form, and beside them the loops the I/O took away (under icount
the whole I/O load is a fraction of a percent, so the loop counts draw
as nearly flat lines).  `make report` draws the same figure into
docs/report/.

The parsing is a pure function (series) so the host tests can feed it records.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ... import plots


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


def render(base: int, lines: dict[str, list[tuple[int, int]]]) -> str:
    """The SVG text (matplotlib): loops and loops lost to I/O against k."""
    return plots.interference(base, lines)


def main(argv: list[str]) -> int:
    src = Path(argv[0] if argv else "results/bench-intr.jsonl")
    dst = Path(argv[1] if len(argv) > 1 else "docs/intr-interference.svg")
    try:
        base, lines = series(load(src))
    except (OSError, ValueError, KeyError) as exc:
        print(f"paper 000 plots: {src}: {exc}", file=sys.stderr)
        return 1
    dst.write_text(render(base, lines))
    print(f"paper 000 plots: wrote {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
