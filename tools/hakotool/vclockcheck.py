"""`./hako bench vclock`: the cost model's per-vCPU clocks on work whose
parallel elapsed time is known (user/vclockcheck).

The guest runs the same work three ways, each a global region: one thread
alone; K threads at once, one per CPU (the elapsed time should be one's
divided by K); the same K threads serialised by one lock (one's, the sum).
This module reads each way's elapsed time from the joined records (the
plugin's `elapsed` of the region, tools/costmodel/vclock.h) and judges the
two ratios against what they must be:

    parallel:  one / parallel   within TOLERANCE of K
    serial:    serial / one     within TOLERANCE of 1

for both clocks (modelled cycles and instructions).  Under icount the run
repeats exactly, so the figures do too.
"""
from __future__ import annotations

TOLERANCE = 0.03                 # "within a few per cent" (issue of the instrument)
CLOCKS = ("cycles", "insns")


def elapsed_by_way(records: list[dict]) -> tuple[int, dict[str, dict[str, int]]]:
    """(K, {way: {"cycles": ..., "insns": ...}}) from the joined vclock records."""
    k, found = 0, {}
    for r in records:
        if r.get("kind") != "vclock":
            continue
        elapsed = (r.get("model") or {}).get("elapsed")
        if elapsed:
            found[r["way"]] = elapsed
        if r["way"] != "one":
            k = int(r["k"])
    return k, found


def checks(records: list[dict]) -> list[dict]:
    """One row per (way, clock): the measured ratio, the expected one, whether it holds."""
    k, ways = elapsed_by_way(records)
    rows = []
    one = ways.get("one")
    for way, expect in (("parallel", float(k)), ("serial", 1.0)):
        for clock in CLOCKS:
            measured = None
            if one and way in ways and ways[way][clock]:
                a, b = one[clock], ways[way][clock]
                measured = a / b if way == "parallel" else b / a
            ok = measured is not None and abs(measured - expect) <= TOLERANCE * expect
            rows.append({"way": way, "clock": clock, "k": k, "measured": measured,
                         "expected": expect, "ok": ok,
                         "one": one[clock] if one else None,
                         "elapsed": ways[way][clock] if way in ways else None})
    return rows


def render(records: list[dict], model: str) -> str:
    rows = checks(records)
    if not rows or rows[0]["one"] is None:
        return "vclock: no elapsed times in the records (run with --model PROFILE)\n"
    k = rows[0]["k"]
    lines = [f"vclock: the same work one way, K = {k} CPUs in parallel and K serialised by a "
             f"lock; parallel elapsed time on the per-vCPU clocks ({model})",
             f"  {'way':<9} {'clock':<7} {'one':>12} {'elapsed':>12} {'ratio':>7} "
             f"{'expected':>8}  verdict"]
    for row in rows:
        what = "one / parallel" if row["way"] == "parallel" else "serial / one"
        ratio = f"{row['measured']:.3f}" if row["measured"] is not None else "-"
        lines.append(f"  {row['way']:<9} {row['clock']:<7} {row['one'] or 0:>12,} "
                     f"{row['elapsed'] or 0:>12,} {ratio:>7} {row['expected']:>8.1f}  "
                     f"{'holds' if row['ok'] else 'FAILS'} ({what}, within "
                     f"{TOLERANCE:.0%})")
    return "\n".join(lines) + "\n"


def failures(records: list[dict]) -> str | None:
    """Why the check fails, or None."""
    bad = [f"{r['way']} {r['clock']}" for r in checks(records) if not r["ok"]]
    return ("vclock ratios off: " + ", ".join(bad)) if bad else None
