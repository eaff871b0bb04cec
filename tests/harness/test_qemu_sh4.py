"""Tests for hakotool.qemu's SH-4 boots (QEMU's r2d board): the argv, the
command-line file the generic loader puts into the guest, what the profile
refuses, and the status read from the kernel's power-off line."""
import pytest

from hakotool import qemu
from hakotool.qemu import Profile, build_argv, sh4_file, sh4_power_status, write_boot_files

NO_ENV: dict = {}


def sh4(**fields):
    return Profile(arch="sh4", smp=1, **fields)


def test_sh4_icount_argv_is_exact():
    profile = sh4(words=("ktest",))
    rel, _ = sh4_file("opt/hako/cmdline", "-- ktest")
    assert build_argv(profile, NO_ENV) == [
        "qemu-system-sh4", "-machine", "r2d", "-display", "none", "-no-reboot",
        "-serial", "null", "-serial", "stdio", "-monitor", "none",
        "-icount", "shift=0,sleep=off",
        "-kernel", "build/sh4/hako.bin", "-initrd", "build/sh4/initrd.img",
        "-device", f"loader,file={rel},addr=0xc7f0000,force-raw=on"]


def test_sh4_tcg_has_no_icount_and_the_shell_muxes_the_monitor():
    argv = build_argv(sh4(mode="tcg", interactive=True), NO_ENV)
    assert "-icount" not in argv
    assert argv[argv.index("-serial", argv.index("-serial") + 1) + 1] == "mon:stdio"


def test_the_command_line_file_has_the_kernels_header():
    text = "tick=1ms -- ktest " + "x" * 400           # longer than r2d's 256-byte -append
    rel, data = sh4_file("opt/hako/cmdline", text)
    assert rel.startswith("build/sh4/files/") and rel.endswith(".bin")
    assert data[:8] == b"HAKOFILE"
    assert data[8:64].rstrip(b"\0") == b"opt/hako/cmdline"
    assert int.from_bytes(data[64:68], "little") == len(text)
    assert data[68:].decode() == text
    assert sh4_file("opt/hako/cmdline", text + "y")[0] != rel   # named by content


def test_write_boot_files_writes_the_named_file(tmp_path):
    profile = sh4(words=("ktest", "pack_batch_after_t"))
    write_boot_files(profile, tmp_path)
    rel, data = sh4_file("opt/hako/cmdline", profile.append())
    assert (tmp_path / rel).read_bytes() == data
    write_boot_files(Profile(), tmp_path / "x86")      # x86 boots need no file
    assert not (tmp_path / "x86").exists()


@pytest.mark.parametrize("fields, word", [
    ({"smp": 4}, "--smp 4"), ({"mode": "kvm"}, "--mode kvm"), ({"net": "hub"}, "--net"),
    ({"disk": "ahci"}, "--disk"), ({"iso": True}, "--iso"), ({"debug_kernel": True}, "--debug-kernel"),
])
def test_sh4_refuses_what_r2d_lacks(fields, word):
    with pytest.raises(ValueError, match=word):
        build_argv(Profile(**{"arch": "sh4", "smp": 1, **fields}), NO_ENV)


def test_sh4_takes_the_cost_model_plugin():
    profile = sh4(words=("hello",), model="sh7751r", model_out="results/x.model.jsonl")
    argv = build_argv(profile, NO_ENV)
    assert argv[argv.index("-plugin") + 1] == (
        "build/costmodel/libcostmodel.so,profile=tools/costmodel/profiles/sh7751r.profile,"
        "out=results/x.model.jsonl")
    assert argv.index("-plugin") > argv.index("-icount")
    with pytest.raises(ValueError, match="--model needs a file"):
        build_argv(sh4(model="sh7751r"), NO_ENV)


def test_unknown_arch_is_refused():
    with pytest.raises(ValueError, match="unknown arch"):
        build_argv(Profile(arch="mips"), NO_ENV)


def test_sh4_names_image_make_and_default_run():
    profile = sh4()
    assert qemu.image_path(profile) == "build/sh4/hako.bin"
    assert qemu.make_variables(profile) == ("ARCH=sh4",)
    assert qemu.make_variables(Profile()) == ()
    assert profile.default_name() == "boot-r2d-smp1-icount"


def test_power_status_is_the_last_power_line_as_isa_debug_exit():
    assert sh4_power_status(["ktest: 3 passed", "hako: power off, status 0"]) == 1
    assert sh4_power_status(["hako: power off, status 1"]) == 3
    assert sh4_power_status(["hako: power off, status 0", "hako: power off, status 2"]) == 5
    assert sh4_power_status(["no such line"]) is None
