"""Paper 004's Fig. 1: kperf's best and worst case across machines.

    ./hako paper 004 machines [--run] [--profiles P,P,...] [--reference P]

kperf times every system call and the kernel-internal interfaces best
case (second of two calls) and worst case (caches and TLB purged first).
Under icount the two differ only where the work differs; the cost model
(--model PROFILE, tools/costmodel/) turns the same run into cycles on a
named machine.  This tool boots kperf once with every profile side by side (the boot
of `./hako bench kperf --model P1+P2+...`, each profile's figures stored
as results/kperf-machine-P.joined.jsonl),
turns each call's modelled cycles into time at the machine's clock, and
prints per call, and on average, each machine's time relative to the
reference machine, best and worst case.  Then it checks the paper's
claim: the Pentium Pro was the fastest with warm caches and the slowest
after a purge (paper 004, docs/papers.md).

Averages: the geometric mean over the calls of the per-call ratio (every
call weighs the same), and the ratio of the mean times (the long calls
weigh most).  Without --run the result files already there are read.
The boot takes a few minutes.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import sys

from ...model import CLOCK_MHZ
from ...paths import repo_root
from ...results import load_records

ROOT = repo_root()
# The four PCs of paper 004, in the paper's order (their clocks are
# hakotool.model.CLOCK_MHZ).  p4 (2.8 GHz) and modern (4 GHz) can be added
# with --profiles for scale.
PAPER_PROFILES = ("pentium166", "pentium200-fpm", "pentium200-edo", "pentiumpro200")
REFERENCE = "pentium166"
CLAIMED = "pentiumpro200"


def run_name(profile: str) -> str:
    return f"kperf-machine-{profile}"


def run_profiles(profiles) -> int:
    """One kperf boot with every profile side by side (`./hako bench kperf
    --model P1+P2+...`: one plugin copy per profile), each profile's joined
    records kept as results/kperf-machine-P.joined.jsonl."""
    import shutil
    from ...model import joined_path
    from ...runner import run_boot
    from .benches import BENCHES
    profile = dataclasses.replace(BENCHES["kperf"].profile, model="+".join(profiles))
    outcome = run_boot(profile, "kperf-machines", BENCHES["kperf"].timeout, quiet=True)
    if outcome.exit_code != 0:
        print(f"paper 004 machines: the boot failed ({outcome.exit_code})", file=sys.stderr)
        return outcome.exit_code
    for p in profiles:
        shutil.copyfile(joined_path(ROOT, "kperf-machines", p if len(profiles) > 1 else ""),
                        ROOT / "results" / f"{run_name(p)}.joined.jsonl")
    return 0


def cycles_per_call(records) -> dict[str, dict[str, float]]:
    """{"call NAME" or "kernel NAME": {"best": cycles, "worst": cycles}}."""
    out: dict[str, dict[str, float]] = {}
    for r in records:
        kind = r.get("kind")
        if kind not in ("kperf", "kperf-internal") or r.get("timed") is False:
            continue
        cycles = ((r.get("model") or {}).get("per_iter") or {}).get("cycles")
        if cycles is None:
            continue
        label = f"{'call' if kind == 'kperf' else 'kernel'} {r.get('name')}"
        out.setdefault(label, {})[r.get("case")] = float(cycles)
    return out


def times_us(cycles: dict[str, dict[str, float]], mhz: float) -> dict[str, dict[str, float]]:
    return {call: {case: c / mhz for case, c in cases.items()} for call, cases in cycles.items()}


def geomean(values) -> float:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def compare(times: dict[str, dict[str, dict[str, float]]], reference: str):
    """Per call and case the ratio to the reference; the calls every machine has."""
    machines = list(times)
    calls = sorted(set.intersection(*(set(t) for t in times.values())))
    calls = [c for c in calls if all({"best", "worst"} <= set(times[m][c]) for m in machines)]
    ratio = {m: {c: {case: times[m][c][case] / times[reference][c][case]
                     for case in ("best", "worst")} for c in calls} for m in machines}
    summary = {}
    for m in machines:
        summary[m] = {}
        for case in ("best", "worst"):
            mean = sum(times[m][c][case] for c in calls) / len(calls)
            ref = sum(times[reference][c][case] for c in calls) / len(calls)
            summary[m][case] = {"geomean": geomean(ratio[m][c][case] for c in calls),
                                "mean_us": mean, "mean_ratio": mean / ref}
    return calls, ratio, summary


def fig1_figures(times, reference: str):
    """The plot's numbers (plots.machine_comparison), from compare():
    per machine and case the mean time per call relative to the
    reference's best-case mean (the paper's Fig. 1 form), the geometric
    mean of the per-call ratios, and the per-call ratios themselves."""
    calls, ratio, summary = compare(times, reference)
    ref_best = summary[reference]["best"]["mean_us"]
    paper_form = {m: {case: summary[m][case]["mean_us"] / ref_best for case in ("best", "worst")}
                  for m in times}
    geomeans = {m: {case: summary[m][case]["geomean"] for case in ("best", "worst")}
                for m in times}
    per_call = {m: {case: [ratio[m][c][case] for c in calls] for case in ("best", "worst")}
                for m in times}
    return paper_form, geomeans, per_call


def claim(summary, machines) -> list[str]:
    """The paper's claim, checked on both averages."""
    out = []
    for avg in ("geomean", "mean_ratio"):
        fastest_warm = min(machines, key=lambda m: summary[m]["best"][avg])
        slowest_purged = max(machines, key=lambda m: summary[m]["worst"][avg])
        holds = fastest_warm == CLAIMED and slowest_purged == CLAIMED
        out.append(f"  by {avg:<10}: fastest warm {fastest_warm}, slowest purged {slowest_purged}: "
                   f"the paper's claim ({CLAIMED} both) {'holds' if holds else 'does not hold'}")
    return out


