"""A run's metadata: the record heading each result file (results.py), naming what
made its figures (commit, QEMU, the firmware QEMU loaded, the booted images, the
compiler, the command), so a figure that moves between machines or runs can be
traced to what differed."""
from __future__ import annotations

import datetime
import functools
import hashlib
import subprocess
import sys
from pathlib import Path

from . import history
from . import qemuver
from .qemu import INITRD_IMAGE, SH4_INITRD, Profile, image_path, qemu_command

# The firmware QEMU puts into a pc guest: SeaBIOS, the VGA BIOS, the option
# ROMs that load a multiboot or Linux kernel, and the NICs' boot ROMs.  Another
# version moves what the BIOS reserves, and with it every frame the kernel
# hands out after it, which the cost model's cache figures see
# (docs/design/measure.md); they come from Debian packages apart from QEMU's.
FIRMWARE = ("bios-256k.bin", "vgabios-stdvga.bin", "multiboot_dma.bin", "linuxboot_dma.bin",
            "kvmvapic.bin", "efi-e1000.rom", "efi-rtl8139.rom")


def real_qemu(env: dict) -> bool:
    """True unless HAKO_QEMU replaces QEMU (the tests' fake is not checked)."""
    return not env.get("HAKO_QEMU", "").strip()


def unit_of(mode: str) -> str:
    """What a guest TSC difference counts in each mode."""
    return {"icount": "instructions (icount)", "tcg": "TSC ticks (TCG host time)",
            "kvm": "TSC cycles (KVM)"}.get(mode, "TSC ticks")


def file_digest(path: Path) -> str | None:
    """The first 16 hex digits of a file's SHA-256, or None if it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return None


@functools.lru_cache(maxsize=None)
def _version_line(cc: str) -> str:
    try:
        proc = subprocess.run([cc, "--version"], capture_output=True,
                              text=True, errors="replace", timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (proc.stdout.splitlines() or ["unknown"])[0].strip()


# The compiler of each arch's build (kernel/arch/ARCH/arch.mk's ARCH_CROSS).
ARCH_CC = {"x86_64": "gcc", "sh4": "sh4-linux-gnu-gcc"}


def compiler_version(env: dict, arch: str = "x86_64") -> str:
    """The first line of `CC --version` (what built the guest), or "unknown"; asked once
    per compiler for the life of the process (a test-all run boots dozens of times)."""
    return _version_line(env.get("CC", ARCH_CC.get(arch, "gcc")))


@functools.lru_cache(maxsize=None)
def firmware_digests(qemu: str) -> dict[str, str]:
    """{file: digest} of FIRMWARE as QEMU finds them (`qemu -L help` lists its
    search folders, first match wins); files it lacks are left out.  Asked once
    per QEMU binary for the life of the process."""
    try:
        proc = subprocess.run([qemu, "-L", "help"], capture_output=True, text=True,
                              errors="replace", timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    folders = [Path(line.strip()) for line in proc.stdout.splitlines() if line.strip()]
    found: dict[str, str] = {}
    for name in FIRMWARE:
        digest = next((d for d in (file_digest(f / name) for f in folders if (f / name).is_file())
                       if d), None)
        if digest:
            found[name] = digest
    return found


def build_meta(profile: Profile, root: Path, env: dict) -> dict:
    """What was booted: the images' digests, the compiler and the firmware, so a
    figure that moves between machines can be traced to what differed."""
    initrd = SH4_INITRD if profile.arch == "sh4" else INITRD_IMAGE
    meta = {"image": file_digest(root / image_path(profile)),
            "initrd": None if profile.iso else file_digest(root / initrd),
            "cc": compiler_version(env, profile.arch)}
    if real_qemu(env) and profile.arch == "x86_64":      # r2d loads no firmware
        meta["firmware"] = firmware_digests(qemu_command(env, profile.arch)[0])
    return meta


def run_meta(profile: Profile, root: Path, env: dict, argv: list[str]) -> dict:
    """The meta record heading a run's result file (results.py)."""
    commit, dirty = history.commit_state(root)
    if real_qemu(env):
        found, _ = qemuver.check_version(qemuver.resolve(qemu_command(env, profile.arch)[0], env))
        qemu = found.text if found else "unknown"
    else:
        qemu = "stand-in: " + env.get("HAKO_QEMU", "").strip()
    return {
        "commit": commit, "dirty": dirty,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "qemu": qemu, "mode": profile.mode, "tsc_unit": unit_of(profile.mode),
        "guest": "hako", "machine": "r2d" if profile.arch == "sh4" else profile.machine, "cpus": profile.smp, "mem": profile.mem,
        "profile": profile.model or None, "cmdline": profile.append(),
        "command": " ".join(["./hako"] + sys.argv[1:]) if sys.argv[1:] else "./hako",
        "qemu_argv": list(argv), "build": build_meta(profile, root, env),
    }
