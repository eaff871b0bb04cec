"""Paper 002's basic operations composed from its partial operations: Fig. 5's
estimate bars and Fig. 8's saving, per operation and per partial operation.

The paper splits each basic operation (a request, a result return) into five
partial operations (system call, ICA paste, ICA peel, first access to an
ICA, process switch) and gives their times in Table 2.  Both of its
comparisons here are sums of those parts:

  * Fig. 5's estimate bars: the partial operations' times on AnT's
    Pentium 4 (2.8 GHz, from the authors' earlier paper) multiplied by 11.7,
    the clock ratio to its 240 MHz SH-4, beside the SH-4's measured times.
    Hako's estimate is the same arithmetic on its own `p4` modelled cycles.
    The paper prints its estimates in the figure only, not as numbers.
  * Fig. 8's saving per operation: which partial operation saves what.
    The paper's basic operations are composed from Table 2 as its text
    describes them (paper_counts); Hako's the same way from its Table 2
    (its unit costs, tables.unit_costs), and also as ispcbench's one-way
    windows hold them (hako_counts), which are measured too (instructions,
    and modelled cycles where the window has a region).

Counts are keyed as tables.unit_costs' units: "syscall", "switch", and
"paste", "peel", "first_access" with "_server" for the server's side.
Pure functions of the figures, tested in tests/harness/test_ispc_partials.py.
"""
from __future__ import annotations

from .criteria import PAPER_T2
from .tables import MODES, num, table, unit_costs

# Table 1 and §3.1.1: the Pentium 4's clock, the SH-4's, and the factor the
# paper multiplied the Pentium 4's times by (2.8 GHz / 240 MHz, "about 11.7").
P4_MHZ = 2800.0
SH4_MHZ = 240.0
PAPER_SCALE = 11.7

# The paper's five partial operations, each with its units on both sides.
PARTS = (("system call", ("syscall",)), ("ICA paste", ("paste", "paste_server")),
         ("ICA peel", ("peel", "peel_server")),
         ("first access", ("first_access", "first_access_server")),
         ("process switch", ("switch",)))
# The paper's Table 2 by unit: (name in PAPER_T2, its column after the optimisation:
# 1 an OS server, 2 an application).
PAPER_UNITS = {"syscall": ("syscall", 2), "paste": ("ica_paste", 2),
               "paste_server": ("ica_paste", 1), "peel": ("ica_peel", 2),
               "peel_server": ("ica_peel", 1), "first_access": ("first_access", 2),
               "first_access_server": ("first_access", 1), "switch": ("process_switch", 1)}


def paper_units(mode: str, t2: dict = PAPER_T2) -> dict[str, float]:
    """The paper's Table 2 as unit costs (µs): before, or after the optimisation."""
    return {unit: t2[name][0 if mode == "baseline" else col]
            for unit, (name, col) in PAPER_UNITS.items()}


def side(unit: str, requester: str, own: bool) -> str:
    """UNIT on the requester's side (OWN) or the server's; an application's
    units have no suffix."""
    server = not own or requester == "server"
    return f"{unit}_server" if server else unit


def paper_counts(op: str, requester: str, icas: int) -> dict[str, int]:
    """The partial operations of one request or result return as the paper
    describes them (§2.3.1, §3.1.1): one system call, the ICAs peeled from
    the sender and pasted into the receiver, one switch, and the receiver's
    first access to the control ICA (the paper's data ICA is not touched in
    Fig. 8).  The counts are the same before and after the optimisation."""
    own = op == "request"
    return {"syscall": 1, side("peel", requester, own): icas,
            side("paste", requester, not own): icas,
            side("first_access", requester, not own): 1, "switch": 1}


# ispcbench's one-way figures (user/ispcbench/basic.c, roles.c) and what their
# windows hold, for Hako's application client and end server.
HAKO_WINDOWS = {
    "sync_request": "the client's call until the server's receive returns, before the "
                    "server touches the control ICA",
    "sync_return": "the server's reply until the client has read its control ICA and data ICA",
    "async_request": "the client's call alone: no switch, the server's side comes later",
    "async_return": "the server's reply without waiting, timed in the server, no switch",
}


def hako_counts(name: str, mode: str, icas: int) -> dict[str, int]:
    """The partial operations inside ispcbench's window NAME (HAKO_WINDOWS).
    In fast mode a lone synchronous client keeps its ICAs mapped while it
    waits (kernel/ipc/ispc.c, `keep`): no peel from it, no paste back."""
    kept = mode == "fast"
    if name == "sync_request":
        return {"syscall": 1, "peel": 0 if kept else icas, "paste_server": icas, "switch": 1}
    if name == "sync_return":
        return {"syscall": 1, "peel_server": icas, "paste": 0 if kept else icas,
                "first_access": icas, "switch": 1}
    if name == "async_request":
        return {"syscall": 1, "peel": icas}
    return {"syscall": 1, "peel_server": icas}