def cell(best: float, worst: float) -> str:
    return f"  {best:>6.2f} {worst:>6.2f}"


def render(times, reference: str) -> str:
    machines = list(times)
    calls, ratio, summary = compare(times, reference)
    col = max(13, max(len(m) for m in machines))
    lines = [f"kperf across machines: time on each machine / time on {reference}, best then worst "
             "case (best: second of two calls; worst: caches and TLB purged first)",
             "  modelled cycles at the clock: "
             + ", ".join(f"{m} {CLOCK_MHZ.get(m, '?')} MHz" for m in machines),
             f"  {'call':<28}" + "".join(f"  {m:>{col}}" for m in machines),
             f"  {'':<28}" + "".join(f"  {'best  worst':>{col}}" for _ in machines)]
    for c in calls:
        lines.append(f"  {c:<28}" + "".join(
            f"  {ratio[m][c]['best']:>{col - 7}.2f} {ratio[m][c]['worst']:>6.2f}" for m in machines))
    for avg, title in (("geomean", "geometric mean of ratios"), ("mean_ratio", "ratio of mean times")):
        lines.append(f"  {title:<28}" + "".join(
            f"  {summary[m]['best'][avg]:>{col - 7}.2f} {summary[m]['worst'][avg]:>6.2f}"
            for m in machines))
    lines.append(f"  {'mean time per call, us':<28}" + "".join(
        f"  {summary[m]['best']['mean_us']:>{col - 7}.1f} {summary[m]['worst']['mean_us']:>6.1f}"
        for m in machines))
    paper = [m for m in machines if m in PAPER_PROFILES]
    if CLAIMED in paper and len(paper) > 1:
        lines.append(f"paper 004 (Fig. 1): the Pentium Pro fastest warm, slowest purged; "
                     f"over {', '.join(paper)}:")
        lines += claim(summary, paper)
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="hako paper 004 machines",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="boot kperf under each profile first")
    ap.add_argument("--profiles", default=",".join(PAPER_PROFILES))
    ap.add_argument("--reference", default=REFERENCE)
    args = ap.parse_args(argv)
    profiles = [p for p in args.profiles.split(",") if p]
    unknown = [p for p in profiles if p not in CLOCK_MHZ]
    if unknown or args.reference not in profiles:
        print(f"paper 004 machines: profiles must be among {', '.join(CLOCK_MHZ)} and include "
              f"the reference {args.reference}", file=sys.stderr)
        return 2
    if args.run and run_profiles(profiles) != 0:
        return 1
    times = {}
    for p in profiles:
        path = ROOT / "results" / f"{run_name(p)}.joined.jsonl"
        if not path.exists():
            print(f"paper 004 machines: no {path.relative_to(ROOT)}; run with --run", file=sys.stderr)
            return 1
        times[p] = times_us(cycles_per_call(load_records(path)), CLOCK_MHZ[p])
    sys.stdout.write(render(times, args.reference))
    return 0


if __name__ == "__main__":
    sys.exit(main())
