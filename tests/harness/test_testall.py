"""Tests for hakotool.testall: pure counting and a fake-QEMU plan run."""
import io
import json
import os
import re
from pathlib import Path

from hakotool import testall
from hakotool.runner import BootOutcome
from hakotool.results import guest_bytes
from hakotool.testall import BootCase, Plan, TestItem


def names(items, ok):
    return [item.name for item in items if item.ok is ok]


def test_plan_table():
    full = testall.PLANS["full"]
    assert full.steps == ("layout", "host", "pytest", "boots", "coverage", "determinism", "crash",
                          "options", "gdb", "shell", "peer")
    assert [c.label for c in full.boots] == [
        "pc-smp1", "pc-smp2", "pc-smp4", "q35-smp4", "q35-smp8", "pc-smp4-iso",
        "pc-smp4-net-hub", "q35-smp4-net-hub", "pc-smp4-selftest", "q35-smp4-selftest",
        "pc-smp2-32M-selftest", "pc-smp1-selftest", "pc-smp4-selftest-ispc-fast",
        "pc-smp2-selftest-ispc-fast-servers-nameserver,echo,ramdisk,selftest",
        "pc-smp2-selftest-ispc-fast-servers-nameserver,echo,ramdisk,selftest-debug-kernel",
        "pc-smp2-selftest-irqtrace-on",
        "pc-smp4-net-hub-selftest", "pc-smp4-net-hub-debug-kernel",
        "pc-smp4-net-hub-selftest-debug-kernel", "q35-smp4-disk-both",
        "q35-smp4-disk-both-selftest", "pc-smp4-selftest-iop-3", "pc-smp4-selftest-isoch-table",
        "pc-smp4-net-hub-drvproc-rtl8139,e1000", "pc-smp4-net-hub-selftest-drvproc-rtl8139,e1000",
        "pc-smp4-disk-ahci-selftest-drvproc-ramdisk,ahci",
        "pc-smp4-net-hub-ktest-drvproc-rtl8139,e1000-drvmode-super",
        "pc-smp4-net-hub-selftest-drvproc-rtl8139,e1000-drvmode-super",
        "pc-smp4-disk-ahci-selftest-drvproc-ramdisk,ahci-drvmode-super", "sh4-r2d-smp1",
        "sh4-r2d-smp1-selftest", "sh4-r2d-smp1-fuzz-seed1", "pc-smp4-net-hub-fuzz-seed1",
        "pc-smp4-net-hub-fuzz-seed2"]
    assert all(c.mode == "icount" for c in full.boots)
    assert [c.label for c in full.boots if c.debug_kernel] == [
        "pc-smp2-selftest-ispc-fast-servers-nameserver,echo,ramdisk,selftest-debug-kernel",
        "pc-smp4-net-hub-debug-kernel", "pc-smp4-net-hub-selftest-debug-kernel"]
    for windowed in full.boots[13:15]:                    # the words calls' dedicated paths
        assert windowed.cmdline == testall.WINDOWED and windowed.words == ("selftest",) + testall.WINDOWED_TESTS
    assert not any("lockcheck" in c.cmdline for c in full.boots)
    for case in full.boots[:-3]:                          # the SH-4 boots' kinds too
        assert case.kinds == (("utest",) if case.words[:1] == ("selftest",) else ("ktest",))
    for fuzz, seed in zip(full.boots[-2:], ("1", "2")):    # the short soak: one "fuzz" record
        assert fuzz.words == ("fuzz", "100000", seed, "8", "3") and fuzz.kinds == ("fuzz",)
        assert fuzz.net == "hub"
    for sh4 in full.boots[-5:-2]:                          # the second arch, before the soak
        assert sh4.arch == "sh4" and sh4.smp == 1 and sh4.profile().arch == "sh4"
    assert full.boots[-4].words == ("selftest",)
    sh4_fuzz = full.boots[-3]                             # the fuzzer on SH-4: one "fuzz" record
    assert sh4_fuzz.words == ("fuzz", "100000", "1", "8", "3") and sh4_fuzz.kinds == ("fuzz",)
    iop = full.boots[-13]
    assert iop.cmdline == "iop=3" and iop.smp == 4
    assert iop.words == ("selftest",) + testall.IOP_TESTS
    table = full.boots[-12]                               # the reserved schedule's own tests
    assert table.cmdline == "isoch=table" and table.words == ("selftest",) + testall.ISOCH_TABLE_TESTS
    for mode, first in (("", -11), (" drvmode=super", -8)):    # ring 3, then supervisor mode
        drvproc = full.boots[first:first + 2]
        assert all(c.cmdline == "drvproc=rtl8139,e1000" + mode and c.net == "hub" for c in drvproc)
        assert drvproc[1].words == ("selftest",) + testall.DRVPROC_TESTS
        assert drvproc[0].words == (("ktest",) + testall.DRVMODE_SUPER_KTESTS if mode else
                                    testall.GUEST_WORDS)
        blk = full.boots[first + 2]
        assert blk.cmdline == "drvproc=ramdisk,ahci" + mode and blk.disk == "ahci"
        assert blk.words == ("selftest",) + testall.DRVPROC_BLK_TESTS
    assert [c.label for c in testall.PLANS["quick"].boots] == ["pc-smp4"]
    assert full.determinism.profile().net == "hub"


