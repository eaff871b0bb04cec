#!/usr/bin/env python3
"""itrace.py — where the guest instructions of one code path go.

    tools/itrace.py --program build/user/sysbench.elf --start sys_sem_post \\
                    --skip 200 --count 3000 [--smp 1] [--cmdline K=V] -- sysbench

Boots the guest halted under QEMU's gdb stub (icount mode), lets it run
to the (skip+1)-th execution of the user or kernel symbol --start, then
single-steps --count instructions on that CPU and prints how many of them
fell in each function (kernel and the given program), in order of first
appearance, with the total.  The guest's instructions are counted, not
time: this is the instruction profile behind an icount figure.

Single-stepping masks interrupts (QEMU's default), so timer ticks do not
enter the trace; a path that waits for an interrupt will not finish.
"""
from __future__ import annotations

import argparse
import bisect
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from hakotool import ksyms  # noqa: E402
from hakotool.gdbcheck import free_port  # noqa: E402
from hakotool.qemu import KERNEL_IMAGE, Profile, build_argv  # noqa: E402

GDB_SCRIPT = """
import gdb
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote 127.0.0.1:{port}")
gdb.execute("add-symbol-file {program}")
gdb.execute("hbreak {start}")
for _ in range({skip} + 1):
    gdb.execute("continue", to_string=True)
gdb.execute("delete")
starts = set({starts})
mask = 0xffffffffffffffff
with open("{out}", "w") as out:
    for _ in range({count}):
        pc = int(gdb.parse_and_eval("$pc")) & mask
        caller = 0
        if pc in starts:     # a function's first instruction: who called it
            caller = int(gdb.parse_and_eval("*(unsigned long *)$sp")) & mask
        out.write("%x %x\\n" % (pc, caller))
        gdb.execute("stepi", to_string=True)
gdb.execute("kill")
"""


def symbols(elf: str) -> list[tuple[int, str]]:
    """(address, name) of every function symbol, sorted."""
    text = subprocess.run(["nm", "-n", elf], capture_output=True, text=True, check=True).stdout
    return ksyms.parse_symbols(text)


def name_of(table: list[tuple[int, str]], pc: int) -> str:
    i = bisect.bisect_right(table, (pc, "\uffff")) - 1
    return table[i][1] if i >= 0 else f"?{pc:x}"


def summarize(trace: list[tuple[int, int]], table: list[tuple[int, str]]) -> list[tuple[str, int, int, str]]:
    """(function, instructions, entries, its most frequent caller) in order of appearance."""
    counts: dict[str, list] = {}
    for pc, caller in trace:
        row = counts.setdefault(name_of(table, pc), [0, 0, {}])
        row[0] += 1
        if caller:
            row[1] += 1
            who = name_of(table, caller)
            row[2][who] = row[2].get(who, 0) + 1
    return [(name, n, calls, max(callers, key=callers.get) if callers else "")
            for name, (n, calls, callers) in counts.items()]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", required=True, help="user ELF whose symbols to add")
    parser.add_argument("--start", required=True, help="symbol where tracing starts")
    parser.add_argument("--skip", type=int, default=0, help="executions of --start to let pass")
    parser.add_argument("--count", type=int, default=2000, help="instructions to trace")
    parser.add_argument("--smp", type=int, default=1)
    parser.add_argument("--cmdline", default="")
    parser.add_argument("--net", default="none", help="network cards: none or hub")
    parser.add_argument("--pcs", help="also write the traced addresses, one a line, to this file")
    parser.add_argument("words", nargs="*", help="guest command after --")
    args = parser.parse_args(argv)
    table = sorted(symbols(str(ROOT / KERNEL_IMAGE)) + symbols(args.program))
    port = free_port()
    profile = Profile(smp=args.smp, cmdline=args.cmdline, words=tuple(args.words), net=args.net,
                      gdb=True, gdb_port=port)
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "pcs")
        script = os.path.join(tmp, "trace.py")
        Path(script).write_text(GDB_SCRIPT.format(port=port, program=args.program, start=args.start,
                                                  skip=args.skip, count=args.count, out=trace,
                                                  starts=[addr for addr, _ in table]))
        qemu = subprocess.Popen(build_argv(profile, dict(os.environ)), cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            subprocess.run(["gdb", "-q", "-nx", "-batch", "-x", str(ROOT / "tools/gdbinit"),
                            "-x", script, KERNEL_IMAGE], cwd=ROOT, capture_output=True,
                           timeout=600, check=False)
        finally:
            qemu.kill()
            qemu.wait()
        text = Path(trace).read_text() if Path(trace).exists() else ""
    steps = [tuple(int(x, 16) for x in line.split()) for line in text.splitlines()]
    if not steps:
        print("itrace: no trace (did the guest reach --start?)", file=sys.stderr)
        return 1
    if args.pcs:
        Path(args.pcs).write_text("".join(f"{pc:x}\n" for pc, _ in steps))
    print("instrs  calls  function                  called mostly from")
    for name, n, calls, caller in summarize(steps, table):
        print(f"{n:6d}  {calls:5d}  {name:<25} {caller}")
    print(f"{len(steps):6d}         total")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
