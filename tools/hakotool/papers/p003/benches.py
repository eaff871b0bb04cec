"""Paper 003's benches: `./hako bench drvproc` (user/drvbench) and `faults`
(user/faultinject), and their tables."""
from __future__ import annotations

from ...bench import Bench, Boots, variant_tables
from ...qemu import Profile
from ...reportkit import Step
from . import faults, tables


def drvproc_table(boots: Boots) -> str:
    """Each placement's bench table, then Tables 2 and 3 side by side (in the
    kernel, a process in ring 3, a process in supervisor mode), then the
    paper's own experiment (the drvswitch=on boot, papers/p003/switch.py)."""
    text = variant_tables(boots)
    runs = dict(boots.runs)
    if "kernel" in runs and "process" in runs:
        text += "\n" + tables.render(runs["kernel"], runs["process"], boots.model or None,
                                     runs.get("switch", ()), runs.get("super", ()))
    return text


def faults_table(boots: Boots) -> str:
    return faults.render(boots.records)


BENCHES: dict[str, Bench] = {
    # Paper 003 (user/drvbench): the network drivers in the kernel, as
    # processes in ring 3, in the kernel with a switch inserted (the paper's
    # microbenchmark), as processes in supervisor mode (the paper's
    # placement); one CPU, as the paper's machine.
    "drvproc": Bench(
        profile=Profile(machine="pc", smp=1, mode="icount", net="hub", words=("drvbench",)),
        timeout=300.0,
        variants=(("kernel", ""), ("process", "drvproc=rtl8139,e1000"), ("switch", "drvswitch=on"),
                  ("super", "drvproc=rtl8139,e1000 drvmode=super")),
        table=drvproc_table,
        about="paper 003: drivers as processes (drvbench): interrupt path, copy-in, driver call, "
              "frames/s, drivers in the kernel, as processes in ring 3, an address-space switch "
              "inserted in the kernel, as processes in supervisor mode, pc, 1 CPU, icount",
    ),
    # Paper 003 phase 2 (user/faultinject): faults injected into both network
    # drivers as processes while frames flow between them.
    "faults": Bench(
        profile=Profile(machine="pc", smp=4, mode="icount", net="hub",
                        cmdline="drvproc=rtl8139,e1000", words=("faultinject", "2000", "1")),
        timeout=900.0,
        table=faults_table,
        about="paper 003 phase 2: 2000 faults injected into the driver processes while frames "
              "flow (faultinject 2000 1): crashes, restarts, frames lost, pc, 4 CPUs, icount",
    ),
}

# The report's runs of them (`make report`, report.py) and the result files
# its section reads, each with the bench that makes it.
REPORT_STEPS = (
    Step("drvproc", "003", ("drvproc", "--model", "p4"),
         "drivers in the kernel, as processes in ring 3 and in supervisor mode, drvbench, "
         "cost model p4 (~15 s)",
         (("bench-drvproc-kernel.joined.jsonl", "bench-drvproc-kernel-p4.joined.jsonl"),
          ("bench-drvproc-process.joined.jsonl", "bench-drvproc-process-p4.joined.jsonl"),
          ("bench-drvproc-switch.joined.jsonl", "bench-drvproc-switch-p4.joined.jsonl"),
          ("bench-drvproc-super.joined.jsonl", "bench-drvproc-super-p4.joined.jsonl")), 15),
    Step("faults", "003", ("faults",), "2,000 faults injected into the driver processes while "
         "frames flow, faultinject 2000 1 (~10 s)", seconds=10),
)
REPORT_INPUTS = (
    ("bench-drvproc-kernel-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-drvproc-process-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-drvproc-switch-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-drvproc-super-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-faults.jsonl", "./hako bench faults"),
)
