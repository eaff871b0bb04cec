"""Tests for hakotool/papers/p001/tables.py: paper 001's tables from canned iotest lines."""
import json

import pytest

from hakotool.papers.p001 import tables as mp_tables


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
    sources = mp_tables.sources_of([(icount, model)], [tcg])
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
    text = mp_tables.render([(icount, model)], [tcg])
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


# ---- the disks: several boots, the NVMe table, the counters -----------------

def counted_run(table, dev, setting, k, wait, elapsed, region, completed, issued=None,
                interrupts=None, lost=None, solo=0, solo_on_issuer=0, failed=0, left=None,
                empty=None):
    r = run(table, dev, setting, k, wait, elapsed, region)
    ncpus = len(completed)
    r.update(issued=issued or completed, completed=completed,
             interrupts=interrupts or [0] * ncpus, lost=lost or [0] * ncpus,
             solo=solo, solo_on_issuer=solo_on_issuer, retargets=0, failed=failed)
    for name, value in (("left", left), ("empty", empty)):
        if value is not None:
            r[name] = value
    return r


def disk_boot(ahci_funnel, ahci_sym, nvme_funnel, nvme_sym, master, fixed):
    """One mp-disk boot's lines: Table 1 at wait 10, k = 2, on both disks,
    Table 2 at wait 100, k = 2, master and fixed on ahci0."""
    return [run("t1", "ahci0", "funnel", 2, 10, ahci_funnel, 0x800),
            run("t1", "ahci0", "symmetric", 2, 10, ahci_sym, 0x801),
            run("t1", "nvme0", "funnel", 2, 10, nvme_funnel, 0x802),
            run("t1", "nvme0", "symmetric", 2, 10, nvme_sym, 0x803),
            run("t2", "ahci0", "master", 2, 100, master, 0x804),
            run("t2", "ahci0", "fixed", 2, 100, fixed, 0x805)]


def three_disk_boots():
    return [(disk_boot(200, 100, 150, 50, 1000, 1000), {}),     # 100 %; nvme 33, 300; fixed 0
            (disk_boot(110, 100, 110, 100, 1000, 800), {}),     # 10 %; nvme 0, 10; fixed 25
            (disk_boot(150, 100, 300, 75, 1000, 1250), {})]     # 50 %; nvme -50, 100; fixed -20


def test_spread_is_the_median_and_keeps_the_ends():
    s = mp_tables.Spread([3.0, 1.0, 2.0, 10.0])
    assert s == 2.5 and (s.lo, s.hi, s.n) == (1.0, 10.0, 4)
    assert mp_tables.over_boots([None, None]) is None
    assert mp_tables.fmt(mp_tables.over_boots([None, 4.0])) == "4.0"
    assert mp_tables.fmt(mp_tables.Spread([-1.25, 150.0, 2.0])) == "2.0 (-1.2…150)"
    assert mp_tables.fmt(None) == "—" and mp_tables.fmt(0.04) == "0.0"


def test_each_boot_is_compared_with_itself_before_the_median():
    boots = [{"slow": [300], "fast": [100]},        # 200 %
             {"slow": [100], "fast": [100]},        # 0 %
             {"slow": [150], "fast": [100]},        # 50 %
             {"slow": [150]}]                       # no figure
    got = mp_tables.boot_improvement(boots, "slow", "fast")
    assert got == 50.0 and (got.lo, got.hi, got.n) == (0.0, 200.0, 3)
    # The median of the ratios, not the ratio of the medians (150 / 100).
    assert mp_tables.boot_improvement(boots[:2], "slow", "fast") == 100.0


def test_disk_tables_print_median_and_spread_over_the_boots():
    sources = mp_tables.sources_of(three_disk_boots(), [])
    label = "icount elapsed (Σ of all CPUs' work)"
    rows = dict(mp_tables.table1_rows("ahci0", sources, [2], [10]))
    assert rows["10 · paper (scsihd)"] == [25.8]
    cell = rows[f"10 · {label}"][0]
    assert cell == 50.0 and mp_tables.fmt(cell) == "50.0 (10.0…100)"
    rows = dict(mp_tables.table2_rows("ahci0", sources, [2], 100))
    assert mp_tables.fmt(rows[f"2a-2 fixed · {label}"][0]) == "0.0 (-20.0…25.0)"
    assert mp_tables.fmt(rows[f"2a-1 master · {label}"][0]) == "0.0 (0.0…0.0)"
    # No model in these boots: no makespan rows.
    assert not any("makespan" in name for name in rows)


