"""The kernel's symbols on the host: `nm -n` of a kernel image (the
Makefile writes build/hako.sym beside build/hako.elf) and addresses named
as symbol+0xoffset, the form the kernel's own ksym_lookup prints.

Addresses from a run only name the right code with the symbols of the
kernel that ran, so a run's records should carry the names made at the
time (model.join_records does for the cost model's preemption-off
sections); naming later with whatever build/ holds is a fallback.
"""
from __future__ import annotations

from pathlib import Path

KERNEL_SYMS = "build/hako.sym"
DEBUG_KERNEL_SYMS = "build/debug/hako.sym"


def symbols_path(root: Path, debug_kernel: bool = False) -> Path:
    """Where the symbols of the kernel a profile boots are."""
    return root / (DEBUG_KERNEL_SYMS if debug_kernel else KERNEL_SYMS)


def parse_symbols(text: str) -> list[tuple[int, str]]:
    """(address, name) of the code symbols in `nm -n` output, sorted."""
    syms = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWw":
            syms.append((int(parts[0], 16), parts[2]))
    return sorted(syms)


def load_symbols(path: Path) -> list[tuple[int, str]]:
    """(address, name) of the kernel's code symbols, sorted; [] without the file."""
    try:
        return parse_symbols(Path(path).read_text())
    except OSError:
        return []


def symbolize(address: int, syms: list[tuple[int, str]]) -> str:
    """symbol+0xoffset like the kernel's ksym_lookup, or the address in hex."""
    if not address:
        return "-"
    lo, hi = 0, len(syms)
    while lo < hi:
        mid = (lo + hi) // 2
        if syms[mid][0] <= address:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return hex(address)
    base, name = syms[lo - 1]
    return f"{name}+{hex(address - base)}"
