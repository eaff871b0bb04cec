"""Tests for results/history.jsonl (tools/hakotool/history.py): naming the
figures, appending a run, and `./hako history`."""
import datetime
import io
import json
import subprocess

from hakotool import history


def write(results, name, records):
    results.mkdir(parents=True, exist_ok=True)
    (results / name).write_text("".join(json.dumps(r) + "\n" for r in records))


MODEL = {"profile": "modern", "per_iter": {"insns": 110.0, "cycles": 110.121}}


def test_stable_names_per_kind():
    assert history.stem("bench-ispc-modern.joined.jsonl") == "ispc-modern"
    assert history.stem("bench-peer-linux-default.jsonl") == "peer-linux-default"
    bench = {"kind": "bench", "name": "syscall_fast", "unit": "tsc", "min": 98, "median": 100,
             "mean": 101, "max": 140, "n": 2000, "region": 256, "iters": 2000, "model": MODEL}
    assert history.record_figures("ispc-modern", bench) == {
        "ispc-modern/syscall_fast.median": 100, "ispc-modern/syscall_fast.cycles": 110.121}
    kperf = {"kind": "kperf", "name": "null", "nr": 0, "case": "worst", "unit": "tsc", "n": 5,
             "min": 100, "mean": 100, "max": 100, "note": ""}
    assert history.record_figures("kperf", kperf) == {
        "kperf/null/worst.min": 100, "kperf/null/worst.mean": 100, "kperf/null/worst.max": 100}
    cell = {"kind": "iotest", "table": "t1", "dev": "testdev0", "mode": "funnel",
            "policy": "master", "k": 1, "loops": 10, "wait": 0, "rep": 0,
            "elapsed_ns": 570397, "delay_us": 42, "failed": 0, "region": 2048, "iters": 1}
    assert history.record_figures("mp", cell) == {
        "mp/iotest/table=t1/dev=testdev0/mode=funnel/policy=master/k=1/wait=0/loops=10/rep=0"
        ".elapsed_ns": 570397}
    # A kind without a rule: its strings identify, its integers are figures.
    phases = {"kind": "intr-phases", "unit": "tsc", "s": 219, "t1_seq": 286}
    assert history.record_figures("intr", phases) == {"intr/intr-phases.s": 219,
                                                      "intr/intr-phases.t1_seq": 286}
    for kind in ("boot", "bench-target", "peer-vuln", "peer-done"):
        assert history.record_figures("x", {"kind": kind, "value": 3}) == {}


def test_collect_reads_only_the_reports_files(tmp_path):
    results = tmp_path / "results"
    write(results, "bench-ispc.jsonl", [{"kind": "bench", "name": "a", "median": 7}])
    write(results, "bench-peer-linux-default.jsonl", [{"kind": "bench", "name": "a", "median": 9}])
    write(results, "det1.jsonl", [{"kind": "bench", "name": "a", "median": 1}])
    assert history.collect(results) == {"ispc/a.median": 7, "peer-linux-default/a.median": 9}
    # The joined file, when there is one, gives the same names and the cycles.
    write(results, "bench-peer-linux-default.joined.jsonl",
          [{"kind": "bench", "name": "a", "median": 9, "model": MODEL}])
    assert history.collect(results) == {"ispc/a.median": 7, "peer-linux-default/a.median": 9,
                                        "peer-linux-default/a.cycles": 110.121}


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_append_one_line_per_run_with_the_commit(tmp_path):
    git(tmp_path, "init", "-q")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "commit", "-q",
        "--allow-empty", "-m", "one")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True,
                          text=True).stdout.strip()
    write(tmp_path / "results", "bench-ispc.jsonl", [{"kind": "bench", "name": "a", "median": 7}])
    when = datetime.datetime(2026, 11, 24, 22, 6, 48, tzinfo=datetime.timezone.utc)
    path, count = history.append(tmp_path, when)
    write(tmp_path / "results", "bench-ispc.jsonl", [{"kind": "bench", "name": "a", "median": 5}])
    history.append(tmp_path, when)
    lines = path.read_text().splitlines()
    assert count == 1 and len(lines) == 2
    first = json.loads(lines[0])
    assert first == {"commit": head, "dirty": False, "date": "2026-11-24T22:06:48Z",
                     "figures": {"ispc/a.median": 7}}
    assert json.loads(lines[1])["figures"] == {"ispc/a.median": 5}


