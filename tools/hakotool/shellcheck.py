"""The `shell` step of `make test`: `./hako shell` is usable by a person.

Runs `./hako shell` on a pseudo-terminal as a user would, waits for the
prompt of the user-space shell (user/sh, pid 1), types a few commands one
key at a time and checks the answers (builtins, a program run with
arguments and its exit status, an unknown name, a program started with
fewer privileges), then powers the guest
off from the prompt.  Every key reaches
the kernel through the UART's receive interrupt, so this also shows the
console input path working end to end.  On SH-4 (`./hako shell --arch sh4`,
QEMU's r2d board, one CPU) the keys arrive through the SCIF's receive
interrupt; the answers that name CPUs or devices are that board's.
"""
from __future__ import annotations

import os
import pty
import select
import time
from pathlib import Path

PROMPT = "hako$ "
SHELL_TIMEOUT = 60.0
# (what to type, what the answer must contain)
COMMON_SCRIPT = (
    ("help", "any other word runs the program"),
    ("ls", "selftest"),
    ("hello 3 x", "(status 3)"),
    ("nosuchprogram", "sh: nosuchprogram: not found"),
    ("priv measure selftest --role priv_report", "(status 8)"),   # HAKO_PRIV_MEASURE alone
    ("mem", "frames: "),
    ("ps", " running   "),                  # the shell itself, running on its CPU
    ("devctl -h", "usage: devctl"),
    ("intrctl 0 packed", "intrctl: 0: no such device (devices:)"),
)
# Each arch's session: the common lines, then what its board has (pc with
# 2 CPUs and the edu test device; r2d with one CPU and no PCI bus).
SCRIPTS = {
    "x86_64": COMMON_SCRIPT + (
        ("devctl testdev0 policy fixed 99", "devctl: policy fixed 99: give a CPU from 0 to 1"),
        ("devctl nosuch", "devctl: nosuch: no such block device (devices: ramdisk0 testdev0)"),
    ),
    "sh4": COMMON_SCRIPT + (
        ("devctl nosuch", "devctl: nosuch: no such block device (devices: ramdisk0)"),
        ("mem", "cpus 1, "),
    ),
}


class Terminal:
    """A child process on a pty, with everything it printed so far."""

    def __init__(self, argv: list[str], root: Path, env: dict):
        self.text = ""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.chdir(root)
            os.execvpe(argv[0], argv, env)

    def read_until(self, needle: str, start: int, deadline: float) -> bool:
        """True once `needle` appears after offset `start`."""
        while needle not in self.text[start:]:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    return needle in self.text[start:]
                if not chunk:
                    return False
                self.text += chunk.decode("utf-8", errors="replace")
        return True

    def type_line(self, line: str) -> None:
        for ch in line + "\r":
            os.write(self.fd, ch.encode())
            time.sleep(0.01)

    def wait_exit(self, deadline: float) -> bool:
        while time.monotonic() < deadline:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return True
            self.read_until("\0", len(self.text), min(deadline, time.monotonic() + 0.2))
        return False

    def kill(self) -> None:
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


def shell_argv(arch: str) -> list[str]:
    """The `./hako shell` a person types for this arch (x86: on 2 CPUs)."""
    if arch == "x86_64":
        return ["./hako", "shell", "--smp", "2"]
    return ["./hako", "shell", "--arch", arch]


def check_shell(root: Path, env: dict, arch: str = "x86_64") -> tuple[bool, str]:
    """(ok, reason) for one interactive session with the user shell."""
    env = dict(env, HAKO_NO_BUILD="1")
    term = Terminal(shell_argv(arch), root, env)
    deadline = time.monotonic() + SHELL_TIMEOUT
    try:
        if not term.read_until(PROMPT, 0, deadline):
            return False, "no shell prompt"
        for line, answer in SCRIPTS[arch]:
            start = len(term.text)
            term.type_line(line)
            if not term.read_until(answer, start, deadline):
                return False, f"typed {line!r}, no {answer!r} in the reply"
            if not term.read_until(PROMPT, start, deadline):
                return False, f"no prompt after {line!r}"
        term.type_line("poweroff")
        if not term.wait_exit(deadline):
            return False, "poweroff did not stop the guest"
        return True, ""
    finally:
        term.kill()
