"""Paper 001 in parallel elapsed time: the cost model's per-vCPU clocks.

The plugin (tools/costmodel/vclock.h) gives every vCPU a clock that
advances by that vCPU's own modelled cycles (and, as a second figure, its
instructions), stands still while it is halted or spinning, and is carried
from vCPU to vCPU by the kernel's synchronisation points (a lock handed
on, a thread woken, a cross-CPU call).  A global region's parallel
elapsed time is the clock of the vCPU that ended it minus the clock of
the vCPU that began it; the plugin prints it on every line of the region
("elapsed_cycles", "elapsed_insns").

iotest (user/iotest) puts each run of Table 1 and Table 2 in a global
region of its own, so each run's result line names its region and this
module reads that run's parallel elapsed time, and the Σ of every vCPU's
instructions (the summed work that icount's elapsed time stands for)
beside it.  Device time that no vCPU spends (testdev's delay, a disk's
service time) is not on any clock: a halted vCPU's clock does not move.

    python3 -m hakotool.papers.p001.parallel results/bench-mp.jsonl

prints, per device, wait count and K, the funnelled and symmetric
parallel elapsed times, the speed-up funnelled/symmetric and the summed
work, from the run's file and the plugin's file beside it.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

from ...model import load_model

# The figure tables.py shows as a source of its Table 1 and 2 rows.
LABEL = "parallel elapsed (cost model clocks, modelled cycles)"
LABEL_INSNS = "parallel elapsed (cost model clocks, instructions)"
UNITS = {LABEL: "elapsed_cycles", LABEL_INSNS: "elapsed_insns"}


def load_elapsed(path: Path) -> dict[int, dict[str, int]]:
    """Per region: its elapsed_cycles and elapsed_insns and the Σ of its
    vCPUs' instructions ("work"), from the plugin's lines; {} without them."""
    if not path.exists():
        return {}
    out: dict[int, dict[str, int]] = {}
    for region, lines in load_model(path).regions.items():
        timed = [line for line in lines if "elapsed_cycles" in line]
        if timed:
            out[region] = {"work": sum(int(line.get("insns", 0)) for line in timed),
                           "elapsed_cycles": int(timed[0]["elapsed_cycles"]),
                           "elapsed_insns": int(timed[0]["elapsed_insns"])}
    return out


def cells(records: list[dict], elapsed: dict[int, dict[str, int]],
          unit: str = "elapsed_cycles") -> dict[tuple, list[int]]:
    """{(table, dev, wait, k, setting): [figure per rep]}, as mp_tables.cell_values,
    the figure being each run's UNIT ("elapsed_cycles", "elapsed_insns" or
    "work"); runs without the plugin's figure are left out."""
    out: dict[tuple, list[int]] = {}
    for r in records:
        if r.get("kind") != "iotest" or r.get("failed"):
            continue
        row = elapsed.get(r.get("region", -1))
        if not row or unit not in row:
            continue
        setting = r["mode"] if r["table"] == "t1" else r["policy"]
        out.setdefault((r["table"], r["dev"], r["wait"], r["k"], setting), []).append(row[unit])
    return out


def sources(boots: list[tuple[list[dict], dict[int, dict[str, int]]]]) -> dict[str, list[dict]]:
    """mp_tables' figure sources of the clocks: {label: [per-boot cells]}, empty ones dropped."""
    found = {label: [c for records, el in boots if (c := cells(records, el, unit))]
             for label, unit in UNITS.items()}
    return {label: per_boot for label, per_boot in found.items() if per_boot}


def _median(values: list[int] | None) -> float | None:
    return statistics.median(values) if values else None


def elapsed_rows(records: list[dict], elapsed: dict[int, dict[str, int]]) -> list[dict]:
    """Table 1 per (dev, wait, k): funnelled and symmetric parallel elapsed
    time (cycles and instructions, median of the reps), the speed-up
    funnelled/symmetric and each mode's summed work."""
    by = {unit: cells(records, elapsed, unit) for unit in ("elapsed_cycles", "elapsed_insns", "work")}
    keys = sorted({key[1:4] for key in by["elapsed_cycles"] if key[0] == "t1"})
    rows = []
    for dev, wait, k in keys:
        row: dict = {"dev": dev, "wait": wait, "k": k}
        for mode in ("funnel", "symmetric"):
            for unit, values in by.items():
                row[f"{mode}_{unit}"] = _median(values.get(("t1", dev, wait, k, mode)))
        f, s = row["funnel_elapsed_cycles"], row["symmetric_elapsed_cycles"]
        row["speedup"] = f / s if f and s else None
        rows.append(row)
    return rows


def _num(value) -> str:
    return "—" if value is None else f"{value:,.0f}"


def elapsed_table(records: list[dict], elapsed: dict[int, dict[str, int]]) -> str:
    """elapsed_rows as markdown, one table for every device and wait count."""
    rows = elapsed_rows(records, elapsed)
    if not rows:
        return ""
    lines = ["| device · wait · K | funnel elapsed, cycles | symmetric elapsed, cycles "
             "| speed-up funnel/symmetric | funnel elapsed, insns | symmetric elapsed, insns "
             "| funnel Σ work, insns | symmetric Σ work, insns |",
             "|---|" + "---|" * 7]
    for r in rows:
        speed = "—" if r["speedup"] is None else f"{r['speedup']:.2f}"
        lines.append(f"| {r['dev']} · {r['wait']} · {r['k']} | {_num(r['funnel_elapsed_cycles'])} "
                     f"| {_num(r['symmetric_elapsed_cycles'])} | {speed} "
                     f"| {_num(r['funnel_elapsed_insns'])} | {_num(r['symmetric_elapsed_insns'])} "
                     f"| {_num(r['funnel_work'])} | {_num(r['symmetric_work'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from hakotool.results import load_records
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    for name in args:
        path = Path(name)
        model = path.with_name(path.name.removesuffix(".jsonl") + ".model.jsonl")
        table = elapsed_table(load_records(path), load_elapsed(model))
        print(f"## {path}\n\n{table or '(no runs with the plugin clocks)'}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
