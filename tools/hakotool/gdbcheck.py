"""The `gdb` step of `make test`: the debugging path of `make gdb` works.

Boots the kernel halted with QEMU's gdb stub on a free local port, lets
gdb load build/hako.elf with tools/gdbinit, stop at a hardware
breakpoint on kmain and print a backtrace, then stops QEMU.  It passes
when gdb stopped in kmain with its source line, which shows the stub,
the symbols and the mode switch from the 32-bit multiboot entry to the
64-bit kernel all work together.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

from .qemu import KERNEL_IMAGE, Profile, build_argv

GDBINIT = "tools/gdbinit"
GDB_TIMEOUT = 60.0
BREAK_AT = "kmain"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gdb_argv(port: int) -> list[str]:
    """What `make gdb` runs, made non-interactive."""
    return ["gdb", "-q", "-nx", "-batch", "-x", GDBINIT,
            "-ex", f"target remote 127.0.0.1:{port}",
            "-ex", f"hbreak {BREAK_AT}", "-ex", "continue", "-ex", "bt",
            "-ex", "kill", KERNEL_IMAGE]


def stopped_in_kmain(text: str) -> str | None:
    """None if gdb's output shows the stop in kmain, else what is wrong."""
    if f"Breakpoint 1, {BREAK_AT} (" not in text:
        return f"gdb did not stop at {BREAK_AT}"
    if "kernel/boot/main.c:" not in text:
        return "no source line for kmain: symbols not loaded"
    return None


def check_gdb(root: Path, env: dict) -> tuple[bool, str]:
    """(ok, reason) for one halted boot driven by gdb."""
    if shutil.which("gdb") is None:
        return False, "gdb is not installed (make deps installs it)"
    port = free_port()
    profile = Profile(smp=1, words=("ktest", "clock_calibrated"), gdb=True, gdb_port=port)
    qemu = subprocess.Popen(build_argv(profile, env), cwd=root, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        proc = subprocess.run(gdb_argv(port), cwd=root, env=env, capture_output=True,
                              text=True, errors="replace", timeout=GDB_TIMEOUT)
        why = stopped_in_kmain(proc.stdout + proc.stderr)
    except subprocess.TimeoutExpired:
        why = f"gdb did not finish in {GDB_TIMEOUT:g} s"
    finally:
        qemu.kill()
        qemu.wait()
    return why is None, why or ""
