#!/usr/bin/env python3
"""Generate both sides of Hako's system-call interface from kernel/uapi/syscalls.def.

    gensyscalls.py [--arch ARCH] DEF OUTDIR

writes, into OUTDIR:
  syscall_handlers.h  the handlers' prototypes `RESULT sys_NAME(uint64_t, ...)`
                    (kernel/syscall/syscall.h includes it, so every handler
                    is checked against the list)
  syscall_table.c   the kernel's table: NSYSCALLS entries, unused numbers
                    pointing at sys_nosys (-ENOSYS); with --arch sh4 also
                    syscall_abi, each call's argument words (sh4_abi)
  hako_syscalls.h   user side: SYS_NAME numbers and `RESULT sys_NAME(params)`
  syscall_stubs.S   user side: one stub per call (rax = number, the fourth
                    argument moved from rcx to r10, `syscall`, ret; with
                    --arch sh4: r3 = number, the fifth and sixth argument
                    words from the stack into r0 and r1, `trapa #0`, rts)
  kperf_calls.h     user/kperf's table (paper 004): every call's number, name
                    and driver `kperf_drv_NAME`, declared here and defined in
                    user/kperf, so a call without a driver does not link
                    ("undefined reference to `kperf_drv_NAME'"); and the
                    region markers of each call's best and worst case
  fuzz_calls.h      user/fuzz's table: every call's number, name and the
                    kind of each parameter (pointer, length, pid, tid, CPU,
                    operation, ...: fuzz_kind), from which the fuzzer makes
                    valid and hostile arguments, so a new call is fuzzed as
                    soon as it is listed; and fz_wide, per call number, which
                    parameters are 64 bits (two argument words on SH-4)

RESULT is `long` unless the line ends in `-> int64_t` (a result that needs
64 bits where `long` has 32: SH-4 returns it in r0:r1) or `-> words` (a
`long` result and HAKO_WORDS more words in registers: the user prototype
gets a last parameter `struct hako_words *out`, which the kernel never
sees, and the x86_64 stub stores rdx, rsi, rdi, r8, r9 and r10 there after
the call; the SH-4 stub is the plain one, its kernel returns -ENOSYS).
The words calls take the highest numbers, one after another:
SYSCALL_FIRST_WORDS is the first of them, so an entry can tell them from
the rest with the one comparison it makes anyway (x86_64's
syscall_entry.S stores their r12-r15 in the frame).

The parsing is a pure function (parse) so the host tests can feed it text.
"""
from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

MAX_ARGS = 6
# Names the generated code already uses: sys_raw (user stub), sys_nosys
# (kernel table holes), SYS_COUNT.
RESERVED = frozenset({"raw", "nosys", "count"})
LINE = re.compile(r"^(\d+)\s+([a-z_][a-z0-9_]*)\s+\((.*)\)\s*(?:->\s*(\w+)\s*)?$")
RESULTS = ("long", "int64_t", "words")
# -> words: the registers the x86_64 kernel leaves the words in, in order
# (arch_syscall_words), and the C ABI's argument registers.
WORD_REGS = ("rdx", "rsi", "rdi", "r8", "r9", "r10")
C_ARG_REGS = ("rdi", "rsi", "rdx", "rcx", "r8", "r9")
OUT_PARAM = "struct hako_words *out"
# Parameter types of 64 bits on every arch: two argument words where a word
# (a register) has 32 bits.
WIDE_TYPES = frozenset({"uint64_t", "int64_t", "long long", "unsigned long long"})
# SH-4: argument words 0-3 in r4-r7, words 4 and 5 (from the caller's stack) in r0, r1.
SH4_WORDS = 6


@dataclasses.dataclass(frozen=True)
class Syscall:
    number: int
    name: str
    params: tuple[str, ...]       # C declarations, e.g. "const void *buf"
    result: str = "long"          # long, int64_t, or words (long + HAKO_WORDS in registers)

    def user_params(self) -> tuple[str, ...]:
        """The user prototype's parameters: a words call adds `out`."""
        return self.params + ((OUT_PARAM,) if self.result == "words" else ())

    def c_result(self) -> str:
        return "long" if self.result == "words" else self.result


class DefError(ValueError):
    """A malformed syscalls.def, with the line number."""


