"""`./hako report` (`make report`): run the papers' experiments, write docs/report/.

Two halves:

  * run_experiments(): the registered benches in icount mode, one after the
    other, each a `./hako bench ...` child whose console goes to
    results/logs/report-STEP.out; a progress line when each starts and ends
    and every PROGRESS_EVERY seconds while it runs (step i of n, what runs,
    seconds in this step and in all);
  * build(): reads only the result files, so it is a pure function of them,
    and writes docs/report/README.md (Markdown), docs/report/index.html
    (the same, self-contained, the plots inlined) and the plots as SVG.
    No time, date or host name goes in: two runs on the same results give
    the same bytes.

The tables come from the existing table scripts (tools/ispc_tables.py,
tools/mp_tables.py, the harness's summary tables); this module only
arranges them beside the papers' figures and says where they differ.
`--no-run` builds from the result files already there.
"""
from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import drvproc_tables, faults_table, papers
from .mdhtml import to_html
from .preempt_table import check_bound, own_sections, render_before_after
from .results import load_records
from .summary import render_kperf, render_tlbstep
from .verdict import counts, paper_status

PROGRESS_EVERY = 15.0
REPORT_DIR = "docs/report"


@dataclasses.dataclass(frozen=True)
class Step:
    """One experiment run: ./hako bench ARGS, then the joins it keeps."""

    name: str
    paper: str
    args: tuple[str, ...]
    about: str
    keep: tuple[tuple[str, str], ...] = ()     # (results file, copied to)


STEPS = (
    Step("intr", "000", ("intr",), "interrupt packaging, intrbench (~50 s)"),
    Step("ispc", "002", ("ispc",), "server communication, ispcbench, icount (~10 s)"),
    Step("ispc-modern", "002", ("ispc", "--model", "modern"), "ispcbench, cost model modern (~25 s)",
         (("bench-ispc.joined.jsonl", "bench-ispc-modern.joined.jsonl"),)),
    Step("ispc-p4", "002", ("ispc", "--model", "p4"), "ispcbench, cost model p4 (~30 s)",
         (("bench-ispc.joined.jsonl", "bench-ispc-p4.joined.jsonl"),)),
    Step("mp", "001", ("mp", "--model", "modern"),
         "device access, iotest Tables 1-2, 8 CPUs (~85 s)"),
    Step("drvproc", "003", ("drvproc", "--model", "p4"),
         "drivers in the kernel, then as processes, drvbench, cost model p4 (~10 s)",
         (("bench-drvproc-kernel.joined.jsonl", "bench-drvproc-kernel-p4.joined.jsonl"),
          ("bench-drvproc-process.joined.jsonl", "bench-drvproc-process-p4.joined.jsonl"))),
    Step("faults", "003", ("faults",), "2,000 faults injected into the driver processes while "
         "frames flow, faultinject 2000 1 (~10 s)"),
    *(Step(f"kperf-{p}", "004", ("kperf", "--model", p),
           f"kperf on the cost model's {p} (Fig. 1)",
           (("bench-kperf.joined.jsonl", f"kperf-machine-{p}.joined.jsonl"),))
      for p in ("pentium166", "pentium200-fpm", "pentium200-edo", "pentiumpro200")),
    Step("kperf", "004", ("kperf", "--model", "modern"), "every system call, best and worst"),
    Step("preempt", "004", ("preempt",), "preemption-off sections under stress, serialise=off "
         "then on, cost model pentium166 (~6 min)"),
    Step("isoch-calls", "004", ("isoch-calls",), "periodic threads: start/stop, switch (~30 s)"),
    Step("tlbstep", "", ("tlbstep", "--model", "modern"), "the cost model's TLB step"),
    Step("peer", "", ("peer", "--model", "modern"), "Hako's sysbench and ispcbench beside "
         "Debian's Linux, three ways, Linux's default under the cost model (~4 min)"),
)


def fmt_seconds(s: float) -> str:
    s = int(s)
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def run_experiments(root: Path, out=None, steps=STEPS, clock=time.monotonic,
                    every: float = PROGRESS_EVERY) -> int:
    """Run every step; returns 0, or the first failing step's exit code."""
    out = sys.stdout if out is None else out
    logs = root / "results" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    start = clock()
    for i, step in enumerate(steps, 1):
        words = ["bench", *step.args, "--quiet"]
        log = logs / f"report-{step.name}.out"
        what = (f"paper {step.paper}" if step.paper else
                "the peer baseline" if step.name == "peer" else "the instrument")
        tag = f"report: [{i}/{len(steps)}] {what}: ./hako {' '.join(words)}"
        out.write(f"{tag}: {step.about}\n")
        out.flush()
        t0 = clock()
        with open(log, "w") as fh:
            child = subprocess.Popen([str(root / "hako"), *words], cwd=root,
                                     stdout=fh, stderr=subprocess.STDOUT)
            last = t0
            while True:
                try:
                    code = child.wait(timeout=1.0)
                    break
                except subprocess.TimeoutExpired:
                    now = clock()
                    if now - last >= every:
                        last = now
                        out.write(f"{tag}: running, {fmt_seconds(now - t0)} "
                                  f"(all: {fmt_seconds(now - start)})\n")
                        out.flush()
        now = clock()
        if code != 0:
            out.write(f"{tag}: FAILED (exit {code}) after {fmt_seconds(now - t0)}; "
                      f"console: {log.relative_to(root)}\n")
            return code
        for src, dst in step.keep:
            shutil.copyfile(root / "results" / src, root / "results" / dst)
        out.write(f"{tag}: done in {fmt_seconds(now - t0)} (all: {fmt_seconds(now - start)})\n")
        out.flush()
    return 0