def test_boot_case_passes_net_to_profile():
    case = BootCase("q35", 4, net="hub")
    assert case.label == "q35-smp4-net-hub"
    assert case.profile().net == "hub"
    assert BootCase("pc", 4).profile().net == "none"


def test_boot_case_passes_disk_to_profile():
    case = BootCase("q35", 4, disk="nvme")
    assert case.label == "q35-smp4-disk-nvme"
    assert case.profile().disk == "nvme"
    assert BootCase("pc", 4).profile().disk == "none"


def test_count_boot_counts_each_ktest():
    records = [{"kind": "boot"},
               {"kind": "ktest", "name": "pmm", "ok": True},
               {"kind": "ktest", "name": "vmm", "ok": False, "reason": "bad pte"},
               {"kind": "utest", "name": "u", "ok": True}]
    items = testall.count_boot("pc-smp4", 0, "guest passed", records)
    assert names(items, True) == ["pc-smp4:pmm"]
    assert items[1] == TestItem("pc-smp4:vmm", False, "bad pte")
    assert len(items) == 2


def test_count_boot_failed_exit_adds_boot_failure():
    records = [{"kind": "ktest", "name": "pmm", "ok": True}]
    items = testall.count_boot("q35-smp8", 3, "kernel panic", records)
    assert items[-1] == TestItem("q35-smp8:boot", False, "kernel panic")
    assert len(items) == 2


def test_count_boot_without_results_fails():
    items = testall.count_boot("pc-smp1", 0, "guest passed", [{"kind": "boot"}])
    assert items == [TestItem("pc-smp1:boot", False, "no ktest result lines")]


def test_count_boot_other_kinds():
    records = [{"kind": "utest", "name": "fork", "ok": True}]
    items = testall.count_boot("pc-smp4", 0, "", records, kinds=("utest",))
    assert items == [TestItem("pc-smp4:fork", True)]


def test_count_boot_counts_skips_apart():
    records = [{"kind": "ktest", "name": "nic_up", "skipped": True, "reason": "no NIC pair"},
               {"kind": "ktest", "name": "old", "ok": True, "skipped": "no NIC pair"},
               {"kind": "ktest", "name": "odd", "ok": False, "skipped": True, "reason": "leak"},
               {"kind": "ktest", "name": "pmm", "ok": True}]
    items = testall.count_boot("pc-smp4", 0, "guest passed", records)
    assert items == [TestItem("pc-smp4:nic_up", False, "no NIC pair", skipped=True),
                     TestItem("pc-smp4:old", False, "no NIC pair", skipped=True),
                     TestItem("pc-smp4:odd", False, "leak"),
                     TestItem("pc-smp4:pmm", True)]


