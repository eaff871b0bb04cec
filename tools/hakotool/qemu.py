"""Boot profiles and QEMU command-line construction.

A `Profile` describes one guest boot (machine, CPUs, memory, execution
mode, network cards, kernel command line, guest command words, ISO or
direct kernel, normal or debug kernel, and the cost-model plugin with its
profile, model.py).
`build_argv(profile)` turns it into the exact qemu-system-x86_64 argv
(or, with arch "sh4", the qemu-system-sh4 argv of the r2d board);
`boot`, `shell`, `bench` and `test-all` all go through it.

Environment knobs:
  HAKO_QEMU        replaces the QEMU binary (shlex-split, so
                   "python3 fake.py" works; used by the tests)
  HAKO_QEMU_EXTRA  extra QEMU arguments appended to every boot
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import shlex
import shutil

from . import disks as guestdisks
from . import model as costmodel

DEFAULT_QEMU = "qemu-system-x86_64"
# The arches Hako builds for (`make ARCH=NAME kernel`), and each one's QEMU.
ARCHES = ("x86_64", "sh4")
ARCH_QEMU = {"x86_64": DEFAULT_QEMU, "sh4": "qemu-system-sh4"}
MACHINES = ("pc", "q35")
MODES = ("icount", "tcg", "kvm")
# Network set-ups: none, or two cards of the guest on one QEMU hub (no host
# networking: what one card sends the other receives, deterministically), or
# one card on a UDP socket of 127.0.0.1 that the harness's soak sender feeds
# (host timing: a non-deterministic soak, see soak.py).
NETS = ("none", "hub", "dgram")
KERNEL_IMAGE = "build/hako.elf"
# The debug kernel (`make kernel-debug`): the same sources with the lock-order
# check compiled in; it boots the same initrd.
DEBUG_KERNEL_IMAGE = "build/debug/hako.elf"
# The archive of user programs, handed to the kernel as its first boot module.
INITRD_IMAGE = "build/initrd.img"
ISO_IMAGE = "build/hako.iso"
# SH-4 (docs/design/sh4.md): QEMU's r2d board, one SH7751R with 64 MiB,
# booted from the flat image; the console is its second serial port (the
# SCIF).  r2d has no fw_cfg and its -append holds 256 bytes, so the
# command line goes in a file QEMU's generic loader puts into the guest's
# file window (SH4_FILE_ADDR, kernel/arch/sh4/bootparams.c): the header
# "HAKOFILE", the name in 56 bytes, the length (u32 little-endian), then
# the text.  QEMU exits with status 0 on the board's power-off, so the
# kernel's last line (SH4_POWER_LINE) carries the status.
SH4_IMAGE = "build/sh4/hako.bin"
SH4_ELF = "build/sh4/hako.elf"               # its symbols (the cost model's handler range)
SH4_INITRD = "build/sh4/initrd.img"         # r2d's -initrd, found through its boot parameters
SH4_FILE_ADDR = 0x0c7f0000
SH4_FILE_DIR = "build/sh4/files"
SH4_POWER_LINE = re.compile(r"hako: power off, status (\d+)")
FW_CFG_CMDLINE = "opt/hako/cmdline"
DEBUG_EXIT_DEVICE = "isa-debug-exit,iobase=0xf4,iosize=0x04"
# QEMU's edu PCI device: a known interrupt source for the kernel self-tests.
TEST_DEVICE = "edu"
# A second edu: the interrupt source behind paper 001's testdev, a block
# device that answers after a fixed delay (kernel/drivers/block/testdev/testdev.c).
TESTDEV_DEVICE = "edu"
KVM_DEVICE = "/dev/kvm"
# The hub's cards: (QEMU device, netdev id, MAC).  romfile= keeps their
# option ROMs (iPXE) out of the boot.
HUB_CARDS = (
    ("rtl8139", "hako-n0", "52:54:00:48:4b:01"),
    ("e1000", "hako-n1", "52:54:00:48:4b:02"),
)
# The dgram set-up's card: the hub's RTL8139.
DGRAM_CARD = HUB_CARDS[0]

ACCEL_ARGS = {
    "icount": ("-cpu", "max", "-accel", "tcg", "-icount", "shift=0,sleep=off"),
    "tcg": ("-cpu", "max", "-accel", "tcg,thread=multi"),
    "kvm": ("-accel", "kvm", "-cpu", "host"),
}


# What the kernel supports: MAX_CPUS in kernel/sched/cpu.h (a test checks
# the two agree), and the least memory it boots in (one CPU boots in 7 MiB).
MAX_CPUS = 16
MIN_MEM_MIB = 8
_MEM_UNITS = {"": 1, "M": 1, "G": 1024, "T": 1024 * 1024}


def mem_mib(text: str) -> int:
    """QEMU's -m size in MiB ("128", "128M", "1G"); ValueError if malformed or too small."""
    match = re.fullmatch(r"([0-9]{1,7})([MGT]?)", text.strip().upper())
    if not match:
        raise ValueError(f"{text!r} is not a size (use e.g. 128M or 1G)")
    mib = int(match.group(1)) * _MEM_UNITS[match.group(2)]
    if mib < MIN_MEM_MIB:
        raise ValueError(f"{text}: Hako needs at least {MIN_MEM_MIB}M")
    return mib


