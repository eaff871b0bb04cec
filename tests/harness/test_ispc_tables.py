"""Tests for hakotool/papers/p002/tables.py: paper 002's tables from canned ispcbench lines."""
import json

from hakotool.papers.p002 import criteria
from hakotool.papers.p002 import tables as ispc_tables

# Medians of one made-up run (guest instructions), both modes.
MEDIANS = {
    "syscall": (100, 100), "ica_paste": (300, 500), "ica_peel": (400, 400),
    "first_access": (500, 10), "process_switch": (800, 800),
    "ica_paste_server": (300, 300), "ica_peel_server": (400, 200),
    "first_access_server": (500, 10),
    "sync_roundtrip_nodata": (4000, 2400), "sync_roundtrip_4k": (5600, 2600),
    "async_request_nodata": (900, 900), "async_return_nodata": (800, 600),
    "async_return_4k": (1000, 620), "server_receive_nodata": (500, 520),
    "server_receive_4k": (560, 570),
    "data_4k_remap": (5000, 2500), "data_4k_copy": (6000, 4000),
}
# Relays: stepwise R1 + (n-1) * 2000, direct R1 + (n-1) * 1200.
for n in range(1, 5):
    MEDIANS[f"relay_{n}_stepwise"] = (2000 + (n - 1) * 2000,) * 2
    MEDIANS[f"relay_{n}_direct"] = (2000 + (n - 1) * 1200,) * 2


def icount_records():
    out = []
    for name, values in MEDIANS.items():
        for mode, v in zip(ispc_tables.MODES, values):
            out.append({"kind": "bench", "name": f"{name}_{mode}", "unit": "tsc", "median": v})
    out.append({"kind": "bench-target", "name": "x", "value": 1})
    return out


def joined_records(profile, factor):
    """Every figure with a model: cycles = factor * median, one dTLB miss
    for the application's first access in both modes."""
    out = []
    for r in icount_records():
        if r["kind"] != "bench":
            out.append(r)
            continue
        dtlb = 1.0 if r["name"].startswith("first_access_") and "server" not in r["name"] else 0.0
        per = {"insns": r["median"], "cycles": factor * r["median"], "itlb_miss": 0.0,
               "dtlb_miss": dtlb}
        out.append({**r, "model": {"profile": profile, "iters": 10, "per_iter": per}})
    return out


def figures():
    return ispc_tables.Figures(icount_records(),
                               [joined_records("p4", 3), joined_records("modern", 2)])