def compose(units: dict[str, float] | None, counts: dict[str, int]) -> dict[str, float] | None:
    """Each of PARTS' cost in one operation (count x unit) and "total"."""
    if units is None:
        return None
    out = {label: sum(counts.get(u, 0) * units[u] for u in keys) for label, keys in PARTS}
    out["total"] = sum(out.values())
    return out


def savings(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Per part and in total, what the optimisation saves, in points of the
    operation's time before it (positive: cheaper after)."""
    whole = before["total"]
    return {k: 100.0 * (before[k] - after[k]) / whole for k in before}


# ---- Fig. 5: the estimate bars ----------------------------------------------

# Fig. 5's request: a synchronous one from an application with a 4 KB data ICA.
FIG5_REQUEST = paper_counts("request", "application", 2)


def estimate_us(cycles: float, scale: float = PAPER_SCALE) -> float:
    """The paper's estimate from a Pentium 4 figure: its time at P4_MHZ, x SCALE."""
    return scale * cycles / P4_MHZ


def fig5_estimate(get, t2: dict = PAPER_T2) -> dict | None:
    """Fig. 5's request by partial operation: Hako's modelled cycles (GET, the
    `p4` profile), its estimate for the SH-4 scaled as the paper did, and the
    paper's measured SH-4 times (Table 2, before); None without figures."""
    hako = compose(unit_costs(get, "baseline") if get else None, FIG5_REQUEST)
    if hako is None:
        return None
    paper = compose(paper_units("baseline", t2), FIG5_REQUEST)
    rows = {label: {"count": sum(FIG5_REQUEST.get(u, 0) for u in keys),
                    "cycles": hako[label], "estimate": estimate_us(hako[label]),
                    "paper": paper[label]}
            for label, keys in PARTS}
    rows["total"] = {"count": None, "cycles": hako["total"],
                     "estimate": estimate_us(hako["total"]), "paper": paper["total"]}
    return rows


def shares(rows: dict, column: str) -> dict[str, float]:
    """Each partial operation's share (%) of the request in COLUMN."""
    return {label: 100.0 * rows[label][column] / rows["total"][column] for label, _ in PARTS}


def ranking(share: dict[str, float]) -> list[str]:
    """The partial operations from the largest share down."""
    return sorted(share, key=lambda k: -share[k])


def fig5_table(rows: dict | None) -> list[str]:
    if rows is None:
        return ["(no `p4` figures: `./hako bench ispc --model p4`)"]
    est, pap = shares(rows, "estimate"), shares(rows, "paper")
    body = []
    for label, _ in PARTS:
        r = rows[label]
        body.append([label, str(r["count"]), num(r["cycles"]), num(r["estimate"], 2),
                     f"{est[label]:.0f} %", num(r["paper"], 1), f"{pap[label]:.0f} %",
                     f"×{r['estimate'] / r['paper']:.2f}"])
    t = rows["total"]
    body.append(["request", "", num(t["cycles"]), num(t["estimate"], 2), "100 %",
                 num(t["paper"], 1), "100 %", f"×{t['estimate'] / t['paper']:.2f}"])
    return table(["partial operation", "count", "Hako p4 cycles", "Hako estimate (µs)",
                  "share", "paper measured (µs)", "share", "estimate / measured"], body)


def fig5_bars(rows: dict | None) -> list[tuple[str, list[tuple[str, float]]]]:
    """The plot's two stacked bars (µs): [(bar label, [(part, µs)])]."""
    if rows is None:
        return []
    return [("paper: SH-4 measured (Table 2)", [(p, rows[p]["paper"]) for p, _ in PARTS]),
            ("Hako: p4 cycles x 11.7 / 2.8 GHz", [(p, rows[p]["estimate"]) for p, _ in PARTS])]


# ---- Fig. 8: the saving per operation ------------------------------------------

# (label, Hako's figure, the paper's operation, its requester).
F8_OPS = (("synchronous request", "sync_request", "request", "application"),
          ("synchronous return", "sync_return", "return", "application"),
          ("asynchronous request", "async_request", "request", "server"),
          ("asynchronous return", "async_return", "return", "server"))
DATAS = (("nodata", "none", 1), ("4k", "4 KiB", 2))


def fig8_rows(f, profile: str) -> list[dict]:
    """Per operation and data size: Hako's measured saving (instructions, its
    window), its window composed from its Table 2 (PROFILE cycles), and the
    operation composed the paper's way from Hako's Table 2 and from the
    paper's, each with its savings per part (savings())."""
    get = (lambda n: f.modelled(profile, n)) if f else None
    units = {m: unit_costs(get, m) if get else None for m in MODES}
    out = []
    for label, name, op, requester in F8_OPS:
        for data, tag, icas in DATAS:
            counts = paper_counts(op, requester, icas)
            measured = [f.insns(f"{name}_{data}_{m}") if f else None for m in MODES]
            cycles = [get(f"{name}_{data}_{m}") if get else None for m in MODES]
            window = [compose(units[m], hako_counts(name, m, icas)) for m in MODES]
            hako = [compose(units[m], counts) for m in MODES]
            paper = [compose(paper_units(m), counts) for m in MODES]
            out.append({"label": label, "name": name, "data": tag, "requester": requester,
                        "measured": measured, "measured_saving": saved(*measured),
                        "cycles": cycles, "cycles_saving": saved(*cycles),
                        "paper": paper, "paper_saving": savings(*paper),
                        "hako_saving": savings(*hako) if None not in hako else None,
                        "window_saving": savings(*window) if None not in window else None})
    return out


def saved(before, after):
    """What AFTER saves on BEFORE, %; None without both."""
    return None if not before or after is None else 100.0 * (before - after) / before


def pct_cell(value) -> str:
    return "-" if value is None else f"{value:.1f} %"


def total(saving: dict | None):
    return saving["total"] if saving else None


def published(name: str, pub: dict) -> tuple[float, float]:
    """The paper's range for a request or a result return (Fig. 8, §4.1)."""
    return pub["sync_request" if name.endswith("request") else "sync_return"]


def fig8_saving_table(rows: list[dict], pub: dict, profile: str) -> list[str]:
    """Per operation: Hako's measured saving and its window composed, the
    paper's composition from each Table 2, and the paper's published range."""
    body = []
    for r in rows:
        lo, hi = published(r["name"], pub)
        m, c, p = r["measured"], r["cycles"], r["paper"]
        body.append([r["label"], r["data"], r["requester"],
                     f"{num(m[0])} → {num(m[1])}" if None not in m else "-",
                     pct_cell(r["measured_saving"]),
                     f"{num(c[0])} → {num(c[1])}" if None not in c else "-",
                     pct_cell(r["cycles_saving"]), pct_cell(total(r["window_saving"])),
                     pct_cell(total(r["hako_saving"])),
                     f"{num(p[0]['total'], 1)} → {num(p[1]['total'], 1)}",
                     pct_cell(r["paper_saving"]["total"]), f"{lo:g}–{hi:g} %"])
    return table(["operation", "data", "paper's requester", "Hako insns (its window)",
                  "saved", f"Hako {profile} cycles (its window)", "saved",
                  f"its window composed ({profile} cycles)",
                  f"paper's composition ({profile} cycles)", "paper composed (µs)", "saved",
                  "paper published"], body)


def fig8_parts_table(rows: list[dict]) -> list[str]:
    """Per operation, what each partial operation saves, in points of the
    operation before: the paper's composition from its Table 2 / the same
    composition from Hako's / Hako's window."""
    def cell(r, part):
        return " / ".join("-" if s is None else f"{s[part]:+.1f}"
                          for s in (r["paper_saving"], r["hako_saving"], r["window_saving"]))
    body = [[r["label"], r["data"]] + [cell(r, p) for p, _ in PARTS] + [cell(r, "total")]
            for r in rows]
    return table(["operation", "data"] + [p for p, _ in PARTS] + ["saved"], body)


def both(rows: list[dict], key: str, part: str = "total") -> str:
    """A figure of the no-data and 4 KiB rows of one operation: "a / b"."""
    return " / ".join("-" if r[key] is None else f"{r[key][part]:.1f}" for r in rows)


def parts_text(pair: list[dict], key: str) -> str:
    """The parts that save (or cost) a point or more in either row of PAIR,
    largest first: "first access 37.5 / 30.2, process switch 9.6 / 7.7"."""
    parts = [p for p, _ in PARTS if any(abs(r[key][p]) >= 1.0 for r in pair)]
    parts.sort(key=lambda p: -pair[0][key][p])
    return ", ".join(f"{p} {both(pair, key, p)}" for p in parts) or "no part a point"


def fig8_explanation(rows: list[dict], profile: str) -> list[str]:
    """A sentence per operation (its two data sizes together), from the rows."""
    lines = []
    for label, name, _, requester in F8_OPS:
        pair = [r for r in rows if r["name"] == name]
        if any(r["hako_saving"] is None for r in pair):
            continue
        measured = " / ".join(pct_cell(r["measured_saving"]).removesuffix(" %") for r in pair)
        cycles = " / ".join(pct_cell(r["cycles_saving"]).removesuffix(" %") for r in pair)
        cycles = "" if "-" in cycles.split(" / ") else f" and {cycles} % of its `{profile}` cycles"
        lines.append(
            f"* **{label.capitalize()}** (no data / 4 KiB; the paper's requester: "
            f"{'an' if requester[0] in 'aeiou' else 'a'} {requester}). The paper's "
            f"composition saves {both(pair, 'paper_saving')} %, in points: "
            f"{parts_text(pair, 'paper_saving')}. The same composition from Hako's "
            f"`{profile}` cycles saves {both(pair, 'hako_saving')} %: "
            f"{parts_text(pair, 'hako_saving')}. ispcbench's window ({HAKO_WINDOWS[name]}) "
            f"saves {measured} % of its instructions{cycles} measured, "
            f"{both(pair, 'window_saving')} % composed in `{profile}` cycles: "
            f"{parts_text(pair, 'window_saving')}.")
    return lines
