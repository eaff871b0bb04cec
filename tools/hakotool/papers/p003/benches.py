"""Paper 003's benches: `./hako bench drvproc` (user/drvbench) and `faults`
(user/faultinject), and their tables."""
from __future__ import annotations

from ...bench import Bench, Boots, variant_tables
from ...qemu import Profile
from ...reportkit import Step
from . import faults, tables


def drvproc_table(boots: Boots) -> str:
    """Each placement's bench table, then Tables 2 and 3 side by side, then
    the paper's own experiment (the drvswitch=on boot, papers/p003/switch.py)."""
    text = variant_tables(boots)
    if len(boots.runs) >= 2:
        text += "\n" + tables.render(boots.runs[0][1], boots.runs[1][1], boots.model or None,
                                     *(r[1] for r in boots.runs[2:3]))
    return text


def faults_table(boots: Boots) -> str:
    return faults.render(boots.records)


BENCHES: dict[str, Bench] = {
    # Paper 003 (user/drvbench): the network drivers in the kernel, then as
    # processes; one CPU, as the paper's machine.
    "drvproc": Bench(
        profile=Profile(machine="pc", smp=1, mode="icount", net="hub", words=("drvbench",)),
        timeout=300.0,
        variants=(("kernel", ""), ("process", "drvproc=rtl8139,e1000"), ("switch", "drvswitch=on")),
        table=drvproc_table,
        about="paper 003: drivers as processes (drvbench): interrupt path, copy-in, driver call, "
              "frames/s, drivers in the kernel then as processes, pc, 1 CPU, icount",
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
         "drivers in the kernel, then as processes, drvbench, cost model p4 (~10 s)",
         (("bench-drvproc-kernel.joined.jsonl", "bench-drvproc-kernel-p4.joined.jsonl"),
          ("bench-drvproc-process.joined.jsonl", "bench-drvproc-process-p4.joined.jsonl"),
          ("bench-drvproc-switch.joined.jsonl", "bench-drvproc-switch-p4.joined.jsonl")), 10),
    Step("faults", "003", ("faults",), "2,000 faults injected into the driver processes while "
         "frames flow, faultinject 2000 1 (~10 s)", seconds=10),
)
REPORT_INPUTS = (
    ("bench-drvproc-kernel-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-drvproc-process-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-drvproc-switch-p4.joined.jsonl", "./hako bench drvproc --model p4"),
    ("bench-faults.jsonl", "./hako bench faults"),
)
