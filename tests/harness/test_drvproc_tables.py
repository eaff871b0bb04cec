"""Tests for hakotool.papers.p003.tables (paper 003's tables) and the drvproc bench entry."""
from hakotool import bench
from hakotool.papers.p003 import tables as drvproc_tables


def bench_rec(name, median, model=None):
    r = {"kind": "bench", "name": name, "unit": "tsc", "n": 10, "min": median, "median": median,
         "mean": median, "max": median}
    if model:
        r["model"] = {"profile": "p4", "per_iter": model}
    return r


def sw_rec(figure, placement, ops, sw_in, as_sw, **extra):
    return {"kind": "drvproc", "figure": figure, "placement": placement, "ops": ops,
            "switches_in": sw_in, "switches_out": sw_in, "as_switches": as_sw, **extra}


KERNEL = [bench_rec("irq_path_kernel", 2000), bench_rec("call_send60_kernel", 800),
          bench_rec("copyin_4_kernel", 50),
          sw_rec("irq_path_kernel", "kernel", 100, 0, 200),
          sw_rec("frames_kernel", "kernel", 2000, 0, 0, frames=2000, frames_per_s=300000,
                 per_frame=3000)]
def process_placement(placement, irq, call, per_frame, fps):
    """A process placement's records: the interrupt path, a call, a copy-in, the throughput."""
    return [bench_rec(f"irq_path_{placement}", irq), bench_rec(f"call_send60_{placement}", call),
            bench_rec(f"copyin_4_{placement}", 300),
            sw_rec(f"irq_path_{placement}", placement, 100, 100, 400),
            sw_rec(f"frames_{placement}", placement, 2000, 20, 60, frames=2000, frames_per_s=fps,
                   per_frame=per_frame)]


PROCESS = process_placement("process", 4000, 3000, 3600, 250000)


def test_figures_pair_the_placements():
    figs = drvproc_tables.figures(KERNEL + PROCESS)
    assert figs[("irq_path", "kernel")]["median"] == 2000
    assert figs[("irq_path", "process")]["switches"]["as_switches"] == 400
    assert figs[("frames", "process")]["per_frame"] == 3600


def test_render_side_by_side_with_switches_and_overhead():
    text = drvproc_tables.render(KERNEL, PROCESS)
    assert "Table 2" in text and "Table 3" in text and "driver-call path" in text
    row = next(line for line in text.splitlines() if line.startswith("interrupt entry -> requester"))
    assert "2,000" in row and "4,000" in row and "+2,000" in row
    assert "0.00/2.00" in row and "1.00/4.00" in row and "13,644" in row
    assert "throughput run +20.0 % instructions" in text
    assert "(call + interrupt path) +150.0 %" in text
    assert "cyc k" not in text


def test_render_with_model_columns():
    k = [bench_rec("irq_path_kernel", 2000, {"cycles": 9000.0, "dtlb_miss": 2.0})]
    p = [bench_rec("irq_path_process", 4000, {"cycles": 15000.0, "dtlb_miss": 12.5})]
    text = drvproc_tables.render(k, p, "p4")
    assert "cost model p4" in text
    row = next(line for line in text.splitlines() if line.startswith("interrupt entry -> requester"))
    assert "9,000" in row and "15,000" in row and "12.50" in row


def test_missing_figures_render_as_dashes():
    text = drvproc_tables.render([], [])
    assert "Table 2" in text and "estimated overhead" not in text


def test_drvproc_bench_boots_both_placements():
    b = bench.registry()["drvproc"]
    assert b.profile.words == ("drvbench",) and b.profile.net == "hub" and b.profile.smp == 1
    assert b.variants[:2] == (("kernel", ""), ("process", "drvproc=rtl8139,e1000"))


SUPER = process_placement("super", 3000, 2000, 3300, 270000)


def test_render_three_placements_side_by_side():
    text = drvproc_tables.render(KERNEL, PROCESS, None, (), SUPER)
    head = next(line for line in text.splitlines() if line.lstrip().startswith("kernel"))
    assert "super" in head and "diff p" in head and "diff s" in head and "sw s" in head
    row = next(line for line in text.splitlines() if line.startswith("interrupt entry -> requester"))
    assert "2,000" in row and "4,000" in row and "3,000" in row and "+1,000" in row
    assert "s: a process in supervisor mode" in text
    assert any(line.startswith("super") and "270,000" in line for line in text.splitlines())
    over = next(line for line in text.splitlines() if line.startswith("estimated overhead"))
    assert "process: throughput run +20.0 % instructions" in over
    assert "super: throughput run +10.0 % instructions" in over
    assert "(call + interrupt path) +78.6 %" in over and over.endswith("paper +5 %")


