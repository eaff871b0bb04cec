"""Tests for hakotool.qemu: profiles, append strings and QEMU argv."""
import pytest

from hakotool import qemu
from hakotool.qemu import Profile, append_string, build_argv, escape_fw_cfg

NO_ENV: dict = {}

COMMON = ["-display", "none", "-no-reboot", "-serial", "stdio", "-monitor", "none",
          "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
          "-device", "edu", "-device", "edu", "-nic", "none"]


def option(argv, flag):
    """Value following `flag` in argv."""
    return argv[argv.index(flag) + 1]


def test_default_icount_argv_is_exact():
    argv = build_argv(Profile(words=("ktest",)), NO_ENV)
    assert argv == ["qemu-system-x86_64", "-machine", "pc", "-smp", "4", "-m", "128M",
                    *COMMON, "-cpu", "max", "-accel", "tcg",
                    "-icount", "shift=0,sleep=off",
                    "-kernel", "build/hako.elf", "-append", "-- ktest",
                    "-initrd", "build/initrd.img"]


@pytest.mark.parametrize("mode, accel", [
    ("icount", ["-cpu", "max", "-accel", "tcg", "-icount", "shift=0,sleep=off"]),
    ("tcg", ["-cpu", "max", "-accel", "tcg,thread=multi"]),
    ("kvm", ["-accel", "kvm", "-cpu", "host"]),
])
@pytest.mark.parametrize("machine", ["pc", "q35"])
def test_modes_and_machines(mode, accel, machine):
    argv = build_argv(Profile(machine=machine, smp=8, mem="256M", mode=mode), NO_ENV)
    assert option(argv, "-machine") == machine
    assert option(argv, "-smp") == "8"
    assert option(argv, "-m") == "256M"
    start = argv.index(accel[0])
    assert argv[start:start + len(accel)] == accel
    assert argv.count("-cpu") == 1
    if mode != "icount":
        assert "-icount" not in argv


def test_iso_uses_cdrom_and_fw_cfg_with_escaped_commas():
    profile = Profile(iso=True, cmdline="log=a,b x=1", words=("ktest", "x,y"))
    argv = build_argv(profile, NO_ENV)
    assert option(argv, "-cdrom") == "build/hako.iso"
    assert "-kernel" not in argv and "-append" not in argv
    assert option(argv, "-fw_cfg") == "name=opt/hako/cmdline,string=log=a,,b x=1 -- ktest x,,y"


def test_escape_fw_cfg():
    assert escape_fw_cfg("a,b,,c") == "a,,b,,,,c"
    assert escape_fw_cfg("plain") == "plain"


@pytest.mark.parametrize("cmdline, words, expected", [
    ("", (), ""),
    ("a=1 b=2", (), "a=1 b=2"),
    ("a=1", ("ktest",), "a=1 -- ktest"),
    ("", ("kbench", "fast"), "-- kbench fast"),
])
def test_append_string(cmdline, words, expected):
    assert append_string(cmdline, words) == expected


def test_gdb_interactive_and_extra_args():
    env = {"HAKO_QEMU_EXTRA": "-netdev user,id=n0 -device 'e1000,netdev=n0'"}
    profile = Profile(gdb=True, interactive=True, extra=("-d", "int"))
    argv = build_argv(profile, env)
    assert option(argv, "-serial") == "mon:stdio"
    assert argv[argv.index("-gdb"):argv.index("-gdb") + 3] == ["-gdb", "tcp:127.0.0.1:1234", "-S"]
    assert argv[-6:] == ["-d", "int", "-netdev", "user,id=n0", "-device", "e1000,netdev=n0"]


def test_hako_qemu_override_is_shell_split():
    argv = build_argv(Profile(), {"HAKO_QEMU": "python3 '/tmp/a b/fake.py'"})
    assert argv[:2] == ["python3", "/tmp/a b/fake.py"]