def test_nvme_rows_are_each_against_ahci_funnelled_in_the_same_boot():
    sources = mp_tables.sources_of(three_disk_boots(), [])
    label = "icount elapsed (Σ of all CPUs' work)"
    rows = dict(mp_tables.nvme_rows(sources, [2], [10]))
    assert [name.split(" · ")[1] for name in rows] == ["AHCI symmetric", "NVMe funnel",
                                                       "NVMe symmetric"]
    assert mp_tables.fmt(rows[f"10 · AHCI symmetric · {label}"][0]) == "50.0 (10.0…100)"
    # 200/150, 110/110, 150/300: 33.3, 0, -50.
    assert mp_tables.fmt(rows[f"10 · NVMe funnel · {label}"][0]) == "0.0 (-50.0…33.3)"
    # 200/50, 110/100, 150/75: 300, 10, 100.
    assert mp_tables.fmt(rows[f"10 · NVMe symmetric · {label}"][0]) == "100 (10.0…300)"


def test_paced_boots_say_their_late_completions():
    boots = three_disk_boots()
    for i, (records, _) in enumerate(boots):
        for r in records:
            r.update(paced=True, paced_late=i if r["dev"] == "ahci0" else 0)
    assert mp_tables.paced_late(boots, "ahci0") == [0, 4, 8]      # 4 ahci0 runs a boot
    assert mp_tables.paced_late(boots, "nvme0") == [0, 0, 0]
    assert mp_tables.paced_late(three_disk_boots(), "ahci0") is None
    text = mp_tables.render(boots, [])
    assert "*Not repeatable:*" not in text
    assert text.count("*Paced completions:*") == 4
    assert "(per boot: 0, 4, 8;" in text and "(per boot: 0, 0, 0;" in text
    assert "(paper: scsihd) — paced: median (min…max) of 3 boots" in text


def test_paced_notes_count_the_runs_alike_in_every_boot():
    boots = three_disk_boots()
    for records, _ in boots:
        for r in records:
            r.update(paced=True, paced_late=0)
    alike = mp_tables.runs_alike(boots, "ahci0")
    assert alike.runs == 4
    assert alike.alike < alike.runs           # the canned boots' times differ
    assert alike.largest > 0 and 0 < alike.share <= 1
    same = three_disk_boots()
    for records, _ in same:
        for r in records:
            r.update(paced=True, paced_late=0, elapsed_ns=1000)
    assert mp_tables.runs_alike(same, "ahci0") == mp_tables.Alike(4, 4)
    assert mp_tables.runs_alike(same, "nosuch") == mp_tables.Alike(0, 0)
    text = mp_tables.render(same, [])
    assert "4 of 4 runs took the same guest instructions in every boot." in text
    one_off = three_disk_boots()
    for i, (records, _) in enumerate(one_off):
        for r in records:
            r.update(paced=True, paced_late=0, elapsed_ns=1000 + (i if r["table"] == "t1" else 0))
    assert mp_tables.runs_alike(one_off, "ahci0") == mp_tables.Alike(2, 4, 2, 2, 2 / 1002)
    assert "spread over the boots is 2 instructions at the median and at most 2 (0.20% of its run)" \
        in mp_tables.render(one_off, [])


def test_render_says_the_disk_rows_do_not_repeat():
    icount, model, _ = canned()
    text = mp_tables.render([(icount, model)] + three_disk_boots(), [])
    assert "### Table 2 — ahci0, wait 100" in text
    assert "### Table 1 — nvme0 (paper: scsihd)" in text and "own vector" in text
    assert "### NVMe (per-CPU queues, MSI-X per queue) against AHCI funnel / symmetric" in text
    assert text.count("*Not repeatable:*") == 4           # ahci0 T1, nvme0 T1, ahci0 T2, NVMe
    assert "median over 3 boots" in text
    assert ("### Table 2 — ahci0, wait 100: each policy against master (2a-1), %, symmetric "
            "(paper: scsihd) — not repeatable: median (min…max) of 3 boots") in text
    assert "### Table 1 — testdev0 (paper: testdev): improvement of symmetric over funnel, %, " \
           "interrupts to the master\n" in text
    # testdev and the ramdisk come from one boot: a plain figure, no bracket.
    assert "| 2b-4 broadcast · icount elapsed (Σ of all CPUs' work) | -9.1 |" in text
    # Without both disks there is no NVMe table.
    assert "### NVMe" not in mp_tables.render([(icount, model)], [])


