"""Tests for tools/mp_tables.py: paper 001's tables from canned iotest lines."""
import json

import mp_tables


def run(table, dev, setting, k, wait, elapsed, region, rep=0, delay_us=0):
    key = "mode" if table == "t1" else "policy"
    other = "policy" if table == "t1" else "mode"
    return {"kind": "iotest", "table": table, "dev": dev, key: setting,
            other: "master" if table == "t1" else "symmetric", "k": k, "loops": 10,
            "wait": wait, "rep": rep, "elapsed_ns": elapsed, "delay_us": delay_us,
            "failed": 0, "region": region, "iters": 1}


def canned():
    icount = [{"kind": "iotest_calib", "wait": 10, "turns": 10000, "ns": 50000,
               "testdev_delay_us": 42, "region": 2560, "iters": 1},
              # ramdisk, wait 0: funnel 3x the work of symmetric, k = 2.
              run("t1", "ramdisk0", "funnel", 2, 0, 300_000, 0x800),
              run("t1", "ramdisk0", "symmetric", 2, 0, 150_000, 0x801),
              # testdev, wait 0: both bound by the device's serial time.
              run("t1", "testdev0", "funnel", 2, 0, 900_000, 0x802, delay_us=42),
              run("t1", "testdev0", "symmetric", 2, 0, 880_000, 0x803, delay_us=42),
              run("t2", "testdev0", "master", 1, 100, 1_000_000, 0x804, delay_us=42),
              run("t2", "testdev0", "broadcast", 1, 100, 1_100_000, 0x805, delay_us=42),
              {"kind": "iotest", "failed": 1, "table": "t1"}]
    model = {0x800: {0: 240_000, 1: 10_000}, 0x801: {0: 60_000, 1: 60_000},
             0x802: {0: 50_000, 1: 1_000}, 0x803: {0: 30_000, 1: 30_000},
             0x804: {0: 1_000, 1: 2_000}, 0x805: {0: 1_000, 1: 2_000}}
    tcg = [run("t1", "ramdisk0", "funnel", 2, 0, v, -1, rep=i) for i, v in enumerate((40, 90, 50))]
    tcg += [run("t1", "ramdisk0", "symmetric", 2, 0, v, -1, rep=i) for i, v in enumerate((20, 25, 1))]
    return icount, model, tcg


def test_improvement_is_the_papers_ratio():
    assert mp_tables.improvement(300, 150) == 100.0
    assert mp_tables.improvement(None, 1) is None
    assert mp_tables.improvement(1, 0) is None


def test_makespan_bound_takes_cpu_device_and_chain():
    r = run("t1", "testdev0", "funnel", 2, 10, 0, 0, delay_us=42)
    # device: 2 x 10 x 42,000; chain: 10 x (42,000 + 10 x 1000 x 5).
    assert mp_tables.makespan_bound(r, {0: 5, 1: 7}) == 10 * (42_000 + 50_000)
    r = run("t1", "ramdisk0", "funnel", 2, 0, 0, 0)
    assert mp_tables.makespan_bound(r, {0: 5, 1: 7}) == 7
    assert mp_tables.makespan_bound(r, None) is None


def test_makespan_chain_carries_a_share_of_the_reads_wherever_they_ran():
    # Funnelled: CPU 0 did both workers' reads (2 x 10 x 3,000), CPUs 1
    # and 2 their waits (10 x 5,000 each).  The busiest CPU says 60,000,
    # but each worker's chain is its waits and its own reads: 80,000.
    r = run("t1", "ramdisk0", "funnel", 2, 1, 0, 0)
    assert mp_tables.makespan_bound(r, {0: 60_000, 1: 50_000, 2: 50_000}) == 80_000


def test_load_model_vcpus_reads_region_lines(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (
        {"kind": "profile", "name": "modern"},
        {"kind": "vcpu", "vcpu": 0, "insns": 9},
        {"kind": "region", "region": 2048, "vcpu": 0, "insns": 5},
        {"kind": "region", "region": 2048, "vcpu": 3, "insns": 8})) + "\nnot json\n")
    assert mp_tables.load_model_vcpus(path) == {2048: {0: 5, 3: 8}}
    assert mp_tables.load_model_vcpus(tmp_path / "absent") == {}


def test_table1_rows_put_each_figure_beside_the_paper():
    icount, model, tcg = canned()
    sources = mp_tables.sources_of([(icount, model)], tcg)
    rows = dict(mp_tables.table1_rows("ramdisk0", sources, [2], [0]))
    assert rows["0 · paper (ramdisk)"] == [107]
    assert rows["0 · icount elapsed (Σ of all CPUs' work)"] == [100.0]
    assert rows["0 · makespan bound (cost model, per-CPU work)"] == [300.0]
    # TCG: medians 50 and 20.
    assert rows["0 · TCG real time, median"] == [150.0]
    rows = dict(mp_tables.table1_rows("testdev0", sources, [2], [0]))
    assert rows["0 · makespan bound (cost model, per-CPU work)"] == [0.0]


def test_render_prints_both_tables_with_the_calibration():
    icount, model, tcg = canned()
    text = mp_tables.render([(icount, model)], tcg)
    assert "50,000 guest instructions" in text
    assert "### Table 1 — ramdisk0 (paper: ramdisk)" in text
    assert "### Table 1 — testdev0 (paper: testdev)" in text
    assert "### Table 2 — testdev0, wait 100" in text
    assert "| 2b-4 broadcast · icount elapsed (Σ of all CPUs' work) | -9.1 |" in text
    assert "| 2b-4 broadcast · paper (scsihd) | 0.0 |" in text
    # A table without the model has no makespan rows.
    assert "makespan" not in mp_tables.render([(icount, {})], [])


def test_main_without_results_says_what_to_do(tmp_path, capsys):
    assert mp_tables.model_path(tmp_path / "bench-mp.jsonl") == tmp_path / "bench-mp.model.jsonl"
    code = mp_tables.main(["--icount", str(tmp_path / "a"), "--tcg", str(tmp_path / "b")])
    assert code == 1
    assert "--run" in capsys.readouterr().err
