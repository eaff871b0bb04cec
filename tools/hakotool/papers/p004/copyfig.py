"""Paper 004's Fig. 2: a memory copy's time with the L2 cache enabled and
disabled on the paper's four PCs.

The paper timed a memory copy on each PC with the L2 cache on and then off
(a BIOS setting) to explain Fig. 1: the Pentium Pro, fastest with warm
caches, was slowest after a purge because its misses to main memory cost
the most.  Its text names neither the copy's sizes nor whether the caches
were warm; the figure itself is not in the text we have.  Hako runs
`kperf --copy` (user/kperf/copy.c: 1 KiB to 256 KiB, best case = the same
copy twice back to back, the second timed; worst case = caches and TLB
purged first) once per machine with the L2 on and once with the cost
model's `l2=off` (`--model PROFILE:l2off`), and turns each copy's
modelled cycles into µs at the machine's clock.

The parsing and the table are pure functions of the records, so the
harness tests feed them canned lines.
"""
from __future__ import annotations

from pathlib import Path

from ...model import clock_mhz
from ...results import load_records

L2_STATES = ("on", "off")
CASES = ("best", "worst")
# The machine the paper found slowest with its L2 off.
CLAIMED = "pentiumpro200"


def model_name(profile: str, l2: str) -> str:
    """The --model argument of one machine and L2 state."""
    return profile if l2 == "on" else f"{profile}:l2off"


def run_name(profile: str, l2: str) -> str:
    """The report's result file stem of one machine and L2 state."""
    return f"kperf-copy-{profile}" if l2 == "on" else f"kperf-copy-{profile}-l2off"


def copy_times(records, mhz: float) -> dict[tuple[int, str], float]:
    """{(bytes, case): µs per copy} from kperf --copy's joined lines."""
    out = {}
    for r in records:
        if r.get("kind") != "kperf-copy":
            continue
        cycles = ((r.get("model") or {}).get("per_iter") or {}).get("cycles")
        if cycles is not None:
            out[(int(r["bytes"]), str(r["case"]))] = float(cycles) / mhz
    return out


def load(results: Path, profiles) -> dict[str, dict[str, dict]] | None:
    """{profile: {"on"|"off": copy_times}} from the report's files, or None
    if one is missing."""
    times: dict[str, dict[str, dict]] = {}
    for p in profiles:
        for l2 in L2_STATES:
            path = results / f"{run_name(p, l2)}.joined.jsonl"
            recs = load_records(path) if path.is_file() else []
            mhz = clock_mhz(p)
            per = copy_times(recs, mhz) if mhz else {}
            if not per:
                return None
            times.setdefault(p, {})[l2] = per
    return times


def sizes(times) -> list[int]:
    """The copy sizes every machine and state has, smallest first."""
    sets = [{b for b, _ in per} for states in times.values() for per in states.values()]
    return sorted(set.intersection(*sets)) if sets else []


def total(times, profile: str, l2: str, case: str, above: int = 0) -> float:
    """The time of one copy of every size larger than ABOVE bytes, summed (µs)."""
    return sum(t for (b, c), t in times[profile][l2].items() if c == case and b > above)


def ranking(times, l2: str, case: str, above: int = 0) -> list[str]:
    """The machines from fastest to slowest by total()."""
    return sorted(times, key=lambda p: total(times, p, l2, case, above))


def render(times) -> str:
    """Per size and case each machine's µs per copy, L2 on / off, and the order."""
    machines = list(times)
    col = max(17, max(len(m) for m in machines))
    lines = ["kperf --copy: µs per memory copy at each machine's clock (modelled cycles / MHz), "
             "L2 on / L2 off",
             "  best: the same copy twice back to back, the second timed; worst: caches and TLB "
             "purged first",
             f"  {'bytes':>7} {'case':<5}" + "".join(f"  {m:>{col}}" for m in machines)]
    for b in sizes(times):
        for case in CASES:
            cells = "".join(f"  {times[m]['on'][(b, case)]:>{col - 9}.1f} /{times[m]['off'][(b, case)]:>7.1f}"
                            for m in machines)
            lines.append(f"  {b:>7} {case:<5}{cells}")
    for l2 in L2_STATES:
        for case in CASES:
            order = ranking(times, l2, case)
            lines.append(f"  L2 {l2:<3} {case:<5}: fastest to slowest (all sizes summed): "
                         + ", ".join(order))
    return "\n".join(lines) + "\n"


def one_run(records) -> str:
    """One boot's lines (`./hako bench kperf-copy`): per size and case the
    instructions and, under --model, the modelled cycles and misses per copy."""
    rows = [r for r in records if r.get("kind") == "kperf-copy"]
    if not rows:
        return "kperf --copy: no result lines\n"
    model = next(((r.get("model") or {}).get("profile") for r in rows if r.get("model")), "")
    lines = [f"kperf --copy: per memory copy, mean of {rows[0].get('n', '?')} runs; "
             + (f"cost model {model}" if model else "no cost model (--model P or P:l2off)"),
             f"  {'bytes':>7} {'case':<5} {'insns':>9}"
             + (f" {'cycles':>10} {'l1d_miss':>9} {'l2_miss':>9}" if model else "")]
    for r in rows:
        line = f"  {r['bytes']:>7} {r['case']:<5} {r['mean']:>9}"
        per = (r.get("model") or {}).get("per_iter") or {}
        if model and per:
            line += f" {per.get('cycles', 0):>10.0f} {per.get('l1d_miss', 0):>9.0f} {per.get('l2_miss', 0):>9.0f}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def figure(times) -> str:
    """The plot: per machine, µs per copy against the size, L2 on (solid)
    and off (dashed), one panel per case; log-log axes."""
    from ... import plots
    plt = plots.plt
    machines = list(times)
    xs = sizes(times)
    colours = ("#2471a3", "#27ae60", "#8e44ad", "#c0392b")
    with plt.rc_context(plots.STYLE):
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
        for ax, case in zip(axes, CASES):
            for m, colour in zip(machines, colours):
                for l2, style in (("on", "-"), ("off", "--")):
                    ax.plot(xs, [times[m][l2][(b, case)] for b in xs], ls=style, marker="o", ms=3,
                            color=colour, label=f"{m}, L2 {l2}",
                            gid=f"copy-{case}-{plots.slug(m)}-l2{l2}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xticks(xs)
            ax.set_xticklabels([f"{b // 1024} KiB" for b in xs], fontsize=7)
            ax.set_xlabel("bytes copied")
            ax.set_ylabel("µs per copy")
            ax.set_title(f"{case} case" + (" (warm: second of two copies)" if case == "best"
                                           else " (caches and TLB purged first)"), fontsize=8)
        axes[0].legend(fontsize=6, loc="upper left", ncol=2)
        fig.suptitle("Paper 004 Fig. 2, memory copy with the L2 cache on and off: kperf --copy "
                     "under QEMU icount, modelled cycles at each machine's clock")
        fig.subplots_adjust(left=0.07, right=0.99, bottom=0.14, top=0.84, wspace=0.2)
        return plots.to_svg(fig)