@dataclasses.dataclass(frozen=True)
class Profile:
    """Everything that determines one QEMU invocation."""

    arch: str = "x86_64"
    machine: str = "pc"
    smp: int = 4
    mem: str = "128M"
    mode: str = "icount"
    cmdline: str = ""
    words: tuple[str, ...] = ()
    iso: bool = False
    debug_kernel: bool = False     # boot DEBUG_KERNEL_IMAGE instead of KERNEL_IMAGE
    gdb: bool = False
    gdb_port: int = 1234
    interactive: bool = False
    net: str = "none"
    # dgram: (QEMU's local UDP port, the harness's port); the runner picks them.
    dgram_ports: tuple[int, int] = (0, 0)
    soak_rate: float = 10000.0     # dgram: frames per second the harness sends
    soak_frames: int = 20000       # dgram: frames in all
    extra: tuple[str, ...] = ()
    # --disk: which disks the guest gets, and their images (the runner writes them).
    disk: str = "none"
    disk_images: tuple[str, ...] = ()
    # The disks on QEMU's null-co driver, not the images (disks.py).
    disk_null: bool = False
    # --model: the cost-model profile's name and where the plugin writes
    # (relative to the root; the runner names it after the run).
    model: str = ""
    model_out: str = ""
    # --model: (ELF relative to the root, symbol) where the plugin starts an
    # epoch (tools/costmodel/epochs.h), resolved after the build into
    # model_args, the plugin's extra epoch=ADDR arguments.
    model_epochs: tuple[tuple[str, str], ...] = ()
    model_args: tuple[str, ...] = ()

    def validate(self) -> None:
        """Raise ValueError if the profile cannot be turned into argv."""
        if self.arch not in ARCHES:
            raise ValueError(f"unknown arch {self.arch!r} (use {'|'.join(ARCHES)})")
        if self.arch == "sh4":
            self.validate_sh4()
            return
        if self.machine not in MACHINES:
            raise ValueError(f"unknown machine {self.machine!r} (use {'|'.join(MACHINES)})")
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r} (use {'|'.join(MODES)})")
        if self.net not in NETS:
            raise ValueError(f"unknown net {self.net!r} (use {'|'.join(NETS)})")
        if self.disk not in guestdisks.DISKS:
            raise ValueError(f"unknown disk {self.disk!r} (use {'|'.join(guestdisks.DISKS)})")
        if not 1 <= self.smp <= MAX_CPUS:
            raise ValueError(f"--smp {self.smp}: Hako runs on 1 to {MAX_CPUS} CPUs")
        try:
            mem_mib(self.mem)
        except ValueError as exc:
            raise ValueError(f"--mem {exc}") from None
        if self.iso and self.debug_kernel:
            raise ValueError("--debug-kernel boots build/debug/hako.elf directly; "
                             "there is no ISO of it")
        if self.model and not self.model_out:
            raise ValueError("--model needs a file for the plugin's output")

    def validate_sh4(self) -> None:
        """What the r2d board and the SH-4 port offer: one CPU, icount or tcg, no
        devices; the cost model's plugin (--model) as on x86."""
        refused = [(self.smp != 1, f"--smp {self.smp} (r2d has one CPU: --smp 1)"),
                   (self.mode == "kvm", "--mode kvm"), (self.net != "none", "--net"),
                   (self.disk != "none", "--disk"), (self.iso, "--iso"),
                   (self.debug_kernel, "--debug-kernel")]
        for bad, what in refused:
            if bad:
                raise ValueError(f"--arch sh4 does not take {what}")
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r} (use {'|'.join(MODES)})")
        if self.model and not self.model_out:
            raise ValueError("--model needs a file for the plugin's output")

    def default_name(self) -> str:
        """The default run name: boot-<machine>-smp<N>-<mode>[-net-<net>][-debug-kernel]
        (machine r2d for arch sh4)."""
        machine = "r2d" if self.arch == "sh4" else self.machine
        name = f"boot-{machine}-smp{self.smp}-{self.mode}"
        if self.net != "none":
            name += f"-net-{self.net}"
        if self.disk != "none":
            name += f"-disk-{self.disk}"
        return name + "-debug-kernel" if self.debug_kernel else name

    def append(self) -> str:
        """The kernel command line handed to the guest."""
        return append_string(self.cmdline, self.words)


