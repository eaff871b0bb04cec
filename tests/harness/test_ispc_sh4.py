"""Tests for hakotool/papers/p002/sh4.py (paper 002's tables on SH-4, from canned
ispcbench lines with their TLB misses) and `./hako bench NAME --arch sh4`."""
import io
import json

from hakotool import bench
from hakotool.papers.p002 import criteria, sh4

# Medians (instructions) and misses in all per region of one made-up run:
# (baseline median, fast median, baseline misses, fast misses), iterations 100.
FIGURES = {
    "clock": (2466, 2466, 0, 0),
    "syscall": (4400, 4400, 0, 0),
    "ica_paste": (5266, 8333, 0, 0),
    "ica_peel": (7067, 8000, 0, 0),
    "first_access": (5334, 2533, 104, 0),
    "ica_paste_server": (5266, 6000, 0, 0),
    "ica_peel_server": (7067, 5267, 0, 0),
    "first_access_server": (5334, 2600, 107, 0),
    "process_switch": (9400, 9433, 1, 1),
    "sync_roundtrip_nodata": (30000, 25000, 300, 5),
    "relay_1_stepwise": (25000, 24000, 200, 0),
    "relay_1_direct": (25000, 24000, 200, 0),
    "relay_2_stepwise": (45000, 44000, 400, 0),
    "relay_2_direct": (37000, 36000, 300, 0),
}
ITERS = 100


def records(with_misses=True):
    out = [{"kind": "meta", "machine": "r2d"}]
    for name, (base, fast, mbase, mfast) in FIGURES.items():
        for mode, median, misses in (("baseline", base, mbase), ("fast", fast, mfast)):
            full = f"{name}_{mode}"
            out.append({"kind": "bench", "name": full, "unit": "tsc", "median": median,
                        "region": 256, "iters": ITERS})
            if with_misses:
                out.append({"kind": "bench-tlb", "name": full, "region": 256,
                            "misses": misses, "iters": ITERS})
    return out


def row(lines, *cells):
    """The table line whose first cells are CELLS."""
    start = "| " + " | ".join(cells) + " |"
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, (start, lines)
    return [c.strip() for c in found[0].strip("|").split("|")]


def test_misses_are_per_operation_from_the_tlb_lines():
    f = sh4.Sh4Figures(records())
    assert f.insns("first_access_baseline") == 5334
    assert f.misses("first_access_baseline") == 1.04
    assert f.misses("first_access_fast") == 0
    assert sh4.Sh4Figures(records(with_misses=False)).misses("first_access_fast") is None


def test_table2_before_after_misses_and_the_papers_microseconds():
    lines = sh4.table2(sh4.Sh4Figures(records()))
    first = row(lines, "first access to the ICA", "application")
    assert first[2:7] == ["5,334", "2,533", "-52.5 %", "1.04", "0.00"]
    assert first[7:] == ["10.3", "5.1", "-50.5 %"]
    server = row(lines, "first access to the ICA", "server")
    assert server[5:8] == ["1.07", "0.00", "10.3"] and server[8] == "0.5"
    peel = row(lines, "ICA peel", "server")
    assert peel[4] == "-25.5 %" and peel[-1] == "-62.5 %"
    assert row(lines, "two clock reads (in every row)")[2:5] == ["2,466", "2,466", "+0.0 %"]


def test_table2_x86_columns_only_with_x86_figures():
    f = sh4.Sh4Figures(records())
    assert "x86 insns before" not in sh4.table2(f)[0]
    x86 = {"first_access_baseline": 1200, "first_access_fast": 300}
    lines = sh4.table2(f, x86)
    assert "x86 insns before" in lines[0]
    assert row(lines, "first access to the ICA", "application")[7:9] == ["1,200", "300"]


def test_fig8_rows_with_figures_only_and_the_papers_range():
    lines = sh4.fig8(sh4.Sh4Figures(records()))
    rt = row(lines, "synchronous request + result round trip", "none")
    assert rt[3:8] == ["30,000", "25,000", "16.7 %", "3.00", "0.05"]
    assert not [line for line in lines if "| 4 KiB |" in line]


