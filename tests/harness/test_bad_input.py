"""Bad harness input is refused in one line, before QEMU starts; failure
logs are never overwritten; a timeout says when the guest went quiet."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hakotool import paths, runner
from hakotool.qemu import MAX_CPUS, MIN_MEM_MIB, Profile, mem_mib

from conftest import REPO_ROOT


def test_max_cpus_is_the_kernels():
    header = (REPO_ROOT / "kernel/sched/cpu.h").read_text()
    assert int(re.search(r"#define MAX_CPUS (\d+)", header).group(1)) == MAX_CPUS


@pytest.mark.parametrize("text, mib", [("128M", 128), ("128", 128), ("1G", 1024),
                                       ("2g", 2048), (f"{MIN_MEM_MIB}M", MIN_MEM_MIB)])
def test_mem_sizes_qemu_takes(text, mib):
    assert mem_mib(text) == mib


@pytest.mark.parametrize("text", ["1", "7M", "foo", "", "12X", "-8M", "1.5G"])
def test_mem_sizes_refused(text):
    with pytest.raises(ValueError):
        mem_mib(text)


@pytest.mark.parametrize("smp", [0, MAX_CPUS + 1, 99])
def test_profile_refuses_cpu_counts_the_kernel_cannot_run(smp):
    with pytest.raises(ValueError, match="1 to 16 CPUs"):
        Profile(smp=smp).validate()


@pytest.mark.parametrize("argv, says", [
    (["--smp", "17"], "argument --smp: 17: Hako runs on 1 to 16 CPUs"),
    (["--smp", "99"], "argument --smp: 99: Hako runs on 1 to 16 CPUs"),
    (["--smp", "0"], "argument --smp: 0: Hako runs on 1 to 16 CPUs"),
    (["--mem", "1"], "argument --mem: 1: Hako needs at least 8M"),
    (["--mem", "foo"], "argument --mem: 'foo' is not a size"),
])
def test_boot_refuses_bad_input_in_one_line_within_a_second(argv, says):
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(REPO_ROOT / "hako"), "boot", *argv, "--", "hello"],
                          capture_output=True, text=True, timeout=30,
                          env={**os.environ, "HAKO_QEMU": "/bin/false"})
    assert time.monotonic() - start < 5      # the interpreter's start, not a boot
    assert done.returncode == runner.EXIT_USAGE
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr


def test_a_kept_log_is_set_aside_not_overwritten(tmp_path):
    log = tmp_path / "run.log"
    log.write_text("first failure\n")
    first = paths.set_aside(log)
    log.write_text("second failure\n")
    second = paths.set_aside(log)
    assert not log.exists() and first != second
    assert first.read_text() == "first failure\n"
    assert second.read_text() == "second failure\n"
    assert first.name.startswith("run.") and first.suffix == ".log"
    assert paths.set_aside(log) is None


def test_two_failing_runs_of_one_name_keep_both_logs(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    for text in ("PANIC: one\n", "PANIC: two\n"):
        fake_env.update(FAKE_QEMU_OUT=text, FAKE_QEMU_EXIT="5")
        runner.run_boot(Profile(words=("ktest",)), "twice", 10.0, root=root, env=fake_env,
                        out=open(os.devnull, "w"), err=open(os.devnull, "w"))
    logs = sorted(p.read_text() for p in (root / "results/logs").glob("twice*.log"))
    assert logs == ["PANIC: one\n", "PANIC: two\n"]


def test_a_timeout_says_the_guest_printed_nothing():
    code, reason = runner.classify(-9, "timeout", 60.0, console_lines=0)
    assert code == runner.EXIT_TIMEOUT
    assert reason == "timeout after 60 s; the guest printed nothing"


def test_a_timeout_says_how_long_the_guest_was_quiet():
    _, reason = runner.classify(-9, "timeout", 60.0, console_lines=12, silent=47.4)
    assert reason == "timeout after 60 s; the guest printed nothing for the last 47 s"
    _, reason = runner.classify(-9, "timeout", 60.0, console_lines=12, silent=2.0)
    assert reason == "timeout after 60 s"
