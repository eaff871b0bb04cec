"""Tests for hakotool.summary rendering."""
from hakotool import summary
from hakotool.summary import render_bench_only, render_summary

BOOT = {"kind": "boot", "cpus": 4, "mem_mib": 128, "free_frames": 31000,
        "tsc_khz": 2999.5, "machine": "pc", "mode": "icount"}
BENCH = [
    {"kind": "bench", "name": "syscall_null", "unit": "ns", "min": 80, "median": 85.25,
     "mean": 86.123456789, "max": 120, "n": 1000},
    {"kind": "bench", "name": "ipc_roundtrip_long_name", "unit": "cycles", "min": 900,
     "median": 950, "mean": 960, "max": 2000, "n": 50},
]


def test_boot_block_is_aligned():
    text = render_summary([BOOT])
    lines = text.splitlines()
    assert lines[0] == "boot"
    assert "  cpus:        4" in lines
    assert "  free_frames: 31000" in lines
    assert "  tsc_khz:     2999.5" in lines
    assert all("kind" not in line for line in lines)


def test_bench_table_columns_align():
    lines = render_bench_only(BENCH).splitlines()
    assert lines[0].split() == ["name", "unit", "n", "min", "median", "mean", "max"]
    assert set(lines[1]) <= {"-", " "}
    assert lines[2].split() == ["syscall_null", "ns", "1000", "80", "85.25", "86.1235", "120"]
    # right-aligned numeric columns end at the same offset as their headers
    assert len({len(line) for line in lines}) == 1


def test_ktest_tally_and_guest_summary():
    records = [{"kind": "ktest", "name": "a", "ok": True},
               {"kind": "ktest", "name": "b", "ok": False},
               {"kind": "ktest-summary", "passed": 1, "failed": 1}]
    text = render_summary(records)
    assert "ktests: 1 passed, 1 failed, 0 skipped" in text
    assert "  FAIL b" in text
    assert "ktest summary: 1 passed, 1 failed" in text


def test_skips_are_tallied_apart():
    records = [{"kind": "ktest", "name": "a", "ok": True},
               {"kind": "ktest", "name": "nic", "skipped": True, "reason": "no NIC pair"},
               {"kind": "ktest", "name": "old", "ok": True, "skipped": "no cards"},
               {"kind": "ktest-summary", "passed": 1, "failed": 0, "skipped": 2}]
    text = render_summary(records)
    assert "ktests: 1 passed, 0 failed, 2 skipped" in text
    assert "  SKIP nic: no NIC pair" in text
    assert "  SKIP old: no cards" in text
    assert "ktest summary: 1 passed, 0 failed, 2 skipped" in text


def test_missing_fields_are_tolerated():
    records = [{"no_kind": True}, {"kind": "bench", "name": "partial"}]
    text = render_summary(records)
    assert text.splitlines()[2].split() == ["partial", "-", "-", "-", "-", "-", "-"]


def test_every_other_kind_gets_a_table():
    records = [{"kind": "iotest", "dev": "testdev0", "k": i, "gain": 1.5, "per_cpu": [1, 2]}
               for i in range(25)] + [{"kind": "faults", "injected": 20, "ok": True}]
    lines = render_summary(records).splitlines()
    assert lines[0] == "iotest: 25 records"
    assert lines[1].split() == ["dev", "k", "gain"]
    assert lines[3].split() == ["testdev0", "0", "1.5"]
    assert "... 5 more" in lines
    faults = lines.index("faults: 1 record")
    assert lines[faults + 1].split() == ["injected", "ok"]
    assert lines[faults + 3].split() == ["20", "true"]


def test_empty_summary():
    assert render_summary([{"no_kind": 1}]) == "no result records\n"
    assert render_bench_only([]) == "no bench records\n"


