"""Tests for hakotool/papers/p001/parallel.py: Table 1 in parallel elapsed
time from the cost model's clock figures, and its place in papers/p001/tables.py."""
import json

from hakotool.papers.p001 import tables as mp_tables
from hakotool.papers.p001 import parallel


def run(mode, k, region, rep=0, dev="ramdisk0", wait=0):
    return {"kind": "iotest", "table": "t1", "dev": dev, "mode": mode, "policy": "master",
            "k": k, "loops": 10, "wait": wait, "rep": rep, "elapsed_ns": 1000 * region,
            "delay_us": 0, "failed": 0, "region": region, "iters": 1}


def region_lines(region, cycles, insns, work_per_vcpu):
    return [{"kind": "region", "region": region, "vcpu": v, "spans": 1, "insns": w,
             "cycles": 3 * w, "elapsed_cycles": cycles, "elapsed_insns": insns}
            for v, w in enumerate(work_per_vcpu)]


def write_model(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in
                            [{"kind": "profile", "name": "modern"}, *lines]))


def canned(tmp_path):
    records = [run("funnel", 2, 1), run("symmetric", 2, 2),
               run("funnel", 2, 3, rep=1), run("symmetric", 2, 4, rep=1),
               {"kind": "iotest", "failed": 1, "table": "t1"}]
    lines = (region_lines(1, 4000, 1000, [900, 300]) + region_lines(2, 2000, 500, [500, 500])
             + region_lines(3, 4400, 1100, [900, 300]) + region_lines(4, 2200, 550, [500, 500]))
    model = tmp_path / "bench-mp.model.jsonl"
    write_model(model, lines)
    return records, parallel.load_elapsed(model)


def test_load_elapsed_reads_the_clock_figures_and_sums_the_work(tmp_path):
    _, elapsed = canned(tmp_path)
    assert elapsed[1] == {"work": 1200, "elapsed_cycles": 4000, "elapsed_insns": 1000}
    assert parallel.load_elapsed(tmp_path / "missing.model.jsonl") == {}


def test_lines_without_clocks_give_no_figure(tmp_path):
    model = tmp_path / "old.model.jsonl"
    write_model(model, [{"kind": "region", "region": 1, "vcpu": 0, "spans": 1, "insns": 5}])
    assert parallel.load_elapsed(model) == {}


def test_elapsed_rows_give_median_times_speedup_and_work(tmp_path):
    records, elapsed = canned(tmp_path)
    (row,) = parallel.elapsed_rows(records, elapsed)
    assert row["funnel_elapsed_cycles"] == 4200 and row["symmetric_elapsed_cycles"] == 2100
    assert row["speedup"] == 2.0
    assert row["funnel_work"] == 1200 and row["symmetric_elapsed_insns"] == 525
    table = parallel.elapsed_table(records, elapsed)
    assert "| ramdisk0 · 0 · 2 | 4,200 | 2,100 | 2.00 |" in table


def test_mp_tables_shows_the_clocks_as_a_figure_source(tmp_path):
    records, elapsed = canned(tmp_path)
    sources = mp_tables.sources_of([(records, {})], [], [(records, elapsed)])
    assert parallel.LABEL in sources and parallel.LABEL_INSNS in sources
    rows = mp_tables.table1_rows("ramdisk0", {parallel.LABEL: sources[parallel.LABEL]}, [2], [0])
    (label, (value,)), = [r for r in rows if parallel.LABEL in r[0]]
    assert value == 100.0                        # funnel twice symmetric: +100 %
    text = mp_tables.render([(records, {})], [], [(records, elapsed)])
    assert "Table 1 in parallel elapsed time" in text


def test_main_prints_a_table_per_file(tmp_path, capsys):
    records, _ = canned(tmp_path)
    results = tmp_path / "bench-mp.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert parallel.main([str(results)]) == 0
    assert "| ramdisk0 · 0 · 2 |" in capsys.readouterr().out


def test_the_verdicts_read_the_clocks_when_the_runs_carry_them(tmp_path):
    records, _ = canned(tmp_path)
    (tmp_path / "bench-mp.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    from hakotool.papers.p001 import criteria
    label, cells, _ = criteria.source([tmp_path / "bench-mp.jsonl"])
    assert label == parallel.LABEL and cells
    curves = criteria.improvements([tmp_path / "bench-mp.jsonl"])
    assert curves[("t1", "ramdisk0", 0)][2] == 100.0      # 4,200 against 2,100 cycles
    write_model(tmp_path / "bench-mp.model.jsonl",
                [{"kind": "region", "region": 1, "vcpu": 0, "spans": 1, "insns": 5}])
    assert criteria.source([tmp_path / "bench-mp.jsonl"])[0] != parallel.LABEL
