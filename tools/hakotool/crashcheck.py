"""The `crash` step of `make test`: a kernel fault is reported and stops the machine.

Boots the kernel with `crash null` (a read of address 8 in kernel mode),
`crash panic` and `crash stack` (unbounded recursion) and checks what a person debugging it would rely on: the
harness says "kernel panic" (exit 3), and the console shows the fault, the
faulting address, the registers and a backtrace with symbol names.
"""
from __future__ import annotations

from .qemu import Profile
from .runner import EXIT_PANIC

# kind -> what the console must show
EXPECTED = {
    "null": ("KERNEL FAULT: #PF page fault", "cr2 0000000000000008",
             "<cmd_crash+", "backtrace:", "run_command+"),
    "panic": ("PANIC on cpu 0: crash command", "backtrace:", "cmd_crash+",
              "run_command+"),
    # Runs off the bottom of its stack into the guard page: the #PF cannot
    # push its frame there, so the CPU raises #DF, handled on its own stack.
    "stack": ("KERNEL FAULT: #DF double fault", "kernel stack overflow",
              "<recurse+", "backtrace:"),
}


def judge_crash(kind: str, exit_code: int, console: str) -> str | None:
    """None if the boot crashed as it should, else what is wrong."""
    if exit_code != EXIT_PANIC:
        return f"harness exit {exit_code}, expected {EXIT_PANIC} (kernel panic)"
    for needle in EXPECTED[kind]:
        if needle not in console:
            return f"console lacks {needle!r}"
    return None


def crash_profile(kind: str) -> Profile:
    return Profile(smp=2, words=("crash", kind))
