#!/usr/bin/env python3
"""The first turn at which two boots' vCPUs ran differently.

    tools/turns.py A.turns B.turns [--base HEX] [--context N]

Reads two logs of the cost-model plugin's argument turns=PATH: a line
"VCPU PC INSNS" each time a translated block starts on another vCPU than
the block before it, with PC the block's address (hex) and INSNS the
instructions that vCPU had run.  The firmware runs below the kernel half
and its length varies from boot to boot, so per vCPU the lines before its
first one at or above BASE (default ffff800000000000) are left out and its
counts are taken from that line on.  Then the two logs are walked together
and the first turn whose (vCPU, address, count) differs is printed, with
CONTEXT turns before it (default 8) and a few after it from each log.
Exit 0 when they are identical, 1 when they differ, 2 on a bad argument
or a log that cannot be read.
"""
import argparse
import sys

KERNEL_BASE = 0xFFFF800000000000
AFTER = 4                   # turns shown from each log after the first difference


def load(path):
    """[(line number, vcpu, pc, insns)] of a turns log."""
    turns = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) != 3:
                raise ValueError(f"{path}:{n}: not 'VCPU PC INSNS': {line.strip()!r}")
            turns.append((n, int(parts[0]), int(parts[1], 16), int(parts[2])))
    return turns


def from_kernel(turns, base):
    """The turns from each vCPU's first one at or above base on, its counts from there."""
    start = {}
    out = []
    for n, vcpu, pc, insns in turns:
        if vcpu not in start:
            if pc < base:
                continue
            start[vcpu] = insns
        out.append((n, vcpu, pc, insns - start[vcpu]))
    return out


def first_difference(a, b):
    """The index of the first turn that differs in (vcpu, pc, insns), or None."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x[1:] != y[1:]:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def show(label, i, turn):
    n, vcpu, pc, insns = turn
    return f"  {label:<4} {i:>9}  cpu{vcpu:<3} {pc:>16x} {insns:>14}   (line {n})"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--base", type=lambda s: int(s, 16), default=KERNEL_BASE,
                    help="per vCPU, turns before its first at or above this address are left out")
    ap.add_argument("--context", type=int, default=8)
    args = ap.parse_args(argv)
    try:
        a = from_kernel(load(args.a), args.base)
        b = from_kernel(load(args.b), args.base)
    except (OSError, ValueError) as e:
        print(f"turns.py: {e}", file=sys.stderr)
        return 2
    i = first_difference(a, b)
    if i is None:
        print(f"identical: {len(a)} turns")
        return 0
    print(f"A {args.a}: {len(a)} turns; B {args.b}: {len(b)} turns")
    print(f"first difference at turn {i}:")
    print(f"  {'':<4} {'turn':>9}  {'vcpu':<6} {'pc':>16} {'insns':>14}")
    for j in range(max(0, i - args.context), i):
        print(show("both", j, a[j]))
    for label, turns in (("A", a), ("B", b)):
        for j in range(i, min(i + AFTER, len(turns))):
            print(show(label, j, turns[j]))
        if i >= len(turns):
            print(f"  {label:<4} {'(end)':>9}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
