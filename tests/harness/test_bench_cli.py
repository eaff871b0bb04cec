"""Tests for the bench registry and the summary/CLI plumbing."""
import io
import os
import json
import subprocess
import sys
from pathlib import Path

from hakotool.results import load_records
from hakotool import bench, cli
from hakotool.qemu import build_argv
from hakotool.papers.p001 import benches as p001

from conftest import REPO_ROOT

BENCH_OUT = ('@@ {"kind":"boot","cpus":4}\n'
             '@@ {"kind":"bench","name":"null_syscall","unit":"ns","min":1,'
             '"median":2,"mean":2.5,"max":9,"n":10}\n')


def test_core_profile_registered():
    core = bench.BENCHES["core"].profile
    assert (core.machine, core.smp, core.mode, core.words) == ("pc", 4, "icount", ("kbench",))


def test_sys_profile_registered():
    sys_bench = bench.BENCHES["sys"]
    profile = sys_bench.profile
    assert (profile.machine, profile.smp, profile.mode, profile.words) == (
        "pc", 4, "icount", ("sysbench",))
    assert "sysbench" in sys_bench.about and "sys" in bench.describe()


def test_intr_profile_boots_both_cards():
    intr = bench.registry()["intr"]
    profile = intr.profile
    assert (profile.machine, profile.smp, profile.mode, profile.net, profile.words) == (
        "pc", 2, "icount", "hub", ("intrbench",))
    assert "intr" in bench.describe()


# What sysbench prints: readable lines, bench records, target records.
SYS_OUT = ('@@ {"kind":"boot","cpus":4}\n'
           'sysbench: null_syscall: sys_null() round trip\n'
           '@@ {"kind":"bench","name":"null_syscall","unit":"tsc","min":104,'
           '"median":104,"mean":104,"max":104,"n":10000}\n'
           'sysbench: null_syscall             min     104  median     104\n'
           '@@ {"kind":"bench","name":"spawn_exit_wait","unit":"tsc","min":152198,'
           '"median":159398,"mean":158763,"max":165278,"n":200}\n'
           '@@ {"kind":"bench-target","name":"null_syscall","stat":"median",'
           '"value":104,"target":150,"within":true}\n')


def test_bench_sys_with_fake_qemu(fake_env, tmp_path):
    fake_env["FAKE_QEMU_OUT"] = SYS_OUT
    fake_env["FAKE_QEMU_ARGV"] = str(tmp_path / "argv.json")
    out, err = io.StringIO(), io.StringIO()
    root = Path(fake_env["HAKO_ROOT"])
    status = bench.run_bench("sys", quiet=True, out=out, err=err, root=root, env=fake_env)
    assert status == 0
    assert len(load_records(root / "results/bench-sys.jsonl")) == 4
    argv = json.loads((tmp_path / "argv.json").read_text())
    assert any(arg.endswith("-- sysbench") for arg in argv)
    table = out.getvalue().splitlines()
    assert [row.split()[0] for row in table[2:]] == ["null_syscall", "spawn_exit_wait"]
    # Under icount the guest's "tsc" unit is shown for what it counts.
    assert table[3].split() == ["spawn_exit_wait", "instructions", "(icount)", "200", "152198",
                                "159398", "158763", "165278"]


def test_unknown_bench_lists_known_ones():
    err = io.StringIO()
    assert bench.run_bench("nope", err=err) == 2
    assert "unknown bench 'nope'" in err.getvalue() and "core" in err.getvalue()


def test_bench_core_with_fake_qemu(fake_env):
    fake_env["FAKE_QEMU_OUT"] = BENCH_OUT
    out, err = io.StringIO(), io.StringIO()
    root = Path(fake_env["HAKO_ROOT"])
    status = bench.run_bench("core", quiet=True, out=out, err=err, root=root, env=fake_env)
    assert status == 0
    assert len(load_records(root / "results/bench-core.jsonl")) == 2
    table = out.getvalue().splitlines()
    assert table[0].split()[0] == "name"
    assert table[2].split() == ["null_syscall", "ns", "10", "1", "2", "2.5", "9"]


def test_split_words():
    assert cli.split_words(["--smp", "2", "--", "ktest", "--x"]) == (
        ["--smp", "2"], ["ktest", "--x"])
    assert cli.split_words(["--smp", "2"]) == (["--smp", "2"], [])


def test_summary_command(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(BENCH_OUT.replace("@@ ", ""))
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "hako"), "summary", str(path)],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0
    assert "cpus: 4" in proc.stdout and "null_syscall" in proc.stdout
    missing = subprocess.run([sys.executable, str(REPO_ROOT / "hako"), "summary",
                              str(tmp_path / "none.jsonl")], capture_output=True, text=True)
    assert missing.returncode == 2
    other = tmp_path / "notes.txt"
    other.write_text("just some text\n{\"a\": 1}\n")
    wrong = subprocess.run([sys.executable, str(REPO_ROOT / "hako"), "summary", str(other)],
                           capture_output=True, text=True)
    assert wrong.returncode == 2 and "is not a result file" in wrong.stderr