def split_params(text: str) -> tuple[str, ...]:
    text = text.strip()
    if text in ("", "void"):
        return ()
    # Function-pointer parameters contain commas inside parentheses.
    params, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
        if depth < 0:
            raise DefError(f"unbalanced parentheses in ({text})")
    if depth != 0:
        raise DefError(f"unbalanced parentheses in ({text})")
    params.append(cur.strip())
    return tuple(params)


def param_words(param: str) -> int:
    """32-bit words one parameter takes: 2 for a 64-bit integer, else 1."""
    if "*" in param:
        return 1
    words = param.replace("const ", "").split()
    return 2 if " ".join(words[:-1]) in WIDE_TYPES else 1


def sh4_abi(call: Syscall) -> tuple[list[int], int]:
    """Where the SH-4 C ABI puts each argument: per parameter, its first
    word (argument words fill r4-r7 then the stack, a 64-bit one taking
    two consecutive words, low word first, with no alignment), ORed with
    0x80 if it is 64 bits wide; and 1 if the result is 64 bits (r0:r1)."""
    out, word = [], 0
    for p in call.params:
        n = param_words(p)
        out.append(word | (0x80 if n == 2 else 0))
        word += n
    return out, int(call.result == "int64_t")


def parse(text: str) -> list[Syscall]:
    calls, numbers, names = [], set(), set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = LINE.match(line)
        if not m:
            raise DefError(f"line {lineno}: expected 'NUMBER name (params)': {raw!r}")
        number, name = int(m.group(1)), m.group(2)
        result = m.group(4) or "long"
        if result not in RESULTS:
            raise DefError(f"line {lineno}: result type {result!r}, expected one of {', '.join(RESULTS)}")
        if name in RESERVED:
            raise DefError(f"line {lineno}: {name!r} is reserved by the generator")
        try:
            params = split_params(m.group(3))
        except DefError as exc:
            raise DefError(f"line {lineno}: {exc}") from None
        if any(not p for p in params):
            raise DefError(f"line {lineno}: empty parameter in {name}")
        limit = MAX_ARGS - (result == "words")
        if len(params) > limit:
            raise DefError(f"line {lineno}: {name} has {len(params)} parameters, at most {limit}"
                           + (" with -> words (its out pointer takes one)" if result == "words" else ""))
        if number in numbers:
            raise DefError(f"line {lineno}: number {number} used twice")
        if name in names:
            raise DefError(f"line {lineno}: name {name} used twice")
        numbers.add(number)
        names.add(name)
        if sum(map(param_words, params)) + (result == "words") > SH4_WORDS:
            raise DefError(f"line {lineno}: {name} needs more than {SH4_WORDS} argument words "
                           "on a 32-bit arch (a 64-bit parameter takes two)")
        calls.append(Syscall(number, name, params, result))
    if not calls:
        raise DefError("no system calls defined")
    calls.sort(key=lambda c: c.number)
    top = max(c.number for c in calls)
    words = [c.number for c in calls if c.result == "words"]
    if words and words != list(range(top - len(words) + 1, top + 1)):
        raise DefError(f"the -> words calls must take the highest numbers, one after another "
                       f"(they have {', '.join(map(str, words))}; the highest is {top})")
    return calls


def first_words(calls: list[Syscall]) -> int:
    """The number of the first -> words call (the table's size if none)."""
    return min((c.number for c in calls if c.result == "words"), default=max(c.number for c in calls) + 1)


HEADER = "/* Generated by tools/build/gensyscalls.py from kernel/uapi/syscalls.def; do not edit. */\n"


def kernel_prototypes(calls: list[Syscall]) -> str:
    """The handlers' prototypes: kernel/syscall/syscall.h includes them, so a
    handler whose parameters disagree with syscalls.def does not compile;
    and the table's size, SYSCALL_COUNT, and the first words call,
    SYSCALL_FIRST_WORDS, which assembly reads too (an entry that walks the
    table itself: x86_64's syscall_entry.S)."""
    n = max(c.number for c in calls) + 1
    out = [HEADER, "#ifndef HAKO_SYSCALL_HANDLERS_H\n#define HAKO_SYSCALL_HANDLERS_H\n\n",
           f"#define SYSCALL_COUNT {n}   /* the table's entries (syscall_count) */\n",
           f"#define SYSCALL_FIRST_WORDS {first_words(calls)}   /* the -> words calls: from here to the end */\n\n",
           "#ifndef __ASSEMBLER__\n#include <stdint.h>\n\n"]
    for c in calls:
        args = ", ".join(["uint64_t"] * len(c.params)) or "void"
        out.append(f"{c.c_result()} sys_{c.name}({args});\n")
    out.append("#endif\n\n#endif\n")
    return "".join(out)