def test_boot_of_only_skips_is_not_empty():
    records = [{"kind": "utest", "name": "nic", "skipped": True, "reason": "no cards"}]
    items = testall.count_boot("pc-smp4", 0, "", records, kinds=("utest",))
    assert items == [TestItem("pc-smp4:nic", False, "no cards", skipped=True)]


def test_reporter_counts_skips_apart():
    out = io.StringIO()
    reporter = testall.Reporter(out)
    reporter.add([TestItem("a", True), TestItem("nic", False, "no NIC pair", skipped=True),
                  TestItem("b", False, "why")])
    reporter.skip("pc-smp4-iso", "no iso")
    assert out.getvalue().splitlines() == [
        "PASS a", "SKIP nic: no NIC pair", "FAIL b: why", "SKIP pc-smp4-iso: no iso"]
    assert (reporter.passed, reporter.failed, reporter.skipped) == (1, 1, 2)
    assert testall.summary_line(reporter.passed, reporter.failed,
                                reporter.skipped) == "1 passed, 1 failed, 2 skipped"


def skip(name):
    return {"kind": "ktest", "name": name, "skipped": True, "reason": "no NIC pair"}


def test_coverage_fails_a_test_skipped_in_every_boot():
    plain = [{"kind": "ktest", "name": "pmm", "ok": True}, skip("nic_a"), skip("nic_b")]
    hub = [{"kind": "ktest", "name": "pmm", "ok": True},
           {"kind": "ktest", "name": "nic_a", "ok": False, "reason": "lost frames"}, skip("nic_b")]
    selftest = [{"kind": "utest", "name": "nic_b", "ok": True}, skip("nic_b")]
    items = testall.coverage_items([(plain, ("ktest",)), (hub, ("ktest",)),
                                    (selftest, ("utest",))])
    assert items == [TestItem("coverage:nic_b", False, "skipped in every boot")]


def test_coverage_passes_when_every_test_ran_somewhere():
    plain = [{"kind": "ktest", "name": "pmm", "ok": True}, skip("nic_a"),
             {"kind": "utest", "name": "nic_a", "skipped": True}]
    hub = [{"kind": "ktest", "name": "nic_a", "ok": True}]
    assert testall.coverage_items([(plain, ("ktest",)), (hub, ("ktest",))]) == [
        TestItem("coverage", True)]
    assert testall.coverage_items([]) == [TestItem("coverage", True)]


def test_count_host_output():
    text = "ok bitmap_set\nnot ok bitmap_clear: expected 0 got 1\nnoise\nok  list\n"
    items = testall.count_host_output("test_bitmap", text, 1)
    assert names(items, True) == ["test_bitmap:bitmap_set", "test_bitmap:list"]
    assert names(items, False) == ["test_bitmap:bitmap_clear"]
    assert items[1].reason == "expected 0 got 1"


def test_host_crash_without_lines_is_one_failure():
    assert testall.count_host_output("test_x", "", -11) == [
        TestItem("test_x:exit", False, "exited with status -11")]
    assert testall.count_host_output("test_x", "ok a\n", None)[-1].reason == "timeout"


def test_count_pytest():
    text = ("..F.\nFAILED tests/harness/test_a.py::test_b - AssertionError: x\n"
            "1 failed, 3 passed in 0.12s\n")
    items = testall.count_pytest(text, 1)
    assert items[0] == TestItem("pytest", True, weight=3)
    assert items[1] == TestItem("pytest:tests/harness/test_a.py::test_b", False,
                                "AssertionError: x")
    assert testall.count_pytest("12 passed in 1.0s\n", 0) == [TestItem("pytest", True, weight=12)]
    broken = testall.count_pytest("ImportError\n", 4)
    assert [i.ok for i in broken] == [False]
    errors = testall.count_pytest("2 passed, 1 error in 0.3s\n", 1)
    assert sum(i.weight for i in errors if not i.ok) == 1


