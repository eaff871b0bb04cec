"""Paper 004's section of the report: kperf, Tables 2, 3 and 4, Fig. 1.

Called by report.markdown() with the result folder, the plots dict it fills
and the paper's verdicts (criteria.py); returns the section's Markdown lines.
"""
from __future__ import annotations

from pathlib import Path

from .preempt import check_bound, own_sections, render_before_after
from ...reportkit import boot_of, draw, n, not_yet, read, status_block, table
from ...summary import render_kperf

def section(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 004 — HiTactix: automatic performance measurement", ""]
    recs = read(results, "bench-kperf.joined.jsonl") or read(results, "bench-kperf.jsonl")
    lines = render_kperf(recs)
    out += status_block(v)
    if not lines:
        return out + ["The measurement program: not run (no results/bench-kperf.jsonl: run "
                      "`./hako bench kperf --model modern`).", ""] + section004_preempt(results) \
            + section004_isoch(results) + section004_machines(results, figs)
    out += [f"Mode: QEMU **icount**, {boot_of(recs)}, `--net hub`, with the cost model "
            "`modern`. Units: best and worst are **guest instructions** (mean, min–max over "
            "kperf's runs); `b.cycles`/`w.cycles` are **modelled cycles** per call, best and "
            "worst (caches and TLB purged first by `perf_ctl`); misses per call. The paper's are "
            "µs on its four PCs. Run: `./hako bench kperf --model modern`.", ""]
    out += ["### Best and worst case of every kernel interface function (kperf)", ""]
    out += ["```"] + lines + ["```", ""]
    out += ["Under icount best and worst differ only where the state differs: the purge is "
            "invisible to an instruction count, so the modelled cycles are the figure to "
            "compare: a purge costs most where memory is touched most, and short calls grow "
            "most against their warm cost because every line of the entry path misses. The "
            "paper prints no per-call best and worst times, so no row compares directly; its "
            "Fig. 1 averages them across machines (below).", ""]
    out += section004_preempt(results)
    out += section004_isoch(results)
    out += section004_machines(results, figs)
    return out


PAPER004_ISOCH = (
    ("start of cyclic execution", "isoch_start", "ms"),
    ("stop of cyclic execution", "isoch_stop", "ms"),
    ("switch periodic→periodic", "switch_periodic_to_periodic", "µs"),
    ("switch normal→normal", "switch_normal_to_normal", "µs"),
)


def section004_preempt(results: Path) -> list[str]:
    """Table 2: the longest preemption-off section per call, before and after the
    serialising thread, from ./hako bench preempt."""
    from .criteria import BOUND_US, PAPER_T2, span
    title = (f"Table 2 (longest preemption-disabled section per function, "
             f"{span(PAPER_T2.values())} µs in the paper, all under {BOUND_US:g} µs)")
    runs = []
    for label, options in (("before", "serialise=off"), ("after", "serialise=on")):
        recs = (read(results, f"bench-preempt-{label}.joined.jsonl")
                or read(results, f"bench-preempt-{label}.jsonl"))
        if recs:
            runs.append((f"{label}: {options}", recs))
    if len(runs) != 2:
        return not_yet(title, "no results/bench-preempt-before/after.jsonl: run `./hako bench preempt`.")
    if own_sections(runs[-1][1], []):
        why = check_bound(runs[-1][1]) or "every context under the bound"
    else:
        why = "not checked: no cost-model figures (the TSC cannot tell, see above)"
    lines = render_before_after(runs)
    return [f"### {title}", "",
            f"Mode: QEMU **icount**, {boot_of(runs[-1][1])}, `irqtrace=on`, two boots: "
            "`serialise=off` (every "
            "long teardown inline, as before the serialising thread) and `serialise=on` "
            "(kernel/sched/serialiser.c). user/preemptstress runs large spawns, large unmaps, exits "
            "of processes with many threads and ICAs, and long ready queues. `own` is each "
            "section's length in **its own vCPU's instructions and modelled cycles** (cost model, "
            f"`pentium166` by default: paper 004's slowest PC), which is what the {BOUND_US:g} µs "
            "bound is "
            "checked on; `tsc` is the guest's clock under icount, which also counts the other "
            "vCPUs' turns and so reaches milliseconds without any long work (docs/results.md). "
            "Run: `./hako bench preempt`. "
            f"Result after: {why}.", "",
            "```"] + lines + ["```", ""]


def section004_machines(results: Path, figs: dict) -> list[str]:
    """Fig. 1 and 2: kperf's best and worst case across the paper's four PCs."""
    title = "Fig. 1 and Fig. 2 (relative best/worst times across machines)"
    from . import machines as km
    times = {}
    for p in km.PAPER_PROFILES:
        recs = read(results, f"kperf-machine-{p}.joined.jsonl")
        if not recs:
            return not_yet(title, f"no results/kperf-machine-{p}.joined.jsonl: run "
                           "`./hako paper 004 machines --run`.")
        times[p] = km.times_us(km.cycles_per_call(recs), km.CLOCK_MHZ[p])
    figs["kperf-machines.svg"] = draw("machine_comparison", km.REFERENCE, list(times),
                                      *km.fig1_figures(times, km.REFERENCE))
    return [f"### {title}", "",
            "Mode: QEMU **icount**, kperf booted once per cost-model profile of the paper's four "
            "PCs; each call's **modelled cycles** turned into time at the machine's clock, "
            "relative to the Pentium 166, best case (second of two calls) and worst case (caches "
            "and TLB purged first). Run: `./hako paper 004 machines --run`. The paper's "
            "claim — the Pentium Pro fastest warm and slowest purged — is checked at the end. "
            "The model shares the paper's reason (the longest memory latency in cycles on the "
            "Pentium Pro) but not its second half: the purge here leaves the L2 cache enabled.",
            "", "```"] + km.render(times, km.REFERENCE).rstrip("\n").splitlines() + ["```", "",
            "![Paper 004 Fig. 1: best and worst case per machine; left in the paper's form "
            "(mean time per call relative to the Pentium 166's best-case mean), right the "
            "per-call ratios to the Pentium 166 in the same case and their geometric mean]"
            "(kperf-machines.svg)", ""]


def section004_isoch(results: Path) -> list[str]:
    """Tables 3 and 4: start/stop of cyclic execution and the two thread switches."""
    recs = {r["name"]: r for r in read(results, "bench-isoch-calls.jsonl")
            if r.get("kind") == "bench"}
    title = ("Table 3 and Table 4 (isochronous scheduler: start/stop of cyclic execution, "
             "switch periodic→periodic against normal→normal)")
    if not recs:
        return not_yet(title, "no results/bench-isoch-calls.jsonl: run `./hako bench isoch-calls`.")
    from .criteria import PAPER_T3, PAPER_T4
    paper = {**PAPER_T3, **PAPER_T4}
    rows = [(what, n(recs[name]["median"]) if name in recs else "—", n(recs[name]["min"])
             if name in recs else "—", n(recs[name]["max"]) if name in recs else "—",
             " / ".join(f"{x:g}" for x in paper[name]) + f" {unit}")
            for what, name, unit in PAPER004_ISOCH]
    counts_of = sorted({r["n"] for r in recs.values() if "n" in r})
    out = [f"### {title}", "",
           f"Mode: QEMU **icount**, {boot_of(read(results, 'bench-isoch-calls.jsonl'))}; "
           "Hako's figures are **guest instructions** (median, min, max over "
           f"{' or '.join(map(str, counts_of)) or 'the'} samples, `isochbench start switch`), "
           "the paper's are times on its four PCs (machines 1 / 2 / 3 / 4). Run: `./hako bench "
           "isoch-calls`; the release-latency histograms under load are `./hako bench isoch` "
           "(docs/results.md: they move from run to run, so they stay out of this "
           "byte-identical report).", ""]
    out += table(("measure", "Hako median (insns)", "min", "max", "paper"), rows)
    start, normal = recs.get("isoch_start"), recs.get("switch_normal_to_normal")
    periodic = recs.get("switch_periodic_to_periodic")
    text = []
    if start and normal:
        ratios = [1000 * t / s for t, s in zip(PAPER_T3["isoch_start"],
                                                PAPER_T4["switch_normal_to_normal"])]
        text.append(f"Start returns inside the first job (the first release is immediate), so "
                    f"it costs {start['median'] / normal['median']:.1f} normal switches here, "
                    f"{min(ratios):.0f}–{max(ratios):.0f} on the paper's machines, whose start "
                    "may include the work Hako does at CREATE (admission, pinning).")
    if periodic and normal:
        extra = [100 * (a / b - 1) for a, b in zip(PAPER_T4["switch_periodic_to_periodic"],
                                                    PAPER_T4["switch_normal_to_normal"])]
        text.append(f"The periodic switch costs {100 * (periodic['median'] / normal['median'] - 1):+.1f} % "
                    "against the normal one (`isoch_wait`'s bookkeeping); the paper's "
                    + " / ".join(f"{x:+.0f} %" for x in extra) + ".")
    return out + ([""] + [" ".join(text)] if text else []) + [""]
