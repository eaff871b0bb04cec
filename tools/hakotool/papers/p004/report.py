"""Paper 004's section of the report: kperf, Tables 2, 3 and 4, Fig. 1 and 2.

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
            + section004_isoch(results) + section004_latency(results, figs) \
            + section004_machines(results, figs) \
            + section004_copy(results, figs)
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
    out += section004_latency(results, figs)
    out += section004_machines(results, figs)
    out += section004_copy(results, figs)
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
            "```"] + lines + ["```", ""] + table2_per_machine(results)


def per_machine(what: str, command: str, runs: dict, intro: str,
                figures, render) -> list[str]:
    """A table on the four PCs (permachine.py) from RUNS, {profile: records}:
    FIGURES(profile, records) per PC, RENDER(figures by PC) the table's text;
    or why it is missing (COMMAND makes them)."""
    from . import permachine as pm
    data = {p: figures(p, r) for p, r in runs.items()}
    if len(data) < len(pm.PAPER_PROFILES) or not all(data.values()):
        return [f"{what} on the four PCs: not run (no per-PC result files: {command}).", ""]
    return [f"{intro} Run: {command}.", "", "```"] + render(data).rstrip("\n").splitlines() \
        + ["```", ""]


def table2_per_machine(results: Path) -> list[str]:
    """Table 2 on the four PCs: the run with the serialising thread, one column per PC."""
    from . import permachine as pm
    from .criteria import BOUND_US, PAPER_T2
    return per_machine(
        "Table 2", f"`./hako bench preempt` and `./hako bench preempt-pcs`",
        pm.preempt_per_machine(results),
        "Table 2 on the paper's four PCs, as the paper prints it: the run with the serialising "
        "thread, each context's longest section in its own modelled cycles at that PC's clock; "
        "pentium166 from the boot above, the other three from one more boot of the same run "
        "with their three profiles side by side (one plugin copy per profile; under icount the "
        "guest's run does not hang on the plugins).",
        lambda p, recs: pm.section_us(recs),
        lambda data: pm.render_table2(data, BOUND_US, PAPER_T2))


def section004_machines(results: Path, figs: dict) -> list[str]:
    """Fig. 1: kperf's best and worst case across the paper's four PCs."""
    title = "Fig. 1 (relative best/worst times across machines)"
    from . import machines as km
    times = {}
    for p in km.PAPER_PROFILES:
        recs = read(results, f"kperf-machine-{p}.joined.jsonl")
        if not recs:
            return not_yet(title, f"no results/kperf-machine-{p}.joined.jsonl: run "
                           "`./hako bench kperf --model pentium166+pentium200-fpm+pentium200-edo+pentiumpro200`.")
        times[p] = km.times_us(km.cycles_per_call(recs), km.CLOCK_MHZ[p])
    figs["kperf-machines.svg"] = draw("machine_comparison", km.REFERENCE, list(times),
                                      *km.fig1_figures(times, km.REFERENCE))
    return [f"### {title}", "",
            "Mode: QEMU **icount**, kperf booted once with the cost-model profiles of the paper's "
            "four PCs side by side (one plugin copy each: every machine models the same run); "
            "each call's **modelled cycles** turned into time at the machine's clock, "
            "relative to the Pentium 166, best case (second of two calls) and worst case (caches "
            "and TLB purged first). Run: `./hako bench kperf --model "
            "pentium166+pentium200-fpm+pentium200-edo+pentiumpro200`. The paper's "
            "claim — the Pentium Pro fastest warm and slowest purged — is checked at the end. "
            "Every constant of the four profiles comes from a source independent of the paper "
            "(Intel's manuals, lmbench's 1996 measurements, board documents; each with its "
            "confidence in tools/costmodel/profiles/), so the order is not built in: the memory "
            "latencies are the least certain (low confidence), and the model runs every "
            "machine at one instruction a cycle, so the Pentium Pro's out-of-order core gains "
            "nothing over the Pentium's pipelines but its clock.",
            "", "```"] + km.render(times, km.REFERENCE).rstrip("\n").splitlines() + ["```", "",
            "![Paper 004 Fig. 1: best and worst case per machine; left in the paper's form "
            "(mean time per call relative to the Pentium 166's best-case mean), right the "
            "per-call ratios to the Pentium 166 in the same case and their geometric mean]"
            "(kperf-machines.svg)", ""]


def section004_isoch(results: Path) -> list[str]:
    """Tables 3 and 4: start/stop of cyclic execution and the two thread switches,
    in both isochronous modes (rate monotonic, the reserved schedule)."""
    from .criteria import ISOCH_RUNS, ISOCH_TABLE, PAPER_T3, PAPER_T4, isoch_calls
    modes = [(run, tag, isoch_calls(results, run)) for run, tag in ISOCH_RUNS]
    title = ("Table 3 and Table 4 (isochronous scheduler: start/stop of cyclic execution, "
             "switch periodic→periodic against normal→normal)")
    if not modes[0][2]:
        return not_yet(title, "no results/bench-isoch-calls.jsonl: run `./hako bench isoch-calls`.")
    paper = {**PAPER_T3, **PAPER_T4}

    def cell(recs: dict, name: str) -> str:
        r = recs.get(name)
        return f"{n(r['median'])} ({n(r['min'])}–{n(r['max'])})" if r else "not run"

    rows = [(what, *(cell(recs, name) for _, _, recs in modes),
             " / ".join(f"{x:g}" for x in paper[name]) + f" {unit}")
            for what, name, unit in PAPER004_ISOCH]
    counts_of = sorted({r["n"] for _, _, recs in modes for r in recs.values() if "n" in r})
    out = [f"### {title}", "",
           f"Mode: QEMU **icount**, {boot_of(read(results, 'bench-isoch-calls.jsonl'))}, two "
           "boots: the default isochronous scheduler (rate-monotonic priorities, a release "
           "timer per thread; kernel/sched/isoch.c) and, booted with `isoch=table`, the paper's "
           "own: a reserved schedule per CPU, the table of its started threads' budgets over "
           "their hyperperiod, rebuilt at START and STOP and walked by a slot timer "
           "(kernel/sched/isoch_table.c). Hako's figures are **guest instructions** (median "
           f"(min–max) over {' or '.join(map(str, counts_of)) or 'the'} samples, `isochbench "
           "start switch`), the paper's are times on its four PCs (machines 1 / 2 / 3 / 4). "
           "START and STOP are timed as calls, in the paper's setting: two other "
           "continuous-media threads (5 ms/1 ms, 10 ms/1.5 ms) run periodic on the CPU while "
           "the measured one (2 ms/300 µs) starts and stops, so the table holds three threads "
           "over a 10 ms hyperperiod. The periodic switch is A's `isoch_wait` to B running, "
           "both periodic (200 µs; A 40 µs, B 100 µs): under the table B's reservation follows "
           "A's without a gap, so A's early end begins it at once. Run: `./hako bench "
           "isoch-calls` and `./hako bench isoch-calls-table`; the release-latency histograms "
           "under load are `./hako bench isoch` (docs/results.md: they move from run to run, "
           "so they stay out of this byte-identical report).", ""]
    out += table(("measure", "rate monotonic (insns)", "reserved schedule (insns)", "paper"), rows)
    text = []
    ratios = [1000 * t / s for t, s in zip(PAPER_T3["isoch_start"],
                                            PAPER_T4["switch_normal_to_normal"])]
    extra = [100 * (a / b - 1) for a, b in zip(PAPER_T4["switch_periodic_to_periodic"],
                                                PAPER_T4["switch_normal_to_normal"])]
    for run, tag, recs in modes:
        label = ("under the reserved schedule" if run == ISOCH_TABLE[0]
                 else "with rate-monotonic priorities")
        start, normal = recs.get("isoch_start"), recs.get("switch_normal_to_normal")
        periodic = recs.get("switch_periodic_to_periodic")
        if start and normal:
            text.append(f"START costs {start['median'] / normal['median']:.1f} normal switches "
                        f"{label}.")
        if periodic and normal:
            text.append(f"The periodic switch costs "
                        f"{100 * (periodic['median'] / normal['median'] - 1):+.1f} % against the "
                        f"normal one {label}.")
    text.append(f"The paper's START costs {min(ratios):.0f}–{max(ratios):.0f} normal switches "
                "and its periodic switch " + " / ".join(f"{x:+.0f} %" for x in extra) + ".")
    out += ["", " ".join(text), ""]
    for run, tag, _ in modes:
        out += isoch_per_machine(results, run, tag)
    return out


def section004_latency(results: Path, figs: dict) -> list[str]:
    """The release-latency histograms of periodic threads under load: the
    committed sitting of `./hako bench isoch` (results/bench-isoch.jsonl),
    which the report does not rerun (plots.py: they move from run to run)."""
    from . import plots as latency
    title = "Release latency of periodic threads under load (the committed sitting of `./hako bench isoch`)"
    recs = read(results, "bench-isoch.jsonl")
    try:
        loads, bucket = latency.series(recs)
    except ValueError:
        return not_yet(title, "no results/bench-isoch.jsonl: run `./hako bench isoch` and commit it.")
    figs["isoch-latency.svg"] = draw("release_latency", loads, bucket)
    rows = [(str(r["load"]), str(r["cpu"]), n(r.get("lat_count", sum(r["hist"]))),
             n(r.get("missed", 0)), n(r.get("overruns", 0)),
             " / ".join(f"{r.get(k, 0) / 1000:.2f}" for k in ("lat_min_ns", "lat_mean_ns",
                                                              "lat_max_ns")))
            for r in recs if r.get("kind") == "isoch_hist"]
    return [f"### {title}", "",
            f"Mode: QEMU **icount**, {boot_of(recs)}. One periodic thread per CPU (rate-monotonic "
            "priorities), its release latency (the release's timer to the thread running) in "
            f"{bucket / 1000:g} µs buckets, as cyclictest prints it, under each load in turn. "
            "Read from results/bench-isoch.jsonl, kept in git and not rerun by the report: the "
            "loads' device traffic goes through QEMU's host threads, so the histograms move "
            "from run to run. The paper shows no latency figure; this is the isochronous "
            "scheduler's purpose, measured.", ""] \
        + table(("load", "CPU", "releases", "missed", "overruns", "latency min / mean / max µs"),
                rows) + ["",
            "![Paper 004: release-latency histograms of periodic threads, one panel per load, "
            "a line per CPU](isoch-latency.svg)", ""]


def isoch_per_machine(results: Path, run: str = "bench-isoch-calls", tag: str = "") -> list[str]:
    """Tables 3 and 4 on the four PCs, one column per PC, for one mode's run."""
    from . import permachine as pm
    from .criteria import PAPER_T3, PAPER_T4
    from ...model import clock_mhz
    bench = run.removeprefix("bench-")
    return per_machine(
        f"Tables 3 and 4{tag}", f"`./hako bench {bench} --model {pm.ALL_FOUR}`",
        pm.per_machine_records(results, run),
        f"Tables 3 and 4{tag} on the paper's four PCs: the same boot with the four profiles "
        "side by side; each operation's mean modelled cycles (the region's total over its "
        "operations) at that PC's clock, caches as the operations leave them (no purge); the "
        "paper's are the mean of its best and worst case.",
        lambda p, recs: pm.isoch_us(recs, clock_mhz(p)),
        lambda data: pm.render_isoch(data, PAPER_T3, PAPER_T4, bench))


