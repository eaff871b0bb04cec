"""Tests for paper 000 in modelled cycles (tools/hakotool/papers/p000/modelled.py)
and for its criteria judging the modelled figures when the run had them.

A joined run is planted: intrbench's records and the cost model's epoch
lines (one per call of run_config and one_case, per vCPU) with device
cycles chosen so the modelled figures are known by hand.
"""
import json

from hakotool.papers import p000
from hakotool.papers.p000 import modelled
from hakotool.verdict import PARTLY, REPRODUCED

META = {"kind": "meta", "commit": "abc", "date": "2026-11-27T00:00:00Z"}


def epoch(seq, name, args, vcpu, io_cycles, io=0, insns=1000):
    return {"kind": "epoch", "seq": seq, "at": "0x400000", "at_name": name, "args": args,
            "vcpu": vcpu, "insns": insns, "cycles": insns + io_cycles, "io_reads": io,
            "io_writes": 0, "io_cycles": io_cycles, "profile": "pentium2-450",
            "base_cpi_milli": 1000}


def planted(seq_io_per_int=1000, pack_io_per_batch=3000, io_per_frame_fig6=2000):
    """Sequential one interrupt 2000 insns; packed N: 1000 + 500 N insns a batch."""
    recs = []
    for n in range(1, 11):
        recs.append({"kind": "intr-total", "n": n, "seq_measured": 2000 * n, "seq_model": 2000 * n,
                     "packed_measured": 1000 + 500 * n, "packed_model": 1000 + 500 * n,
                     "saving_permille": 0})
    recs.append({"kind": "intr-interference", "k": 0, "mode": "none", "loops": 1_000_000})
    for k in range(1, 11):
        recs.append({"kind": "intr-interference", "k": k, "mode": "sequential",
                     "loops": 1_000_000 - 3000 * k})
        recs.append({"kind": "intr-interference", "k": k, "mode": "packed",
                     "loops": 1_000_000 - 2000 * k})
    seq = 0
    for n in range(1, 11):
        recs.append(epoch(seq, "run_config", [1, n, 0], 1, pack_io_per_batch * modelled.ROUNDS))
        recs.append(epoch(seq, "run_config", [1, n, 0], 0, 99_999))     # the sender: not counted
        seq += 1
    recs.append(epoch(seq, "run_config", [1, 10, 100_000_000], 1, 0))
    recs.append(epoch(seq + 1, "run_config", [0, 10, 0], 1,
                      seq_io_per_int * modelled.ROUNDS * modelled.SEQ_FRAMES, io=4000))
    seq += 2
    recs.append(epoch(seq, "part_delay", [0, 0, 0], 0, 0))
    recs.append(epoch(seq + 1, "part_interference", [0, 0, 0], 1, 0))   # one_case(0) inlined
    seq += 2
    for k in range(1, 11):
        frames = 100 * k
        recs.append(epoch(seq, "one_case", [k, 0, 0], 1, io_per_frame_fig6 * frames))
        recs.append(epoch(seq + 1, "one_case", [k, 0, 0], 1, io_per_frame_fig6 * frames // 2))
        seq += 2
    return recs


def test_table2_totals_get_the_device_cycles_of_their_run():
    f = modelled.figures(planted())
    assert f["profile"] == "pentium2-450" and f["mhz"] == 450
    assert f["seq_io_per_int"] == 1000 and f["seq_accesses_per_int"] == 20.0
    r10 = f["totals"][10]
    assert r10["seq_cycles"] == 10 * 2000 + 10 * 1000
    assert r10["packed_cycles"] == 6000 + 3000          # the sender's 99,999 left out
    assert abs(r10["saving_pct"] - 70.0) < 1e-9
    r1 = f["totals"][1]
    assert r1["seq_cycles"] == 3000 and r1["packed_cycles"] == 4500
    assert f["breakeven_n"] == 2                        # 2: 6000 against 5000


def test_fig6_loops_in_one_modelled_second():
    f = modelled.figures(planted())
    seq, packed, none = modelled.fig6_loops(f)
    # L = 1000 insns a loop; no I/O: 450e6 cycles / 1000
    assert none == 450_000
    # k = 10 sequential: H = 1e9 - 970,000 x 1000 = 30e6; io = 2000 x 1000 frames = 2e6
    assert seq[10] == (450_000_000 - 30_000_000 - 2_000_000) // 1000
    assert packed[10] == (450_000_000 - 20_000_000 - 1_000_000) // 1000
    assert abs(f["fig6"][("sequential", 10)]["io_share_pct"] - 100 * 2e6 / 450e6) < 1e-9


def test_a_no_io_case_of_its_own_is_taken_too():
    recs = [{**r, "at_name": "one_case"} if r.get("at_name") == "part_interference" else r
            for r in planted()]
    assert modelled.figures(recs)["fig6"][("none", 0)]["loops_cycles"] == 450_000


def test_unexpected_epochs_are_refused_with_the_reason():
    recs = [r for r in planted() if not (r.get("kind") == "epoch" and r["at_name"] == "one_case"
                                         and r["args"][0] == 3)]
    assert "one_case" in modelled.figures(recs)["error"]
    assert modelled.figures([r for r in planted() if r.get("kind") != "epoch"]) is None
    assert "not computed" in modelled.render(modelled.figures(recs))


def test_render_names_the_profile_and_the_io_share():
    text = modelled.render(modelled.figures(planted()))
    assert "pentium2-450 (450 MHz)" in text and "Table 2" in text and "Fig. 6" in text
    assert "the device accesses take 0.44 % of the modelled second" in text


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_criteria_judge_the_modelled_figures_of_the_same_run_only(tmp_path):
    recs = planted()
    guest = [r for r in recs if r.get("kind") != "epoch"]
    guest.append({"kind": "intr-phases", "s": 280, "t1_seq": 300, "t3_seq": 182, "t2_seq": 1677,
                  "t2_pack": 1617, "t1_pack": 290, "copy": 10, "t3_pack": 182})
    write(tmp_path / "bench-intr.jsonl", [META] + guest)
    f = p000.figures(tmp_path)
    assert "modelled" not in f                          # no joined file
    write(tmp_path / "bench-intr.joined.jsonl", [META] + guest + [r for r in recs
                                                                  if r.get("kind") == "epoch"])
    f = p000.figures(tmp_path)
    assert f["modelled"]["totals"][10]["saving_pct"] == 70.0
    v = p000.table2(f)
    assert "saving at N = 10 in modelled cycles (pentium2-450): 70" in v.reason
    assert v.verdict == PARTLY                          # ×6 the paper's 11.2 %: within ×10
    write(tmp_path / "bench-intr.joined.jsonl", [{**META, "date": "older"}] + guest)
    assert "modelled" not in p000.figures(tmp_path)     # a stale joined file is not used


def test_fig6_criterion_uses_the_modelled_loops():
    f = {"loops": {"sequential": {10: 1}, "packed": {10: 1}}, "none": 1,
         "modelled": modelled.figures(planted())}
    v = p000.fig6(f)
    assert "in modelled cycles (pentium2-450)" in v.reason
    planted_gain = 100 * (429_000 - 418_000) / 418_000
    assert f"{planted_gain:.3g}"[:3] in v.reason
    assert v.verdict != REPRODUCED


def test_report_section_adds_the_modelled_tables_only_with_them(tmp_path):
    from hakotool.papers.p000 import report
    recs = planted()
    guest = [r for r in recs if r.get("kind") != "epoch"]
    write(tmp_path / "bench-intr.jsonl", [META] + guest)
    assert report.modelled_section(tmp_path) == []
    write(tmp_path / "bench-intr.joined.jsonl", [META] + recs)
    text = "\n".join(report.modelled_section(tmp_path))
    assert text.startswith("### In modelled cycles (pentium2-450, 450 MHz)")
    assert "| 10 | 20,000 | 30,000 | 6,000 | 9,000 | 70.0 % |" in text
    assert "the device accesses alone 0.44 %" in text


def grouping_run(grouped_cycles=900_000, ungrouped_cycles=1_000_000):
    """The grouping part's three g_run epochs (CPU 1's cycles) and records, 1000 interrupts each."""
    recs = [{"kind": "intr-grouping", "mode": m, "interrupts": 1000}
            for m in modelled.GROUP_MODES]
    for seq, cycles in enumerate((2_000_000, grouped_cycles, ungrouped_cycles)):
        e = epoch(seq, "g_run", [0, 0, 0], 1, 0, insns=cycles // 2)
        e.update(cycles=cycles, l1i_miss=seq * 1000, l1d_miss=0)
        recs.append(e)
        recs.append(epoch(seq, "g_run", [0, 0, 0], 0, 0, insns=77))      # CPU 0: not counted
    return recs


def test_grouping_in_modelled_cycles_per_interrupt_of_cpu1():
    g = modelled.grouping(grouping_run())
    assert g["grouped"]["cycles"] == 900 and g["ungrouped"]["cycles"] == 1000
    assert g["sequential"]["insns"] == 1000 and g["ungrouped"]["l1i"] == 2.0
    assert "grouped" in modelled.render_grouping(g)
    assert modelled.grouping(grouping_run()[:-2]) is None            # an epoch missing


def test_grouping_verdict_reads_the_modelled_cycles(tmp_path):
    from test_verdicts import triggers
    f = {**triggers(), "modelled_grouping": modelled.grouping(grouping_run())}
    assert p000.grouping(f).verdict == REPRODUCED
    f["modelled_grouping"] = modelled.grouping(grouping_run(grouped_cycles=1_100_000))
    v = p000.grouping(f)
    assert v.verdict == PARTLY and "modelled cycles" in v.reason
