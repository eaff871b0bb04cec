"""Draw paper 004's release-latency histograms from isochbench's result lines.

    ./hako paper 004 plots [RESULTS.jsonl] [OUT.svg]

defaults: results/bench-isoch.jsonl and build/isoch-latency.svg.

Reads the "isoch_hist" records of `./hako bench isoch` (one per load and
CPU: 500 releases of a 1 ms periodic thread, latency in 1 µs buckets, the
last bucket holding the rest) and draws one panel per load with a line per
CPU (tools/hakotool/plots.py: the same SVG bytes for the same records).
The histograms move by tens of instructions from run to run, so the report
draws them from a committed sitting (results/bench-isoch.jsonl) that `make
report` does not rerun (report.py, section004_latency).

The parsing is a pure function (series) so the host tests can feed it records.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ... import plots


def series(records) -> tuple[list[tuple[str, dict[int, list[int]]]], int]:
    """[(load, {cpu: histogram})] in the order the loads ran, and the bucket width."""
    loads: dict[str, dict[int, list[int]]] = {}
    bucket = 0
    for r in records:
        if r.get("kind") != "isoch_hist":
            continue
        loads.setdefault(r["load"], {})[r["cpu"]] = list(r["hist"])
        bucket = bucket or int(r.get("bucket_ns", 1000))
    if not loads:
        raise ValueError("no isoch_hist records (run ./hako bench isoch)")
    return list(loads.items()), bucket


def main(argv: list[str]) -> int:
    src = Path(argv[0] if argv else "results/bench-isoch.jsonl")
    dst = Path(argv[1] if len(argv) > 1 else "build/isoch-latency.svg")
    try:
        loads, bucket = series([json.loads(line) for line in src.read_text().splitlines()
                                if line.strip()])
    except (OSError, ValueError, KeyError) as exc:
        print(f"paper 004 plots: {src}: {exc}", file=sys.stderr)
        return 1
    dst.write_text(plots.release_latency(loads, bucket))
    print(f"paper 004 plots: wrote {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