def test_fig9_each_mode_stepwise_direct_and_misses():
    lines = sh4.fig9(sh4.Sh4Figures(records()))
    two = row(lines, "2")
    assert two[1:6] == ["45,000", "37,000", "17.8 %", "4.00", "3.00"]
    assert two[6:9] == ["44,000", "36,000", "18.2 %"]
    assert not [line for line in lines if line.startswith("| 3 |")]
    assert "40 %" in lines[-1]


def test_render_is_deterministic_and_names_both_modes():
    text = sh4.render(records())
    assert text == sh4.render(records())
    assert "before = baseline mode" in text and "Table 2" in text and "Fig. 9" in text


def test_bench_arch_picks_the_arch_version():
    assert bench.bench_name("ispc", "x86_64") == "ispc"
    assert bench.bench_name("ispc", "sh4") == "ispc-sh4"
    sh4_bench = bench.registry()["ispc-sh4"]
    assert (sh4_bench.profile.arch, sh4_bench.profile.smp) == ("sh4", 1)
    assert sh4_bench.profile.words == ("ispcbench",)
    assert sh4_bench.table is sh4.bench_table


def test_bench_arch_without_a_version_is_a_usage_error():
    out, err = io.StringIO(), io.StringIO()
    assert bench.run_bench("intr", arch="sh4", out=out, err=err) == bench.EXIT_USAGE
    assert "no sh4 version" in err.getvalue()
    assert "  ispc\n" in err.getvalue() and "  sys\n" in err.getvalue()


def test_bench_sys_has_an_sh4_version():
    sys_sh4 = bench.registry()[bench.bench_name("sys", "sh4")]
    assert (sys_sh4.profile.arch, sys_sh4.profile.smp) == ("sh4", 1)
    assert sys_sh4.profile.words == ("sysbench",)


def write(tmp_path, recs):
    (tmp_path / sh4.RESULT_FILE).write_text("".join(json.dumps(r) + "\n" for r in recs))
    return tmp_path


def test_verdicts_not_run_without_the_file(tmp_path):
    found = sh4.verdicts(tmp_path)
    assert [v.result for v in found] == ["002 T2 SH-4", "002 Fig. 8 SH-4", "002 Fig. 9 SH-4"]
    assert all(v.verdict == "not yet" and "experiment not run" in v.reason for v in found)


def test_judged_figures_are_less_the_clock():
    j = sh4.Judged(sh4.Sh4Figures(records()))
    assert j.insns("first_access_baseline") == 5334 - 2466
    assert (j.profile, j.unit) == (criteria.INSNS, "insns")
    assert j.modelled(criteria.INSNS, "process_switch_fast") == 9433 - 2466 / 2
    assert j.modelled("p4", "process_switch_fast") is None
    assert j.insns("no_such_fast") is None


