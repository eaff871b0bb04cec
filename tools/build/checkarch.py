#!/usr/bin/env python3
"""Check the arch boundary: generic kernel code sees only the arch's interface.

Generic code is every C, header and assembly file under kernel/ outside
kernel/arch/, and the kernel self-tests (tests/kernel/), which link into
the kernel.  It may include the subsystems' headers and the arch's
interface headers (<arch/NAME.h>, kernel/arch/ARCH/include/arch/); it must
not include an arch-internal header (any other header under kernel/arch/),
reach into another folder with a relative path, or contain inline assembly.
Every arch (each folder kernel/arch/ARCH/) provides the same interface
headers.  Generic code may call only the arches' arch_* hooks: a call to
any other function an arch exports (a non-static function defined in kernel/arch/ARCH/*.c, a
.globl symbol of its *.S, an inline function of its interface headers) is
a breach.  Every folder kernel/NAME/ holding headers is one include folder
(kernel/include.mk), so a header name may be used in one of them only.
User programs, servers, the in-guest tests and the driver environment's
process placement (user/, servers/, tests/user/, kernel/drivers/**/*_process.[ch])
keep their inline assembly in arch/ folders too (user/include/hako/arch/,
user/lib/arch/).

A driver (every file under kernel/drivers/CLASS/NAME/) compiles into the
kernel or into a driver process unchanged, so it may include only the
driver environment interface (drvenv.h), a class interface
(DRIVER_INTERFACES), the libc-ish headers both placements have
(DRIVER_LIBC) and its own headers beside it: never a placement header
(drvenv_kernel.h, nic.h, blk_process.h...) nor any other kernel header.

The core does not depend on what builds on it: no file under kernel/sched
or kernel/proc (LOWER) includes, directly or through other kernel headers,
a header of kernel/drvproc, kernel/drivers, kernel/ipc or kernel/mpio
(UPPER).  Those reach the core through its registered hooks (process exit
hooks, a service process's record, the ICA area's fault handler).

Prints one line per breach ("not ok arch_boundary: path:line: why") or
"ok arch_boundary" when there is none, the host tests' format; exits 1 on
a breach.  `make check` and `make test` run it (tools/hakotool/testall.py,
step "layout").
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


# Folders of generic kernel code; the arch's own folder is kernel/arch.
GENERIC_DIRS = ("kernel", "tests/kernel")


def process_placement(path: pathlib.Path) -> bool:
    """kernel/drivers/**/NAME_process.{c,h}: user code, built into the driver programs."""
    return path.stem.endswith("_process") and "drivers" in path.parts


def generic_files(root: pathlib.Path):
    for top in GENERIC_DIRS:
        for pattern in SOURCES:
            for path in sorted((root / top).rglob(pattern)):
                if "arch" not in path.relative_to(root / top).parts[:1] \
                        and not process_placement(path):
                    yield path


COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
ATTRIBUTE = re.compile(r'__attribute__\s*\(\(.*?\)\)\s*')
C_DEFINITION = re.compile(r'^([A-Za-z_][\w\s\*]*?)\b([A-Za-z_]\w*)\s*\(')
INLINE_DEFINITION = re.compile(r'^\s*static\s+inline\b[\w\s\*]*?\b([A-Za-z_]\w*)\s*\(')
GLOBL = re.compile(r'^[ \t]*\.glob(?:a)?l[ \t]+([\w \t,]+)$', re.M)
NOT_TYPES = ("static", "typedef", "struct", "union", "enum", "extern", "return", "if", "for", "while")


def blank_comments(text: str) -> str:
    """text with comments and string literals blanked, newlines kept."""
    return COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def exported_c_functions(text: str) -> set[str]:
    """Names of the non-static functions a C file defines at file scope."""
    lines = blank_comments(text).splitlines()
    names = set()
    for i, line in enumerate(lines):
        if not line or line[0] in " \t#}{":
            continue
        head = ATTRIBUTE.sub("", line)
        m = C_DEFINITION.match(head)
        if not m or m.group(1).split()[0] in NOT_TYPES or "=" in head.split("(")[0]:
            continue
        rest = "\n".join(lines[i:i + 8])
        body, end = rest.find("{"), rest.find(";")
        if body >= 0 and (end < 0 or body < end):
            names.add(m.group(2))
    return names


def arch_exports(root: pathlib.Path) -> dict[str, str]:
    """Functions each arch exports to generic code: name -> defining file."""
    exports = {}
    for path in sorted((root / "kernel" / "arch").rglob("*")):
        rel = str(path.relative_to(root))
        if path.suffix == ".c":
            names = exported_c_functions(path.read_text(errors="replace"))
        elif path.suffix == ".S":
            names = {name.strip() for names in GLOBL.findall(path.read_text(errors="replace"))
                     for name in names.split(",") if name.strip()}
        elif path.suffix == ".h" and "include" in path.relative_to(root / "kernel" / "arch").parts[1:2]:
            names = {m.group(1) for m in map(INLINE_DEFINITION.match,
                     blank_comments(path.read_text(errors="replace")).splitlines()) if m}
        else:
            continue
        for name in names:
            exports.setdefault(name, rel)
    return {name: rel for name, rel in exports.items() if not name.startswith("arch_")}


def non_arch_calls(root: pathlib.Path) -> list[str]:
    """Generic calls to a function the arch exports that is not an arch_ hook."""
    exports = arch_exports(root)
    if not exports:
        return []
    call = re.compile(r'\b(' + "|".join(sorted(map(re.escape, exports))) + r')\s*\(')
    found = []
    for path in generic_files(root):
        if path.suffix == ".S":
            continue
        text = blank_comments(path.read_text(errors="replace"))
        for number, line in enumerate(text.splitlines(), 1):
            for m in call.finditer(line):
                if line[:m.start()].rstrip().endswith(("->", ".")):
                    continue
                found.append(f"{path.relative_to(root)}:{number}: calls {m.group(1)}(), which "
                             f"{exports[m.group(1)]} defines: generic code calls only arch_* hooks")
    return found


def duplicate_headers(root: pathlib.Path) -> list[str]:
    """A header name in two include folders (kernel/NAME/*.h, kernel/include.mk)."""
    seen: dict[str, pathlib.Path] = {}
    found = []
    for header in sorted((root / "kernel").glob("*/*.h")):
        if header.parent.name == "arch":
            continue
        if header.name in seen:
            found.append(f"{header.relative_to(root)}: header name {header.name!r} is also "
                         f"{seen[header.name].relative_to(root)}; #include <{header.name}> would find either")
        else:
            seen[header.name] = header
    return found


def interface_gaps(root: pathlib.Path) -> list[str]:
    """An interface header (kernel/arch/ARCH/include/arch/NAME.h) that one
    arch has and another lacks: every arch provides the whole interface."""
    arches = sorted(p for p in (root / "kernel" / "arch").iterdir() if p.is_dir()) \
        if (root / "kernel" / "arch").is_dir() else []
    provided = {a.name: {str(h.relative_to(a / "include")) for h in (a / "include").rglob("*.h")}
                for a in arches}
    every = set().union(*provided.values()) if provided else set()
    return [f"kernel/arch/{name}/include/{header}: missing; another arch has it "
            "(every arch provides the whole interface)"
            for name, headers in sorted(provided.items()) for header in sorted(every - headers)]


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
    found += non_arch_calls(root)
    found += interface_gaps(root)
    found += duplicate_headers(root)
    found += user_asm(root)
    found += driver_includes(root)
    found += layering(root)
    return found


def user_asm(root: pathlib.Path) -> list[str]:
    """Inline assembly in user programs and servers outside an arch/ folder (the driver
    environment's process placement under kernel/drivers/ is user code too)."""
    found = []
    for top in ("user", "servers", "tests/user", "kernel/drivers"):
        for pattern in ("*.c", "*.h"):
            for path in sorted((root / top).rglob(pattern)):
                if "arch" in path.relative_to(root / top).parts:
                    continue
                if top == "kernel/drivers" and not process_placement(path):
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


# The core and the subsystems that build on it (see the module's docstring).
LOWER = ("kernel/sched", "kernel/proc")
UPPER = ("kernel/drvproc", "kernel/drivers", "kernel/ipc", "kernel/mpio")


def kernel_headers(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every header name of generic kernel code -> its file (names are unique: duplicate_headers)."""
    headers = {}
    for header in sorted((root / "kernel").rglob("*.h")):
        if "arch" not in header.relative_to(root / "kernel").parts[:1]:
            headers.setdefault(header.name, header)
    return headers


def layering(root: pathlib.Path) -> list[str]:
    """Includes of kernel/sched and kernel/proc that reach a header of a subsystem above them."""
    headers = kernel_headers(root)
    upper = {h for h in headers.values() if any(h.is_relative_to(root / top) for top in UPPER)}
    includes: dict[pathlib.Path, list[tuple[int, pathlib.Path]]] = {}

    def included(path: pathlib.Path) -> list[tuple[int, pathlib.Path]]:
        """(line, header) of each kernel header path includes."""
        if path not in includes:
            includes[path] = []
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                name = m and pathlib.PurePosixPath(m.group(1)).name
                if name and (path.parent / name).exists():
                    includes[path].append((number, path.parent / name))
                elif name in headers:
                    includes[path].append((number, headers[name]))
        return includes[path]

    found = []
    for top in LOWER:
        for pattern in ("*.c", "*.h"):
            for path in sorted((root / top).rglob(pattern)):
                for number, first in included(path):
                    chain, seen, todo = {first: [first]}, {first}, [first]
                    while todo:                      # breadth first: the shortest chain
                        header = todo.pop(0)
                        if header in upper:
                            via = " -> ".join(h.name for h in chain[header])
                            found.append(f"{path.relative_to(root)}:{number}: includes "
                                         f"{header.relative_to(root)} ({via}): sched and proc depend on no "
                                         "subsystem built on them (drvproc, drivers, ipc, mpio); use a hook")
                            break
                        for _, nxt in included(header):
                            if nxt not in seen:
                                seen.add(nxt)
                                chain[nxt] = chain[header] + [nxt]
                                todo.append(nxt)
    return found


def main(argv: list[str]) -> int:
    root = pathlib.Path(argv[1]) if len(argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
    found = breaches(root)
    for line in found:
        print(f"not ok arch_boundary: {line}")
    if not found:
        print("ok arch_boundary")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