def test_load_reads_result_lines_and_skips_the_rest(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('@@ {"kind":"bench","name":"a","median":1}\nnoise\n{"kind":"x"}\n[1]\n')
    assert [r["kind"] for r in ispc_tables.load(path)] == ["bench", "x"]


def test_profiles_come_from_the_lines_modern_first():
    f = figures()
    assert f.profiles() == ["modern", "p4"]
    assert f.modelled("p4", "syscall_fast") == 300
    assert f.tlb("modern", "first_access_baseline") == 1.0


def test_table2_puts_both_sides_and_the_paper_beside_each_other():
    lines = ispc_tables.table2(figures())
    server_peel = next(l for l in lines if l.startswith("| ICA peel | server"))
    cells = [c.strip() for c in server_peel.strip("|").split("|")]
    # insns, modern cycles, p4 cycles (base, fast), TLB misses, paper before / after
    assert cells[2:] == ["400", "200", "800", "400", "1,200", "600", "0.0", "0.0", "4.8", "1.8"]
    app_first = next(l for l in lines if l.startswith("| first access to the ICA | application"))
    assert app_first.rstrip(" |").endswith("1.0 | 1.0 | 10.3 | 5.1")


def test_fig8_prints_savings_and_the_server_rows():
    text = "\n".join(ispc_tables.fig8(figures()))
    assert "| synchronous request + result round trip | none | application | 4,000 | 2,400 | 40.0 % |" in text
    assert "| asynchronous request (the call alone) | none | application | 900 | 900 | 0.0 % |" in text
    assert "server: reply without waiting" in text and "server: receive of a queued" in text


def test_server_share_is_the_difference_the_data_ica_makes():
    rows = ispc_tables.server_share(figures())
    peel = next(l for l in rows if l.startswith("| peel"))
    assert "| 200 | 20 | 400 | 40 | 600 | 60 |" in peel


def test_fig5_counts_follow_the_mode():
    assert ispc_tables.breakdown_counts(True, "baseline")["peel"] == 2
    assert ispc_tables.breakdown_counts(True, "fast")["peel"] == 0
    assert ispc_tables.breakdown_counts(False, "fast")["paste_server"] == 1


def test_fig5_parts_and_rest_add_up_to_the_round_trip():
    f = figures()
    units = ispc_tables.unit_costs(f.insns, "baseline")
    assert units == {"syscall": 100, "switch": 600, "paste": 200, "paste_server": 200,
                     "peel": 300, "peel_server": 300, "first_access": 500,
                     "first_access_server": 500}
    lines = ispc_tables.fig5(f, "baseline")
    rest = next(l for l in lines if l.startswith("| rest (no data)"))
    # 4000 - (2*100 + 200 + 200 + 300 + 300 + 500 + 500 + 2*600) = 600
    assert "| 600 | 15 % |" in rest


def test_stage_model_recovers_the_per_stage_costs():
    f = figures()
    step = ispc_tables.relay_series(f.insns, "fast", "stepwise")
    direct = ispc_tables.relay_series(f.insns, "fast", "direct")
    m = ispc_tables.stage_model(step, direct)
    assert (m["r1"], m["s"], m["d"]) == (2000, 2000, 1200)
    assert ispc_tables.model_saving(m, 1) == 0
    assert abs(ispc_tables.model_saving(m, 4) - 3 * 800 / 8000) < 1e-9
    assert abs(m["limit"] - 0.4) < 1e-9


def test_render_without_models_still_prints_instructions():
    text = ispc_tables.render(ispc_tables.Figures(icount_records(), []))
    assert "modelled profiles: none" in text
    assert "| ICA paste | server | 300 | 300 | - | - |" in text


def test_main_reads_the_files_it_is_given(tmp_path, capsys):
    icount = tmp_path / "bench-ispc.jsonl"
    icount.write_text("".join(json.dumps(r) + "\n" for r in icount_records()))
    joined = tmp_path / "m.joined.jsonl"
    joined.write_text("".join(json.dumps(r) + "\n" for r in joined_records("modern", 2)))
    assert ispc_tables.main(["--icount", str(icount), str(joined)]) == 0
    out = capsys.readouterr().out
    assert "modelled profiles: modern" in out and "Fig. 9" in out


def test_data_table_has_a_row_per_size_measured():
    rows = ispc_tables.data_table(figures())
    assert len(rows) == 3
    assert rows[2].startswith("| 4 KiB | 5,000 | 6,000 | 2,500 | 4,000 | 10,000 |")


def test_fig5_bars_group_the_papers_partial_operations_and_add_up():
    bars = ispc_tables.fig5_bars(figures(), "baseline")
    assert [label for label, _, _ in bars] == [
        "no data, insns", "no data, modern cycles", "no data, p4 cycles",
        "4 KiB data, insns", "4 KiB data, modern cycles", "4 KiB data, p4 cycles"]
    label, parts, total = bars[0]
    # the same figures as the table (test above): application and server summed
    assert parts == [("ICA paste", 400), ("ICA peel", 600), ("first access", 1000),
                     ("process switch", 1200), ("system calls", 200), ("rest", 600)]
    assert total == 4000 and sum(v for _, v in parts) == total
    assert ispc_tables.fig5_bars(ispc_tables.Figures([], []), "baseline") == []


def test_fig8_panels_hold_the_operations_measured_in_both_modes():
    panels = ispc_tables.fig8_panels(figures())
    assert [(unit, data) for unit, data, _ in panels][:2] == [("insns", "no data"),
                                                              ("insns", "4 KiB data")]
    ops = dict((op, (b, f)) for op, b, f in panels[0][2])
    assert ops["sync round trip (application)"] == (4000, 2400)
    assert ops["reply without waiting (server)"] == (800, 600)
    # no sync_request figures in the canned run: no bar for it
    assert "sync request (both sides)" not in ops
    assert any(unit == "p4 cycles" for unit, _, _ in panels)


def test_joins_leave_out_another_machines_join(tmp_path):
    def write(name, meta, recs):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in [meta] + recs))
    write("bench-ispc.jsonl", {"kind": "meta", "machine": "pc"}, icount_records())
    write("bench-ispc-p4.joined.jsonl", {"kind": "meta", "machine": "pc"},
          joined_records("p4", 3))
    write("bench-ispc-sh4-sh7751r.joined.jsonl", {"kind": "meta", "machine": "r2d"},
          joined_records("sh7751r", 5))
    assert [p.name for p in ispc_tables.joins(tmp_path / "bench-ispc.jsonl")] == \
        ["bench-ispc-p4.joined.jsonl"]
    assert criteria.load_figures(tmp_path).profiles() == ["p4"]
