"""Paper 003 (device driver as a process): published numbers and criteria.

The paper measured what an address-space switch costs a driver by
inserting one into the in-kernel RTL8139 driver's paths (FreeBSD 4.3,
Pentium 4 2.8 GHz, RDTSC clocks): Table 2 the interrupt path with and
without the switch, Table 3 a 4-byte copy-in of user data with and
without the TLB misses the switch causes.  Hako's drvbench
(results/bench-drvproc-{kernel,process}-p4.joined.jsonl) compares the same
driver source in the kernel and as a ring-3 process: a different
experiment (the process placement adds system calls and switches of its
own), so neither result can be "reproduced"; the criteria still compute
how far the figures are from the paper's, in the paper's unit's stead the
cost model's Pentium 4 cycles.
"""
from __future__ import annotations

from pathlib import Path

from ...results import load_records
from ...verdict import Verdict, decide, ran, same_experiment, size

# Clocks: (in-kernel driver, with the switch inserted).
PUBLISHED = {
    "irq_path": (13644, 14021),       # Table 2: interrupt entry -> requester running
    "copyin_4": (416, 518),           # Table 3: copy-in of 4 bytes
    "call_send60": 8866,              # the driver-call path
    "switch_clocks": 377,             # one address-space switch
    "tlb_miss_clocks": 50,            # one TLB miss
    "overhead_pct": 5.0,              # the estimated total overhead
}
PROFILE = "p4"
DIFFERENT = ("Hako compares the driver in the kernel with the same driver as a ring-3 "
             "process (its own system calls and switches included), where the paper inserted "
             "one address-space switch into the in-kernel driver's path")


def figures(results: Path) -> dict:
    """{(figure, placement): record} of drvbench's two boots, or {}."""
    from .tables import figures as drv_figures
    recs = []
    for placement in ("kernel", "process"):
        path = results / f"bench-drvproc-{placement}-{PROFILE}.joined.jsonl"
        if not path.is_file():
            return {}
        recs += load_records(path)
    return drv_figures(recs)


def cycles(f: dict, name: str, placement: str):
    rec = f.get((name, placement)) or {}
    return ((rec.get("model") or {}).get("per_iter") or {}).get("cycles")


def growth(f: dict, name: str):
    k, p = cycles(f, name, "kernel"), cycles(f, name, "process")
    return None if not k or p is None else 100.0 * (p - k) / k


def judge(result: str, title: str, name: str, what: str, f: dict, pub: dict) -> Verdict:
    if not f or cycles(f, name, "kernel") is None:
        return decide(result, title, [ran("drvbench", False,
                                          f"no results/bench-drvproc-*-{PROFILE}.joined.jsonl "
                                          f"(`./hako bench drvproc --model {PROFILE}`)")])
    k, p = pub[name]
    return decide(result, title, [
        ran("drvbench", True, ""),
        same_experiment("a switch inserted into the in-kernel path", False, DIFFERENT),
        size(what, growth(f, name), 100.0 * (p - k) / k, main=True, unit=" %")])


def table2(f: dict, pub: dict = PUBLISHED) -> Verdict:
    """Table 2: the interrupt path's growth from an address-space switch.
    Reproduced would need the paper's experiment (a switch inserted into the
    in-kernel path) and a growth within ×2 of the paper's."""
    return judge("003 T2", "Table 2: the interrupt path with an address-space switch",
                 "irq_path", "interrupt path's growth", f, pub)


def table3(f: dict, pub: dict = PUBLISHED) -> Verdict:
    """Table 3: a 4-byte copy-in's growth from the TLB misses after a switch.
    Reproduced would need the paper's experiment and a growth within ×2."""
    return judge("003 T3", "Table 3: a 4-byte copy-in after an address-space switch",
                 "copyin_4", "4-byte copy-in's growth", f, pub)


CRITERIA = (table2, table3)


def verdicts(results: Path) -> list[Verdict]:
    f = figures(results)
    return [criterion(f) for criterion in CRITERIA]