def test_compare_runs_and_determinism_item():
    assert testall.compare_runs(b"a\nb\n", b"a\nb\n") is None
    assert testall.compare_runs(b"a\nb\n", b"a\nc\n") == "results differ at line 2"
    assert "length" in testall.compare_runs(b"a\n", b"a\nb\n")
    ok = [BootOutcome("d1", 0, "guest passed"), BootOutcome("d2", 0, "guest passed")]
    assert testall.determinism_item(ok, [b"x\n", b"x\n"]).ok
    assert not testall.determinism_item(ok, [b"", b""]).ok
    bad = [ok[0], BootOutcome("d2", 124, "timeout after 1 s")]
    assert testall.determinism_item(bad, [b"x\n", b"x\n"]).reason == "d2: timeout after 1 s"


def test_reporter_weights_and_summary_line():
    out = io.StringIO()
    reporter = testall.Reporter(out)
    reporter.add([TestItem("a", True), TestItem("pytest", True, weight=5),
                  TestItem("b", False, "why")])
    assert out.getvalue() == "PASS a\nPASS pytest (5 tests)\nFAIL b: why\n"
    assert testall.summary_line(reporter.passed, reporter.failed,
                                reporter.skipped) == "6 passed, 1 failed, 0 skipped"


def ktest_console(*results):
    lines = [f'@@ {json.dumps({"kind": "ktest", "name": n, "ok": ok})}\r\n'
             for n, ok in results]
    return "hello\r\n" + "".join(lines)


def test_plan_run_with_fake_qemu(fake_env):
    fake_env["FAKE_QEMU_OUT"] = ktest_console(("pmm", True), ("sched", False))
    plan = Plan(steps=("boots", "determinism"),
                boots=(BootCase("pc", 1), BootCase("q35", 4, iso=True)))
    out, err = io.StringIO(), io.StringIO()
    status = testall.run_test_all(plan=plan, root=Path(fake_env["HAKO_ROOT"]),
                                  env=fake_env, out=out, err=err)
    lines = out.getvalue().splitlines()
    assert status == 1
    assert lines[:4] == ["PASS pc-smp1:pmm", "FAIL pc-smp1:sched: reported ok=false",
                         "PASS q35-smp4-iso:pmm", "FAIL q35-smp4-iso:sched: reported ok=false"]
    assert lines[4] == "PASS determinism"
    assert lines[-1] == "3 passed, 2 failed, 0 skipped"
    assert len(lines) == 6


def test_plan_run_writes_each_step_and_boot_time(fake_env):
    fake_env["FAKE_QEMU_OUT"] = ktest_console(("pmm", True))
    root = Path(fake_env["HAKO_ROOT"])
    plan = Plan(steps=("boots", "coverage"), boots=(BootCase("pc", 1), BootCase("pc", 2)))
    testall.run_test_all(plan=plan, root=root, env=fake_env, out=io.StringIO(),
                         err=io.StringIO())
    rows = [line.split("\t") for line in
            (root / testall.TIMES_FILE).read_text().splitlines()]
    assert rows[0] == ["kind", "name", "seconds"]
    named = {(kind, name) for kind, name, _ in rows[1:]}
    assert named == {("step", "boots"), ("step", "coverage"), ("boot", "test-pc-smp1"),
                     ("boot", "test-pc-smp2"), ("total", "steps")}
    seconds = [float(s) for _, _, s in rows[1:-1]]
    assert seconds == sorted(seconds, reverse=True)


def test_times_table_adds_up_the_steps_only():
    text = testall.times_table([("boot", "b", 3.0), ("step", "boots", 2.0), ("step", "host", 0.5)])
    assert text.splitlines() == ["kind\tname\tseconds", "boot\tb\t3.0", "step\tboots\t2.0",
                                 "step\thost\t0.5", "total\tsteps\t2.5"]