def kernel_table(calls: list[Syscall], arch: str = "x86_64") -> str:
    n = max(c.number for c in calls) + 1
    out = [HEADER, "#include <stdint.h>\n#include <syscall.h>\n"]
    if arch == "sh4":
        out.append("#include <arch/syscall.h>\n")
    out.append("\nconst unsigned syscall_count = SYSCALL_COUNT;\n")
    out.append("const struct syscall_entry syscall_table[] = {\n")
    by_number = {c.number: c for c in calls}
    for i in range(n):
        c = by_number.get(i)
        if c:
            out.append(f"\t[{i}] = {{ (syscall_fn)(void (*)(void))sys_{c.name}, \"{c.name}\", {len(c.params)} }},\n")
        else:
            out.append(f"\t[{i}] = {{ (syscall_fn)(void (*)(void))sys_nosys, \"nosys\", 0 }},\n")
    out.append("};\n")
    if arch == "sh4":
        out.append("\n/* Per call: each argument's first word (| 0x80: 64 bits, two words); result in r0:r1. */\n")
        out.append("const struct arch_syscall_abi syscall_abi[] = {\n")
        for i in range(n):
            c = by_number.get(i)
            words, wide = sh4_abi(c) if c else ([], 0)
            # Unused positions read their own word, as a call without the map would.
            words += list(range(len(words), MAX_ARGS))
            out.append(f"\t[{i}] = {{ {{ {', '.join(f'0x{w:02x}' for w in words)} }}, {wide} }},\n")
        out.append("};\n")
    return "".join(out)


def user_header(calls: list[Syscall]) -> str:
    out = [HEADER, "#ifndef HAKO_SYSCALLS_H\n#define HAKO_SYSCALLS_H\n\n",
           "#include <stddef.h>\n#include <stdint.h>\n#include <hako.h>\n\n"]
    for c in calls:
        out.append(f"#define SYS_{c.name} {c.number}\n")
    out.append(f"#define SYS_COUNT {max(c.number for c in calls) + 1}\n\n")
    for c in calls:
        out.append(f"{c.c_result()} sys_{c.name}({', '.join(c.user_params()) or 'void'});\n")
    out.append("/* Any number, six raw arguments: for tests that feed the kernel garbage. */\n")
    out.append("long sys_raw(long number, long a0, long a1, long a2, long a3, long a4, long a5);\n")
    out.append("\n#endif\n")
    return "".join(out)


def user_stubs(calls: list[Syscall]) -> str:
    out = [HEADER.replace("/*", "#").replace(" */", ""), "\t.text\n"]
    for c in calls:
        out.append(f"\t.globl sys_{c.name}\n\t.type sys_{c.name}, @function\nsys_{c.name}:\n")
        out.append(f"\tmovl ${c.number}, %eax\n")
        if len(c.params) > 3:
            out.append("\tmovq %rcx, %r10\n")
        if c.result == "words":
            # out is the argument after the last: kept on the stack over the call.
            out.append(f"\tpushq %{C_ARG_REGS[len(c.params)]}\n\tsyscall\n\tpopq %rcx\n")
            out.extend(f"\tmovq %{r}, {8 * i}(%rcx)\n" for i, r in enumerate(WORD_REGS))
            out.append("\tret\n\t.size sys_{0}, .-sys_{0}\n\n".format(c.name))
            continue
        out.append("\tsyscall\n\tret\n\t.size sys_{0}, .-sys_{0}\n\n".format(c.name))
    # sys_raw(number, a0..a5): shift every argument down one register.
    out.append("\t.globl sys_raw\n\t.type sys_raw, @function\nsys_raw:\n"
               "\tmovq %rdi, %rax\n\tmovq %rsi, %rdi\n\tmovq %rdx, %rsi\n"
               "\tmovq %rcx, %rdx\n\tmovq %r8, %r10\n\tmovq %r9, %r8\n"
               "\tmovq 8(%rsp), %r9\n\tsyscall\n\tret\n\t.size sys_raw, .-sys_raw\n")
    out.append("\t.section .note.GNU-stack,\"\",@progbits\n")
    return "".join(out)