def test_selftest_tally_and_guest_summary():
    records = [{"kind": "utest", "name": "a", "ok": True},
               {"kind": "utest", "name": "b", "ok": False, "reason": "leak"},
               {"kind": "utest-summary", "passed": 1, "failed": 1}]
    text = render_summary(records)
    assert "selftest: 1 passed, 1 failed, 0 skipped" in text
    assert "  FAIL b" in text
    assert "utest summary: 1 passed, 1 failed" in text


def test_isoch_histogram_like_cyclictest():
    recs = [{"kind": "isoch_hist", "load": "hogs", "cpu": c, "releases": 10, "missed": 0,
             "overruns": 0, "lat_count": 10, "lat_min_ns": 1200, "lat_mean_ns": 1300,
             "lat_max_ns": 2100, "bucket_ns": 1000, "hist": [0, 9 - c, 1 + c, 0]}
            for c in (1, 0)]
    text = render_bench_only(recs)
    assert "# Histogram" in text
    assert "000001 000009 000008" in text      # CPU columns in order
    assert "000002 000001 000002" in text
    assert "000003" not in text.split("# Histogram")[1].split("# Total")[0]   # empty bucket left out
    assert "# Max Latencies:    002100 002100  (ns)" in text


def test_kperf_internal_table_has_best_worst_and_notes():
    from hakotool.summary import render_kperf_internal
    recs = [{"kind": "kperf-internal", "name": "vm_map_16", "index": 3, "case": case,
             "unit": "tsc", "n": 5, "min": lo, "mean": mean, "max": hi, "note": "16 pages",
             "region": 0xd16 + (case == "worst"), "iters": 5}
            for case, lo, mean, hi in (("best", 3602, 3602, 3602), ("worst", 3600, 3700, 3900))]
    lines = render_kperf_internal(recs)
    assert lines[0].startswith("kperf: kernel-internal interfaces")
    row = next(line for line in lines if "vm_map_16" in line and line.startswith("3"))
    assert row.split()[2] == "3602" and "3700 (3600-3900)" in row
    assert lines[-1] == "  vm_map_16: 16 pages"


def short_run(name, fails=0, passes=3, figures=0):
    records = [{"kind": "ktest", "name": f"t{i}", "ok": True} for i in range(passes)]
    records += [{"kind": "ktest", "name": f"bad{i}", "ok": False} for i in range(fails)]
    records += [{"kind": "bench", "name": f"f{i}", "unit": "tsc", "median": i}
                for i in range(figures)]
    return (name, f"results/{name}.jsonl", records, {"tsc_unit": "instructions (icount)"})


REPORT_STATUS = "report: docs/report/README.md\n" + "".join(
    f"  partly     Paper 00{i}\n" for i in range(5))


def test_short_summary_of_make_run():
    text = summary.render_short(
        [short_run("ktest", passes=53), short_run("kbench", passes=0, figures=5),
         short_run("selftest", fails=1, passes=145)], REPORT_STATUS)
    lines = text.splitlines()
    assert lines[0] == "ktest: kernel self-tests: 53 passed, 0 failed, 0 skipped"
    assert lines[1] == "kbench: 5 figures"
    assert lines[2].split() == ["f0", "0", "instructions", "(icount)"]
    assert "selftest: kernel self-tests: 145 passed, 1 failed, 0 skipped" in lines  # ktest records
    assert "  FAIL bad0" in lines
    assert lines[-1].startswith("the whole of each run") and "./hako summary FILE" in lines[-1]
    assert "results/selftest.jsonl" in lines[-1]
    assert len(lines) <= 40


def test_short_summary_stays_within_40_lines_at_worst():
    runs = [short_run(f"run{i}", fails=30, figures=30) for i in range(5)]
    lines = summary.render_short(runs, REPORT_STATUS).splitlines()
    assert len(lines) == summary.SHORT_LINES
    assert lines[-2].startswith("... ") and lines[-2].endswith("lines more in the files")
    assert lines[-1].startswith("the whole of each run")
