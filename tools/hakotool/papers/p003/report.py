"""Paper 003's section of the report: drivers as processes, Tables 2 and 3, fault injection.

Called by report.markdown() with the result folder, the plots dict it fills
and the paper's verdicts (criteria.py); returns the section's Markdown lines.
"""
from __future__ import annotations

from pathlib import Path

from . import faults, tables
from ...reportkit import boot_of, not_yet, read, status_block

def section(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 003 — device driver as a process", ""]
    kernel = read(results, "bench-drvproc-kernel-p4.joined.jsonl")
    process = read(results, "bench-drvproc-process-p4.joined.jsonl")
    if not kernel or not process:
        return out + status_block(v)
    out += status_block(v)
    from .criteria import PUBLISHED as P, cycles, figures
    out += [f"Mode: QEMU **icount**, {boot_of(kernel)}, `--net hub`; boots of drvbench with the drivers in "
            "the kernel, then both as processes in ring 3 (`drvproc=rtl8139,e1000`), then both as "
            "processes in supervisor mode (`drvmode=super`: ring 0 in an address space of their "
            "own, the paper's placement; the `s` columns). Hako's figures are "
            "**guest instructions** (medians) and, in the `cyc`/`dtlb` columns, **modelled "
            "cycles** and data-TLB misses on the cost model's `p4` profile (the paper's Pentium 4); "
            "the paper's are clocks (RDTSC) on FreeBSD 4.3. Run: `./hako bench drvproc --model p4`.",
            ""]
    switched = read(results, "bench-drvproc-switch-p4.joined.jsonl")
    supervisor = read(results, "bench-drvproc-super-p4.joined.jsonl") or []
    out += ["```"] + tables.render(kernel, process, "p4", switched, supervisor).rstrip("\n").splitlines() + \
        ["```", ""]
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
            "core ran in supervisor mode in its own address space, Hako's `s` placement, whose "
            "calls enter the kernel without a privilege change but take the same paths), so the interrupt's "
            "acknowledgement, the receive work's hand-over of each frame (`drvproc_rx`) and the end "
            "of the handler are system calls; and QEMU's TCG has no PCID, so every CR3 load "
            f"empties the TLB ({dtlb('process')} data-TLB misses on the process's interrupt path "
            f"against {dtlb('kernel')}). The paper's own experiment is the last table: the driver "
            "stays in the kernel and `drvswitch=on` inserts the switch (its interrupt handler in "
            "an address space of its own; a call there and back before the copy-in), which "
            "Tables 2 and 3's verdicts judge. The process's copy-in takes no TLB miss: it walks "
            "the caller's page tables in software and copies through the direct map (global "
            "pages).", ""]
    why = tables.explain_frames(fig)
    if why:
        out += [why, ""]
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
            "```"] + faults.render(recs).rstrip("\n").splitlines() + ["```", "",
            "The last line gives faultinject's checks: the kernel alive, every frame sent "
            "accounted for as accepted, refused or broken pipe (the sender's counts equal the "
            "kernel's), no wild request accepted, the bystander thread running, no driver given "
            "up (each that ended, by a fault or the watchdog, restarted), traffic flowing at the "
            "end. Frames accepted but not received are those unconfirmed when a driver ended "
            "and those lost in a restarting receiver, which no counter sees (docs/results.md).",
            ""]