def test_debug_kernel_boots_its_own_image_with_the_same_initrd():
    profile = Profile(debug_kernel=True, cmdline="x=1", words=("ktest",))
    argv = build_argv(profile, NO_ENV)
    assert option(argv, "-kernel") == "build/debug/hako.elf"
    assert option(argv, "-initrd") == "build/initrd.img"
    normal = build_argv(Profile(cmdline="x=1", words=("ktest",)), NO_ENV)
    assert [w if w != "build/debug/hako.elf" else "build/hako.elf" for w in argv] == normal


def test_image_and_make_target_follow_the_kernel():
    assert (qemu.image_path(Profile()), qemu.make_target(Profile())) == ("build/hako.elf", "kernel")
    debug = Profile(debug_kernel=True)
    assert (qemu.image_path(debug), qemu.make_target(debug)) == (
        "build/debug/hako.elf", "kernel-debug")
    iso = Profile(iso=True)
    assert (qemu.image_path(iso), qemu.make_target(iso)) == ("build/hako.iso", "iso")


@pytest.mark.parametrize("bad", [Profile(machine="isapc"), Profile(mode="hvf"), Profile(smp=0),
                                 Profile(iso=True, debug_kernel=True)])
def test_invalid_profiles_rejected(bad):
    with pytest.raises(ValueError):
        build_argv(bad, NO_ENV)


def test_default_name():
    assert Profile(machine="q35", smp=8, mode="tcg").default_name() == "boot-q35-smp8-tcg"
    assert Profile(net="hub", debug_kernel=True).default_name() == \
        "boot-pc-smp4-icount-net-hub-debug-kernel"


def test_kvm_usable_reports_unopenable_device(tmp_path):
    usable, why = qemu.kvm_usable(str(tmp_path / "no-kvm"))
    assert not usable and "read-write" in why


def test_kvm_usable_wants_hardware_virtualisation(tmp_path):
    device = tmp_path / "kvm"
    device.write_text("")
    cpuinfo = tmp_path / "cpuinfo"
    # A kvm-pvm host: /dev/kvm opens, the CPU shows no vmx.
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu pge nx pcid smep smap\n")
    usable, why = qemu.kvm_usable(str(device), str(cpuinfo))
    assert not usable and "no vmx or svm" in why and "kvm-pvm" in why
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu vmx nx\n")
    assert qemu.kvm_usable(str(device), str(cpuinfo)) == (True, "")
    # No cpuinfo to read: only the device is checked.
    assert qemu.kvm_usable(str(device), str(tmp_path / "none")) == (True, "")


HUB_ARGS = ["-netdev", "hubport,id=hako-n0,hubid=0",
            "-device", "rtl8139,netdev=hako-n0,mac=52:54:00:48:4b:01,romfile=",
            "-netdev", "hubport,id=hako-n1,hubid=0",
            "-device", "e1000,netdev=hako-n1,mac=52:54:00:48:4b:02,romfile="]


def test_net_hub_adds_two_cards_on_one_hub_and_no_host_network():
    argv = build_argv(Profile(net="hub", words=("ktest",)), NO_ENV)
    start = argv.index("-netdev")
    assert argv[start:start + len(HUB_ARGS)] == HUB_ARGS
    assert argv.count("-netdev") == 2 and argv.count("-nic") == 1
    assert option(argv, "-nic") == "none"
    netdevs = [argv[i + 1] for i, word in enumerate(argv) if word == "-netdev"]
    assert all(value.startswith("hubport,") and "hubid=0" in value for value in netdevs)


def test_net_none_is_the_default_and_adds_nothing():
    assert Profile().net == "none"
    argv = build_argv(Profile(), NO_ENV)
    assert "-netdev" not in argv
    assert build_argv(Profile(net="none"), NO_ENV) == argv


def test_net_name_and_validation():
    assert Profile(net="hub").default_name() == "boot-pc-smp4-icount-net-hub"
    with pytest.raises(ValueError):
        build_argv(Profile(net="user"), NO_ENV)