def test_short_summary_command_names_runs_by_their_guest_command(tmp_path, capsys):
    tests = tmp_path / "run-ktest.jsonl"
    tests.write_text('{"kind":"meta","command":"./hako boot --name run-ktest -- ktest"}\n'
                     '{"kind":"ktest","name":"pmm","ok":true}\n')
    figures = tmp_path / "run.jsonl"
    figures.write_text(BENCH_OUT.replace("@@ ", ""))
    assert cli.main(["summary", "--short", str(tests), str(figures)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "ktest: kernel self-tests: 1 passed, 0 failed, 0 skipped"
    assert lines[1] == "run: 1 figure"
    assert f"({tests}, {figures})" in lines[-1] and len(lines) <= 40
    assert cli.main(["summary", "--short", str(tests), str(tmp_path / "none.jsonl")]) == 2


def test_boot_net_option_reaches_the_profile():
    args = cli.make_parser().parse_args(["boot", "--net", "hub"])
    assert cli.profile_from(args, ["ktest"]).net == "hub"
    args = cli.make_parser().parse_args(["shell"])
    assert cli.profile_from(args, []).net == "none"


def test_drvproc_option_goes_to_the_command_line():
    from hakotool import cli
    assert cli.with_drvproc("", "rtl8139,e1000") == "drvproc=rtl8139,e1000"
    assert cli.with_drvproc("tick=5ms", "all") == "tick=5ms drvproc=all"
    assert cli.with_drvproc("tick=5ms", "") == "tick=5ms"
    assert cli.with_drvproc("", "none") == ""
    assert cli.drvproc_list("e1000") == "e1000"
    import argparse
    import pytest
    with pytest.raises(argparse.ArgumentTypeError):
        cli.drvproc_list("edu")
    args = cli.make_parser().parse_args(["boot", "--drvproc", "rtl8139", "--net", "hub"])
    assert cli.profile_from(args, []).cmdline == "drvproc=rtl8139"


PREEMPT_OUT = ('@@ {"kind":"boot","cpus":4}\n'
               '@@ {"kind":"preempt","case":"exit","ctx":2,"max":11569,"count":9,"cpu":0,'
               '"site":"proc_stop+0x2f","wait":0,"held":11569,"held_cpu":0,'
               '"held_site":"proc_stop+0x2f"}\n')


def test_bench_preempt_boots_before_and_after(fake_env, tmp_path):
    """Two boots, serialise=off then on, one results file each and the
    side-by-side table; without the plugin the TSC is used, and said."""
    fake_env["FAKE_QEMU_OUT"] = PREEMPT_OUT
    fake_env["FAKE_QEMU_ARGV"] = str(tmp_path / "argv.json")
    out, err = io.StringIO(), io.StringIO()
    root = Path(fake_env["HAKO_ROOT"])
    status = bench.run_bench("preempt", quiet=True, out=out, err=err, root=root, env=fake_env)
    assert status == 0, err.getvalue()
    for label in ("before", "after"):
        assert (root / f"results/bench-preempt-{label}.jsonl").exists()
    argv = " ".join(json.loads((tmp_path / "argv.json").read_text()))
    assert "serialise=on" in argv                 # the last boot
    text = out.getvalue()
    assert "preempt [before: serialise=off]" in text and "preempt [after: serialise=on]" in text
    assert "before: serialise=off -> after: serialise=on" in text
    assert "not built" in err.getvalue()


def option_after(words, option):
    return words[words.index(option) + 1]


def test_mp_disk_runs_both_tables_on_the_disks_in_three_boots():
    """Table 1 on both disks and Table 2 on ahci0 with mp's Table 2 loops,
    the counters on, one boot with both disks, three times."""
    disk, mp = bench.registry()["mp-disk"], bench.registry()["mp"]
    words = disk.profile.words
    assert (disk.profile.disk, disk.profile.smp, disk.profile.mode) == ("both", 8, "icount")
    assert words[:2] == ("iotest", "all")
    assert option_after(words, "--devs") == "ahci0,nvme0"
    assert option_after(words, "--t2dev") == "ahci0"
    assert option_after(words, "--counts") == "on"
    for option in ("--loops", "--t2loops", "--pin"):
        assert option_after(words, option) == option_after(mp.profile.words, option)
    assert disk.boots == 3 and mp.boots == 1
    assert "--counts" not in mp.profile.words


def test_mp_disk_paces_the_disks_on_qemus_null_driver():
    """The disk bench paces its completions (iotest --pace on) and reads
    from null-co drives, the same AHCI and NVMe devices; mp has no disk."""
    disk, mp = bench.registry()["mp-disk"], bench.registry()["mp"]
    assert option_after(disk.profile.words, "--pace") == "on"
    assert "--pace" not in mp.profile.words and mp.profile.disk == "none"
    argv = build_argv(disk.profile, env={})
    drives = [argv[i + 1] for i, a in enumerate(argv) if a == "-drive"]
    assert drives == [f"driver=null-co,size={8 * 1024 * 1024},read-zeroes=on,if=none,id=hako-ahci",
                      f"driver=null-co,size={8 * 1024 * 1024},read-zeroes=on,if=none,id=hako-nvme"]
    assert "ide-hd,drive=hako-ahci,bus=hako-ahci.0" in argv
    assert "nvme,serial=hako0001,drive=hako-nvme" in argv


def test_mp_tcg_runs_the_grid_on_one_vcpu_per_host_core_in_three_sittings():
    tcg = bench.registry()["mp-tcg"]
    words = tcg.profile.words
    assert tcg.profile.mode == "tcg" and tcg.boots == 3
    assert tcg.profile.smp == max(2, min(8, os.cpu_count() or 2)) == p001.TCG_CPUS
    assert option_after(words, "--t2dev") == "ahci0,testdev0"
    assert (option_after(words, "--loops"), option_after(words, "--reps")) == ("100", "5")


IOTEST_OUT = ('@@ {"kind":"boot","cpus":2}\n'
              '@@ {"kind":"iotest","table":"t1","dev":"ahci0","mode":"funnel","k":1,'
              '"loops":1,"wait":0,"elapsed_ns":5,"failed":0,"region":2048,"iters":1}\n')


def test_a_repeated_bench_boots_n_times_and_drops_an_older_sittings_files(
        fake_env, tmp_path):
    fake_env["FAKE_QEMU_OUT"] = IOTEST_OUT
    fake_env["FAKE_QEMU_ARGV"] = str(tmp_path / "argv.json")
    root = Path(fake_env["HAKO_ROOT"])
    results = root / "results"
    results.mkdir()
    # Boot 3 of a longer sitting, and boot 1's plugin lines of one with --model.
    stale = [results / name for name in ("bench-rep-3.jsonl", "bench-rep-3.model.jsonl",
                                         "bench-rep-3.joined.jsonl", "bench-rep-1.model.jsonl")]
    kept = [results / "bench-rep.jsonl", results / "bench-rep-x.jsonl"]
    for path in stale + kept:
        path.write_text("{}\n")
    rep = bench.Bench(profile=bench.Profile(machine="pc", smp=2, mode="icount",
                                            words=("iotest", "all")), boots=2,
                      table=p001.iotest_table)
    out, err = io.StringIO(), io.StringIO()
    status = bench.run_repeated("rep", rep, "", 2, quiet=True, out=out, err=err, root=root,
                                env=fake_env)
    assert status == 0, err.getvalue()
    for number in (1, 2):
        assert len(load_records(results / f"bench-rep-{number}.jsonl")) == 2
    assert not any(path.exists() for path in stale)
    assert all(path.exists() for path in kept)
    assert sorted(bench.repeat_files(results, "rep")) == [1, 2]
    text = out.getvalue()
    assert "2 boots in " in text and "results/bench-rep-1..2.jsonl" in text
    assert ("2 iotest runs in results/bench-rep-1..2.jsonl; all of paper 001's tables: "
            "./hako paper 001 tables") in text
    # The sitting's own tables come first, over both boots.
    assert "### Table 1 — ahci0 (paper: scsihd)" in text
    assert "median (min…max) of 2 boots" in text


def test_a_failing_boot_ends_the_repeats(fake_env):
    fake_env["FAKE_QEMU_OUT"] = IOTEST_OUT
    fake_env["FAKE_QEMU_EXIT"] = "3"                      # the guest reported failure
    root = Path(fake_env["HAKO_ROOT"])
    out, err = io.StringIO(), io.StringIO()
    status = bench.run_bench("core", boots=3, quiet=True, out=out, err=err, root=root,
                             env=fake_env)
    assert status == 1
    assert (root / "results/bench-core-1.jsonl").exists()
    assert not (root / "results/bench-core-2.jsonl").exists()
    assert "boots in" not in out.getvalue()


def test_boots_option_reaches_run_bench(monkeypatch):
    seen = {}
    monkeypatch.setattr(bench, "run_bench", lambda name, **kw: seen.update(kw, name=name) or 0)
    args = cli.make_parser().parse_args(["bench", "mp-disk", "--boots", "5"])
    assert cli.cmd_bench(args, []) == 0
    assert seen["name"] == "mp-disk" and seen["boots"] == 5
    args = cli.make_parser().parse_args(["bench", "mp-disk"])
    assert args.boots == 0


def test_bench_help_lists_every_bench_with_its_about(capsys):
    try:
        cli.main(["bench", "--help"])
    except SystemExit as done:
        assert done.code == 0
    text = capsys.readouterr().out
    assert "benches:" in text
    for name, entry in bench.BENCHES.items():
        assert f"  {name} " in text and entry.about in text
    assert "peer" in text
