"""Paper 001's section of the report: device access, Tables 1 and 2.

Called by report.markdown() with the result folder, the plots dict it fills
and the paper's verdicts (criteria.py); returns the section's Markdown lines.
"""
from __future__ import annotations

from pathlib import Path

from ...reportkit import boot_of, draw, status_block
from ...results import load_records
from . import criteria as crit, parallel, tables


def section(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## Paper 001 — device access methods in MP UNIX (OSF/1 on TOP-1)", ""]
    path = results / "bench-mp.jsonl"
    if not path.is_file():
        return out + status_block(v)
    recs = load_records(path)
    boots = [(recs, tables.load_model_vcpus(tables.model_path(path)))]
    clocks = [(recs, parallel.load_elapsed(tables.model_path(path)))]
    disks = [(load_records(p), tables.load_model_vcpus(tables.model_path(p)))
             for p in tables.disk_files(results)]
    out += status_block(v)
    out += [f"Mode: QEMU **icount**, {boot_of(recs)}, with the cost model `modern` riding "
            "along. Unit: **improvement in %**, (T_funnel / T_symmetric − 1) × 100 for Table 1, "
            "(T_master / T_policy − 1) × 100 for Table 2, from two figures per cell: the "
            "icount elapsed time (the sum of all CPUs' work: it cannot show a parallel "
            "speed-up), a makespan bound from the cost model's per-CPU instructions, and the "
            "parallel elapsed time on the cost model's per-vCPU clocks, which carry each CPU's "
            "modelled cycles across locks, wake-ups and cross-CPU calls "
            "(papers/p001/tables.py and parallel.py explain them); the verdicts read the "
            f"{crit.source([results / 'bench-mp.jsonl'])[0] or 'makespan bound'}. "
            "The paper's figures are "
            "elapsed real time "
            "on TOP-1. Run: `./hako bench mp --model modern`; tables by "
            "`./hako paper 001 tables`. Real time in multi-threaded TCG (`./hako bench mp-tcg`) "
            "is in docs/results.md, not here: host time does not repeat.", ""]
    text = tables.render(boots, [], clocks)
    out += text.splitlines() + [""]
    devs, waits, ks = tables.grid([recs], "t1")
    sources = tables.sources_of(boots, [], clocks)
    panels = []
    for dev in devs:
        by_source: dict[str, dict[int, list]] = {}
        for label, vals in tables.table1_rows(dev, sources, ks, waits):
            wait, source = label.split(" · ", 1)
            by_source.setdefault(source, {})[int(wait)] = vals
        for source, curves in by_source.items():
            panels.append((f"{dev}: {source}", curves))
    if panels:
        figs["mp-table1.svg"] = draw("improvement_curves", panels, ks)
        out += ["![Paper 001 Table 1 as curves by k](mp-table1.svg)", ""]
    if disks:
        out += ["### The disks: `./hako bench mp-disk`", "",
                f"Read from results/bench-mp-disk-1..{len(disks)}.jsonl and their cost-model "
                "files: completions paced, each look held until QEMU has finished the "
                "command, so the boots repeat (the note under each table counts the runs "
                "alike in every boot). Same mode and machine; each cell is the median over "
                "the boots with the smallest and largest. The figure to read is Σ of all "
                "CPUs' instructions: the icount elapsed time also holds the gaps in which "
                "every CPU waited out a service time.", ""]
        disk_text = tables.render(disks, [])
        out += [line.replace("### ", "#### ", 1) for line in disk_text.splitlines()
                if not line.startswith("Wait count 10 =")] + [""]
    out += ["Why the figures differ (the verdicts above say by how much):",
            "",
            "* **Ramdisk**: funnelling saturates CPU 0 while symmetric access spreads the reads, "
            "so at wait 0 the gain rises with the processes as the paper's does. With a busy-wait "
            "between reads a read is small beside the wait, and up to 7 processes (the master "
            "still free) the gain at waits 50 to 200 is of the paper's few per cent.",
            "* **Past the CPUs** (from 8 processes, when the master runs a process too) the "
            "funnel's gain grows instead of vanishing. The workers are pinned, so CPU 0 keeps its "
            "own worker, and that worker never leaves it: its funnelled reads are on the master "
            "already, a ramdisk read does not block, a thread that arrives at an equal priority "
            "does not preempt it, and its 20 ms time slice outlasts the run. Every other worker's "
            "funnelled read waits in CPU 0's run queue until that worker is done (on the clocks "
            "the master switches in no thread for its whole run at K = 8, wait 20). The paper's "
            "processes were not pinned, and a Unix scheduler lowers a busy process's priority; "
            "with every CPU busy, its elapsed time was the total work over the CPUs in either "
            "mode.",
            "* **testdev** answers after a fixed delay, one request at a time: when it is "
            "saturated neither mode can gain.",
            "* **Table 2** is run as the paper ran it: testdev's commands go to the I/O processor "
            "(CPU 8, the paper's HDC PU), which interrupts the CPU the policy picks when each "
            "command completes; 8 CPUs run the processes, the master free up to 7. At completion "
            "the issuer sleeps on its read, so 2b-3 interrupts a CPU running another process, "
            "as the paper's did. What that costs the interrupted process here is the handler "
            "(the completion IPI, `blk_finish`, the wake-up IPI to the sleeper's CPU): about a "
            "thousand instructions against a loop of about 540,000, so Hako's dip is a fraction "
            "of the paper's (the verdict gives both). The paper's explanation, a process "
            "interrupted on a busy CPU, holds; its size on TOP-1 came from a costlier "
            "interruption. The dip is measured against the median of the policies that interrupt "
            "an idle CPU, over K. At K = 9 every policy is 5-6 % behind master: testdev serves one "
            "command at a time, all workers start together, and which CPU's two workers come last "
            "in its queue moves a cell by that much.",
            "* **The disk**: the paper's gain came from the disk's milliseconds of service time "
            "in its elapsed time, during which funnelled processes queued for the master; here "
            "the disk's time is QEMU's host threads, which the guest sees only as idle gaps. "
            "NVMe's table sets a queue pair and vector per CPU against AHCI (the modern answer "
            "to the paper's question).", ""]
    return out
