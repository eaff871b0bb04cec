"""Paper 004's Tables 2, 3 and 4 on its four PCs, one column per PC.

The paper printed each table for its four machines.  Hako boots each
experiment once with the four cost-model profiles loaded side by side
(`--model pentium166+pentium200-fpm+pentium200-edo+pentiumpro200`: one
plugin copy per profile, hakotool.model), so every machine models the same
guest run, and each profile's joined records are
results/bench-NAME.PROFILE.joined.jsonl.  Here each figure's modelled
cycles are turned into time at the machine's clock:

  * Table 2: per context the longest preemption-off section of the run
    with the serialising thread, own cycles, µs: pentium166's from
    `./hako bench preempt`, the other three from one boot of `./hako bench
    preempt-pcs` (the same guest run: icount does not hang on the plugins);
  * Tables 3 and 4: isochbench's start and stop of cyclic execution and
    its two thread switches (`bench-isoch-calls`), mean modelled cycles
    per operation (the plugin's region totals / operations), µs.

Pure functions of the records, so the harness tests feed them canned lines.
"""
from __future__ import annotations

from pathlib import Path

from ...model import JOINED_SUFFIX, clock_mhz, model_tag
from ...results import load_records
from .machines import PAPER_PROFILES
from .preempt import call_names, ctx_name, own_sections

ISOCH_ROWS = (("start of cyclic execution", "isoch_start"),
              ("stop of cyclic execution", "isoch_stop"),
              ("switch periodic→periodic", "switch_periodic_to_periodic"),
              ("switch normal→normal", "switch_normal_to_normal"))
# The --model argument of the report's runs: the four PCs in one boot.
ALL_FOUR = "+".join(PAPER_PROFILES)


def per_machine_records(results: Path, run: str, profiles=PAPER_PROFILES,
                        others: tuple[tuple[str, str], ...] = ()) -> dict[str, list]:
    """{profile: records} of one run's per-model joined files
    (RUN.PROFILE.joined.jsonl); OTHERS: (profile, file) to read when that
    file is missing.  A profile with neither is left out."""
    out = {}
    for p in profiles:
        names = [f"{run}.{model_tag(p)}{JOINED_SUFFIX}"] + [f for q, f in others if q == p]
        path = next((results / n for n in names if (results / n).is_file()), None)
        if path is not None:
            out[p] = load_records(path)
    return out


# Table 2 on the four PCs: `./hako bench preempt` (pentium166, its default
# model, before and after) and `./hako bench preempt-pcs` (after only, the
# other three PCs side by side).  Under icount the guest run does not hang on
# the plugins, so the after boot of both is the same run (same kernel, same
# command line): pentium166's figures are preempt's own.
PREEMPT_PCS = "bench-preempt-pcs"
PREEMPT_PCS_MODELS = "+".join(PAPER_PROFILES[1:])
PREEMPT_OTHERS = ((PAPER_PROFILES[0], "bench-preempt-after.joined.jsonl"),)


def preempt_per_machine(results: Path, profiles=PAPER_PROFILES) -> dict[str, list]:
    """Table 2's runs with the serialising thread, {profile: records}:
    preempt-pcs's (or a `preempt --model ALL_FOUR` run's) per-PC files, and
    preempt's own for pentium166."""
    recs = per_machine_records(results, "bench-preempt-after", profiles)
    more = per_machine_records(results, PREEMPT_PCS, profiles, PREEMPT_OTHERS)
    return {p: recs.get(p) or more[p] for p in profiles if p in recs or p in more}


def section_us(records) -> dict[str, float]:
    """{context name: longest own section in µs at the profile's clock}."""
    names = call_names()
    out = {}
    for ctx, o in own_sections(records, []).items():
        mhz = clock_mhz(o.get("profile", ""))
        if mhz:
            out[ctx_name(ctx, names)] = o["cycles"] / mhz
    return out


def isoch_us(records, mhz: float) -> dict[str, float]:
    """{figure: µs per operation} from isochbench's joined bench lines."""
    out = {}
    for r in records:
        cycles = ((r.get("model") or {}).get("per_iter") or {}).get("cycles")
        if r.get("kind") == "bench" and cycles is not None:
            out[r["name"]] = float(cycles) / mhz
    return out


def render_table2(sections: dict[str, dict[str, float]], bound: float, paper: dict) -> str:
    """Per context (longest first) each PC's longest section in µs."""
    machines = list(sections)
    col = max(14, max(len(m) for m in machines))
    lines = ["preempt (serialise=on): longest preemption-off section per context, µs of own "
             "modelled cycles at each PC's clock (pentium166: preempt's boot; the others: "
             "preempt-pcs's, the same guest run)",
             f"  {'context':<30}" + "".join(f" {m:>{col}}" for m in machines)]
    ctxs = sorted(set().union(*(set(s) for s in sections.values())),
                  key=lambda c: (-max(s.get(c, 0.0) for s in sections.values()), c))
    for c in ctxs:
        lines.append(f"  {c:<30}" + "".join(
            f" {sections[m][c]:>{col}.1f}" if c in sections[m] else f" {'-':>{col}}"
            for m in machines))
    longest = {m: max(s.values()) for m, s in sections.items() if s}
    lines.append(f"  {'longest':<30}" + "".join(f" {longest.get(m, 0.0):>{col}.1f}"
                                                  for m in machines))
    over = {m: sum(v >= bound for v in s.values()) for m, s in sections.items()}
    lines.append(f"  over the {bound:g} µs bound: "
                 + ", ".join(f"{m} {over[m]}" for m in machines))
    lines.append("  paper (machines 1-4), longest: "
                 + " / ".join(f"{max(v[i] for v in paper.values()):g}" for i in range(4))
                 + " µs")
    return "\n".join(lines) + "\n"


def render_isoch(times: dict[str, dict[str, float]], t3: dict, t4: dict,
                 bench: str = "isoch-calls") -> str:
    """Tables 3 and 4: per figure each PC's µs beside the paper's."""
    machines = list(times)
    paper = {**{k: tuple(1000 * x for x in v) for k, v in t3.items()}, **t4}
    col = max(14, max(len(m) for m in machines))
    lines = [f"isochbench start switch ({bench}): µs per operation, mean modelled cycles at "
             "each PC's clock (Hako), the paper's µs below each",
             f"  {'':<26}" + "".join(f" {m:>{col}}" for m in machines)]
    for what, name in ISOCH_ROWS:
        lines.append(f"  {what:<26}" + "".join(
            f" {times[m][name]:>{col}.2f}" if name in times[m] else f" {'-':>{col}}"
            for m in machines))
        lines.append(f"  {'  paper':<26}" + "".join(f" {x:>{col}.1f}" for x in paper[name]))
    lines.append(f"  {'periodic / normal switch':<26}" + "".join(
        f" {times[m]['switch_periodic_to_periodic'] / times[m]['switch_normal_to_normal']:>{col}.3f}"
        if {'switch_periodic_to_periodic', 'switch_normal_to_normal'} <= set(times[m])
        else f" {'-':>{col}}" for m in machines))
    per, nor = t4["switch_periodic_to_periodic"], t4["switch_normal_to_normal"]
    lines.append(f"  {'  paper':<26}" + "".join(f" {a / b:>{col}.3f}" for a, b in zip(per, nor)))
    return "\n".join(lines) + "\n"
