"""Tests for hakotool.runner, driven by the fake QEMU (no kernel needed)."""
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hakotool.results import guest_bytes, load_meta, load_records
from hakotool import runner
from hakotool.qemu import Profile

from conftest import REPO_ROOT

GOOD_OUT = ('SeaBIOS banner\r\n@@ {"kind":"boot","cpus":4}\r\n'
            'noise\n@@ {"kind":"ktest","name":"pmm","ok":true}\r\n')


def boot(env, name="t", timeout=10.0, profile=None, **kwargs):
    """Run one boot in-process; returns (outcome, stdout text, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    outcome = runner.run_boot(profile or Profile(words=("ktest",)), name, timeout,
                              root=Path(env["HAKO_ROOT"]), env=env, out=out, err=err,
                              **kwargs)
    return outcome, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("status, code, reason", [
    (1, 0, "guest passed"),
    (3, 1, "guest reported failure"),
    (5, 3, "kernel panic"),
    (0, 4, "guest reset or triple fault (no isa-debug-exit)"),
    (7, 5, "QEMU failed with status 7"),
    (-9, 5, "QEMU killed by signal 9"),
])
def test_map_qemu_status(status, code, reason):
    assert runner.map_qemu_status(status) == (code, reason)


@pytest.mark.parametrize("status, code", [(1, 0), (3, 1), (5, 3), (0, 4), (9, 5)])
def test_fake_qemu_exit_codes_are_mapped(fake_env, status, code):
    fake_env.update(FAKE_QEMU_OUT=GOOD_OUT, FAKE_QEMU_EXIT=str(status))
    outcome, _, _ = boot(fake_env)
    assert outcome.exit_code == code
    assert outcome.qemu_status == status
    assert [r["kind"] for r in outcome.records] == ["boot", "ktest"]


def test_pass_streams_console_writes_results_and_deletes_log(fake_env):
    fake_env["FAKE_QEMU_OUT"] = GOOD_OUT
    outcome, out, err = boot(fake_env, name="ok-run")
    root = Path(fake_env["HAKO_ROOT"])
    assert out == 'SeaBIOS banner\nnoise\n'         # result lines only with verbose
    written = (root / "results/ok-run.jsonl").read_bytes()
    assert guest_bytes(written) == (
        b'{"kind":"boot","cpus":4}\n{"kind":"ktest","name":"pmm","ok":true}\n')
    meta = load_meta(root / "results/ok-run.jsonl")
    assert meta["kind"] == "meta" and meta["mode"] == "icount" and meta["cpus"] == 4
    assert meta["tsc_unit"] == "instructions (icount)" and meta["qemu"].startswith("stand-in")
    assert set(meta) >= {"commit", "dirty", "date", "machine", "mem", "profile", "cmdline",
                         "command", "qemu_argv", "build"}
    assert not (root / "results/logs/ok-run.log").exists()
    assert err.startswith("hako: passed (exit 0) in ")
    assert err.rstrip().endswith("s, 2 result lines -> results/ok-run.jsonl")


def test_quiet_and_keep_log(fake_env):
    fake_env["FAKE_QEMU_OUT"] = GOOD_OUT
    outcome, out, _ = boot(fake_env, name="kept", quiet=True, keep_log=True)
    assert out == ""
    log = Path(fake_env["HAKO_ROOT"]) / "results/logs/kept.log"
    assert log.read_text().startswith("SeaBIOS banner\n@@ ")


def test_failure_keeps_log_and_reports(fake_env):
    fake_env.update(FAKE_QEMU_OUT="PANIC: oops\r\n", FAKE_QEMU_EXIT="5")
    outcome, _, err = boot(fake_env, name="bad")
    assert outcome.exit_code == runner.EXIT_PANIC
    assert err.strip() == "hako: FAILED: kernel panic; serial log kept in results/logs/bad.log"
    assert outcome.log.read_text() == "PANIC: oops\n"


def test_status_1_without_console_output_is_a_qemu_error(fake_env):
    fake_env.update(FAKE_QEMU_EXIT="1", FAKE_QEMU_STDERR="qemu: cannot load kernel\n")
    outcome, _, err = boot(fake_env)
    assert outcome.exit_code == runner.EXIT_QEMU
    assert "qemu: cannot load kernel" in err
    assert "before any console output" in err


def test_qemu_error_shows_stderr(fake_env):
    fake_env.update(FAKE_QEMU_EXIT="2", FAKE_QEMU_STDERR="qemu: bad option\n")
    outcome, _, err = boot(fake_env)
    assert outcome.exit_code == runner.EXIT_QEMU
    assert "qemu: bad option" in err and "FAILED: QEMU failed with status 2" in err


def test_identical_runs_give_identical_results(fake_env):
    fake_env["FAKE_QEMU_OUT"] = GOOD_OUT + "@@ bogus\n"
    first, _, err = boot(fake_env, name="a")
    second, _, _ = boot(fake_env, name="b")
    # The guest's lines are identical; the meta lines differ by date (and run name).
    assert guest_bytes(first.jsonl.read_bytes()) == guest_bytes(second.jsonl.read_bytes())
    assert "ignored 1 malformed result line" in err


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_timeout_kills_the_whole_process_group(fake_env, tmp_path):
    pidfile = tmp_path / "child.pid"
    fake_env.update(FAKE_QEMU_OUT="booting\n", FAKE_QEMU_SLEEP="30",
                    FAKE_QEMU_CHILD=str(pidfile))
    start = time.monotonic()
    outcome, _, err = boot(fake_env, name="slow", timeout=1.0)
    assert time.monotonic() - start < 10
    assert outcome.exit_code == 124
    assert "FAILED: timeout after 1 s; serial log kept in results/logs/slow.log" in err
    assert outcome.log.read_text() == "booting\n"
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_timeout_asks_the_guest_for_a_thread_dump_first(fake_env):
    fake_env.update(FAKE_QEMU_OUT="booting\n", FAKE_QEMU_SLEEP="30", FAKE_QEMU_DUMP="1")
    outcome, _, _ = boot(fake_env, name="hung", timeout=1.0)
    assert outcome.exit_code == 124
    assert outcome.log.read_text() == "booting\nDUMP\n"


def test_argv_passed_to_qemu(fake_env, tmp_path):
    argv_file = tmp_path / "argv.json"
    fake_env.update(FAKE_QEMU_ARGV=str(argv_file), HAKO_QEMU_EXTRA="-nic none")
    boot(fake_env, profile=Profile(machine="q35", smp=2, cmdline="v=1", words=("ktest",)))
    argv = json.loads(argv_file.read_text())
    assert argv[argv.index("-append") + 1] == "v=1 -- ktest"
    assert argv[-2:] == ["-nic", "none"]


def test_missing_qemu_points_to_make_deps(fake_env):
    fake_env["HAKO_QEMU"] = "/nonexistent/qemu-system-x86_64"
    outcome, _, err = boot(fake_env)
    assert outcome.exit_code == runner.EXIT_USAGE
    assert "not found" in err and "make deps" in err


def test_kvm_unusable_exits_2(fake_env, tmp_path):
    fake_env["HAKO_KVM_DEVICE"] = str(tmp_path / "kvm")
    outcome, _, err = boot(fake_env, profile=Profile(mode="kvm"))
    assert outcome.exit_code == 2
    assert "KVM is not usable on this host" in err


def test_missing_image_is_a_build_failure(fake_env):
    (Path(fake_env["HAKO_ROOT"]) / "build/hako.iso").unlink()
    outcome, _, err = boot(fake_env, profile=Profile(iso=True))
    assert outcome.exit_code == runner.EXIT_BUILD
    assert "build/hako.iso not found" in err


def test_missing_debug_kernel_names_its_make_target(fake_env):
    outcome, _, err = boot(fake_env, profile=Profile(debug_kernel=True))
    assert outcome.exit_code == runner.EXIT_BUILD
    assert "build/debug/hako.elf not found (run make kernel-debug)" in err


def test_gdb_disables_timeout_and_announces(fake_env):
    fake_env.update(FAKE_QEMU_SLEEP="1.5", FAKE_QEMU_OUT="waiting\n")
    outcome, _, err = boot(fake_env, timeout=0.5, profile=Profile(gdb=True))
    assert outcome.exit_code == 0
    assert "waiting for gdb on :1234 (make gdb)" in err


def test_cli_end_to_end(fake_env):
    fake_env.update(FAKE_QEMU_OUT=GOOD_OUT, FAKE_QEMU_EXIT="3")
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "hako"), "boot", "--quiet",
                           "--smp", "2", "--", "ktest"],
                          env=fake_env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().endswith(
        "FAILED: guest reported failure; serial log kept in "
        "results/logs/boot-pc-smp2-icount.log")
    results = Path(fake_env["HAKO_ROOT"]) / "results/boot-pc-smp2-icount.jsonl"
    assert len(load_records(results)) == 2 and load_meta(results)["cpus"] == 2


def test_cli_debug_kernel_boots_build_debug(fake_env, tmp_path):
    argv_file = tmp_path / "argv.json"
    fake_env.update(FAKE_QEMU_OUT=GOOD_OUT, FAKE_QEMU_ARGV=str(argv_file))
    debug = Path(fake_env["HAKO_ROOT"]) / "build/debug"
    debug.mkdir()
    (debug / "hako.elf").write_bytes(b"\x7fELF")
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "hako"), "boot", "--quiet",
                           "--debug-kernel", "--", "ktest"],
                          env=fake_env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    argv = json.loads(argv_file.read_text())
    assert argv[argv.index("-kernel") + 1] == "build/debug/hako.elf"
    assert argv[argv.index("-initrd") + 1] == "build/initrd.img"
    assert "results/boot-pc-smp4-icount-debug-kernel.jsonl" in proc.stderr
