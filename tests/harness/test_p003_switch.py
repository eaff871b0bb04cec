"""Tests for paper 003's own experiment (hakotool/papers/p003/switch.py) and its
criteria for Tables 2 and 3 (papers/p003/criteria.py): the in-kernel driver
without and with drvswitch=on, planted figures on each side of the ×2 tolerance."""
import json

from hakotool import bench
from hakotool.papers.p003 import tables as drvproc_tables
from hakotool.papers import p003
from hakotool.papers.p003 import switch
from hakotool.verdict import NOT_YET, PARTLY, REPRODUCED


def bench_rec(name, median, cycles, spans=100, dtlb=0.0, itlb=0.0):
    return {"kind": "bench", "name": name, "unit": "tsc", "median": median, "n": 100,
            "model": {"profile": "p4", "iters": 100, "spans": spans,
                      "totals": {"cycles": cycles * spans, "dtlb_miss": dtlb * spans,
                                 "itlb_miss": itlb * spans},
                      "per_iter": {"cycles": cycles * spans / 100}}}


def sw_rec(figure, side, ops, cr3):
    return {"kind": "drvproc", "figure": figure, "placement": side, "ops": ops,
            "switches_in": 0, "switches_out": 0, "as_switches": cr3 * ops}


def runs(switch_cycles=377.0, irq_misses=0.0, copy=(416.0, 518.0), copy_misses=(0.0, 2.0),
         cr3_added=2):
    """The plain in-kernel boot's records and the drvswitch boot's."""
    k = [bench_rec("irq_path_kernel", 2300, 13644.0),
         sw_rec("irq_path_kernel", "kernel", 100, 2),
         bench_rec("copyin_4_kernel", 50, copy[0], spans=210, dtlb=copy_misses[0]),
         sw_rec("copycall_4_kernel", "kernel", 200, 0)]
    s = [bench_rec("irq_path_switch", 2600, 13644.0 + cr3_added * switch_cycles, dtlb=irq_misses),
         sw_rec("irq_path_switch", "switch", 100, 2 + cr3_added),
         bench_rec("copyin_4_switch", 50, copy[1], spans=210, dtlb=copy_misses[1]),
         sw_rec("copycall_4_switch", "switch", 200, cr3_added)]
    return k, s


def figs(**kw):
    k, s = runs(**kw)
    return switch.figures(k + s)


def test_the_switch_cost_is_the_growth_over_the_cr3_loads_added():
    per, added, misses = switch.switch_cost(figs(switch_cycles=181.0))
    assert round(per) == 181 and added == 2 and misses == 0


def test_copyin_counts_per_span_not_per_timed_call():
    # the kernel-side region also spans the warm-up calls: 210 spans for 200 iterations
    c0, c1, m0, m1 = switch.copyin(figs(copy=(49.0, 100.0), copy_misses=(0.0, 1.0)))
    assert (c0, c1, m0, m1) == (49.0, 100.0, 0.0, 1.0)


def test_the_papers_own_figures_are_reproduced():
    f = figs()
    assert p003.table2(f).verdict == REPRODUCED
    assert p003.table3(f).verdict == REPRODUCED


def test_a_switch_below_half_the_papers_cost_is_partly():
    v = p003.table2(figs(switch_cycles=181.0))
    assert v.verdict == PARTLY
    assert "one address-space switch: 181 cycles against the paper's 377 cycles, ×0.48" in v.reason


def test_misses_added_on_the_interrupt_path_fail_table2():
    v = p003.table2(figs(irq_misses=3.0))
    assert v.verdict == PARTLY and "no TLB miss added" in v.reason


def test_no_cr3_load_added_is_not_the_papers_experiment():
    v = p003.table2(figs(cr3_added=0))
    assert v.verdict == NOT_YET and "a different experiment" in v.reason


def test_table3_follows_the_growth_and_the_misses():
    assert p003.table3(figs(copy=(49.0, 100.0), copy_misses=(0.0, 1.0))).verdict == REPRODUCED
    v = p003.table3(figs(copy=(49.0, 60.0), copy_misses=(0.0, 1.0)))
    assert v.verdict == PARTLY and "4-byte copy-in's growth: 11 cycles" in v.reason
    v = p003.table3(figs(copy=(49.0, 60.0), copy_misses=(0.0, 0.0)))
    assert "TLB misses the switch adds to the copy-in" in v.reason
    v = p003.table3(figs(copy=(49.0, 49.0), copy_misses=(0.0, 0.0)))
    assert v.verdict == NOT_YET


def test_a_published_constant_flips_the_verdict():
    f = figs(switch_cycles=181.0)
    assert p003.table2(f).verdict == PARTLY
    assert p003.table2(f, pub={**p003.PUBLISHED, "switch_clocks": 300}).verdict == REPRODUCED


def test_not_run_without_the_switch_boot(tmp_path):
    for criterion in p003.CRITERIA:
        v = criterion({})
        assert v.verdict == NOT_YET and "experiment not run" in v.reason
    k, s = runs()
    for side, recs in (("kernel", k), ("switch", s)):
        (tmp_path / f"bench-drvproc-{side}-p4.joined.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in recs))
    assert [v.verdict for v in p003.verdicts(tmp_path)] == [REPRODUCED, REPRODUCED]


def test_the_table_shows_both_sides_and_the_papers_figures():
    k, s = runs(switch_cycles=181.0, copy=(49.0, 100.0), copy_misses=(0.0, 1.0))
    text = switch.render(k, s, "p4")
    assert "one address-space switch: 181 cycles (2.00 CR3 loads added per interrupt" in text
    assert "4-byte copy-in after the switch: 49 -> 100 cycles (+51), TLB misses 0.00 -> 1.00" in text
    assert "paper 416 -> 518 clocks (+102)" in text
    assert switch.render(k, [], "p4") == ""
    assert "paper 003's experiment" in drvproc_tables.render(k, [], "p4", s)
    assert "paper 003's experiment" not in drvproc_tables.render(k, [], "p4")


def test_drvproc_bench_boots_the_switch_variant():
    assert ("switch", "drvswitch=on") in bench.registry()["drvproc"].variants