def section004_copy(results: Path, figs: dict) -> list[str]:
    """Fig. 2: memory copies with the L2 cache on and off on the four PCs (copyfig.py)."""
    from . import copyfig
    from .machines import PAPER_PROFILES
    title = "Fig. 2 (memory copy time with the L2 cache enabled and disabled)"
    times = copyfig.load(results, PAPER_PROFILES)
    if not times:
        return not_yet(title, "no results/kperf-copy-P[-l2off].joined.jsonl for every profile: run "
                       "`./hako bench kperf-copy --model P` and `--model P:l2off`.")
    figs["kperf-copy.svg"] = copyfig.figure(times)
    return [f"### {title}", "",
            "Mode: QEMU **icount**, `kperf --copy` booted twice, each time with the cost-model "
            "profiles of the paper's four PCs side by side: with the L2 on (`--model P1+P2+...`) "
            "and with it off (`--model P1:l2off+P2:l2off+...`: every L1 miss goes to memory, as "
            "with the paper's BIOS setting). Each copy's **modelled cycles** are turned into µs "
            "at the machine's clock. The paper names no sizes (its figure is not in the text we "
            "have); these run from inside the 8 KiB L1 to the L2's size. Run: `./hako bench "
            "kperf-copy --model pentium166:l2off+pentium200-fpm:l2off+pentium200-edo:l2off+"
            "pentiumpro200:l2off` (and without `:l2off`).", "",
            "```"] + copyfig.render(times).rstrip("\n").splitlines() + ["```", "",
            "![Paper 004 Fig. 2: µs per memory copy against its size on the four PCs, L2 on "
            "(solid) and off (dashed), warm (left) and after a purge (right)](kperf-copy.svg)", ""]