def append_string(cmdline: str, words) -> str:
    """cmdline, then " -- " and the guest words if there are any.

    Leading/trailing blanks are trimmed so an empty cmdline with words
    gives "-- ktest" rather than " -- ktest".
    """
    text = cmdline or ""
    if words:
        text = f"{text} -- {' '.join(words)}"
    return text.strip()


def escape_fw_cfg(value: str) -> str:
    """QEMU option values escape a literal comma by doubling it."""
    return value.replace(",", ",,")


def qemu_command(env: dict | None = None, arch: str = "x86_64") -> list[str]:
    """The QEMU program (plus any wrapper words) to run for arch."""
    env = os.environ if env is None else env
    override = env.get("HAKO_QEMU", "").strip()
    return shlex.split(override) if override else [ARCH_QEMU.get(arch, DEFAULT_QEMU)]


def env_extra(env: dict | None = None) -> list[str]:
    """Extra QEMU arguments from HAKO_QEMU_EXTRA."""
    env = os.environ if env is None else env
    return shlex.split(env.get("HAKO_QEMU_EXTRA", ""))


def qemu_available(command: list[str]) -> bool:
    """True if the QEMU program (first word) can be found and run."""
    return shutil.which(command[0]) is not None


def cpu_flags(cpuinfo: str = "/proc/cpuinfo") -> set[str]:
    """The first CPU's feature flags in CPUINFO (empty if it cannot be read)."""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def kvm_usable(device: str = KVM_DEVICE, cpuinfo: str = "/proc/cpuinfo") -> tuple[bool, str]:
    """Check that the KVM device can be opened read-write and that the host
    CPU has hardware virtualisation (vmx or svm).  A /dev/kvm without either
    is a paravirtual KVM (e.g. kvm-pvm, inside some cloud sandboxes), which
    runs only guest kernels built for it: Hako's first system call there
    arrives at LSTAR still in ring 3 and is killed by a page fault."""
    try:
        fd = os.open(device, os.O_RDWR | os.O_CLOEXEC)
    except OSError as exc:
        return False, f"cannot open {device} read-write: {exc.strerror}"
    os.close(fd)
    flags = cpu_flags(cpuinfo)
    if flags and not flags & {"vmx", "svm"}:
        return False, (f"{device} opens, but {cpuinfo} has no vmx or svm flag: this KVM is "
                       "not hardware virtualisation (a paravirtual one, such as kvm-pvm, runs "
                       "only guests built for it)")
    return True, ""


def machine_args(profile: Profile) -> list[str]:
    """Machine, CPU count, memory and the fixed headless devices."""
    serial = "mon:stdio" if profile.interactive else "stdio"
    return [
        "-machine", profile.machine,
        "-smp", str(profile.smp),
        "-m", profile.mem,
        "-display", "none",
        "-no-reboot",
        "-serial", serial,
        "-monitor", "none",
        "-device", DEBUG_EXIT_DEVICE,
        "-device", TEST_DEVICE,
        "-device", TESTDEV_DEVICE,
        "-nic", "none",                   # no default NIC; --net adds the experiment's
    ]


def dgram_args(ports: tuple[int, int]) -> list[str]:
    """One RTL8139 on a UDP socket: 127.0.0.1:local in, 127.0.0.1:remote out."""
    local, remote = ports
    if not (0 < local < 65536 and 0 < remote < 65536):
        raise ValueError(f"--net dgram needs two UDP ports, got {local} and {remote}")
    device, netdev, mac = DGRAM_CARD
    spec = (f"dgram,id={netdev},local.type=inet,local.host=127.0.0.1,local.port={local},"
            f"remote.type=inet,remote.host=127.0.0.1,remote.port={remote}")
    return ["-netdev", spec, "-device", f"{device},netdev={netdev},mac={mac},romfile="]


