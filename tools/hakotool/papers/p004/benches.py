"""Paper 004's benches: `./hako bench kperf`, `isoch`, `isoch-calls` and
`preempt`, and the preemption table before and after the serialising thread."""
from __future__ import annotations

from ...bench import Bench, Boots
from ...qemu import Profile
from ...reportkit import Step
from .machines import PAPER_PROFILES
from .preempt import check_bound, render_before_after


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
}

# The report's runs of them (`make report`, report.py) and the result files
# its section reads, each with the bench that makes it.
REPORT_STEPS = (
    *(Step(f"kperf-{p}", "004", ("kperf", "--model", p),
           f"kperf on the cost model's {p} (Fig. 1)",
           (("bench-kperf.joined.jsonl", f"kperf-machine-{p}.joined.jsonl"),), 60, "kperf")
      for p in PAPER_PROFILES),
    Step("kperf", "004", ("kperf", "--model", "modern"), "every system call, best and worst",
         seconds=60, chain="kperf"),
    Step("preempt", "004", ("preempt",), "preemption-off sections under stress, serialise=off "
         "then on, cost model pentium166 (~6 min)", seconds=650),
    Step("isoch-calls", "004", ("isoch-calls",), "periodic threads: start/stop, switch (~30 s)",
         seconds=30),
)
REPORT_INPUTS = (
    *((f"kperf-machine-{p}.joined.jsonl", f"./hako bench kperf --model {p}")
      for p in PAPER_PROFILES),
    ("bench-kperf.joined.jsonl", "./hako bench kperf --model modern"),
    ("bench-preempt-before.joined.jsonl", "./hako bench preempt"),
    ("bench-preempt-after.joined.jsonl", "./hako bench preempt"),
    ("bench-isoch-calls.jsonl", "./hako bench isoch-calls"),
)