# ---- reading the results ---------------------------------------------------

def read(results: Path, name: str) -> list[dict]:
    path = results / name
    return load_records(path) if path.is_file() else []


def table(header, rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def n(value) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def status_block(verdicts) -> list[str]:
    """A paper's status, derived from its results' verdicts, and their table."""
    if not verdicts:
        return []
    return [f"**Status: {paper_status(verdicts)}.** Derived from its results' verdicts "
            f"({counts(verdicts)}), each computed by the criterion written beside the paper's "
            "numbers in tools/hakotool/papers/.", ""] + verdict_table(verdicts) + [""]


def verdict_table(verdicts) -> list[str]:
    return table(("result", "what", "verdict", "why"),
                 [(x.result, x.title, f"**{x.verdict}**", x.reason) for x in verdicts])


def not_yet(what: str, why: str) -> list[str]:
    return [f"**{what}: not yet.** {why}", ""]


# ---- paper 000 -------------------------------------------------------------

def boot_of(recs) -> str:
    """"pc, 2 CPUs" from a run's boot record."""
    b = next((r for r in recs if r.get("kind") == "boot"), {})
    return f"{b.get('machine', '?')}, {b.get('cpus', '?')} CPUs" if b else "no boot record"


def pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.1f} %"


def section000(results: Path, figs: dict, v=()) -> list[str]:
    from .papers.p000 import PUBLISHED as P, TABLE2, saving_pct
    recs = read(results, "bench-intr.jsonl")
    out = ["## Paper 000 — interrupt packaging (Tender OS, Myrinet NIC)", ""]
    phases = next((r for r in recs if r.get("kind") == "intr-phases"), None)
    if not phases:
        return out + status_block(v)
    out += status_block(v)
    out += [f"Mode: QEMU **icount**, {boot_of(recs)}, `--net hub` (the e1000 sends, the RTL8139 "
            "receives), minimum-size frames. Unit: **guest instructions** (the TSC runs at one "
            "tick per instruction, one per ns of guest time); the paper's unit is µs on a "
            "Pentium II. Run: `./hako bench intr`.", ""]
    p = phases
    t1p = p["t1_pack"] + p["copy"]
    seq = p["t1_seq"] + p["t2_seq"] + p["t3_seq"]
    const = t1p + p["t3_pack"] - p["s"]
    totals = {r["n"]: r for r in recs if r.get("kind") == "intr-total"}
    out += ["### Table 2 — one interrupt's phases (medians)", ""]
    rows = [("registration s", n(p["s"]), "—", *TABLE2[0][1:]),
            ("pre-processing t1", f"{n(p['t1_pack'])} + {n(p['copy'])} (volatile copy)",
             n(p["t1_seq"]), *TABLE2[1][1:]),
            ("main handler t2", n(p["t2_pack"]), n(p["t2_seq"]), *TABLE2[2][1:]),
            ("post-processing t3", n(p["t3_pack"]), n(p["t3_seq"]), *TABLE2[3][1:]),
            ("model total for N", f"{n(p['s'] + p['t2_pack'])} N + {n(const)}", f"{n(seq)} N",
             f"{P['total_pack_per_n']} N + {P['total_pack_const']}", f"{P['total_seq_per_n']} N")]
    paper_saving = saving_pct(P["total_seq_n10"], P["total_pack_n10"])
    t = totals.get(10)
    if t:
        rows.append(("N = 10, measured", n(t["packed_measured"]),
                     f"{n(t['seq_measured'])} (−{t['saving_permille'] / 10:.1f} %)",
                     f"{P['total_pack_n10']} (model)",
                     f"{P['total_seq_n10']} (−{paper_saving:.1f} %)"))
    out += table(("phase", "Hako packed (insns)", "Hako sequential (insns)",
                  "paper packed (µs)", "paper sequential (µs)"), rows) + [""]
    brk = next((r for r in recs if r.get("kind") == "intr-breakeven"), None)
    pre_post = p["t1_seq"] + p["t3_seq"]
    bullets = [f"* s = {n(p['s'])} {'<' if p['s'] < pre_post else '≥'} t1 + t3 = {n(pre_post)} "
               "(sequential), the paper's condition for a saving."]
    if t:
        hako_saving = t["saving_permille"] / 10
        bullets.append(
            f"* The saving at N = 10 is {hako_saving:.1f} %, the paper's {paper_saving:.1f} %."
            + (" Under icount a device register access costs one instruction, while the "
               "paper's PCI accesses were slow; what packing removes here is the full trap "
               "entry, the I/O APIC mask change and its lock, which are instructions."
               if hako_saving > paper_saving else ""))
    bullets += [f"* Main handler {n(p['t2_seq'] - p['t2_pack'])} instructions shorter packed "
                f"({pct(p['t2_seq'] - p['t2_pack'], p['t2_seq'])}; the paper's "
                f"{saving_pct(P['t2_seq'], P['t2_pack']):.1f} %), for the paper's first reason: "
                "the volatile data (the ISR read and write-back) was copied at registration. "
                "Its second, the cache, cannot show in instructions.",
                (f"* Break-even N: {brk['model_n_x100'] / 100:.2f} by the model, "
                 f"{brk['measured_n']} measured (paper: {P['breakeven_n']}); a batch of one pays "
                 "the batch loop the model does not count." if brk else "* Break-even: no record."),
                ""]
    out += bullets
    out += ["Total cost of N interrupts (instructions):", ""]
    out += table(("N", "sequential measured", "model", "packed measured", "model", "saving"),
                 [(k, n(t["seq_measured"]), n(t["seq_model"]), n(t["packed_measured"]),
                   n(t["packed_model"]), f"{t['saving_permille'] / 10:.1f} %")
                  for k, t in sorted(totals.items())]) + [""]
    delays = [r for r in recs if r.get("kind") == "intr-delay"]
    out += ["### Table 3 — average delay, interrupt to the end of its main handler", ""]
    out += table(("mode", "N", "T", "measured (insns)", "model (insns)"),
                 [(r["mode"] if r["mode"] != "tick" else "packed at the timer tick",
                   "—" if r["mode"] == "sequential" else r["n"], f"{r['t_ns'] // 1000000} ms",
                   n(r["measured"]), n(r["model"])) for r in delays]) + [""]
    fits = [abs(r["measured"] - r["model"]) / r["model"] for r in delays
            if r["mode"] == "packed" and r["n"] > 1]
    at = next((r for r in delays if r["mode"] == "packed" and r["n"] == P["delay_n"]
               and r["t_ns"] == P["delay_t_ms"] * 1_000_000), None)
    text = (f"Paper: packed ½((N−1)/N)T + {P['delay_per_n_us']}N + {P['delay_const_us']} µs, "
            f"{n(int(P['delay_packed_us']))} µs at N = {P['delay_n']}, T = {P['delay_t_ms']} ms; "
            f"sequential {P['delay_seq_us']} µs.")
    if fits and at:
        text += (f" Hako's packed delays with more than one interrupt a batch depart from the "
                 f"same model by at most {100 * max(fits):.1f} %; at N = {P['delay_n']}, "
                 f"T = {P['delay_t_ms']} ms the delay is {at['measured'] / 1e6:.2f} ms, the "
                 f"paper's {P['delay_packed_us'] / 1000:.2f} ms: the term in T dominates both.")
    out += [text + " The tick row departs from the model because the tick's phase is "
            "unrelated to the arrivals'.", ""]
    inter = [r for r in recs if r.get("kind") == "intr-interference"]
    base = next((r["loops"] for r in inter if r["mode"] == "none"), 0)
    lines = {m: sorted((r["k"], r["loops"]) for r in inter if r["mode"] == m)
             for m in ("sequential", "packed")}
    out += ["### Fig. 6 — interference", ""]
    if base and all(lines.values()):
        figs["intr-interference.svg"] = draw("interference", base, lines)
        k = P["fig6_k"]
        seqk, pkk = dict(lines["sequential"]).get(k), dict(lines["packed"]).get(k)
        out += ["![Paper 000 Fig. 6: loops per second against interrupts per 10 ms]"
                "(intr-interference.svg)", ""]
        rows = [(j, n(s), n(dict(lines["packed"]).get(j, "-")))
                for j, s in lines["sequential"]]
        out += table(("k", "Hako sequential (loops)", "Hako packed (loops)"), rows) + [""]
        if seqk and pkk:
            paper_gain = 100 * (P["fig6_packed"] - P["fig6_seq"]) / P["fig6_seq"]
            ahead = [j for j, s in lines["sequential"] if dict(lines["packed"]).get(j, 0) > s]
            out += [f"At k = {k}: Hako packed {n(pkk)}, sequential {n(seqk)} "
                    f"({100 * (pkk - seqk) / seqk:+.3f} %), no I/O {n(base)}; paper packed "
                    f"{n(P['fig6_packed'])}, sequential {n(P['fig6_seq'])} ({paper_gain:+.2f} %), "
                    f"no I/O {n(P['fig6_none'])}. Hako's packed mode is ahead at k = "
                    f"{', '.join(map(str, ahead)) or 'none'}. The I/O takes "
                    f"{pct(base - seqk, base)} of the loop's time here (sequential), "
                    f"{pct(P['fig6_none'] - P['fig6_seq'], P['fig6_none'])} in the paper; the "
                    f"paper's own model predicted +{P['fig6_model_gain_pct']} % and attributed "
                    "the rest to cache locality of back-to-back handlers, which icount does not "
                    "model.", ""]
    return out