def test_count_rows_sum_every_run_and_check_the_issuer():
    boot = [counted_run("t2", "ahci0", "master", 2, 100, 1, 0x800, [20, 0, 0],
                        issued=[0, 10, 10], interrupts=[18, 0, 0], solo=4,
                        left=[0, 0, 0], empty=[2, 0, 0]),
            counted_run("t2", "ahci0", "master", 1, 100, 1, 0x801, [10, 0, 0],
                        issued=[0, 10, 0], interrupts=[10, 0, 0], solo=10),
            counted_run("t2", "ahci0", "broadcast", 2, 100, 1, 0x802, [0, 12, 8],
                        issued=[0, 10, 10], interrupts=[20, 20, 20], lost=[20, 10, 10]),
            counted_run("t1", "nvme0", "symmetric", 2, 10, 1, 0x803, [0, 10, 9],
                        issued=[0, 10, 10], failed=1),
            run("t1", "ramdisk0", "funnel", 2, 0, 1, 0x804)]       # not counted
    rows = dict(mp_tables.count_rows([boot, boot[:1]]))
    assert list(rows) == [("nvme0", "t1", "symmetric"), ("ahci0", "t2", "master"),
                          ("ahci0", "t2", "broadcast")]
    master = rows[("ahci0", "t2", "master")]
    assert (master["runs"], master["done"], master["expected"]) == (3, 50, 50)
    assert master["interrupts"] == [46, 0, 0] and master["solo"] == 18
    assert master["on_issuer_runs"] == 0
    # One of the two boots' master lines had left and empty, the other not.
    assert (master["left"], master["empty"]) == (0, 4)
    assert rows[("ahci0", "t2", "broadcast")]["left"] is None
    nvme = rows[("nvme0", "t1", "symmetric")]
    assert (nvme["done"], nvme["expected"], nvme["failed"]) == (19, 20, 1)
    table = mp_tables.counts_table([boot])
    assert ("| ahci0 · Table 2 · broadcast | 1 | 20 / 20 | 0 | 0/60/40 | 33/33/33 | 3.00 | 40 "
            "| — | 0 of 1 | — |") in table
    assert ("| nvme0 · Table 1 · symmetric | 1 | 19 / 20 | 1 | 0/53/47 "
            "| — | — | 0 | — | 0 of 1 |") in table
    assert ("| ahci0 · Table 2 · master | 2 | 30 / 30 | 0 | 100/0/0 | 100/0/0 | 0.93 | 0 "
            "| 0 / 2 | 0 of 2 | 0 of 14 |") in table
    assert mp_tables.counts_table([[run("t1", "ramdisk0", "funnel", 2, 0, 1, 0x804)]]) == ""


def test_render_adds_the_counts_table_when_the_lines_have_counters():
    boot = [counted_run("t1", "nvme0", "symmetric", 2, 10, 100, 0x800, [0, 10, 10],
                        issued=[0, 10, 10])]
    text = mp_tables.render([(boot, {})], [])
    assert "### Where the reads completed and the interrupts went" in text
    assert ("| nvme0 · Table 1 · symmetric | 1 | 20 / 20 | 0 | 0/50/50 "
            "| — | — | 0 | — | 1 of 1 |") in text


def test_tcg_sittings_give_a_median_with_the_spread_and_say_what_they_are():
    icount, model, tcg = canned()
    # A second sitting of the same cell: funnel 60 against symmetric 30.
    second = [{"kind": "boot", "cpus": 2},
              {"kind": "iotest_calib", "wait": 10, "turns": 10_000, "ns": 13_441,
               "testdev_delay_us": 11},
              run("t1", "ramdisk0", "funnel", 2, 0, 60, -1),
              run("t1", "ramdisk0", "symmetric", 2, 0, 30, -1)]
    rows = dict(mp_tables.table1_rows("ramdisk0", mp_tables.sources_of([], [tcg, second]),
                                      [2], [0]))
    # Sitting 1: medians 50 and 20 -> 150 %; sitting 2: 100 %.
    [cell] = rows["0 · TCG real time, median"]
    assert (cell, cell.lo, cell.hi, cell.n) == (125.0, 100.0, 150.0, 2)
    text = mp_tables.render([], [tcg, second])
    assert "| 0 · TCG real time, median | 125 (100…150) |" in text
    assert "*TCG rows:* real (host) time in multi-threaded TCG, 2 vCPUs" in text
    assert "in each of 2 sittings a cell is the median of 3 runs" in text
    # Each sitting's calibration, where it has one: testdev's delay follows it.
    assert "Wait count 10 took 13.4 µs of host time and testdev's delay was 11 µs" in text