def net_args(profile: Profile) -> list[str]:
    """The network cards: none, the hub's two cards on hub 0, or the dgram card."""
    if profile.net == "dgram":
        return dgram_args(profile.dgram_ports)
    if profile.net != "hub":
        return []
    argv = []
    for device, netdev, mac in HUB_CARDS:
        argv += ["-netdev", f"hubport,id={netdev},hubid=0",
                 "-device", f"{device},netdev={netdev},mac={mac},romfile="]
    return argv


def image_args(profile: Profile) -> list[str]:
    """How the kernel and its command line reach the guest."""
    append = profile.append()
    if profile.iso:
        fw_cfg = f"name={FW_CFG_CMDLINE},string={escape_fw_cfg(append)}"
        return ["-cdrom", ISO_IMAGE, "-fw_cfg", fw_cfg]
    return ["-kernel", image_path(profile), "-append", append, "-initrd", INITRD_IMAGE]


def sh4_file(name: str, text: str) -> tuple[str, bytes]:
    """(path relative to the root, contents) of the file-window image holding text as name."""
    body = text.encode("utf-8")
    data = b"HAKOFILE" + name.encode("ascii").ljust(56, b"\0")[:56] + len(body).to_bytes(4, "little") + body
    digest = hashlib.sha256(data).hexdigest()[:16]
    return f"{SH4_FILE_DIR}/{digest}.bin", data


def write_boot_files(profile: Profile, root) -> None:
    """Write the files the profile's argv names (SH-4: the command-line file)."""
    if profile.arch != "sh4":
        return
    rel, data = sh4_file(FW_CFG_CMDLINE, profile.append())
    path = os.path.join(root, rel)
    if os.path.isfile(path):
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def sh4_argv(profile: Profile, env: dict | None = None) -> list[str]:
    """The r2d board: the SCIF console on stdio, the flat image, the command-line file."""
    console = "mon:stdio" if profile.interactive else "stdio"
    argv = qemu_command(env, "sh4") + ["-machine", "r2d", "-display", "none", "-no-reboot",
                                       "-serial", "null", "-serial", console, "-monitor", "none"]
    if profile.mode == "icount":
        argv += ["-icount", "shift=0,sleep=off"]
    rel, _ = sh4_file(FW_CFG_CMDLINE, profile.append())
    argv += ["-kernel", SH4_IMAGE, "-initrd", SH4_INITRD,
             "-device", f"loader,file={rel},addr={SH4_FILE_ADDR:#x},force-raw=on"]
    if profile.model:
        argv += costmodel.plugin_args(profile.model, profile.model_out, profile.model_args)
    if profile.gdb:
        argv += ["-gdb", f"tcp:127.0.0.1:{profile.gdb_port}", "-S"]
    return argv + list(profile.extra) + env_extra(env)


def sh4_power_status(lines) -> int | None:
    """The status the SH-4 kernel powered off with (its last power line among
    the console's lines), as QEMU's isa-debug-exit would report it on x86;
    None without the line."""
    for text in reversed(list(lines)):
        match = SH4_POWER_LINE.search(text)
        if match:
            return (int(match.group(1)) << 1) | 1
    return None


def build_argv(profile: Profile, env: dict | None = None) -> list[str]:
    """The complete QEMU argv for `profile` (paths relative to the repo root)."""
    profile.validate()
    if profile.arch == "sh4":
        return sh4_argv(profile, env)
    argv = qemu_command(env)
    argv += machine_args(profile)
    argv += net_args(profile)
    argv += guestdisks.disk_args(profile.disk, profile.disk_images, profile.disk_null)
    argv += ACCEL_ARGS[profile.mode]
    argv += image_args(profile)
    if profile.model:
        argv += costmodel.plugin_args(profile.model, profile.model_out, profile.model_args)
    if profile.gdb:
        argv += ["-gdb", f"tcp:127.0.0.1:{profile.gdb_port}", "-S"]
    argv += list(profile.extra)
    argv += env_extra(env)
    return argv


def image_path(profile: Profile) -> str:
    """The build artefact this profile boots from."""
    if profile.arch == "sh4":
        return SH4_IMAGE
    if profile.iso:
        return ISO_IMAGE
    return DEBUG_KERNEL_IMAGE if profile.debug_kernel else KERNEL_IMAGE


def make_variables(profile: Profile) -> tuple[str, ...]:
    """The make variables the profile's build takes (ARCH for a second arch)."""
    return () if profile.arch == "x86_64" else (f"ARCH={profile.arch}",)


def make_target(profile: Profile) -> str:
    """The Makefile target that produces the profile's image (and the initrd)."""
    if profile.iso:
        return "iso"
    return "kernel-debug" if profile.debug_kernel else "kernel"