def test_plan_run_counts_skips_and_coverage(fake_env):
    fake_env["FAKE_QEMU_OUT"] = ktest_console(("pmm", True)) + (
        '@@ {"kind":"ktest","name":"nic","skipped":true,"reason":"no NIC pair"}\r\n')
    plan = Plan(steps=("boots", "coverage"), boots=(BootCase("pc", 1), BootCase("pc", 2)))
    out = io.StringIO()
    status = testall.run_test_all(plan=plan, root=Path(fake_env["HAKO_ROOT"]),
                                  env=fake_env, out=out, err=io.StringIO())
    assert status == 1
    assert out.getvalue().splitlines() == [
        "PASS pc-smp1:pmm", "SKIP pc-smp1:nic: no NIC pair",
        "PASS pc-smp2:pmm", "SKIP pc-smp2:nic: no NIC pair",
        "FAIL coverage:nic: skipped in every boot",
        "2 passed, 1 failed, 2 skipped"]


def test_plan_run_boot_failure_and_missing_kernel(fake_env):
    fake_env.update(FAKE_QEMU_OUT="", FAKE_QEMU_EXIT="0")
    plan = Plan(steps=("boots",), boots=(BootCase("pc", 4),))
    out = io.StringIO()
    root = Path(fake_env["HAKO_ROOT"])
    assert testall.run_test_all(plan=plan, root=root, env=fake_env, out=out,
                                err=io.StringIO()) == 1
    assert out.getvalue().splitlines() == [
        "FAIL pc-smp4:boot: guest reset or triple fault (no isa-debug-exit) "
        "(log: results/logs/test-pc-smp4.log)",
        "0 passed, 1 failed, 0 skipped"]
    (root / "build/hako.elf").unlink()
    out = io.StringIO()
    testall.run_test_all(plan=plan, root=root, env=fake_env, out=out, err=io.StringIO())
    assert out.getvalue().splitlines() == [
        "FAIL build:kernel: build/hako.elf missing", "0 passed, 1 failed, 0 skipped"]


