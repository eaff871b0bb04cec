"""Paper 002 (fast server communication on AnT, SH-4): published numbers and criteria.

Hako's figures come from ispcbench (results/bench-ispc.jsonl, instructions)
and its cost-model runs (bench-ispc-PROFILE.joined.jsonl).  The paper's are
µs on a 240 MHz SH-4, so the criteria compare relative changes (fast against
baseline) and shares, judged on the modelled cycles of JUDGED_PROFILE (time,
with TLB and cache misses priced; the Pentium 4 profile, the machine AnT ran
on before its SH-4 port), except Fig. 8's asynchronous request (the call
alone), which ispcbench measures in instructions only.
"""
from __future__ import annotations

from pathlib import Path

from ...results import load_records
from ...verdict import Verdict, decide, fmt, holds, ran, size, size_in

# Table 2, µs on the SH-4: before, and after for an OS server and for an
# application process.
PAPER_T2 = {
    "syscall": (1.2, 1.2, 1.2),
    "ica_paste": (1.5, 1.5, 5.8),
    "ica_peel": (4.8, 1.8, 5.7),
    "first_access": (10.3, 0.5, 5.1),
    "process_switch": (8.3, 5.8, 5.8),
}
# Fig. 5: the share (%) of a request in paste, peel, first access and switch.
PAPER_FIG5_SHARE = 90.0
# Fig. 8: what the optimisation saves (%), request and result return, over
# the paper's data sizes (no data ICA, a 4 KB one).
PAPER_FIG8 = {"sync_request": (48.0, 55.0), "sync_return": (24.0, 53.0)}
# Fig. 9: direct return saves about this much (%) at every depth.
PAPER_FIG9_SAVING = 40.0
JUDGED_PROFILE = "p4"
# The profile name under which a criterion's figures are instructions, not
# a cost model's cycles (sh4.Judged without a join of the same run).
INSNS = "insns"
# A change of less than this (%) counts as none ("unchanged" in Table 2).
UNCHANGED = 5.0
# Fig. 9's "at every depth": the savings at depths >= 2 within this factor
# of each other.
FLAT_FACTOR = 1.5
# Table 2's rows: (operation, Hako's name, side, paper column: 1 server, 2 application).
T2_ROWS = (("system call", "syscall", "", 2), ("ICA paste, server", "ica_paste", "server", 1),
           ("ICA paste, application", "ica_paste", "", 2),
           ("ICA peel, server", "ica_peel", "server", 1),
           ("ICA peel, application", "ica_peel", "", 2),
           ("first access, server", "first_access", "server", 1),
           ("first access, application", "first_access", "", 2),
           ("process switch", "process_switch", "", 2))
# The optimisation's principal effects: the server's peel and first access.
T2_MAIN = ("ICA peel, server", "first access, server")


def load_figures(results: Path):
    """ispc_tables.Figures of the result files, or None without bench-ispc.jsonl."""
    icount = results / "bench-ispc.jsonl"
    if not icount.is_file():
        return None
    from . import tables as ispc_tables
    joined = ispc_tables.joins(icount)
    return ispc_tables.Figures(load_records(icount), [load_records(p) for p in joined])


def change(before, after):
    """after against before, %; None without both."""
    if not before or after is None:
        return None
    return 100.0 * (after - before) / before


def unit_of(profile: str) -> str:
    """How a check names the figures it judged: "p4 cycles", or "insns" (INSNS)."""
    return "insns" if profile == INSNS else f"{profile} cycles"


def judged(f, profile: str):
    return (lambda name: f.modelled(profile, name)) if f else None


def missing(result: str, title: str, what: str) -> Verdict:
    return decide(result, title, [ran(what, False, "no results/bench-ispc.jsonl and "
                                      f"bench-ispc-{JUDGED_PROFILE}.joined.jsonl "
                                      f"(`./hako bench ispc --model {JUDGED_PROFILE}`)")])


def table2(f, pub: dict = PAPER_T2, profile: str = JUDGED_PROFILE) -> Verdict:
    """Table 2: partial operations before and after the optimisation.
    Reproduced: each operation changes as the paper's did, in direction and
    within ×2 of its relative size; where the paper's is unchanged, Hako's
    changes by less than UNCHANGED %.  Main: the server's peel and first
    access get cheaper (within ×10)."""
    title = "Table 2: partial operations, baseline against fast"
    get = judged(f, profile)
    if not get or get("syscall_baseline") is None:
        return missing("002 T2", title, "ispcbench's partial operations")
    checks = [ran("ispcbench's partial operations", True, "")]
    for label, base, side, col in T2_ROWS:
        names = [f"{base}_{side}_{m}" if side else f"{base}_{m}" for m in ("baseline", "fast")]
        hako = change(get(names[0]), get(names[1]))
        paper = change(pub[base][0], pub[base][col])
        if abs(paper) < UNCHANGED:
            checks.append(holds(f"{label} unchanged", hako is not None and abs(hako) < UNCHANGED,
                                f"{fmt(hako)} % against the paper's {fmt(paper)} %"))
        else:
            checks.append(size(f"{label} change", hako, paper, main=label in T2_MAIN, unit=" %"))
    return decide("002 T2", title, checks)