def test_drvproc_bench_boots_the_supervisor_placement():
    b = bench.registry()["drvproc"]
    assert ("super", "drvproc=rtl8139,e1000 drvmode=super") in b.variants


def test_paper_estimate_prices_the_added_switches():
    def modelled(placement, irq, call, irq_cr3, call_cr3):
        return [bench_rec(f"irq_path_{placement}", 1, {"cycles": irq}),
                bench_rec(f"call_send60_{placement}", 1, {"cycles": call}),
                sw_rec(f"irq_path_{placement}", placement, 100, 0, 100 * irq_cr3),
                sw_rec(f"call_send60_{placement}", placement, 100, 0, 100 * call_cr3)]
    figs = drvproc_tables.figures(modelled("kernel", 9000.0, 1000.0, 2, 0)
                                  + modelled("process", 1.0, 1.0, 4, 2)
                                  + modelled("super", 1.0, 1.0, 4, 2))
    assert drvproc_tables.paper_estimate(figs, 100.0) == \
        "process 4 x 100 = +4.0 %, super 4 x 100 = +4.0 %; paper +5 %"
    assert drvproc_tables.paper_estimate(figs, None) == ""


def frames_run(placement, per_frame, cycles, io_cycles, io_reads, irqs, held):
    """A modelled throughput run of 2000 frames: its record with the model, and its switch counts."""
    model = {"profile": "p4", "per_iter": {"cycles": cycles, "io_cycles": io_cycles,
                                             "io_reads": io_reads, "io_writes": 3.0}}
    return [{"kind": "drvproc", "figure": f"frames_{placement}", "placement": placement,
             "frames": 2000, "frames_per_s": 300000, "per_frame": per_frame, "held": held,
             "region": 524, "iters": 2000, "model": model},
            sw_rec(f"frames_{placement}", placement, 2000, 0, 2, calls=0, irqs=irqs)]


def test_frame_costs_split_the_device_register_cycles_and_count_interrupts():
    kernel = frames_run("kernel", 1749, 4168.0, 2389.0, 1.21, 72, 34)
    process = frames_run("process", 3762, 6133.0, 2295.0, 1.12, 31, 31)
    figs = drvproc_tables.figures(kernel + process)
    k = drvproc_tables.frame_costs(figs, "kernel")
    assert k["irqs"] == 72 / 2000 and k["held"] == 34 / 2000 and k["io_cycles"] == 2389.0
    assert drvproc_tables.frame_costs(figs, "super") is None
    text = drvproc_tables.explain_frames(figs)
    assert "4,168 modelled cycles for 1,749 instructions, the process placement 6,133 for 3,762" in text
    assert "2,389 of the kernel's cycles (57 %) and 2,295 of the process's (37 %)" in text
    assert "1.21 register reads a frame against 1.12" in text
    assert "0.036 of the RTL8139's interrupts a frame against 0.015" in text
    assert "The rest, 1,779 and 3,838 cycles" in text
    assert "held the card back 0.017 times a frame in the kernel and 0.015 in the process" in text
    table = drvproc_tables.render(kernel, process, "p4")
    row = next(line for line in table.splitlines() if line.startswith("kernel"))
    assert "0.036" in row and "0.017" in row and "2,389" in row and "1.21" in row


def test_explain_frames_needs_both_models_and_names_holds_only_when_there_were_some():
    figs = drvproc_tables.figures(frames_run("kernel", 1749, 4000.0, 1000.0, 1.0, 30, 0)
                                  + frames_run("super", 3762, 6133.0, 2295.0, 1.12, 31, 31))
    text = drvproc_tables.explain_frames(figs, "super")
    assert "4,000 modelled cycles" in text and "the super placement" in text and "held" not in text
    assert drvproc_tables.explain_frames(drvproc_tables.figures(KERNEL + PROCESS)) == ""
