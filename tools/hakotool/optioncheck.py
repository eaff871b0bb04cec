"""The `options` step of `make test`: a wrong kernel option stops the boot.

Boots the kernel (2 CPUs, `-- hello`) once per wrong command line below
and checks what kernel/boot/options.c promises: the guest stops with a
failure (harness exit 1) before the program runs, and the console holds the
one line naming the option and what it allows.  Most are refused as soon
as the line is read (about a second each); `iop=3` on 2 CPUs and
`servers=nosuch` are refused later, where the CPUs online and the boot
archive are known.
"""
from __future__ import annotations

from .qemu import Profile
from .runner import EXIT_GUEST_FAILED

LONG_WORD = "x" * 1100           # past the kernel's 1,024-byte command-line buffer

# name -> (kernel options, guest words, the line the console must show)
EXPECTED = {
    "tick=0": ("tick=0", ("hello",),
               "hako: kernel option tick=0 refused (allowed: a duration from 100us to 1s, e.g. 10ms)"),
    "slice=-1": ("slice=-1", ("hello",),
                 "hako: kernel option slice=-1 refused (allowed: 1..9 ticks)"),
    "drvproc=nosuch": ("drvproc=nosuch", ("hello",),
                       "hako: kernel option drvproc=nosuch refused (allowed: all (the network "
                       "drivers), none, or drivers joined by commas: rtl8139,e1000,ramdisk,ahci)"),
    "serialise=maybe": ("serialise=maybe", ("hello",),
                        "hako: kernel option serialise=maybe refused (allowed: on or off)"),
    "iop=99": ("iop=99", ("hello",),
               "hako: kernel option iop=99 refused (allowed: a CPU 1..15 other than the boot CPU)"),
    "iop=3-on-2-cpus": ("iop=3", ("hello",),
                        "hako: kernel option iop=3 refused (allowed: a CPU 1..1)"),
    "servers=nosuch": ("servers=nameserver,nosuch", ("hello",),
                       "hako: kernel option servers=nameserver,nosuch refused (nosuch is no program "
                       "of the boot archive)"),
    "unknown-key": ("frobnicate=1", ("hello",),
                    "hako: kernel option frobnicate=1 refused (no such option; the options: tick "
                    "slice irqtrace lockcheck serialise console ispc iop drvproc servers fastpath drvswitch drvmode isoch semdirect)"),
    "line-cut": ("tick=10ms", ("hello", LONG_WORD),
                 "hako: kernel command line refused (longer than 1023 bytes)"),
}

RAN = "hako: hello (pid"             # the program's end: it must never start


def judge_option(name: str, exit_code: int, console: str) -> str | None:
    """None if the boot was refused as it should be, else what is wrong."""
    line = EXPECTED[name][2]
    if exit_code != EXIT_GUEST_FAILED:
        return f"harness exit {exit_code}, expected {EXIT_GUEST_FAILED} (guest reported failure)"
    lines = [text.strip() for text in console.splitlines()]
    if lines.count(line) != 1:
        return f"console lacks {line!r}" if line not in lines else f"{line!r} printed twice"
    if any(text.startswith(RAN) for text in lines):
        return "the program ran: the boot went on past the refusal"
    return None


def option_profile(name: str) -> Profile:
    cmdline, words, _ = EXPECTED[name]
    return Profile(smp=2, cmdline=cmdline, words=words)
