"""Tests for hakotool.testone: `make test T=NAME` sends one test to its runner."""
import io
from pathlib import Path

from hakotool import testall, testone
from hakotool.testone import OneTest, Target, guest_boots, resolve

REPO_ROOT = Path(__file__).resolve().parents[2]


def plant(root: Path) -> Path:
    files = {
        "tests/kernel/test_mem.c": "TEST(pmm_alloc)\n{\n\treturn 0;\n}\n",
        "tests/kernel/ktest.h": "#define TEST(tname) \\\n",
        "tests/user/test_net.c": ("TEST(spawn_works)\nTEST_NEEDS(nic_flood, needs_hub)\n"
                                  "ISPC_TEST(echo_sync)\nTEST(both_sides)\n"),
        "tests/user/fleet.h": "\tTEST(tname) \\\n",
        "tests/kernel/test_x.c": "TEST(both_sides)\n",
        "tests/host/test_string.c": "TEST(strlen_empty)\n{\n}\nKNOWN_BUG(copy_overlap)\n{\n}\n",
        "tests/costmodel/test_tlb.c": "TEST(hit_after_fill)\n{\n}\n",
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_resolve_sends_each_kind_of_name_to_its_runner(tmp_path):
    root = plant(tmp_path)
    assert resolve("pmm_alloc", root) == [Target("ktest", "pmm_alloc")]
    assert resolve("spawn_works", root) == [Target("selftest", "spawn_works")]
    assert resolve("nic_flood", root) == [Target("selftest", "nic_flood")]
    assert resolve("echo_sync", root) == [Target("selftest", "echo_sync")]
    assert resolve("both_sides", root) == [Target("ktest", "both_sides"),
                                           Target("selftest", "both_sides")]
    assert resolve("test_string", root) == [Target("host", "test_string")]
    assert resolve("test_string:strlen_empty", root) == [Target("host", "test_string", "strlen_empty")]
    assert resolve("copy_overlap", root) == [Target("host", "test_string", "copy_overlap")]
    assert resolve("test_costmodel_tlb:hit_after_fill", root) == [
        Target("host", "test_costmodel_tlb", "hit_after_fill")]
    for node in ("tests/harness/test_a.py::test_b", "tests/harness/test_a.py",
                 "test_a.py::test_b[x-1]"):
        assert resolve(node, root) == [Target("pytest", node)]


def test_resolve_knows_no_macro_parameters_and_no_strangers(tmp_path):
    root = plant(tmp_path)
    for name in ("tname", "nope", "test_string:nope", "test_nope"):
        assert resolve(name, root) == []


def test_resolve_finds_the_repositorys_tests():
    assert resolve("test_format", REPO_ROOT) == [Target("host", "test_format")]
    kernel = testone._defined(REPO_ROOT / "tests/kernel", testone._GUEST_TEST)
    user = testone._defined(REPO_ROOT / "tests/user", testone._GUEST_TEST)
    assert len(kernel) > 40 and len(user) > 100
    assert set(testall.IOP_TESTS) <= user and set(testall.DRVPROC_TESTS) <= user


def test_guest_boots_come_from_the_full_plan_naming_boots_first():
    full = testall.PLANS["full"]
    boots = guest_boots(full, "selftest", testall.IOP_TESTS[0])
    assert boots[0].cmdline == "iop=3"
    assert all(b.words == ("selftest", testall.IOP_TESTS[0]) for b in boots)
    assert not any(b.debug_kernel or b.iso for b in boots)
    plain = guest_boots(full, "selftest", "spawn_works")
    assert [b.label for b in plain][:5] == [
        "pc-smp4-net-hub-selftest", "pc-smp4-net-hub-selftest-drvproc-rtl8139,e1000",
        "pc-smp4-net-hub-selftest-drvproc-rtl8139,e1000-drvmode-super",
        "q35-smp4-disk-both-selftest", "pc-smp4-disk-ahci-selftest-drvproc-ramdisk,ahci"]
    assert len({b.profile() for b in plain}) == len(plain)
    kernel = guest_boots(full, "ktest", "pmm_alloc")
    assert [b.label for b in kernel][:5] == [
        "pc-smp4-net-hub-ktest", "q35-smp4-net-hub-ktest",
        "pc-smp4-net-hub-ktest-drvproc-rtl8139,e1000",
        "pc-smp4-net-hub-ktest-drvproc-rtl8139,e1000-drvmode-super", "q35-smp4-disk-both-ktest"]
    assert all(b.kinds == ("ktest",) and b.words == ("ktest", "pmm_alloc") for b in kernel)


def test_a_skip_reason_moves_the_boots_it_asks_for_forward():
    boots = guest_boots(testall.PLANS["full"], "ktest", "ahci_x")
    assert testone.by_hint(boots, "needs 2 CPUs") == boots
    disk = testone.by_hint(boots, "no AHCI disk (boot with --disk ahci)")
    assert disk[0].label == "q35-smp4-disk-both-ktest" and len(disk) == len(boots)
    drv = testone.by_hint(boots, "no driver process (boot with --net hub --drvproc rtl8139,e1000)")
    assert drv[0].label == "pc-smp4-net-hub-ktest-drvproc-rtl8139,e1000"
    sup = testone.by_hint(boots, "no driver process in supervisor mode (boot with --drvproc "
                                 "rtl8139,e1000 --cmdline drvmode=super)")
    assert sup[0].label == "pc-smp4-net-hub-ktest-drvproc-rtl8139,e1000-drvmode-super"
    iop = testone.by_hint(guest_boots(testall.PLANS["full"], "selftest", "x"),
                          "no I/O processor (boot with iop=N)")
    assert iop[0].cmdline == "iop=3"


def run_one(name, env, plan=None):
    out, err = io.StringIO(), io.StringIO()
    root = Path(env["HAKO_ROOT"])
    status = OneTest(name, plan or testall.PLANS["full"], root, env, out, err).run()
    return status, out.getvalue().splitlines(), err.getvalue()


def test_a_kernel_test_boots_with_its_name(fake_env, tmp_path):
    plant(Path(fake_env["HAKO_ROOT"]))
    argv = tmp_path / "argv.json"
    fake_env.update(FAKE_QEMU_OUT='@@ {"kind":"ktest","name":"pmm_alloc","ok":true}\r\n',
                    FAKE_QEMU_ARGV=str(argv))
    status, lines, _ = run_one("pmm_alloc", fake_env)
    assert status == 0
    assert lines == ["PASS pc-smp4-net-hub-ktest:pmm_alloc", "1 passed, 0 failed, 0 skipped"]
    assert "ktest pmm_alloc" in argv.read_text()


def test_a_guest_test_skipped_on_every_boot_fails(fake_env):
    plant(Path(fake_env["HAKO_ROOT"]))
    fake_env["FAKE_QEMU_OUT"] = (
        '@@ {"kind":"utest","name":"nic_flood","skipped":true,"reason":"no hub"}\r\n')
    plan = testall.Plan(steps=(), boots=(
        testall.BootCase("pc", 4, words=("selftest",), kinds=("utest",)),
        testall.BootCase("pc", 4, net="hub", words=("selftest",), kinds=("utest",))))
    status, lines, err = run_one("nic_flood", fake_env, plan)
    assert status == 1
    assert lines == ["FAIL selftest:nic_flood: skipped in every boot (pc-smp4-net-hub-selftest: "
                     "no hub; pc-smp4-selftest: no hub)", "0 passed, 1 failed, 0 skipped"]
    assert "nic_flood skipped on pc-smp4-net-hub-selftest" in err


def test_a_host_case_runs_alone(fake_env):
    root = plant(Path(fake_env["HAKO_ROOT"]))
    binary = root / "build/host-tests/test_string"
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\necho \"ok strlen_empty\"\necho \"ok strlen_empty_twice\"\n")
    binary.chmod(0o755)
    status, lines, _ = run_one("strlen_empty", fake_env)
    assert status == 0
    assert lines == ["PASS test_string:strlen_empty", "1 passed, 0 failed, 0 skipped"]


def test_a_pytest_node_id_runs_in_pytest(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    (root / "tests/harness").mkdir(parents=True)
    (root / "tests/harness/test_tiny.py").write_text("def test_ok():\n    pass\n\n"
                                                      "def test_bad():\n    assert 0\n")
    status, lines, _ = run_one("tests/harness/test_tiny.py::test_ok", fake_env)
    assert status == 0 and lines == ["PASS pytest", "1 passed, 0 failed, 0 skipped"]
    status, lines, _ = run_one("tests/harness/test_tiny.py::test_bad", fake_env)
    assert status == 1 and lines[-1] == "0 passed, 1 failed, 0 skipped"


def test_an_unknown_name_fails(fake_env):
    plant(Path(fake_env["HAKO_ROOT"]))
    status, lines, _ = run_one("no_such_test", fake_env)
    assert status == 1 and lines[0].startswith("FAIL no_such_test: no test of that name")
    assert lines[-1] == "0 passed, 1 failed, 0 skipped"


def test_the_check_plan_is_the_quick_tier():
    check = testall.PLANS["check"]
    assert check.steps == ("layout", "host", "pytest", "boots")
    assert [c.label for c in check.boots] == ["pc-smp4", "pc-smp4-selftest"]