def test_host_step_runs_binaries(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    bindir = root / "build/host-tests"
    bindir.mkdir(parents=True)
    script = bindir / "test_demo"
    script.write_text("#!/bin/sh\necho 'ok one'\necho 'not ok two: nope'\nexit 1\n")
    script.chmod(0o755)
    (bindir / "helper.o").write_text("")
    out = io.StringIO()
    plan = Plan(steps=("host",), boots=())
    assert testall.run_test_all(plan=plan, root=root, env=fake_env, out=out,
                                err=io.StringIO()) == 1
    assert out.getvalue().splitlines() == [
        "PASS test_demo:one", "FAIL test_demo:two: nope", "1 passed, 1 failed, 0 skipped"]


def test_boot_case_with_kernel_options_is_labelled_and_passed_on():
    case = BootCase("pc", 4, words=("selftest",), cmdline="ispc=fast")
    assert case.label == "pc-smp4-selftest-ispc-fast"
    assert case.profile().cmdline == "ispc=fast"


def test_debug_kernel_case_boots_build_debug_or_fails_its_build(fake_env, tmp_path):
    argv_file = tmp_path / "argv.json"
    fake_env.update(FAKE_QEMU_OUT=ktest_console(("lock", True)), FAKE_QEMU_ARGV=str(argv_file))
    root = Path(fake_env["HAKO_ROOT"])
    plan = Plan(steps=("boots",), boots=(BootCase("pc", 4, debug_kernel=True),))
    out = io.StringIO()
    testall.run_test_all(plan=plan, root=root, env=fake_env, out=out, err=io.StringIO())
    assert out.getvalue().splitlines() == [
        "FAIL build:kernel-debug: build/debug/hako.elf missing", "0 passed, 1 failed, 0 skipped"]
    (root / "build/debug").mkdir()
    (root / "build/debug/hako.elf").write_bytes(b"\x7fELF")
    out = io.StringIO()
    assert testall.run_test_all(plan=plan, root=root, env=fake_env, out=out,
                                err=io.StringIO()) == 0
    assert out.getvalue().splitlines() == ["PASS pc-smp4-debug-kernel:lock", "1 passed, 0 failed, 0 skipped"]
    argv = json.loads(argv_file.read_text())
    assert argv[argv.index("-kernel") + 1] == "build/debug/hako.elf"


def test_iop_boot_names_every_iop_selftest():
    source = (Path(__file__).resolve().parents[2] / "tests/user/test_iop.c").read_text()
    defined = set(re.findall(r"TEST_NEEDS\((iop_\w+), need_iop\)", source))
    assert defined == set(testall.IOP_TESTS)


def _c_define(path: str, name: str) -> int:
    text = (Path(__file__).resolve().parents[2] / path).read_text()
    return int(re.search(rf"#define {name}\s+(\d+)", text).group(1))


def test_every_plan_boot_fits_the_guest_command_line():
    # The drvproc boot's test names once overflowed the kernel's 512-byte line and the
    # last name arrived cut ("no such test"): each line must fit, its words the argv.
    line_max = _c_define("kernel/boot/bootinfo.h", "BOOT_CMDLINE_MAX")
    argv_max = _c_define("kernel/uapi/hako.h", "HAKO_ARGV_MAX")
    for plan in testall.PLANS.values():
        for case in plan.boots:
            line = "build/hako.elf " + case.profile().append()
            assert len(line) < line_max, (case.label, len(line))
            assert len(case.words) <= argv_max, (case.label, len(case.words))


def test_boots_side_by_side_print_and_write_what_one_at_a_time_does(fake_env):
    fake_env["FAKE_QEMU_OUT"] = ktest_console(("pmm", True), ("sched", True))
    fake_env["FAKE_QEMU_SLEEP"] = "0.3"
    plan = Plan(steps=("boots", "coverage", "determinism"),
                boots=(BootCase("pc", 1), BootCase("pc", 2), BootCase("q35", 4),
                       BootCase("pc", 4, net="hub")))
    root = Path(fake_env["HAKO_ROOT"])
    runs = []
    for jobs in (1, 3):
        out = io.StringIO()
        status = testall.run_test_all(plan=plan, root=root, env=fake_env, out=out,
                                      err=io.StringIO(), jobs=jobs)
        files = {p.name: guest_bytes(p.read_bytes()) for p in (root / "results").glob("*.jsonl")}
        runs.append((status, out.getvalue(), files))
    assert runs[0] == runs[1]
    assert runs[0][1].splitlines()[-1] == "10 passed, 0 failed, 0 skipped"   # 8 + coverage + determinism


def test_pytest_step_writes_junit_xml_and_keeps_the_final_line(tmp_path):
    """The pytest step leaves JUnit XML in build/junit/ for CI; the counts and
    the last line are the same as without it."""
    harness = tmp_path / "tests" / "harness"
    harness.mkdir(parents=True)
    (harness / "test_two.py").write_text("def test_a():\n    pass\n\n\ndef test_b():\n    pass\n")
    out = io.StringIO()
    plan = testall.Plan(steps=("pytest",), boots=())
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    assert testall.TestAll(plan, tmp_path, env, out, io.StringIO()).run() == 0
    assert out.getvalue().splitlines() == ["PASS pytest (2 tests)", "2 passed, 0 failed, 0 skipped"]
    xml = (tmp_path / testall.JUNIT_XML).read_text()
    assert 'tests="2"' in xml and 'name="test_a"' in xml


def test_a_second_arch_boot_is_skipped_without_its_tools(tmp_path):
    """The SH-4 boot reports itself skipped, with the tool it lacks, when the
    SH-4 compiler (or its QEMU) is not installed."""
    env = {"PATH": str(tmp_path), "HAKO_NO_BUILD": "1"}       # nothing on PATH
    assert testall.arch_tools_missing("sh4", env) == "sh4-linux-gnu-gcc"
    out = io.StringIO()
    plan = Plan(steps=("boots",), boots=(BootCase("r2d", 1, arch="sh4"),))
    code = testall.TestAll(plan, tmp_path, env, out=out, err=io.StringIO()).run()
    assert code == 0
    text = out.getvalue()
    assert "SKIP sh4-r2d-smp1: sh4-linux-gnu-gcc not found (make deps installs the sh4 tools)" in text
    assert text.rstrip().endswith("0 passed, 0 failed, 1 skipped")
