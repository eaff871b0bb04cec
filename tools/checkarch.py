#!/usr/bin/env python3
"""Check the arch boundary: generic kernel code sees only the arch's interface.

Generic code is every C, header and assembly file under kernel/ outside
kernel/arch/.  It may include kernel/include headers and the arch's interface
headers (<arch/NAME.h>, kernel/arch/ARCH/include/arch/); it must not include
an arch-internal header (any other header under kernel/arch/), reach into
another folder with a relative path, or contain inline assembly.  User
programs and servers (user/, servers/) keep their inline assembly in arch/
folders too (user/include/hako/arch/, user/lib/arch/).

A driver (every file under kernel/drivers/CLASS/NAME/) compiles into the
kernel or into a driver process unchanged, so it may include only the
driver environment interface (drvenv.h), a class interface
(DRIVER_INTERFACES), the libc-ish headers both placements have
(DRIVER_LIBC) and its own headers beside it: never a placement header
(drvenv_kernel.h, nic.h, blk_process.h...) nor any other kernel header.

Prints one line per breach ("not ok arch_boundary: path:line: why") or
"ok arch_boundary" when there is none, the host tests' format; exits 1 on
a breach.  `make test` runs it (tools/hakotool/testall.py, step "layout").
"""
from __future__ import annotations

import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
ASM = re.compile(r'\b(__asm__|asm)\s*(volatile|__volatile__)?\s*\(')
SOURCES = ("*.c", "*.h", "*.S")


def arch_headers(root: pathlib.Path) -> tuple[set[str], set[str]]:
    """(internal header names, interface paths "arch/NAME.h") of every arch."""
    internal, interface = set(), set()
    for header in (root / "kernel" / "arch").rglob("*.h"):
        rel = header.relative_to(root / "kernel" / "arch")
        parts = rel.parts                # ARCH, ..., NAME.h
        if len(parts) >= 3 and parts[1] == "include":
            interface.add("/".join(parts[2:]))
        else:
            internal.add(header.name)
    return internal, interface


def generic_files(root: pathlib.Path):
    for pattern in SOURCES:
        for path in sorted((root / "kernel").rglob(pattern)):
            if "arch" not in path.relative_to(root / "kernel").parts[:1]:
                yield path


def breaches(root: pathlib.Path) -> list[str]:
    internal, interface = arch_headers(root)
    found = []
    for path in generic_files(root):
        rel = path.relative_to(root)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            where = f"{rel}:{number}"
            m = INCLUDE.match(line)
            if m:
                target = m.group(1)
                if ".." in pathlib.PurePosixPath(target).parts:
                    found.append(f"{where}: relative include {target!r} reaches into another folder")
                elif target.startswith("arch/") and target not in interface:
                    found.append(f"{where}: {target!r} is not an arch interface header")
                elif "/" not in target and target in internal and not (path.parent / target).exists():
                    found.append(f"{where}: {target!r} is an arch-internal header; use an arch_* hook")
            elif ASM.search(line) and not line.lstrip().startswith(("*", "//", "/*")):
                found.append(f"{where}: inline assembly outside kernel/arch")
    found += user_asm(root)
    found += driver_includes(root)
    return found


def user_asm(root: pathlib.Path) -> list[str]:
    """Inline assembly in user programs and servers outside an arch/ folder."""
    found = []
    for top in ("user", "servers"):
        for pattern in ("*.c", "*.h"):
            for path in sorted((root / top).rglob(pattern)):
                if "arch" in path.relative_to(root / top).parts:
                    continue
                for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                    if ASM.search(line) and not line.lstrip().startswith(("*", "//", "/*")):
                        found.append(f"{path.relative_to(root)}:{number}: inline assembly outside an arch/ folder")
    return found


# What a driver's source may include (see the module's docstring).
DRIVER_INTERFACES = {"drvenv.h", "nic_driver.h", "blk_driver.h", "edu.h"}
DRIVER_LIBC = {"stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "string.h", "errno.h"}


def driver_files(root: pathlib.Path):
    """Every C file and header of a driver: kernel/drivers/CLASS/NAME/..."""
    drivers = root / "kernel" / "drivers"
    for pattern in ("*.c", "*.h"):
        for path in sorted(drivers.rglob(pattern)):
            if len(path.relative_to(drivers).parts) >= 3:
                yield path


def driver_includes(root: pathlib.Path) -> list[str]:
    """Includes of a driver's source outside the driver environment and its class interface."""
    found = []
    for path in driver_files(root):
        rel = path.relative_to(root)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target in DRIVER_INTERFACES or target in DRIVER_LIBC:
                continue
            if "/" not in target and line.split("include", 1)[1].lstrip().startswith('"') \
                    and (path.parent / target).exists():
                continue                 # the driver's own header, beside it
            found.append(f"{rel}:{number}: a driver includes {target!r}: only drvenv.h, its class "
                         "interface and libc headers (the same source runs in both placements)")
    return found


def main(argv: list[str]) -> int:
    root = pathlib.Path(argv[1]) if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    found = breaches(root)
    for line in found:
        print(f"not ok arch_boundary: {line}")
    if not found:
        print("ok arch_boundary")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
