"""Paper 000's grouping, trigger and adaptive experiments: their figures and text tables.

intrbench's parts 5-8 (`./hako bench intr`) print one record per run:
  intr-grouping  both NICs interrupting CPU 1: sequential, packed grouped by
                 type, packed ungrouped (batches, batches holding more than one
                 type, stretches of one type's main handlers, instructions per
                 interrupt);
  intr-urgent    the RTL8139 packed, the e1000's interrupts masked, packed
                 beside it, or sequential beside it (the urgent trigger);
  intr-time      the RTL8139 packed with N never reached and T swept (the time
                 trigger), and sequential;
  intr-adaptive  adaptive N and T against fixed settings over arrival rates.
figures() gathers them (the criteria and the report read it); render() is the
bench table's text.  Every figure is in guest instructions (icount).
"""
from __future__ import annotations

GROUP_MODES = ("sequential", "grouped", "ungrouped")
URGENT_CASES = ("closed", "packed", "urgent")


def figures(records: list[dict]) -> dict:
    """{"grouping": {mode: rec}, "urgent": {case: rec}, "time": [packed recs by T],
    "time_seq": rec or None, "adaptive": [recs]} from one run's records."""
    of = lambda kind: [r for r in records if r.get("kind") == kind]  # noqa: E731
    time = of("intr-time")
    return {
        "grouping": {r["mode"]: r for r in of("intr-grouping")},
        "urgent": {r["case"]: r for r in of("intr-urgent")},
        "time": sorted((r for r in time if r["mode"] == "packed"), key=lambda r: r["t_ns"]),
        "time_seq": next((r for r in time if r["mode"] == "sequential"), None),
        "adaptive": of("intr-adaptive"),
    }


def _table(head: tuple, rows: list[tuple]) -> list[str]:
    widths = [max(len(str(c)) for c in col) for col in zip(head, *rows)]
    line = lambda row: "  ".join(str(c).rjust(w) for c, w in zip(row, widths))  # noqa: E731
    return [line(head)] + [line(r) for r in rows]


def grouping_rows(g: dict) -> list[tuple]:
    return [(m, f"{r['interrupts']:,} ({r['rtl8139']}+{r['e1000']})", r["batches"], r["mixed"],
             r["runs"], r["type_slots"], f"{r['per_interrupt']:,}")
            for m, r in ((m, g[m]) for m in GROUP_MODES if m in g)]


GROUPING_HEAD = ("mode", "interrupts (rtl+e1000)", "batches", "mixed", "stretches",
                 "types in batches", "insns/interrupt")


def urgent_rows(u: dict) -> list[tuple]:
    return [(c, r["e1000_interrupts"], r["batches"], r["by_n"], r["by_tick"], r["by_urgent"],
             f"{r['delay']:,}", f"{r['delay_max']:,}")
            for c, r in ((c, u[c]) for c in URGENT_CASES if c in u)]


URGENT_HEAD = ("e1000", "its interrupts", "batches", "by N", "by tick", "by urgent",
               "mean delay", "max delay")


def time_rows(f: dict) -> list[tuple]:
    rows = []
    if f["time_seq"]:
        s = f["time_seq"]
        rows.append(("sequential", "—", "—", "—", f"{s['delay']:,}", f"{s['delay_max']:,}", "—",
                     "—"))
    for r in f["time"]:
        rows.append((f"T {r['t_ns'] // 1000} µs", r["batches"], r["by_t"],
                     r["by_n"] + r["by_tick"] + r["by_other"], f"{r['delay']:,}",
                     f"{r['delay_max']:,}", f"{r['wait_max']:,}", f"{r['wait_model']:,}"))
    return rows


TIME_HEAD = ("run", "batches", "by T", "by other", "mean delay", "max delay", "max wait",
             "model mean wait")


def adaptive_rows(a: list[dict]) -> list[tuple]:
    return [(f"{r['rate']:,}", r["mode"], f"{r['loops_lost']:,}", f"{r['delay']:,}", r["n_now"],
             f"{r['t_now_ns'] // 1000:,}") for r in a]


ADAPTIVE_HEAD = ("frames/s", "mode", "loops lost", "mean delay", "N now", "T now (µs)")


def render(records: list[dict]) -> str:
    """The four experiments as text tables, for `./hako bench intr`; "" without them."""
    f = figures(records)
    blocks = []
    if f["grouping"]:
        blocks.append(["grouping by device type (both NICs on CPU 1; instructions):"]
                      + _table(GROUPING_HEAD, grouping_rows(f["grouping"])))
    if f["urgent"]:
        blocks.append(["urgent trigger (RTL8139 packed, N 10; its delays in instructions):"]
                      + _table(URGENT_HEAD, urgent_rows(f["urgent"])))
    if f["time"]:
        blocks.append(["time trigger T (RTL8139 packed, N 32 never reached; instructions):"]
                      + _table(TIME_HEAD, time_rows(f)))
    if f["adaptive"]:
        blocks.append(["adaptive N and T against fixed settings (loops in 200 ms on CPU 1):"]
                      + _table(ADAPTIVE_HEAD, adaptive_rows(f["adaptive"])))
    return "\n\n".join("\n".join(b) for b in blocks) + "\n" if blocks else ""