def user_stubs_sh4(calls: list[Syscall]) -> str:
    """The SH-4 stubs: the argument words as the C ABI placed them (r4-r7,
    then words 4 and 5 from the caller's stack into r0 and r1), the number
    in r3, `trapa #0`; the result in r0 (r0:r1 if 64 bits) as C expects it."""
    out = [HEADER.replace("/*", "!").replace(" */", ""), "\t.text\n"]

    def stub(name: str, body: str) -> None:
        out.append(f"\t.globl {name}\n\t.type {name}, @function\n\t.balign 2\n{name}:\n{body}"
                   f"\ttrapa #0\n\trts\n\tnop\n\t.size {name}, .-{name}\n\n")
    for c in calls:
        body = ""
        nwords = sum(map(param_words, c.user_params()))
        if nwords > 4:
            body += "\tmov.l @r15, r0\n"
        if nwords > 5:
            body += "\tmov.l @(4,r15), r1\n"
        body += f"\tmov #{c.number}, r3\n" if c.number < 128 else \
            f"\tmov.w 1f, r3\n\tbra 2f\n\tnop\n\t.balign 2\n1:\t.short {c.number}\n2:\n"
        stub(f"sys_{c.name}", body)
    # sys_raw(number, a0..a5): r4 is the number; a0-a2 in r5-r7, a3-a5 on the stack.
    stub("sys_raw", "\tmov r4, r3\n\tmov r5, r4\n\tmov r6, r5\n\tmov r7, r6\n"
         "\tmov.l @r15, r7\n\tmov.l @(4,r15), r0\n\tmov.l @(8,r15), r1\n")
    out.append("\t.section .note.GNU-stack,\"\",@progbits\n")
    return "".join(out)


# user/kperf's regions: REGION_KPERF (hako_region_ids.h) + 2 * number + case
# (0 best, 1 worst); region ids end at 4095.
KPERF_REGION_LIMIT = (4096 - 0xc00) // 2


def kperf_calls(calls: list[Syscall]) -> str:
    """user/kperf's table of calls and drivers, and its region markers."""
    too_big = [c.name for c in calls if c.number >= KPERF_REGION_LIMIT]
    if too_big:
        raise DefError(f"kperf has region ids for numbers below {KPERF_REGION_LIMIT}: {too_big}")
    out = [HEADER, "#ifndef HAKO_KPERF_CALLS_H\n#define HAKO_KPERF_CALLS_H\n\n",
           "#include <hako/region.h>\n\n",
           "struct kperf_run;\n\n",
           "/* One driver per call, defined in user/kperf: a call without one does not link. */\n"]
    for c in calls:
        out.append(f"int kperf_drv_{c.name}(struct kperf_run *run);\n")
    out.append("\nstruct kperf_call {\n\tint nr;\n\tconst char *name;\n"
               "\tint (*driver)(struct kperf_run *run);\n};\n\n")
    out.append(f"#define KPERF_NCALLS {len(calls)}\n")
    out.append("static const struct kperf_call kperf_calls[KPERF_NCALLS] = {\n")
    for c in calls:
        out.append(f"\t{{ {c.number}, \"{c.name}\", kperf_drv_{c.name} }},\n")
    out.append("};\n")
    for fn, op in (("begin", "HAKO_REGION_BEGIN"), ("end", "HAKO_REGION_END")):
        out.append(f"\n/* Region REGION_KPERF + SLOT (2 * number + worst), a constant per case. */\n"
                   f"static inline void kperf_region_{fn}(unsigned slot)\n{{\n\tswitch (slot) {{\n")
        for c in calls:
            for worst in (0, 1):
                slot = 2 * c.number + worst
                out.append(f"\tcase {slot}: arch_region_mark({op}, REGION_KPERF + {slot}); break;\n")
        out.append("\t}\n}\n")
    out.append("\n#endif\n")
    return "".join(out)


