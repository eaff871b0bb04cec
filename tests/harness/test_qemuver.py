"""Tests for the QEMU version check and the boot banner."""
import io
import os
import stat
from pathlib import Path

import pytest

from hakotool import qemuver, runner
from hakotool.qemu import Profile

DEBIAN_10 = ("QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)\n"
             "Copyright (c) 2003-2025 Fabrice Bellard and the QEMU Project developers\n")
DEBIAN_7 = ("QEMU emulator version 7.2.15 (Debian 1:7.2+dfsg-7+deb12u12)\n"
            "Copyright (c) 2003-2022 Fabrice Bellard and the QEMU Project developers\n")


@pytest.fixture(autouse=True)
def fresh_cache():
    qemuver.forget()
    yield
    qemuver.forget()


def test_parse_debian_backports_version():
    found = qemuver.parse_version(DEBIAN_10)
    assert (found.major, found.minor, found.micro, found.text) == (10, 0, 2, "10.0.2")
    assert found.line.startswith("QEMU emulator version 10.0.2 (Debian")


def test_parse_two_part_version_and_garbage():
    assert qemuver.parse_version("QEMU emulator version 11.1\n").text == "11.1.0"
    assert qemuver.parse_version("qemu: unknown option\n") is None
    assert qemuver.parse_version("") is None
    assert qemuver.parse_version("QEMU emulator version x.y (odd build)\n") is None


def test_parse_release_candidate_and_order():
    rc = qemuver.parse_version("QEMU emulator version 10.1.0-rc2\n")
    assert rc.text == "10.1.0" and rc.version.is_prerelease
    assert rc.version < qemuver.parse_version("QEMU emulator version 10.1.0\n").version
    assert qemuver.parse_version(DEBIAN_7).version < qemuver.parse_version(DEBIAN_10).version


def test_release_candidate_of_the_minimum_is_refused():
    """9.2.90 (QEMU's numbering of 10.0's candidates) is below 10."""
    _, problem = qemuver.check_version(
        "qemu-x", query=lambda p: (qemuver.parse_version("QEMU emulator version 9.2.90\n"), ""))
    assert problem is not None and "QEMU 9.2.90" in problem


def test_old_qemu_message_says_what_why_and_how():
    found, problem = qemuver.check_version("qemu-x", query=lambda p: (qemuver.parse_version(DEBIAN_7), DEBIAN_7))
    assert found.text == "7.2.15"
    assert "qemu-x is QEMU 7.2.15" in problem
    assert "needs QEMU 10" in problem and "icount" in problem and "plugin" in problem
    assert "make deps" in problem and "backports" in problem


def test_unreadable_version_is_refused():
    _, problem = qemuver.check_version("qemu-x", query=lambda p: (None, "Segmentation fault\n"))
    assert "printed no version" in problem and "Segmentation fault" in problem


def test_new_qemu_passes_and_is_asked_once():
    calls = []

    def query(program):
        calls.append(program)
        return qemuver.parse_version(DEBIAN_10), DEBIAN_10

    for _ in range(3):
        found, problem = qemuver.check_version("qemu-x", query=query)
    assert problem is None and found.major == 10 and calls == ["qemu-x"]


def fake_qemu_on_path(tmp_path: Path, version_text: str) -> str:
    """A qemu-system-x86_64 on PATH that only answers --version."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "qemu-system-x86_64"
    script.write_text("#!/bin/sh\ncat <<'END'\n" + version_text + "END\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"


def test_boot_refuses_old_real_qemu(fake_env, tmp_path):
    del fake_env["HAKO_QEMU"]
    fake_env["PATH"] = fake_qemu_on_path(tmp_path, DEBIAN_7)
    err = io.StringIO()
    outcome = runner.run_boot(Profile(), "old", 5, quiet=True, env=fake_env, err=err)
    assert outcome.exit_code == runner.EXIT_USAGE
    assert "QEMU 7.2.15" in outcome.reason and "make deps" in outcome.reason


def test_banner_names_the_real_qemu(fake_env, tmp_path):
    del fake_env["HAKO_QEMU"]
    fake_env["PATH"] = fake_qemu_on_path(tmp_path, DEBIAN_10)
    line = runner.qemu_banner(Profile(smp=2), fake_env)
    assert line == "hako: QEMU 10.0.2 (qemu-system-x86_64), pc, 2 CPUs, icount"


def test_fake_qemu_is_not_checked(fake_env):
    assert runner.qemu_banner(Profile(), fake_env) is None
    assert runner.check_environment(Profile(), fake_env) is None