def test_table2_verdict_checks_that_the_first_access_misses_go(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    t2 = sh4.verdicts(write(tmp_path / "a", records()))[0]
    gone = [c for c in t2.checks if "its TLB miss gone" in c.what]
    assert len(gone) == 2 and all(c.held and c.main for c in gone)
    missing = [r for r in records() if not (r["kind"] == "bench-tlb"
                                            and r["name"] == "first_access_fast")]
    missing.append({"kind": "bench-tlb", "name": "first_access_fast", "misses": 100,
                    "iters": ITERS})                     # still a miss per access
    t2 = sh4.verdicts(write(tmp_path / "b", missing))[0]
    assert t2.verdict == "not yet" and "its TLB miss gone" in t2.reason


def switch_records(w=0, ispc=(3233, 3233), alone=(1300, 1300), base_classes=(14, 2, 0, 2, 2),
                   iters=400):
    """switch.c's lines for one working set: one way, alone, misses by class
    (baseline: BASE_CLASSES over the one-way spans; fast and alone: none)."""
    out = []
    for mode, (one_way, by_itself) in zip(("baseline", "fast"), zip(ispc, alone)):
        for kind, median in (("ispc", one_way), ("alone", by_itself)):
            name = f"switch_{kind}_w{w}_{mode}"
            classes = base_classes if (mode, kind) == ("baseline", "ispc") else (0,) * 5
            out += [{"kind": "bench", "name": name, "unit": "tsc", "median": median},
                    {"kind": "bench-tlb", "name": name, "misses": sum(classes), "iters": iters},
                    {"kind": "bench-tlb-class", "name": name, "iters": iters,
                     **dict(zip(sh4.MISS_CLASSES, classes))}]
    return out


def test_switch_added_is_one_way_less_alone_with_misses_by_class():
    f = sh4.Sh4Figures(switch_records())
    insns, per_switch, by_class = f.switch_added(0, "baseline")
    assert insns == 3233 - 1300 and per_switch == 20 / 400
    assert by_class == {"code": 14 / 400, "stack": 2 / 400, "data": 0.0, "ica": 2 / 400,
                        "kernel": 2 / 400}
    assert f.switch_added(0, "fast")[1] == 0
    assert f.switch_added(8, "fast") is None


def test_switch_curve_rows_by_working_set():
    f = sh4.Sh4Figures(switch_records(0) + switch_records(24, ispc=(3366, 3633)))
    lines = sh4.switch_curve(f)
    assert row(lines, "0")[1:7] == ["3,233", "1,933", "0.05", "3,233", "1,933", "0.00"]
    assert row(lines, "24")[4] == "3,633"
    assert "code 0.04 -> 0.00" in row(lines, "0")[7]
    assert sh4.switch_curve(sh4.Sh4Figures(records())) == []


def test_table2_judges_the_switch_in_ispc_traffic_when_measured(tmp_path):
    j = sh4.Judged(sh4.Sh4Figures(records() + switch_records(ispc=(3233, 2233))))
    assert j.insns("process_switch_fast") == 2233 - 2466 / 2
    assert sh4.Judged(sh4.Sh4Figures(records())).insns("process_switch_fast") == 9433 - 2466 / 2
    t2 = sh4.verdicts(write(tmp_path, records() + switch_records()))[0]
    fewer = [c for c in t2.checks if "fewer TLB misses per switch" in c.what]
    assert len(fewer) == 1 and fewer[0].held and not fewer[0].main
    lines = sh4.table2(sh4.Sh4Figures(records() + switch_records()))
    assert row(lines, "process switch in ISPC traffic (one way)")[5:7] == ["0.05", "0.00"]


def modelled(recs, cycles):
    """RECS joined with a cost model: CYCLES per operation by figure name."""
    out = []
    for r in recs:
        if r.get("kind") == "bench" and r["name"] in cycles:
            r = {**r, "model": {"profile": "sh7751r", "per_iter": {"cycles": cycles[r["name"]]}}}
        out.append(r)
    return out


def test_cycles_columns_only_in_a_cost_model_join():
    plain = sh4.Sh4Figures(records())
    assert plain.cycles("first_access_baseline") is None and not plain.model
    assert "cycles" not in " ".join(sh4.table2(plain) + sh4.fig8(plain) + sh4.fig9(plain))
    f = sh4.Sh4Figures(modelled(records(), {"first_access_baseline": 9000.0,
                                            "first_access_fast": 4500.0,
                                            "clock_baseline": 1000.0, "clock_fast": 1000.0,
                                            "sync_roundtrip_nodata_baseline": 50000.0,
                                            "sync_roundtrip_nodata_fast": 40000.0,
                                            "relay_2_stepwise_fast": 80000.0,
                                            "relay_2_direct_fast": 60000.0}))
    assert f.profile == "sh7751r" and f.cycles("first_access_fast") == 4500.0
    lines = sh4.table2(f)
    assert "sh7751r cycles before" in lines[0]
    first = row(lines, "first access to the ICA", "application")
    assert first[2:10] == ["5,334", "2,533", "-52.5 %", "1.04", "0.00", "9,000", "4,500", "-50.0 %"]
    assert first[10:] == ["33.3", "14.6", "10.3", "5.1", "-50.5 %"]   # (cycles - clock) / 240
    assert "sh7751r µs before" in lines[0] and "240 MHz" in lines[-1]
    assert row(lines, "ICA peel", "server")[7:12] == ["-", "-", "-", "-", "-"]
    rt = row(sh4.fig8(f), "synchronous request + result round trip", "none")
    assert rt[8:11] == ["50,000", "40,000", "20.0 %"]
    two = row(sh4.fig9(f), "2")
    assert two[6] == "-" and two[12] == "25.0 %"


def test_switch_curve_adds_the_cycles_a_switch_adds():
    recs = modelled(switch_records(), {"switch_ispc_w0_baseline": 6000.0,
                                       "switch_alone_w0_baseline": 2500.0,
                                       "switch_ispc_w0_fast": 5800.0,
                                       "switch_alone_w0_fast": 2500.0})
    f = sh4.Sh4Figures(recs)
    assert f.switch_added_cycles(0, "baseline") == 3500.0
    assert f.switch_added_cycles(8, "fast") is None
    lines = sh4.switch_curve(f)
    assert row(lines, "0")[1:9] == ["3,233", "1,933", "0.05", "3,500", "3,233", "1,933", "0.00",
                                    "3,300"]
    assert "sh7751r" in lines[-1]


# The meta records of one experiment's plain run and its cost-model run.
PLAIN_META = {"kind": "meta", "commit": "c0ffee", "dirty": False, "date": "2026-11-27T15:00:00Z",
              "machine": "r2d", "cmdline": "servers=nameserver,echo,ramdisk,ispcbench -- ispcbench",
              "profile": None, "command": "./hako bench ispc --arch sh4",
              "build": {"image": "70f92e22a30a95fe", "initrd": "e4dcd5dbbdc6aabf"}}
MODEL_META = {**PLAIN_META, "date": "2026-11-27T14:57:00Z", "profile": "sh7751r",
              "command": "./hako bench ispc --arch sh4 --model sh7751r"}


def write_runs(tmp_path, plain, joined, model_meta=MODEL_META):
    """RESULT_FILE (PLAIN_META, PLAIN) and JOINED_FILE (MODEL_META, JOINED)."""
    tmp_path.mkdir(exist_ok=True)
    write(tmp_path, [PLAIN_META] + [r for r in plain if r["kind"] != "meta"])
    (tmp_path / sh4.JOINED_FILE).write_text("".join(
        json.dumps(r) + "\n" for r in [model_meta] + [r for r in joined if r["kind"] != "meta"]))
    return tmp_path


def test_report_reads_the_join_when_it_is_there(tmp_path):
    write(tmp_path, records())
    assert "sh7751r cycles before" not in "\n".join(sh4.report_lines(tmp_path))
    write_runs(tmp_path, records(), modelled(records(), {"syscall_baseline": 7000.0}))
    text = "\n".join(sh4.report_lines(tmp_path))
    assert "sh7751r cycles before" in text and "7,000" in text


# Fig. 8's one-way windows: (baseline, fast) medians; the asynchronous
# request has no region, so no cycles in a join.
FIG8 = {"sync_request": (9000, 6000), "sync_return": (8000, 6000),
        "async_request": (4000, 4000), "async_return": (5000, 4000)}


def fig8_records():
    return [{"kind": "bench", "name": f"{base}_{data}_{mode}", "unit": "tsc", "median": m}
            for base, pair in FIG8.items() for data in ("nodata", "4k")
            for mode, m in zip(("baseline", "fast"), pair)]


def all_cycles(recs, clock=4000.0):
    """Cycles for every figure with a region: twice its median, the first
    access 20,000 -> 6,000, the clock CLOCK (None: no clock region)."""
    cycles = {r["name"]: 2.0 * r["median"] for r in recs
              if r["kind"] == "bench" and not r["name"].startswith(("async_request", "clock"))}
    cycles.update(first_access_baseline=20000.0, first_access_fast=6000.0)
    if clock is not None:
        cycles.update(clock_baseline=clock, clock_fast=clock)
    return modelled(recs, cycles)


def change_check(v, what):
    found = [c for c in v.checks if c.what == what]
    assert len(found) == 1, [c.what for c in v.checks]
    return found[0]


def test_verdicts_judge_the_cycles_of_the_same_runs_join(tmp_path):
    plain = records() + fig8_records()
    t2, f8, f9 = sh4.verdicts(write_runs(tmp_path, plain, all_cycles(plain)))
    assert all(v.title.endswith("(sh7751r cycles)") for v in (t2, f8, f9))
    # (6,000 - 4,000) against (20,000 - 4,000): the cycles less the clock's.
    first = change_check(t2, "first access, application change")
    assert "-87.5 %" in first.detail
    labels = [c.what for c in f8.checks]
    assert "sync request saving, no data (sh7751r cycles)" in labels
    assert "async request saving, 4 KiB (insns)" in labels      # no region: instructions
    assert not [w for w in labels if "p4" in w]
    text = "\n".join(sh4.report_lines(tmp_path))
    assert "The verdicts read the **sh7751r cycles**" in text


def test_verdicts_read_instructions_without_the_same_runs_join(tmp_path):
    plain = records() + fig8_records()
    insns = "-97.7 %"             # (2,533 - 2,466) against (5,334 - 2,466)
    for case, joined, meta in (
            ("other-image", all_cycles(plain),
             {**MODEL_META, "build": {**MODEL_META["build"], "image": "0123456789abcdef"}}),
            ("other-commit", all_cycles(plain), {**MODEL_META, "commit": "decade"}),
            ("no-clock-region", all_cycles(plain, clock=None), MODEL_META)):
        t2, f8, f9 = sh4.verdicts(write_runs(tmp_path / case, plain, joined, meta))
        assert all(v.title.endswith("(insns)") for v in (t2, f8, f9)), case
        assert insns in change_check(t2, "first access, application change").detail, case
        assert "sync request saving, no data (insns)" in [c.what for c in f8.checks], case
        text = "\n".join(sh4.report_lines(tmp_path / case))
        assert "The verdicts read the **insns**" in text, case
        assert ("No cycles:" in text) == (case != "no-clock-region"), case
    t2, _, _ = sh4.verdicts(write(tmp_path, plain))                   # no join at all
    assert t2.title.endswith("(insns)")
    assert insns in change_check(t2, "first access, application change").detail


def with_parts(recs, counters):
    """RECS joined with a cost model whose per-operation counters are
    COUNTERS by figure name (the plugin's names, tools/costmodel/model.h)."""
    out = []
    for r in recs:
        if r.get("kind") == "bench" and r["name"] in counters:
            r = {**r, "model": {"profile": "sh7751r", "per_iter": counters[r["name"]]}}
        out.append(r)
    return out


def counters(cycles, insns, paired=0, mem=0, l1i=0, h_insns=0, h_paired=0, h_cycles=0, h_l1i=0,
             h_mem=0):
    return {"cycles": cycles, "insns": insns, "paired": paired, "mem_cycles": mem,
            "l1i_cycles": l1i, "handler_insns": h_insns, "handler_paired": h_paired,
            "handler_cycles": h_cycles, "handler_l1i_cycles": h_l1i, "handler_mem_cycles": h_mem}


def test_switch_cycles_split_into_handler_caches_issue_and_the_rest():
    # baseline: a switch adds 2,000 cycles: 1,000 instructions (100 paired), one miss's
    # handler (90 insns, 10 paired, 150 cycles: 30 of its fetches, 10 of its data), I-cache
    # 300 and operand cache 200 besides, 820 issued outside the handler, 530 left for ITLB
    # refills and registers
    alone = counters(1000, 500)
    base = counters(3000, 1500, paired=100, mem=540, l1i=330, h_insns=90, h_paired=10,
                    h_cycles=150, h_l1i=30, h_mem=40)
    fast = counters(2800, 1410, paired=90, mem=500, l1i=300)
    recs = with_parts(switch_records(), {"switch_ispc_w0_baseline": base,
                                         "switch_alone_w0_baseline": alone,
                                         "switch_ispc_w0_fast": fast,
                                         "switch_alone_w0_fast": alone})
    f = sh4.Sh4Figures(recs)
    p = f.switch_parts(0, "baseline")
    assert p == {"cycles": 2000, "handler": 150, "icache": 300, "ocache": 200, "issue": 820,
                 "other": 530, "handler_insns": 90, "paired": 100}
    assert sum(p[k] for k, _ in sh4.SWITCH_PARTS) == p["cycles"]
    assert f.switch_parts(8, "fast") is None
    lines = sh4.switch_attribution(f)
    assert row(lines, "0", "baseline")[2:] == ["2,000", "150", "300", "200", "820", "530", "90",
                                               "100"]
    assert row(lines, "0", "fast - baseline")[2:8] == ["-200", "-150", "+0", "+0", "+0", "-50"]
    # a join without the counters (an older plugin's): no table
    assert sh4.switch_attribution(sh4.Sh4Figures(modelled(switch_records(), {
        "switch_ispc_w0_baseline": 6000.0, "switch_alone_w0_baseline": 2500.0,
        "switch_ispc_w0_fast": 5800.0, "switch_alone_w0_fast": 2500.0}))) == []