def fig5(f, share: float = PAPER_FIG5_SHARE, profile: str = JUDGED_PROFILE,
         t2: dict = PAPER_T2) -> Verdict:
    """Fig. 5: where a request goes before the optimisation (the paper's
    measurement: a 4 KB data ICA).  Reproduced: paste, peel, first access
    and switch are the majority of a baseline round trip (main), and the
    rest of it is within ×2 of the paper's rest (100 − 90 %); and the
    estimate bars (the request's partial operations from the PROFILE cycles,
    partials.fig5_estimate) have the paper's shape: the same partial
    operation the largest, the shares in the paper's order, each share
    within ×2 of the paper's (its Table 2 before, in the same request)."""
    title = "Fig. 5: a request's partial operations before the optimisation"
    get = judged(f, profile)
    if not get:
        return missing("002 Fig. 5", title, "ispcbench's round trip")
    from . import partials
    from . import tables as ispc_tables
    parts = ispc_tables.breakdown(get, True, "baseline")
    if not parts:
        return missing("002 Fig. 5", title, "ispcbench's round trip")
    four = 100.0 * (parts["total"] - parts["rest"] - parts["syscall"]) / parts["total"]
    checks = [ran("ispcbench's round trip", True, ""),
              holds("the four partial operations the majority", four > 50,
                    f"{fmt(four)} % of the round trip",
                    main=True),
              size("the rest of the round trip", 100 - four, 100 - share, unit=" %")]
    rows = partials.fig5_estimate(get, t2)
    if rows:
        hako, paper = partials.shares(rows, "estimate"), partials.shares(rows, "paper")
        top, mine = partials.ranking(paper), partials.ranking(hako)
        checks.append(holds(f"estimate: the {top[0]} the largest share", mine[0] == top[0],
                            f"the {mine[0]}, {fmt(hako[mine[0]])} % (the paper's "
                            f"{top[0]}: {fmt(paper[top[0]])} %)"))
        checks.append(holds("estimate: the shares in the paper's order", mine == top,
                            f"{', '.join(mine)} (the paper: {', '.join(top)})"))
        checks += [size(f"estimate: {part} share", hako[part], paper[part], unit=" %")
                   for part in top]
    return decide("002 Fig. 5", title, checks)


# Fig. 8's operations in ispcbench, the paper's range each is judged against,
# and whether it is a main check: the synchronous request and return, timed
# across the switch like the paper's; the asynchronous request is the call
# alone and the asynchronous return the server's reply alone (partials.HAKO_WINDOWS).
F8_CHECKS = (("sync_request", "sync_request", True), ("sync_return", "sync_return", True),
             ("async_request", "sync_request", False), ("async_return", "sync_return", False))


def fig8(f, pub: dict = PAPER_FIG8, profile: str = JUDGED_PROFILE) -> Verdict:
    """Fig. 8: the basic operations before and after.  Reproduced: the fast
    mode saves on each request and result return, with and without a 4 KiB
    data ICA, each within ×2 of the paper's range for requests or for
    returns (main: the synchronous ones positive and within ×10).  Judged
    on the PROFILE cycles of each one-way window, in instructions where it
    has no region (the asynchronous request); partials.py attributes the
    savings to the partial operations."""
    title = "Fig. 8: request and result return, baseline against fast"
    if not f or f.insns("sync_request_nodata_baseline") is None:
        return missing("002 Fig. 8", title, "ispcbench's basic operations")
    checks = [ran("ispcbench's basic operations", True, "")]
    for base, paper, main in F8_CHECKS:
        lo, hi = pub[paper]
        for data, tag in (("nodata", "no data"), ("4k", "4 KiB")):
            names = (f"{base}_{data}_baseline", f"{base}_{data}_fast")
            pair, unit = [f.modelled(profile, n) for n in names], unit_of(profile)
            if None in pair:
                pair, unit = [f.insns(n) for n in names], "insns"
            a, b = pair
            saved = None if not a or b is None else 100.0 * (a - b) / a
            checks.append(size_in(f"{base.replace('_', ' ')} saving, {tag} ({unit})", saved,
                                  lo, hi, main=main, unit=" %"))
    return decide("002 Fig. 8", title, checks)


def fig9(f, saving: float = PAPER_FIG9_SAVING, profile: str = JUDGED_PROFILE,
         mode: str = "fast") -> Verdict:
    """Fig. 9: direct against stepwise return through n servers.
    Reproduced: at every depth n >= 2 direct return saves within ×2 of the
    paper's saving (main: within ×10 at the deepest), and the saving is flat
    over depth (the largest at most FLAT_FACTOR times the smallest)."""
    title = "Fig. 9: direct against stepwise return, by depth"
    get = judged(f, profile)
    if not get:
        return missing("002 Fig. 9", title, "ispcbench's relays")
    from . import tables as ispc_tables
    step = ispc_tables.relay_series(get, mode, "stepwise")
    direct = ispc_tables.relay_series(get, mode, "direct")
    if len(step) < 2 or len(direct) != len(step):
        return missing("002 Fig. 9", title, "ispcbench's relays")
    savings = {n: 100.0 * (s - d) / s for n, (s, d) in enumerate(zip(step, direct), 1) if n >= 2}
    deepest = max(savings)
    checks = [ran("ispcbench's relays", True, "")]
    for n, value in savings.items():
        checks.append(size(f"saving at depth {n}", value, saving, main=n == deepest, unit=" %"))
    lo, hi = min(savings.values()), max(savings.values())
    checks.append(holds(f"flat over depth (within ×{FLAT_FACTOR})",
                        lo > 0 and hi / lo <= FLAT_FACTOR,
                        f"from {fmt(lo)} % to {fmt(hi)} % over depths 2…{deepest}"))
    return decide("002 Fig. 9", title, checks)


CRITERIA = (table2, fig5, fig8, fig9)


def verdicts(results: Path) -> list[Verdict]:
    """The x86 results (CRITERIA), then Table 2, Fig. 8 and Fig. 9 on SH-4 (sh4.py)."""
    from . import sh4
    f = load_figures(results)
    return [criterion(f) for criterion in CRITERIA] + sh4.verdicts(results)
