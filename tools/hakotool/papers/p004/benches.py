"""Paper 004's benches: `./hako bench kperf`, `isoch`, `isoch-calls` and
`preempt`, and the preemption table before and after the serialising thread."""
from __future__ import annotations

from ...bench import Bench, Boots
from ...qemu import Profile
from ...model import model_tag
from ...reportkit import Step
from .copyfig import L2_STATES, model_name, one_run, run_name
from .machines import PAPER_PROFILES
from .permachine import ALL_FOUR, PREEMPT_PCS_MODELS
from .preempt import check_bound, render_before_after


def pcs_table(boots: Boots) -> str:
    """preempt-pcs: Table 2 on the four PCs (permachine.py), pentium166's
    column from preempt's run when it is there."""
    from .criteria import BOUND_US, PAPER_T2
    from .permachine import preempt_per_machine, render_table2, section_us
    runs = preempt_per_machine(boots.results)
    if not runs:
        return "preempt-pcs: no per-PC result files\n"
    return render_table2({p: section_us(r) for p, r in runs.items()}, BOUND_US, PAPER_T2)


def before_after(boots: Boots) -> str:
    """preempt's variants side by side (preempt.py)."""
    variants = dict(boots.bench.variants)
    return "\n".join(render_before_after([(f"{label}: {variants[label]}", records)
                                          for label, records in boots.runs])) + "\n"


BENCHES: dict[str, Bench] = {
    "kperf": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub", words=("kperf",)),
        timeout=600.0,
        about="paper 004: every system call of syscalls.def, best and worst case (kperf), "
              "pc, 4 CPUs, both NICs on a hub, icount",
    ),
    # Paper 004's Fig. 2: memory copies best and worst case (user/kperf/copy.c),
    # run per machine with the L2 on (--model P) and off (--model P:l2off).
    "kperf-copy": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("kperf", "--copy")),
        timeout=300.0,
        about="paper 004 Fig. 2: memory copies of 1-256 KiB, best and worst case (kperf --copy), "
              "pc, 4 CPUs, icount; with --model P and --model P:l2off (the L2 switched off)",
        table=lambda boots: one_run(boots.records),
    ),
    # Paper 004's isochronous scheduler (user/isochbench): start/stop, the
    # periodic and normal thread switch, and the release-latency histograms
    # under hogs, then under an interrupt flood (sequential, packed).
    "isoch": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub", words=("isochbench",)),
        timeout=900.0,
        about="paper 004: periodic threads (isochbench): start/stop, periodic vs normal switch, "
              "release-latency histograms under hogs and a NIC flood, pc, 4 CPUs, icount, ~5 min",
    ),
    # The deterministic part of it, for the report: start/stop and the two
    # switches only (the histograms move by tens of instructions between runs).
    "isoch-calls": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub",
                        words=("isochbench", "start", "switch")),
        timeout=300.0,
        about="paper 004 Tables 3-4: start/stop of cyclic execution and the periodic vs "
              "normal thread switch (isochbench start switch), pc, 4 CPUs, icount",
    ),
    # The same under the paper's own scheduler: the reserved schedule
    # (isoch=table, kernel/sched/isoch_table.c), Tables 3-4 in both modes.
    "isoch-calls-table": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub",
                        words=("isochbench", "start", "switch"), cmdline="isoch=table"),
        timeout=300.0,
        about="paper 004 Tables 3-4 under the reserved schedule (isoch=table): start/stop of "
              "cyclic execution and the periodic vs normal thread switch, pc, 4 CPUs, icount",
    ),
    # Paper 004's Table 2: preemption-off sections under stress
    # (user/preemptstress), attributed per call with irqtrace=on.
    # Paper 004's Table 2 before and after the serialising thread
    # (kernel/sched/serialiser.c): serialise=off keeps the inline paths.
    # The cost model counts each section in its own vCPU's instructions
    # (tools/costmodel/sections.h), which the icount TSC cannot; the bound is
    # checked in time at the profile's clock, 166 MHz for pentium166.
    "preempt": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("preemptstress",),
                        cmdline="irqtrace=on"),
        timeout=900.0,
        about="paper 004 Table 2: longest preemption-off section per call under stress "
              "(preemptstress, irqtrace=on), serialise=off then on, pc, 4 CPUs, icount, "
              "cost model pentium166 (paper 004's slowest PC) by default, ~6 min",
        variants=(("before", "serialise=off"), ("after", "serialise=on")),
        default_model="pentium166",
        check=check_bound,
        table=before_after,
    ),
    # Table 2 on the paper's other three PCs: preempt's "after" boot (the same
    # kernel command line, so the same guest run under icount) with their
    # three profiles side by side (one plugin copy each); pentium166's
    # column is preempt's own (permachine.py).
    "preempt-pcs": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", words=("preemptstress",),
                        cmdline="irqtrace=on serialise=on"),
        timeout=1800.0,
        about="paper 004 Table 2 on the four PCs: preempt's serialise=on boot with the cost "
              f"models {PREEMPT_PCS_MODELS} side by side, pentium166 from `./hako bench "
              "preempt`; one column per PC",
        default_model=PREEMPT_PCS_MODELS,
        table=pcs_table,
    ),
}

