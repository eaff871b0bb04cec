"""Tests for tools/hakotool/report.py: the report built from canned result lines."""
import io
import json
import re
import time
import xml.etree.ElementTree as ET

import pytest

from hakotool import report
from hakotool.papers.p003 import report as p003s
from hakotool.papers.p004 import report as p004s

INTR = [
    {"kind": "intr-phases", "unit": "tsc", "s": 219, "t1_seq": 286, "t2_seq": 1138, "t3_seq": 233,
     "t1_pack": 281, "copy": 109, "t2_pack": 1018, "t3_pack": 254},
    {"kind": "intr-total", "n": 1, "seq_measured": 1666, "seq_model": 1657,
     "packed_measured": 1996, "packed_model": 1662, "saving_permille": -198},
    {"kind": "intr-total", "n": 10, "seq_measured": 16650, "seq_model": 16560,
     "packed_measured": 12128, "packed_model": 12855, "saving_permille": 271},
    {"kind": "intr-breakeven", "model_n_x100": 101, "measured_n": 2},
    {"kind": "intr-delay", "mode": "sequential", "n": 10, "t_ns": 1000000,
     "measured": 1378, "model": 1424},
    {"kind": "intr-delay", "mode": "packed", "n": 10, "t_ns": 10000000,
     "measured": 4508404, "model": 4505989},
    {"kind": "intr-interference", "k": 0, "mode": "none", "loops": 1000},
]
for _k in (1, 2, 10):
    INTR += [{"kind": "intr-interference", "k": _k, "mode": "sequential", "loops": 1000 - 40 * _k},
             {"kind": "intr-interference", "k": _k, "mode": "packed", "loops": 1000 - 30 * _k}]

ISPC = [{"kind": "bench", "name": f"relay_{n}_{how}_{mode}", "median": base * n}
        for n in (1, 2, 3) for mode in ("baseline", "fast")
        for how, base in (("stepwise", 3000), ("direct", 2000))]
ISPC += [{"kind": "bench", "name": "syscall_baseline", "median": 98},
         {"kind": "bench", "name": "syscall_fast", "median": 98}]


def write(root, name, records):
    path = root / "results" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.fixture
def canned(tmp_path):
    write(tmp_path, "bench-intr.jsonl", INTR)
    write(tmp_path, "bench-ispc.jsonl", ISPC)
    return tmp_path


def test_a_section_per_paper_with_status(canned):
    md, _ = report.markdown(canned / "results")
    for paper in ("000", "001", "002", "003", "004"):
        assert f"## Paper {paper}" in md
    # Statuses are derived from the computed verdicts: the canned intrbench
    # lines give two of paper 000's results (partly) and no delay at T = 10 ms.
    assert "| Paper 000 — interrupt packaging (Tender OS, Myrinet NIC) | partly |" in md
    assert "| 000 T3 | Table 3: average delay, packed against sequential | **not yet** | " \
        "experiment not run: no packed N = 10, T = 10 ms or sequential delay. |" in md
    assert md.count("| **not yet** |") >= 16 and "The papers' 18 measured results" in md
    assert "Mechanisms the papers describe" in md
    assert "The same results measured on SH-4" in md and "| 002 T2 SH-4 |" in md
    assert "| Paper 003 — device driver as a process | not yet |" in md
    # No mp, kperf or tlbstep results: those sections say "not yet" and why.
    assert "| Paper 001 — device access methods in MP UNIX (OSF/1 on TOP-1) | not yet |" in md
    assert "| Paper 004 — HiTactix: automatic performance measurement | not yet |" in md
    assert "run `./hako bench kperf --model modern`" in md


def test_paper_figures_sit_beside_hakos(canned):
    md, plots = report.markdown(canned / "results")
    assert "| registration s | 219 | — | 2.80 | — |" in md
    assert "paper packed (µs)" in md and "guest instructions" in md
    assert "394,000" in md                           # the paper's Fig. 6 packed figure
    assert set(plots) == {"intr-interference.svg", "ispc-fig9.svg"}
    assert "![Paper 000 Fig. 6" in md