def entries():
    return [{"commit": "a" * 40, "dirty": False, "date": "2026-11-01T10:00:00Z",
             "figures": {"sys/null.median": 100, "old/gone.median": 3}},
            {"commit": "b" * 40, "dirty": True, "date": "2026-11-02T10:00:00Z",
             "figures": {"sys/null.median": 100}},
            {"commit": "c" * 40, "dirty": False, "date": "2026-11-03T10:00:00Z",
             "figures": {"sys/null.median": 90, "sys/switch.median": 846,
                         "ispc-modern/x.cycles": 110.5}}]


def test_render_shows_the_figure_across_commits():
    text = history.render_figure(entries(), "sys/null.median")
    lines = text.splitlines()
    assert lines[0] == "sys/null.median"
    assert lines[2].split() == ["2026-11-01T10:00:00Z", "aaaaaaaaaaaa", "100"]
    assert lines[3].split() == ["2026-11-02T10:00:00Z", "bbbbbbbbbbbb+", "100", "="]
    assert lines[4].split() == ["2026-11-03T10:00:00Z", "cccccccccccc", "90", "-10", "(-10.0", "%)"]
    assert "(not in any run)" in history.render_figure(entries(), "nope")


def test_show_lists_names_matches_and_reports_unknown(tmp_path):
    path = tmp_path / history.HISTORY
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(e) + "\n" for e in entries()) + "not json\n")
    out = io.StringIO()
    assert history.show(tmp_path, None, out) == 0
    listed = out.getvalue().splitlines()
    assert listed[0].startswith("history: 3 runs")
    assert listed[1:] == ["sys/null.median", "sys/switch.median", "ispc-modern/x.cycles",
                          "old/gone.median"]
    out = io.StringIO()
    assert history.show(tmp_path, "switch", out) == 0          # one match: shown
    assert "846" in out.getvalue()
    out = io.StringIO()
    assert history.show(tmp_path, "sys/", out) == 1            # several: named
    assert "2 figures contain 'sys/'" in out.getvalue()
    out = io.StringIO()
    assert history.show(tmp_path, "zzz", out) == 1
    out = io.StringIO()
    assert history.show(tmp_path / "empty", None, out) == 0
    assert "no runs yet" in out.getvalue()


def test_a_run_from_a_committed_tree_is_clean_though_it_rewrites_tracked_files(tmp_path):
    git(tmp_path, "init", "-q")
    write(tmp_path / "results", "bench-ispc.jsonl", [{"kind": "bench", "name": "a", "median": 7}])
    (tmp_path / "docs" / "report").mkdir(parents=True)
    (tmp_path / "docs" / "report" / "README.md").write_text("one\n")
    (tmp_path / "kernel.c").write_text("int x;\n")
    git(tmp_path, "add", "results/bench-ispc.jsonl", "docs/report/README.md", "kernel.c")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=t", "commit", "-q", "-m", "one")
    # The run rewrites its outputs (a result file, the report): still clean.
    write(tmp_path / "results", "bench-ispc.jsonl", [{"kind": "bench", "name": "a", "median": 5}])
    (tmp_path / "docs" / "report" / "README.md").write_text("two\n")
    assert history.commit_state(tmp_path)[1] is False
    path, _ = history.append(tmp_path)
    assert json.loads(path.read_text().splitlines()[-1])["dirty"] is False
    # A changed source is dirty.
    (tmp_path / "kernel.c").write_text("int y;\n")
    assert history.commit_state(tmp_path)[1] is True


def test_papers_003_and_004_feed_the_history():
    for name in ("bench-drvproc-kernel-p4.joined.jsonl", "bench-faults.jsonl",
                 "kperf-machine-pentiumpro200.joined.jsonl", "bench-isoch-calls.jsonl"):
        assert name in history.SOURCES
    assert any("bench-preempt-after" in s for s in history.SOURCES)
    section = {"kind": "section", "ctx": 6, "epoch": 1, "vcpu": 0, "insns": 2214,
               "cycles": 11582, "site_name": "vm_map+0x36"}
    assert history.record_figures("preempt-after", section) == {
        "preempt-after/section/ctx=6/epoch=1/vcpu=0.insns": 2214,
        "preempt-after/section/ctx=6/epoch=1/vcpu=0.cycles": 11582}