# The report's runs of them (`make report`, report.py) and the result files
# its section reads, each with the bench that makes it.
REPORT_STEPS = (
    # Fig. 1: kperf once, the four PCs' profiles side by side (one plugin
    # copy each, hakotool.model): the same guest run for every machine.
    Step("kperf-machines", "004", ("kperf", "--model", ALL_FOUR),
         "kperf on the cost model's four PCs side by side (Fig. 1)",
         tuple((f"bench-kperf.{p}.joined.jsonl", f"kperf-machine-{p}.joined.jsonl")
               for p in PAPER_PROFILES), 120, "kperf"),
    # Fig. 2: the copies, the four PCs with the L2 on, then with it off.
    *(Step(f"kperf-copy-l2{l2}", "004",
           ("kperf-copy", "--model", "+".join(model_name(p, l2) for p in PAPER_PROFILES)),
           f"memory copies on the cost model's four PCs, L2 {l2} (Fig. 2)",
           tuple((f"bench-kperf-copy.{model_tag(model_name(p, l2))}.joined.jsonl",
                  f"{run_name(p, l2)}.joined.jsonl") for p in PAPER_PROFILES), 45, "kperf-copy")
      for l2 in L2_STATES),
    Step("kperf", "004", ("kperf", "--model", "modern"), "every system call, best and worst",
         seconds=60, chain="kperf"),
    Step("preempt", "004", ("preempt",), "preemption-off sections under stress, serialise=off "
         "then on, cost model pentium166 (~6 min)", seconds=650),
    Step("preempt-pcs", "004", ("preempt-pcs",), "preemption-off sections under stress, "
         "serialise=on, the other three PCs' profiles side by side (Table 2 per PC)",
         seconds=900),
    Step("isoch-calls", "004", ("isoch-calls", "--model", ALL_FOUR), "periodic threads: "
         "start/stop, switch, the four PCs' profiles side by side", seconds=60),
    Step("isoch-calls-table", "004", ("isoch-calls-table", "--model", ALL_FOUR), "periodic "
         "threads under the reserved schedule (isoch=table): start/stop, switch, the four PCs' "
         "profiles side by side", seconds=60),
)
REPORT_INPUTS = (
    *((f"kperf-machine-{p}.joined.jsonl", f"./hako bench kperf --model {ALL_FOUR}")
      for p in PAPER_PROFILES),
    ("bench-kperf.joined.jsonl", "./hako bench kperf --model modern"),
    *((f"{run_name(p, l2)}.joined.jsonl", "./hako bench kperf-copy --model "
       + "+".join(model_name(q, l2) for q in PAPER_PROFILES))
      for p in PAPER_PROFILES for l2 in L2_STATES),
    ("bench-preempt-before.joined.jsonl", "./hako bench preempt"),
    ("bench-preempt-after.joined.jsonl", "./hako bench preempt"),
    *((f"bench-preempt-pcs.{p}.joined.jsonl", "./hako bench preempt-pcs")
      for p in PAPER_PROFILES[1:]),
    ("bench-isoch-calls.jsonl", f"./hako bench isoch-calls --model {ALL_FOUR}"),
    ("bench-isoch.jsonl", "./hako bench isoch (a sitting committed, not rerun)"),
    *((f"bench-isoch-calls.{p}.joined.jsonl", f"./hako bench isoch-calls --model {ALL_FOUR}")
      for p in PAPER_PROFILES),
    ("bench-isoch-calls-table.jsonl", f"./hako bench isoch-calls-table --model {ALL_FOUR}"),
    *((f"bench-isoch-calls-table.{p}.joined.jsonl",
       f"./hako bench isoch-calls-table --model {ALL_FOUR}") for p in PAPER_PROFILES),
)
