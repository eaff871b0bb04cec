#!/usr/bin/env python3
"""mksyms.py — turn `nm -n` output into the kernel's .ksyms section (assembly).

The kernel's panic code binary-searches this table to print function names
in backtraces.  Only text symbols are kept.  `--empty` writes the table the
first link uses.  `--sign-extend32`: the kernel is 32-bit (SH-4) and its
C code widens an address to 64 bits by sign extension, so nm's 32-bit
addresses are widened the same way before the kernel-half filter.
"""
import sys


def read_symbols(lines, sign_extend32=False):
    syms = []
    for line in lines:
        parts = line.split()
        if len(parts) != 3 or parts[1] not in "tTwW":
            continue
        addr = int(parts[0], 16)
        if sign_extend32 and addr & 0x80000000:
            addr |= 0xffffffff00000000
        if addr < 0xffffffff80000000:
            continue
        syms.append((addr, parts[2]))
    syms.sort()
    return syms


def emit(syms):
    out = ['\t.section .ksyms, "a"', "\t.balign 8", "\t.globl ksym_count, ksym_table, ksym_names",
           f"ksym_count:\n\t.quad {len(syms)}", "ksym_table:"]
    offset = 0
    for addr, name in syms:
        out.append(f"\t.quad 0x{addr:x}\n\t.long {offset}, 0")
        offset += len(name) + 1
    out.append("ksym_names:")
    for _, name in syms:
        out.append(f'\t.asciz "{name}"')
    return "\n".join(out) + "\n"


def main():
    syms = [] if "--empty" in sys.argv else read_symbols(sys.stdin, "--sign-extend32" in sys.argv)
    sys.stdout.write(emit(syms))


if __name__ == "__main__":
    main()