def test_tcg_files_are_the_sittings_in_order(tmp_path):
    assert mp_tables.tcg_files(tmp_path) == []
    (tmp_path / "bench-mp-tcg.jsonl").write_text("")
    assert mp_tables.tcg_files(tmp_path) == [tmp_path / "bench-mp-tcg.jsonl"]
    for name in ("bench-mp-tcg-10.jsonl", "bench-mp-tcg-2.jsonl", "bench-mp-tcg-2.model.jsonl"):
        (tmp_path / name).write_text("")
    assert [p.name for p in mp_tables.tcg_files(tmp_path)] == [
        "bench-mp-tcg-2.jsonl", "bench-mp-tcg-10.jsonl"]


def test_disk_files_are_the_boots_in_order_else_the_old_single_file(tmp_path):
    assert mp_tables.disk_files(tmp_path) == []
    (tmp_path / "bench-mp-disk.jsonl").write_text("")
    assert mp_tables.disk_files(tmp_path) == [tmp_path / "bench-mp-disk.jsonl"]
    for name in ("bench-mp-disk-10.jsonl", "bench-mp-disk-2.jsonl", "bench-mp-disk-1.jsonl",
                 "bench-mp-disk-1.model.jsonl", "bench-mp-disk-1.joined.jsonl",
                 "bench-mp-disk-x.jsonl"):
        (tmp_path / name).write_text("")
    assert [p.name for p in mp_tables.disk_files(tmp_path)] == [
        "bench-mp-disk-1.jsonl", "bench-mp-disk-2.jsonl", "bench-mp-disk-10.jsonl"]


def test_main_reads_the_given_boots_with_their_models(tmp_path, capsys):
    paths = []
    for i, (records, _) in enumerate(three_disk_boots(), 1):
        path = tmp_path / f"bench-mp-disk-{i}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        paths.append(str(path))
    # The first boot's model: ahci0 funnel and symmetric at k = 2, wait 10.
    (tmp_path / "bench-mp-disk-1.model.jsonl").write_text("\n".join(json.dumps(
        {"kind": "region", "region": region, "vcpu": 0, "insns": insns})
        for region, insns in ((0x800, 900_000), (0x801, 450_000))) + "\n")
    assert mp_tables.main(["--icount", *paths, "--tcg", str(tmp_path / "none")]) == 0
    text = capsys.readouterr().out
    assert "| 10 · icount elapsed (Σ of all CPUs' work) | 50.0 (10.0…100) |" in text
    # One boot had the model: the bound's chain, 10 x 50,000 + a share of
    # the rest, 900,000 against 450,000 -> 100 %, no spread.
    assert "| 10 · makespan bound (cost model, per-CPU work) | " in text


def test_the_disks_work_figure_adds_every_cpus_instructions_and_leaves_idle_out():
    # elapsed 10 M (a long idle gap while the disk was late), work 1 M.
    records = [run("t1", "ahci0", "funnel", 2, 10, 10_000_000, 0x800),
               run("t1", "ahci0", "symmetric", 2, 10, 1_000_000, 0x801),
               run("t1", "testdev0", "funnel", 2, 10, 900_000, 0x802, delay_us=42)]
    model = {0x800: {0: 700_000, 1: 400_000}, 0x801: {0: 500_000, 1: 500_000},
             0x802: {0: 1, 1: 2}}
    cells = mp_tables.cell_values(records, model, "work")
    assert cells == {("t1", "ahci0", 10, 2, "funnel"): [1_100_000],
                     ("t1", "ahci0", 10, 2, "symmetric"): [1_000_000]}
    sources = mp_tables.sources_of([(records, model)], [])
    rows = dict(mp_tables.table1_rows("ahci0", sources, [2], [10]))
    assert rows[f"10 · {mp_tables.WORK}"][0] == pytest.approx(10.0)
    assert rows["10 · icount elapsed (Σ of all CPUs' work)"] == [900.0]
    rows = dict(mp_tables.table1_rows("testdev0", sources, [2], [10]))
    assert f"10 · {mp_tables.WORK}" not in rows