# user/fuzz's parameter kinds: what a value of that parameter means, read
# from its C declaration.  The fuzzer draws each kind from a pool of valid
# and hostile values (user/fuzz/args.c).
FUZZ_KINDS = ("INT", "U64", "LEN", "PTR", "FN", "PID", "TID", "CPU", "OP", "FLAGS", "ID",
              "OFFSET", "NS", "MASK", "PRIO")
FUZZ_NAMED_INTS = {"pid": "PID", "tid": "TID", "cpu": "CPU", "op": "OP", "flags": "FLAGS",
                   "prio": "PRIO", "nic": "ID", "dev": "ID", "id": "ID",
                   "call": "ID", "tag": "ID", "entry": "ID", "index": "ID"}
FUZZ_NAMED_U64 = {"offset": "OFFSET", "ns": "NS", "mask": "MASK"}


def fuzz_kind(param: str) -> str:
    """The kind of one parameter, from its declaration ("const void *buf": PTR)."""
    if "(*" in param:
        return "FN"
    if "*" in param:
        return "PTR"
    words = param.replace("const ", "").split()
    ctype, name = " ".join(words[:-1]), words[-1]
    if ctype == "size_t":
        return "LEN"
    if ctype == "uint64_t":
        return FUZZ_NAMED_U64.get(name, "U64")
    return FUZZ_NAMED_INTS.get(name, "INT")


def fuzz_calls(calls: list[Syscall]) -> str:
    """user/fuzz's table: number, name, parameter count and kinds of every call."""
    out = [HEADER, "#ifndef HAKO_FUZZ_CALLS_H\n#define HAKO_FUZZ_CALLS_H\n\n"]
    for i, kind in enumerate(FUZZ_KINDS):
        out.append(f"#define FZ_{kind} {i}\n")
    out.append(f"#define FZ_KINDS {len(FUZZ_KINDS)}\n\n")
    out.append("struct fz_call {\n\tint nr;\n\tconst char *name;\n\tint nargs;\n"
               f"\tunsigned char kind[{MAX_ARGS}];\n}};\n\n")
    out.append(f"#define FZ_NCALLS {len(calls)}\n")
    out.append("static const struct fz_call fz_calls[FZ_NCALLS] = {\n")
    for c in calls:
        kinds = ", ".join(f"FZ_{fuzz_kind(p)}" for p in c.params) or "0"
        out.append(f"\t{{ {c.number}, \"{c.name}\", {len(c.params)}, {{ {kinds} }} }},\n")
    out.append("};\n\n")
    # Per call number, bit i set if parameter i is 64 bits wide (two
    # argument words where a word has 32 bits, the SH-4 layout of sh4_abi).
    wide = {c.number: sum(1 << i for i, p in enumerate(c.params) if param_words(p) == 2)
            for c in calls}
    out.append(f"#define FZ_WIDE_NRS {max(wide, default=-1) + 1}\n")
    out.append("static const unsigned char fz_wide[FZ_WIDE_NRS] = {\n")
    for nr, mask in sorted(wide.items()):
        if mask:
            out.append(f"\t[{nr}] = 0x{mask:02x},\n")
    out.append("};\n\n#endif\n")
    return "".join(out)


def write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def main(argv: list[str]) -> int:
    arch = "x86_64"
    if len(argv) == 5 and argv[1] == "--arch":
        arch = argv[2]
        argv = [argv[0]] + argv[3:]
    if len(argv) != 3 or arch not in ("x86_64", "sh4"):
        sys.stderr.write("usage: gensyscalls.py [--arch x86_64|sh4] DEF OUTDIR\n")
        return 2
    try:
        calls = parse(Path(argv[1]).read_text())
        kperf = kperf_calls(calls)
    except DefError as exc:
        sys.stderr.write(f"{argv[1]}: {exc}\n")
        return 1
    out = Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    write_if_changed(out / "syscall_handlers.h", kernel_prototypes(calls))
    write_if_changed(out / "syscall_table.c", kernel_table(calls, arch))
    write_if_changed(out / "hako_syscalls.h", user_header(calls))
    write_if_changed(out / "syscall_stubs.S", user_stubs_sh4(calls) if arch == "sh4" else user_stubs(calls))
    write_if_changed(out / "kperf_calls.h", kperf)
    write_if_changed(out / "fuzz_calls.h", fuzz_calls(calls))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