def test_build_is_deterministic_and_svgs_undated(canned, tmp_path):
    first = report.build(canned, tmp_path / "one")
    second = report.build(canned, tmp_path / "two")
    names = sorted(p.name for p in first.iterdir())
    assert names == ["README.md", "index.html", "intr-interference.svg", "ispc-fig9.svg"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    for svg in first.glob("*.svg"):
        text = svg.read_text()
        ET.fromstring(text)
        assert "<dc:date>" not in text and "Matplotlib v" not in text
        assert "DejaVu" not in text or "svg.fonttype" not in text


def test_html_is_self_contained(canned, tmp_path):
    out = report.build(canned, tmp_path / "r")
    page = (out / "index.html").read_text()
    assert page.count("<svg") == 2 and 'src="' not in page
    assert len(re.findall(r"<figure><svg.*?</svg>\s*<figcaption>[^<]+</figcaption>\s*</figure>",
                          page, re.S)) == 2
    assert re.search(r'<h2 id="[^"]+">Paper 002', page) and "<table>" in page


def test_html_lists_every_section_under_the_title(canned, tmp_path):
    page = (report.build(canned, tmp_path / "r") / "index.html").read_text()
    toc = page[page.index('<nav class="toc">'):page.index("</nav>")]
    ids = re.findall(r'<h[23] id="([^"]+)"', page)
    assert len(ids) > 5 and all(f'href="#{i}"' in toc for i in ids)
    assert page.index("</h1>") < page.index('<nav class="toc">') < page.index("<h2")


def test_summary_only_when_the_report_exists(canned, tmp_path):
    assert report.summary(tmp_path / "none") == ""
    out = report.build(canned, tmp_path / "r")
    text = report.summary(out)
    assert "README.md" in text and "not yet" in text and "partly" in text
    assert len(text.splitlines()) <= 24


def test_progress_lines_and_a_failing_step(tmp_path):
    (tmp_path / "hako").write_text("#!/bin/sh\n[ \"$2\" = bad ] && exit 3\nexit 0\n")
    (tmp_path / "hako").chmod(0o755)
    steps = (report.Step("a", "000", ("good",), "first"),
             report.Step("b", "001", ("bad",), "second"),
             report.Step("c", "002", ("good",), "never"))
    out = io.StringIO()
    assert report.run_experiments(tmp_path, out, steps) == 3
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("report: [1/3] paper 000: ./hako bench good --quiet: first")
    assert "done in" in lines[1]
    assert "FAILED (exit 3)" in lines[-1] and "report-b.out" in lines[-1]
    assert not any("[3/3]" in line for line in lines)


def every_input(root):
    """An empty file for every input the report needs that is not there yet."""
    for pattern, _ in report.INPUTS:
        if not any((root / "results").glob(pattern)):
            write(root, pattern.replace("[0-9]*", "1"), [])


def test_stale_plots_are_removed(canned, tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "old-figure.svg").write_text("<svg/>")
    report.build(canned, out)
    assert not (out / "old-figure.svg").exists() and (out / "intr-interference.svg").exists()


def test_cli_summary_says_when_there_is_no_report(tmp_path, monkeypatch, capsys):
    from hakotool import cli
    monkeypatch.setenv("HAKO_ROOT", str(tmp_path))
    assert cli.main(["report", "--summary"]) == 0
    assert "none yet" in capsys.readouterr().out
    write(tmp_path, "bench-intr.jsonl", INTR)
    # Result files missing: it says which and writes nothing.
    assert cli.main(["report", "--no-run"]) == 1
    out = capsys.readouterr().out
    assert "result file(s) missing from results/" in out and "bench-ispc.jsonl" in out
    assert "bench-intr.jsonl " not in out and not (tmp_path / "docs/report").exists()
    every_input(tmp_path)
    assert cli.main(["report", "--no-run"]) == 0
    assert (tmp_path / "docs/report/README.md").is_file()
    assert cli.main(["report", "--summary"]) == 0
    assert "partly Paper 000" in re.sub(r" +", " ", capsys.readouterr().out)


def test_paper004_tables_2_3_4_beside_the_papers(canned):
    write(canned, "bench-kperf.jsonl", [
        {"kind": "kperf", "nr": 0, "name": "null", "case": "", "best": 101, "worst": 101,
         "best_min": 101, "best_max": 101, "worst_min": 101, "worst_max": 101}])
    for label in ("before", "after"):
        write(canned, f"bench-preempt-{label}.jsonl", [
            {"kind": "preempt", "case": "exit", "ctx": 13, "cpu": 0, "max": 91411,
             "site": "vm_map+0x36", "wait": 0},
            {"kind": "preempt", "case": "runq", "ctx": 65, "cpu": 0, "max": 2281472,
             "site": "vm_unmap+0x23", "wait": 0}])
    write(canned, "bench-isoch-calls.jsonl", [
        {"kind": "bench", "name": "isoch_start", "median": 1941, "min": 1879, "max": 1941},
        {"kind": "bench", "name": "switch_normal_to_normal", "median": 495, "min": 486,
         "max": 495}])
    write(canned, "bench-isoch-calls-table.jsonl", [
        {"kind": "bench", "name": "isoch_start", "median": 3000, "min": 2900, "max": 3100},
        {"kind": "bench", "name": "switch_periodic_to_periodic", "median": 700, "min": 690,
         "max": 710},
        {"kind": "bench", "name": "switch_normal_to_normal", "median": 500, "min": 490,
         "max": 500}])
    md = "\n".join(p004s.section004_preempt(canned / "results")
                   + p004s.section004_isoch(canned / "results"))
    assert "### Table 2 (longest preemption-disabled section" in md
    assert "call 12 thread_create" in md and "user exception" in md
    assert "serialise=off" in md and "serialise=on" in md
    assert "Result after: not checked: no cost-model figures" in md    # TSC only
    assert ("| start of cyclic execution | 1,941 (1,879–1,941) | 3,000 (2,900–3,100) "
            "| 6.74 / 5.78 / 5.7 / 3.84 ms |") in md
    assert "| switch periodic→periodic | not run | 700 (690–710) | 49 / 57.4 / 50.7 / 29.6 µs |" in md
    assert ("| switch normal→normal | 495 (486–495) | 500 (490–500) "
            "| 25.6 / 24.5 / 23.7 / 29.3 µs |") in md
    assert "START costs 3.9 normal switches with rate-monotonic priorities." in md
    assert "START costs 6.0 normal switches under the reserved schedule." in md
    assert "The periodic switch costs +40.0 % against the normal one under the reserved" in md
    assert "The paper's START costs 131–263 normal switches" in md


def test_paper004_release_latency_from_the_committed_sitting(canned):
    results = canned / "results"
    figs = {}
    md = "\n".join(p004s.section004_latency(results, figs))
    assert "no results/bench-isoch.jsonl: run `./hako bench isoch` and commit it." in md
    assert not figs
    write(canned, "bench-isoch.jsonl", [
        {"kind": "isoch_hist", "load": load, "cpu": cpu, "lat_count": 500, "missed": 0,
         "overruns": cpu, "lat_min_ns": 1110, "lat_mean_ns": 1143, "lat_max_ns": 4190 + cpu,
         "bucket_ns": 1000, "hist": [0, 499, 0, 0, 1]}
        for load in ("hogs", "hogs+nic-packed") for cpu in (0, 1)])
    md = "\n".join(p004s.section004_latency(results, figs))
    assert "| hogs+nic-packed | 1 | 500 | 0 | 1 | 1.11 / 1.14 / 4.19 |" in md
    assert "![Paper 004: release-latency histograms" in md and "isoch-latency.svg" in figs
    assert "hogs+nic-packed-cpu1" in figs["isoch-latency.svg"]


def test_paper004_tables_say_not_yet_without_results(canned):
    md = "\n".join(p004s.section004_preempt(canned / "results")
                   + p004s.section004_isoch(canned / "results"))
    assert "not yet.** no results/bench-preempt-before/after.jsonl" in md
    assert "not yet.** no results/bench-isoch-calls.jsonl" in md


def test_paper003_side_by_side_from_the_p4_runs(canned):
    md, _ = report.markdown(canned / "results")
    assert "| Paper 003 — device driver as a process | not yet |" in md
    write(canned, "bench-drvproc-kernel-p4.joined.jsonl", [
        {"kind": "bench", "name": "irq_path_kernel", "median": 2332,
         "model": {"per_iter": {"cycles": 12245.0, "dtlb_misses": 2.0}}}])
    write(canned, "bench-drvproc-process-p4.joined.jsonl", [
        {"kind": "bench", "name": "irq_path_process", "median": 4583,
         "model": {"per_iter": {"cycles": 18249.0, "dtlb_misses": 13.0}}}])
    md, _ = report.markdown(canned / "results")
    assert "| Paper 003 — device driver as a process | not yet |" in md      # no drvswitch boot
    assert "experiment not run: no results/bench-drvproc-{kernel,switch}-p4.joined.jsonl" in md
    assert "cost model p4" in md
    line = next(l for l in md.splitlines() if l.startswith("interrupt entry -> requester running"))
    assert "2,332" in line and "4,583" in line and "13,644" in line and "14,021" in line
    write(canned, "bench-drvproc-switch-p4.joined.jsonl", [
        {"kind": "bench", "name": "irq_path_switch", "median": 2600,
         "model": {"per_iter": {"cycles": 12600.0, "dtlb_miss": 0.0}}},
        {"kind": "drvproc", "figure": "irq_path_switch", "placement": "switch", "ops": 100,
         "as_switches": 400}])
    md, _ = report.markdown(canned / "results")
    assert "paper 003's experiment: an address-space switch inserted" in md


# One baseline/fast pair per figure Fig. 5 and Fig. 8 read (guest instructions).
PARTIALS = {"syscall": 100, "ica_paste": 300, "ica_paste_server": 300, "ica_peel": 400,
            "ica_peel_server": 400, "first_access": 500, "first_access_server": 500,
            "process_switch": 800, "sync_roundtrip_nodata": 4000, "sync_roundtrip_4k": 5600,
            "async_return_nodata": 800}


def test_paper002_fig5_and_fig8_plots_under_their_tables(canned):
    write(canned, "bench-ispc.jsonl", ISPC + [
        {"kind": "bench", "name": f"{name}_{mode}", "median": v if mode == "baseline" else v // 2}
        for name, v in PARTIALS.items() for mode in ("baseline", "fast")
        if name != "syscall"])
    # the estimate reads the p4 profile's cycles: twice the instructions
    write(canned, "bench-ispc-p4.joined.jsonl", [
        {"kind": "bench", "name": f"{name}_{mode}",
         "model": {"profile": "p4", "per_iter": {"cycles": 2.0 * (v if mode == "baseline"
                                                                  else v // 2)}}}
        for name, v in PARTIALS.items() for mode in ("baseline", "fast")])
    md, plots = report.markdown(canned / "results")
    assert {"ispc-fig5.svg", "ispc-fig8.svg", "ispc-fig9.svg"} <= set(plots)
    lines = md.splitlines()
    fig8 = lines.index("### Fig. 8 — basic operations, server side apart")
    fig5 = lines.index("### Fig. 5 — where a round trip goes before the optimisation (baseline)")
    assert fig8 < next(i for i, l in enumerate(lines) if l.endswith("(ispc-fig8.svg)")) < fig5
    assert fig5 < next(i for i, l in enumerate(lines) if l.endswith("(ispc-fig5.svg)"))
    # Fig. 8 per operation under Fig. 8, Fig. 5's estimate and its plot under Fig. 5
    per_op = lines.index("### Fig. 8 per operation — the saving and the partial operations "
                         "it comes from")
    estimate = lines.index("### Fig. 5's estimate — the request's partial operations scaled "
                           "as the paper did")
    assert fig8 < per_op < fig5 < estimate
    assert "ispc-fig5-estimate.svg" in plots
    assert estimate < next(i for i, l in enumerate(lines)
                           if l.endswith("(ispc-fig5-estimate.svg)"))


def test_paper004_machines_plot_beside_the_text_block(canned):
    def kperf(cycles):
        return [{"kind": "kperf", "name": "null", "case": case,
                 "model": {"per_iter": {"cycles": c}}} for case, c in zip(("best", "worst"), cycles)]
    for profile, cycles in (("pentium166", (100, 3000)), ("pentium200-fpm", (110, 3300)),
                            ("pentium200-edo", (100, 2900)), ("pentiumpro200", (90, 4000))):
        write(canned, f"kperf-machine-{profile}.joined.jsonl", kperf(cycles))
    figs = {}
    md = "\n".join(p004s.section004_machines(canned / "results", figs))
    assert set(figs) == {"kperf-machines.svg"} and "(kperf-machines.svg)" in md
    assert "machines-mean-worst-3" in figs["kperf-machines.svg"]


def test_paper003_fault_injection_table_and_its_step(canned):
    assert "not yet.** no results/bench-faults.jsonl" in "\n".join(
        p003s.section003_faults(canned / "results"))
    write(canned, "bench-faults.jsonl", [
        {"kind": "boot", "cpus": 4},
        {"kind": "faults", "faults": 2000, "seed": 1, "ms": 3273, "crashes": 19, "kills": 4,
         "watchdog": 4, "restarts": 23, "gave_up": 0, "flowing": 1, "ok_all": 1}])
    md = "\n".join(p003s.section003_faults(canned / "results"))
    assert "### Restart after a crash and fault injection (not in the paper)" in md
    assert "fault injection: 2000 faults in 3273 ms of guest time (seed 1)" in md
    assert "restarts      23 (given up: 0)" in md and "all checks held" in md
    step = next(s for s in report.STEPS if s.name == "faults")
    assert step.paper == "003" and step.args == ("faults",)


def iotest_line(table, dev, setting, k, wait, elapsed, region):
    key, other = ("mode", "policy") if table == "t1" else ("policy", "mode")
    return {"kind": "iotest", "table": table, "dev": dev, key: setting,
            other: "master" if table == "t1" else "symmetric", "k": k, "loops": 10,
            "wait": wait, "rep": 0, "elapsed_ns": elapsed, "delay_us": 0, "failed": 0,
            "region": region, "iters": 1}


def test_paper001_takes_the_disks_from_the_mp_disk_boots(canned):
    write(canned, "bench-mp.jsonl", [
        iotest_line("t1", "ramdisk0", "funnel", 2, 0, 300_000, 1),
        iotest_line("t1", "ramdisk0", "symmetric", 2, 0, 150_000, 2)])
    md, _ = report.markdown(canned / "results")
    assert "### Table 1 — ramdisk0" in md
    assert "The disks:" not in md
    # Two boots of mp-disk: each boot's improvement, then their median with the spread.
    for boot, fast in ((1, 500_000), (2, 250_000)):
        write(canned, f"bench-mp-disk-{boot}.jsonl", [
            iotest_line("t1", "ahci0", "funnel", 2, 10, 1_000_000, 1),
            iotest_line("t1", "ahci0", "symmetric", 2, 10, fast, 2)])
    md, _ = report.markdown(canned / "results")
    assert "### The disks: `./hako bench mp-disk`" in md
    assert "results/bench-mp-disk-1..2.jsonl" in md
    assert "#### Table 1 — ahci0 (paper: scsihd)" in md
    assert "| 10 · icount elapsed (Σ of all CPUs' work) | 200 (100…300) |" in md


def test_chains_keep_their_order_and_run_longest_first():
    steps = (report.Step("a", "000", ("a",), "", seconds=10),
             report.Step("b1", "002", ("b",), "", seconds=10, chain="b"),
             report.Step("c", "004", ("c",), "", seconds=100),
             report.Step("b2", "002", ("b",), "", seconds=30, chain="b"))
    assert [[s.name for _, s in chain] for chain in report.chains(steps)] == [
        ["c"], ["b1", "b2"], ["a"]]
    assert [i for i, _ in report.chains(steps)[1]] == [2, 4]


def test_every_chain_of_the_report_shares_no_file_with_another():
    """Steps that leave the same intermediate file (bench-NAME.*) are in one chain."""
    owner = {}
    for step in report.STEPS:
        key = step.chain or step.name
        written = step.args[0]
        assert owner.setdefault(written, key) == key, f"{step.name} writes bench-{written}.*"


def fake_hako(tmp_path, body):
    (tmp_path / "hako").write_text("#!/bin/sh\n" + body)
    (tmp_path / "hako").chmod(0o755)
    (tmp_path / "results").mkdir(exist_ok=True)


def test_side_by_side_runs_every_step_once_and_chains_in_order(tmp_path):
    # Each step appends its name to the trace and sleeps a little.
    fake_hako(tmp_path, 'echo "$2" >> results/trace; sleep 0.2; exit 0\n')
    steps = (report.Step("x1", "002", ("x1",), "", seconds=50, chain="x"),
             report.Step("y", "000", ("y",), "", seconds=40),
             report.Step("x2", "002", ("x2",), "", seconds=50, chain="x"),
             report.Step("z", "004", ("z",), "", seconds=10))
    out = io.StringIO()
    assert report.run_experiments(tmp_path, out, steps, jobs=3) == 0
    trace = (tmp_path / "results/trace").read_text().split()
    assert sorted(trace) == ["x1", "x2", "y", "z"]
    assert trace.index("x1") < trace.index("x2")
    text = out.getvalue()
    assert "4 experiments in 3 chains, 3 at a time" in text
    assert text.count("done in") == 4


def test_side_by_side_a_failure_stops_the_rest(tmp_path):
    fake_hako(tmp_path, '[ "$2" = bad ] && exit 3\nsleep 30\nexit 0\n')
    steps = (report.Step("slow", "000", ("slow",), "", seconds=100),
             report.Step("bad", "001", ("bad",), "", seconds=50),
             report.Step("never", "002", ("never",), "", seconds=1))
    out = io.StringIO()
    started = time.monotonic()
    assert report.run_experiments(tmp_path, out, steps, jobs=2) == 3
    assert time.monotonic() - started < 20          # the slow one was stopped
    text = out.getvalue()
    assert "FAILED (exit 3)" in text and "never" not in text


def test_prebuild_builds_the_sh4_kernel_where_its_tools_are(monkeypatch, tmp_path):
    """make report's parallel steps run without building: ispc-sh4 needs the SH-4
    kernel built beforehand (it failed with "build/sh4/hako.bin not found")."""
    from hakotool import runner, testall
    calls = []
    monkeypatch.setattr(runner, "run_make",
                        lambda root, target, env, capture=False, variables=(): (calls.append(
                            (target, tuple(variables))) or (0, "")))
    monkeypatch.setattr(testall, "arch_tools_missing", lambda arch, env: "")
    assert report.prebuild(tmp_path, {}) == 0
    assert ("kernel", ("ARCH=sh4",)) in calls and ("kernel", ()) in calls
    calls.clear()
    monkeypatch.setattr(testall, "arch_tools_missing", lambda arch, env: "sh4-linux-gnu-gcc")
    assert report.prebuild(tmp_path, {}) == 0
    assert calls == [("kernel", ()), ("costmodel", ())]