def draw(name: str, *args) -> str:
    """One plot of plots.py (imported here: matplotlib loads only when a plot is drawn)."""
    from . import plots
    return getattr(plots, name)(*args)


# ---- paper 001 -------------------------------------------------------------

def section001(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 001 — device access methods in MP UNIX (OSF/1 on TOP-1)", ""]
    path = results / "bench-mp.jsonl"
    if not path.is_file():
        return out + status_block(v)
    import mp_tables
    recs = load_records(path)
    boots = [(recs, mp_tables.load_model_vcpus(mp_tables.model_path(path)))]
    disks = [(load_records(p), mp_tables.load_model_vcpus(mp_tables.model_path(p)))
             for p in mp_tables.disk_files(results)]
    out += status_block(v)
    out += [f"Mode: QEMU **icount**, {boot_of(recs)}, with the cost model `modern` riding "
            "along. Unit: **improvement in %**, (T_funnel / T_symmetric − 1) × 100 for Table 1, "
            "(T_master / T_policy − 1) × 100 for Table 2, from two figures per cell: the "
            "icount elapsed time (the sum of all CPUs' work: it cannot show a parallel "
            "speed-up) and a makespan bound from the cost model's per-CPU instructions "
            "(tools/mp_tables.py explains both); the verdicts read the makespan bound, the "
            "only one of the two that can show the paper's effect. The paper's figures are "
            "elapsed real time "
            "on TOP-1. Run: `./hako bench mp --model modern`; tables by "
            "`tools/mp_tables.py`. Real time in multi-threaded TCG (`./hako bench mp-tcg`) "
            "is in docs/results.md, not here: host time does not repeat.", ""]
    text = mp_tables.render(boots, [])
    out += text.splitlines() + [""]
    devs, waits, ks = mp_tables.grid([recs], "t1")
    sources = mp_tables.sources_of(boots, [])
    panels = []
    for dev in devs:
        by_source: dict[str, dict[int, list]] = {}
        for label, vals in mp_tables.table1_rows(dev, sources, ks, waits):
            wait, source = label.split(" · ", 1)
            by_source.setdefault(source, {})[int(wait)] = vals
        for source, curves in by_source.items():
            panels.append((f"{dev}: {source}", curves))
    if panels:
        figs["mp-table1.svg"] = draw("improvement_curves", panels, ks)
        out += ["![Paper 001 Table 1 as curves by k](mp-table1.svg)", ""]
    if disks:
        out += ["### The disks: the committed sitting of `./hako bench mp-disk`", "",
                f"Read from results/bench-mp-disk-1..{len(disks)}.jsonl and their cost-model "
                "files (kept in git, not rerun by the report: they do not repeat). Same mode "
                "and machine; each cell is the median over the boots with the smallest and "
                "largest. The figure to read is Σ of all CPUs' instructions: the icount "
                "elapsed time also holds the gaps in which every CPU waited for QEMU's host "
                "threads.", ""]
        disk_text = mp_tables.render(disks, [])
        out += [line.replace("### ", "#### ", 1) for line in disk_text.splitlines()
                if not line.startswith("Wait count 10 =")] + [""]
    out += ["Why the figures differ (the verdicts above say by how much):",
            "",
            "* **Ramdisk**: funnelling saturates CPU 0 while symmetric access spreads the reads, "
            "so the makespan bound rises with the processes up to the CPU count and falls when "
            "two workers share a CPU. The icount elapsed time is a sum over CPUs, so CPU 0's "
            "saturation cannot appear in it. With a busy-wait between reads, a read is small "
            "beside the wait, so the master is the bottleneck only when it also runs a worker.",
            "* **testdev** answers after a fixed delay, one request at a time: when it is "
            "saturated neither mode can gain.",
            "* **Table 2**: under broadcast every CPU is interrupted, and under icount the CPU "
            "the line reaches first wins the race, so the relays are pure cost.",
            "* **The disk**: the paper's gain came from the disk's milliseconds of service time "
            "in its elapsed time, during which funnelled processes queued for the master; here "
            "the disk's time is QEMU's host threads, which the guest sees only as idle gaps. "
            "NVMe's table sets a queue pair and vector per CPU against AHCI (the modern answer "
            "to the paper's question).", ""]
    return out


# ---- paper 002 -------------------------------------------------------------

def section002(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 002 — fast inter-server communication on AnT (SH-4)", ""]
    icount = results / "bench-ispc.jsonl"
    if not icount.is_file():
        return out + status_block(v)
    import ispc_tables
    joined = sorted(results.glob("bench-ispc-*.joined.jsonl"))
    f = ispc_tables.Figures(load_records(icount), [load_records(p) for p in joined])
    profiles = ", ".join(f.profiles()) or "none"
    out += status_block(v)
    from .papers import p002
    boot = boot_of(load_records(icount))
    out += [f"Mode: QEMU **icount**, {boot}, client and servers on CPU 0. Units: **insns** "
            "= guest instructions (median); **cycles** = the cost model's cycles per "
            f"operation (profiles: {profiles}; `modern` Skylake, `p4` Pentium 4); the paper's "
            "are µs on its SH-4. The verdicts read the `p4` cycles. Run: `./hako bench ispc`, "
            "with `--model modern` and `--model p4`; tables by `tools/ispc_tables.py`.", ""]
    judged = p002.JUDGED_PROFILE

    def change(name):
        a, b = f.modelled(judged, f"{name}_baseline"), f.modelled(judged, f"{name}_fast")
        return f"{100 * (b - a) / a:+.1f} %" if a and b is not None else "—"
    sw = p002.PAPER_T2["process_switch"]
    out += ["### Table 2 — partial operations", ""] + ispc_tables.table2(f) + [""]
    out += ["* Server side: the fast mode never unmaps the server's ICA window, so its peel "
            "only unlinks the area and its first access finds the translation still there.",
            "* Application side: fast paste fills the page-table entry (costlier, as the "
            "paper's application paste), so the first access no longer faults, but it still "
            "misses the TLB once: the peel invalidated the entry and x86 has no software TLB "
            "load.",
            f"* Process switch: {change('process_switch')} in `{judged}` cycles (the paper: "
            f"{sw[0]} → {sw[2]} µs): every CR3 load drops the non-global translations; the x86 "
            "remedy is PCID, which QEMU's TCG does not offer, so it can be neither tested nor "
            "measured here.", ""]
    out += ["### Fig. 8 — basic operations, server side apart", ""] + ispc_tables.fig8(f) + [""]
    panels = ispc_tables.fig8_panels(f)
    if panels:
        figs["ispc-fig8.svg"] = draw("basic_operations", panels)
        out += ["![Paper 002 Fig. 8: basic operations, baseline against fast, per unit and "
                "data size](ispc-fig8.svg)", ""]
    req, ret = p002.PAPER_FIG8["sync_request"], p002.PAPER_FIG8["sync_return"]

    def saved(get, data):
        a, b = get(f"sync_roundtrip_{data}_baseline"), get(f"sync_roundtrip_{data}_fast")
        return f"{100 * (a - b) / a:.1f} %" if a and b is not None else "—"
    cyc = lambda name: f.modelled(judged, name)  # noqa: E731
    out += [f"The paper saw requests {req[0]:g}–{req[1]:g} % and result returns "
            f"{ret[0]:g}–{ret[1]:g} % faster. Hako's fast mode saves {saved(f.insns, 'nodata')} "
            f"(no data) and {saved(f.insns, '4k')} (4 KiB) of a round trip's instructions, "
            f"{saved(cyc, 'nodata')} and {saved(cyc, '4k')} of its `{judged}` cycles: what it "
            "removes is instructions, while the switches' TLB refills, which it cannot remove, "
            "are a larger share of the cycles. The asynchronous request alone gains nothing, "
            "by design (docs/results.md).", ""]
    out += ["### Fig. 5 — where a round trip goes before the optimisation (baseline)", ""]
    out += ispc_tables.fig5(f, "baseline") + [""]
    bars = ispc_tables.fig5_bars(f, "baseline")
    if bars:
        figs["ispc-fig5.svg"] = draw("round_trip_shares", bars)
        out += ["![Paper 002 Fig. 5: a baseline round trip's partial operations, share "
                "of the measured round trip](ispc-fig5.svg)", ""]
    out += [f"The paper found about {p002.PAPER_FIG5_SHARE:g} % of a request (with a 4 KB data "
            "ICA) in paste, peel, first access and switch; the \"paste, peel, first access, "
            "switch\" rows are Hako's share. In cycles the switch's share grows, being TLB "
            "refills.", ""]
    out += ["### Fig. 9 — direct against stepwise return, by depth", ""]
    out += ispc_tables.fig9(f)
    series = {}
    for mode in ispc_tables.MODES:
        step = ispc_tables.relay_series(f.insns, mode, "stepwise")
        direct = ispc_tables.relay_series(f.insns, mode, "direct")
        if len(step) >= 2 and len(direct) == len(step):
            series[mode] = {"stepwise": step, "direct": direct}
    if series:
        figs["ispc-fig9.svg"] = draw("direct_return", series)
        out += ["![Paper 002 Fig. 9: round trip and saving by depth](ispc-fig9.svg)", ""]
    limits, worst = [], 0.0
    for mode, sd in series.items():
        m = ispc_tables.stage_model(sd["stepwise"], sd["direct"])
        limits.append(100 * m["limit"])
        for i, (a, b) in enumerate(zip(sd["stepwise"], sd["direct"]), 1):
            worst = max(worst, abs(100 * (a - b) / a - 100 * ispc_tables.model_saving(m, i)))
    if limits:
        out += [f"The paper reports about {p002.PAPER_FIG9_SAVING:g} % at every depth. Hako's "
                "saving starts at zero with one server and approaches the per-stage limit "
                f"(s−d)/s, {min(limits):.1f}–{max(limits):.1f} % in instructions, because the "
                "fixed part of a round trip (the client's request, the last server's work, one "
                "return) is about as large as one stage's stepwise cost; a flat curve would "
                "need that part to be small. The per-stage model departs from the measurement "
                f"by at most {worst:.1f} points in instructions.", ""]
    return out


# ---- paper 003, 004, the cost model ----------------------------------------

def section003(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 003 — device driver as a process", ""]
    kernel = read(results, "bench-drvproc-kernel-p4.joined.jsonl")
    process = read(results, "bench-drvproc-process-p4.joined.jsonl")
    if not kernel or not process:
        return out + status_block(v)
    out += status_block(v)
    from .papers.p003 import PUBLISHED as P, cycles, figures
    out += [f"Mode: QEMU **icount**, {boot_of(kernel)}, `--net hub`; two boots of drvbench, the drivers in "
            "the kernel, then both as processes (`drvproc=rtl8139,e1000`). Hako's figures are "
            "**guest instructions** (medians) and, in the `cyc`/`dtlb` columns, **modelled "
            "cycles** and data-TLB misses on the cost model's `p4` profile (the paper's Pentium 4); "
            "the paper's are clocks (RDTSC) on FreeBSD 4.3. Run: `./hako bench drvproc --model p4`.",
            ""]
    out += ["```"] + drvproc_tables.render(kernel, process, "p4").rstrip("\n").splitlines() + ["```", ""]
    fig = figures(results)

    def dtlb(placement):
        rec = fig.get(("irq_path", placement)) or {}
        value = ((rec.get("model") or {}).get("per_iter") or {}).get("dtlb_miss")
        return "—" if value is None else f"{value:.0f}"
    k, p = cycles(fig, "irq_path", "kernel"), cycles(fig, "irq_path", "process")
    grows = f"{p - k:,.0f} cycles ({100 * (p - k) / k:+.1f} %)" if k and p else "—"
    out += [f"The paper inserted one address-space switch into the in-kernel driver and saw "
            f"the interrupt path grow by {P['irq_path'][1] - P['irq_path'][0]:,} clocks "
            f"({100 * (P['irq_path'][1] - P['irq_path'][0]) / P['irq_path'][0]:+.1f} %), an "
            f"estimated {P['overhead_pct']:g} % overall. Hako's process placement adds "
            f"{grows} to the interrupt path: its driver process runs in ring 3 (the paper's "
            "core ran in supervisor mode in its own address space), so the interrupt's "
            "acknowledgement, the receive work's hand-over of each frame (`core_rx`) and the end "
            "of the handler are system calls; and QEMU's TCG has no PCID, so every CR3 load "
            f"empties the TLB ({dtlb('process')} data-TLB misses on the process's interrupt path "
            f"against {dtlb('kernel')}). The copy-in alone comes closest to the paper's "
            "experiment: a walk of the caller's page tables from the driver instead of a copy in "
            "the caller's own address space.", ""]
    return out + section003_faults(results)


def section003_faults(results: Path) -> list[str]:
    """Hako's addition to paper 003: faults injected into the driver processes."""
    title = "Restart after a crash and fault injection (not in the paper)"
    recs = read(results, "bench-faults.jsonl")
    run = next((r for r in recs if r.get("kind") == "faults"), None)
    if not run:
        return not_yet(title, "no results/bench-faults.jsonl: run `./hako bench faults`.")
    return [f"### {title}", "",
            "The paper argues for drivers as processes by the kernel's reliability but measures "
            f"only the cost; this is the other half. Mode: QEMU **icount**, {boot_of(recs)}, "
            "`--net hub`, both network drivers as processes (`drvproc=rtl8139,e1000`); "
            "user/faultinject sends frames from one card to the other while it injects "
            f"{run['faults']:,} faults (seed {run['seed']}) into "
            "the driver processes: a bit flipped in their text or data, wild requests to the "
            "kernel, hangs. "
            "Figures are counts, and guest time under icount; the seed fixes the faults, the "
            "figures move with any change to the kernel or the drivers. Repeated runs on one "
            "build give the same bytes on a quiet host; once, with other QEMU boots running "
            "beside it, this block came out different: frames a restarting driver's card "
            "cannot take wait in QEMU's net hub and are delivered on host time "
            "(docs/results.md). Run: `./hako bench faults`.", "",
            "```"] + faults_table.render(recs).rstrip("\n").splitlines() + ["```", "",
            "The last line gives faultinject's checks: the kernel alive, every frame sent "
            "accounted for as accepted, refused or broken pipe (the sender's counts equal the "
            "kernel's), no wild request accepted, the bystander thread running, no driver given "
            "up (each that ended, by a fault or the watchdog, restarted), traffic flowing at the "
            "end. Frames accepted but not received are those unconfirmed when a driver ended "
            "and those lost in a restarting receiver, which no counter sees (docs/results.md).",
            ""]


def section004(results: Path, figs: dict, v=()) -> list[str]:
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
    from .papers.p004 import BOUND_US, PAPER_T2, span
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


def kperf_machines_module():
    """tools/kperf_machines.py (a script beside the package), loaded by path."""
    import importlib.util
    path = Path(__file__).resolve().parents[1] / "kperf_machines.py"
    spec = importlib.util.spec_from_file_location("kperf_machines", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def section004_machines(results: Path, figs: dict) -> list[str]:
    """Fig. 1 and 2: kperf's best and worst case across the paper's four PCs."""
    title = "Fig. 1 and Fig. 2 (relative best/worst times across machines)"
    km = kperf_machines_module()
    times = {}
    for p in km.PAPER_PROFILES:
        recs = read(results, f"kperf-machine-{p}.joined.jsonl")
        if not recs:
            return not_yet(title, f"no results/kperf-machine-{p}.joined.jsonl: run "
                           "`python3 tools/kperf_machines.py --run`.")
        times[p] = km.times_us(km.cycles_per_call(recs), km.CLOCK_MHZ[p])
    figs["kperf-machines.svg"] = draw("machine_comparison", km.REFERENCE, list(times),
                                      *km.fig1_figures(times, km.REFERENCE))
    return [f"### {title}", "",
            "Mode: QEMU **icount**, kperf booted once per cost-model profile of the paper's four "
            "PCs; each call's **modelled cycles** turned into time at the machine's clock, "
            "relative to the Pentium 166, best case (second of two calls) and worst case (caches "
            "and TLB purged first). Run: `python3 tools/kperf_machines.py --run`. The paper's "
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
    from .papers.p004 import PAPER_T3, PAPER_T4
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


def section_model(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## The instrument — the cost model's TLB step", ""]
    recs = read(results, "bench-tlbstep.joined.jsonl")
    lines = render_tlbstep(recs)
    if not lines:
        return out + ["Not run: no results/bench-tlbstep.joined.jsonl; `./hako bench tlbstep "
                      "--model modern` makes it.", ""]
    out += ["Not a paper's figure: the check that the cost model's TLBs behave as the "
            "profile says. Mode: QEMU **icount**, pc, 1 CPU, profile `modern`; per page "
            "touched after a CR3 reload, first pass and again. Expected: the second pass "
            "starts to miss the L1 dTLB once the pages touched outnumber its entries, and the "
            "STLB once they outnumber its (the sizes in tools/costmodel/profiles/modern). "
            "Run: `./hako bench tlbstep --model modern`.", ""]
    return out + ["```"] + lines + ["```", ""]


def section_peer(results: Path, figs: dict, v=()) -> list[str]:
    from . import peer
    out = ["## The peer baseline — Hako beside Linux in the same emulator", ""]
    text = peer.render(results)
    if text.startswith("peer: no figures"):
        return out + ["Not run: no results/bench-peer-*.jsonl; `./hako bench peer` makes "
                      "them.", ""]
    out += ["Not a paper's figure: what Hako's system calls, switches and server round "
            "trips cost next to Debian's own Linux kernel booted in exactly Hako's QEMU "
            "configuration, with a static benchmark (tools/peer/linuxbench.c) as its /init "
            "that measures each figure the way sysbench and ispcbench do. "
            "Run: `./hako bench peer --model modern`.", ""]
    out += text.rstrip("\n").splitlines() + [""]
    out += ["Instruction counts are not time: QEMU's icount counts each iteration of a "
            "`rep` string instruction as one instruction, and Linux copies and clears pages "
            "with `rep movsb`/`rep stosb` (ERMS), one counted iteration a byte, where "
            "Hako zeroes with `rep stosq`, one an eight-byte word; the fault, pipe, socket and "
            "spawn rows "
            "carry that. Linux's semaphore ping-pong may skip system calls that Hako's "
            "sem_post/sem_wait always make (glibc's futex fast path).", ""]
    return out


SECTIONS = (section000, section001, section002, section003, section004, section_model,
            section_peer)
PAPER_OF_SECTION = ("000", "001", "002", "003", "004", "", "")


def markdown(results: Path) -> tuple[str, dict[str, str]]:
    """The report's Markdown and its plots {file name: SVG text}."""
    plots: dict[str, str] = {}
    out = ["# Hako beside the five papers", "",
           "Generated by `make report` (`./hako report`) from the result files in "
           "`results/`; every figure comes from QEMU's deterministic icount mode, so a "
           "re-run gives the same bytes (on a quiet host: see paper 003's fault injection). "
           "The published figures are the papers' own "
           "(the papers are cited in full in docs/papers.md); Hako's are "
           "instructions or modelled cycles under QEMU, so "
           "the comparison is of the experiment and the shape of its result, not of the "
           "magnitudes. docs/results.md has the longer explanations.", ""]
    found = papers.verdicts(results)
    bodies = [section(results, plots, found.get(paper, ()))
              for paper, section in zip(PAPER_OF_SECTION, SECTIONS)]
    out += ["| paper | status |", "|---|---|"]
    for body in bodies:
        title = body[0].removeprefix("## ")
        status = next((line for line in body if line.startswith("**Status:")), "")
        word = re.match(r"\*\*Status: ([^.]*)\.", status)
        if word:
            out.append(f"| {title} | {word.group(1)} |")
    every = [x for paper in sorted(found) for x in found[paper]]
    out += ["", f"The papers' {len(every)} measured results ({counts(every)}); each verdict is "
            "computed from the measured figures by a written criterion (tools/hakotool/verdict.py "
            "gives the rules, tools/hakotool/papers/ each result's checks and tolerances):", ""]
    out += verdict_table(every) + [""]
    for body in bodies:
        out += body
    return "\n".join(out).rstrip() + "\n", plots


# The result files the report is built from (glob patterns under results/,
# each needing at least one match) and the bench that makes each.  They are
# committed (.gitignore lets exactly these through), so a clone rebuilds the
# committed report with `./hako report --no-run`.
INPUTS = (
    ("bench-intr.jsonl", "./hako bench intr"),
    ("bench-ispc.jsonl", "./hako bench ispc"),
    ("bench-ispc-modern.joined.jsonl", "./hako bench ispc --model modern"),
    ("bench-ispc-p4.joined.jsonl", "./hako bench ispc --model p4"),
    ("bench-mp.jsonl", "./hako bench mp --model modern"),
    ("bench-mp.model.jsonl", "./hako bench mp --model modern"),
    ("bench-mp-disk-[0-9]*.jsonl", "./hako bench mp-disk --model modern"),
    ("bench-drvproc-kernel-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-drvproc-process-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-faults.jsonl", "./hako bench faults"),
    *((f"kperf-machine-{p}.joined.jsonl", f"./hako bench kperf --model {p}")
      for p in ("pentium166", "pentium200-fpm", "pentium200-edo", "pentiumpro200")),
    ("bench-kperf.joined.jsonl", "./hako bench kperf --model modern"),
    ("bench-preempt-before.joined.jsonl", "./hako bench preempt"),
    ("bench-preempt-after.joined.jsonl", "./hako bench preempt"),
    ("bench-isoch-calls.jsonl", "./hako bench isoch-calls"),
    ("bench-tlbstep.joined.jsonl", "./hako bench tlbstep --model modern"),
    *((f"bench-peer-{name}.jsonl", "./hako bench peer --model modern")
      for name in ("hako-sys", "hako-ispc", "linux-default", "linux-mitigations-off",
                   "linux-no-erms")),
)


def missing_inputs(results: Path, inputs=INPUTS) -> list[tuple[str, str]]:
    """The (pattern, bench) of every input with no file in RESULTS."""
    return [(pattern, how) for pattern, how in inputs if not any(results.glob(pattern))]


def build(root: Path, out_dir: Path | None = None) -> Path:
    """Write README.md, index.html and the SVGs from root/results, and remove
    any other SVG left in the folder; returns the folder."""
    out_dir = root / REPORT_DIR if out_dir is None else out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    md, plots = markdown(root / "results")
    for stale in sorted(out_dir.glob("*.svg")):
        if stale.name not in plots:
            stale.unlink()
    for name, svg in sorted(plots.items()):
        (out_dir / name).write_text(svg, encoding="utf-8")
    (out_dir / "README.md").write_text(md, encoding="utf-8")
    (out_dir / "index.html").write_text(to_html(md, plots), encoding="utf-8")
    return out_dir


def summary(out_dir: Path) -> str:
    """One screen: where the report is and its status table."""
    readme = out_dir / "README.md"
    if not readme.is_file():
        return ""
    rows = [line for line in readme.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| paper |")
            and line.count("|") == 3]
    lines = [f"report: {readme} (and index.html beside it; `make report` regenerates it)"]
    for row in rows:
        title, status = [c.strip() for c in row.strip("|").split("|")]
        lines.append(f"  {status:<10} {title}")
    return "\n".join(lines) + "\n"


def run_report(root: Path, *, run: bool = True, out=None) -> int:
    out = sys.stdout if out is None else out
    start = time.monotonic()
    if run:
        code = run_experiments(root, out)
        if code != 0:
            return code
    missing = missing_inputs(root / "results")
    if missing:
        out.write(f"report: {len(missing)} result file(s) missing from results/, so "
                  f"{REPORT_DIR}/ is left as it is:\n")
        for pattern, how in missing:
            out.write(f"  {pattern}  (made by `{how}`)\n")
        return 1
    out_dir = build(root)
    if run:
        from . import history
        path, count = history.append(root)
        out.write(f"report: appended {count} figures to {path.relative_to(root)} "
                  "(`./hako history NAME`)\n")
    out.write(f"report: wrote {out_dir.relative_to(root)}/README.md, index.html and "
              f"{len(list(out_dir.glob('*.svg')))} plots "
              f"in {fmt_seconds(time.monotonic() - start)}\n")
    out.write(summary(out_dir))
    return 0
