"""Tests for tools/build/gensyscalls.py: kernel/uapi/syscalls.def to the kernel table and user stubs."""
import os
import re
import shutil
import subprocess

import pytest

import gensyscalls
from conftest import REPO_ROOT

DEF = REPO_ROOT / "kernel" / "uapi" / "syscalls.def"


def parse(text):
    return gensyscalls.parse(text)


def test_real_def_parses():
    calls = parse(DEF.read_text())
    numbers = [c.number for c in calls]
    assert numbers == sorted(set(numbers))
    assert len({c.name for c in calls}) == len(calls)
    assert all(len(c.params) <= gensyscalls.MAX_ARGS for c in calls)
    by_name = {c.name: c for c in calls}
    # Numbers never change once given out (syscalls.def says so).
    assert by_name["null"] == gensyscalls.Syscall(0, "null", ())
    assert by_name["exit"] == gensyscalls.Syscall(1, "exit", ("int code",))
    assert by_name["write"].params == ("const void *buf", "size_t len")
    assert by_name["thread_create"].params == ("void (*entry)(void *)", "void *arg")


def test_comments_blank_lines_and_order():
    calls = parse("# header\n\n  \n5 b (int x)   # trailing comment\n2 a (void)\n")
    assert [(c.number, c.name, c.params) for c in calls] == [(2, "a", ()), (5, "b", ("int x",))]


@pytest.mark.parametrize("params", ["(void)", "()", "( void )", "(  )"])
def test_no_params(params):
    assert parse(f"0 f {params}")[0].params == ()


def test_function_pointer_params_keep_their_commas():
    calls = parse("0 sort (void *base, int (*cmp)(const void *, const void *), "
                  "void (*done)(int, char *), size_t n)")
    assert calls[0].params == ("void *base", "int (*cmp)(const void *, const void *)",
                               "void (*done)(int, char *)", "size_t n")


def test_duplicate_number():
    with pytest.raises(gensyscalls.DefError, match=r"line 3: number 1 used twice"):
        parse("0 a (void)\n1 b (void)\n1 c (void)\n")


def test_duplicate_name():
    with pytest.raises(gensyscalls.DefError, match=r"line 2: name a used twice"):
        parse("0 a (void)\n1 a (int x)\n")


def test_too_many_params():
    six = ", ".join(f"int a{i}" for i in range(6))
    assert len(parse(f"0 f ({six})")[0].params) == 6
    with pytest.raises(gensyscalls.DefError, match=r"line 1: f has 7 parameters, at most 6"):
        parse(f"0 f ({six}, int a6)")


@pytest.mark.parametrize("text,message", [
    ("x f (void)", "line 1: expected"),
    ("0 F (void)", "line 1: expected"),
    ("0 f void", "line 1: expected"),
    ("0 a (void)\n1 f (int a, )", "line 2: empty parameter in f"),
    ("0 f (, int a)", "empty parameter"),
    ("# only comments\n\n", "no system calls"),
    ("", "no system calls"),
])
def test_malformed(text, message):
    with pytest.raises(gensyscalls.DefError, match=re.escape(message)):
        parse(text)


def test_kernel_table_fills_holes_with_nosys():
    calls = parse("0 a (void)\n3 b (int x, const char *s)\n")
    table = gensyscalls.kernel_table(calls)
    assert "const unsigned syscall_count = SYSCALL_COUNT;" in table
    # The size itself is in the handlers' header, before what assembly cannot read.
    protos = gensyscalls.kernel_prototypes(calls)
    assert "#define SYSCALL_COUNT 4 " in protos
    assert protos.index("SYSCALL_COUNT") < protos.index("#ifndef __ASSEMBLER__") < protos.index("sys_a(")
    assert "sys_a, \"a\", 0" in table
    assert "sys_nosys" not in table.split("syscall_table[]")[0]     # declared by syscall.h
    rows = re.findall(r"\[(\d+)\] = \{ \(syscall_fn\)\(void \(\*\)\(void\)\)sys_(\w+), \"(\w+)\", (\d) \}",
                      table)
    assert rows == [("0", "a", "a", "0"), ("1", "nosys", "nosys", "0"),
                    ("2", "nosys", "nosys", "0"), ("3", "b", "b", "2")]


def test_user_header():
    header = gensyscalls.user_header(parse("0 a (void)\n4 b (int x, const char *s)\n"))
    assert "#define SYS_a 0\n" in header and "#define SYS_b 4\n" in header
    assert "#define SYS_COUNT 5\n" in header
    assert "long sys_a(void);\n" in header
    assert "long sys_b(int x, const char *s);\n" in header


def test_result_type():
    calls = parse("0 a (void)\n1 clock (void) -> int64_t\n")
    assert [c.result for c in calls] == ["long", "int64_t"]
    assert "int64_t sys_clock(void);\n" in gensyscalls.user_header(calls)
    assert "int64_t sys_clock(void);\n" in gensyscalls.kernel_prototypes(calls)
    with pytest.raises(gensyscalls.DefError, match=r"line 1: result type 'int'"):
        parse("0 a (void) -> int\n")


def test_words_result():
    """-> words: a long result, an `out` parameter on the user side only, and a
    stub that keeps out over the call and stores the six word registers."""
    calls = parse("0 call (int a, int b, int c, int d) -> words\n1 rr (int a) -> words\n")
    assert "long sys_call(int a, int b, int c, int d, struct hako_words *out);\n" in \
        gensyscalls.user_header(calls)
    assert "long sys_call(uint64_t, uint64_t, uint64_t, uint64_t);\n" in gensyscalls.kernel_prototypes(calls)
    stubs = stubs_by_name(gensyscalls.user_stubs(calls))
    assert "\tmovq %rcx, %r10\n\tpushq %r8\n\tsyscall\n\tpopq %rcx\n" in stubs["sys_call"]
    assert "\tpushq %rsi\n\tsyscall\n" in stubs["sys_rr"]
    stores = re.findall(r"movq %(\w+), (\d+)\(%rcx\)", stubs["sys_call"])
    assert stores == [(r, str(8 * i)) for i, r in enumerate(gensyscalls.WORD_REGS)]
    # out takes an argument register and, on SH-4, an argument word.
    with pytest.raises(gensyscalls.DefError, match=r"at most 5 with -> words"):
        parse("0 f (int a, int b, int c, int d, int e, int g) -> words\n")
    with pytest.raises(gensyscalls.DefError, match=r"more than 6 argument words"):
        parse("0 f (uint64_t a, uint64_t b, int c, int e) -> words\n")


def test_words_calls_come_last():
    """The words calls take the highest numbers, one after another, and
    SYSCALL_FIRST_WORDS names the first (the table's size when there is none)."""
    calls = parse("0 a (void)\n1 b (int x)\n2 w (int a) -> words\n3 v (void) -> words\n")
    assert "#define SYSCALL_FIRST_WORDS 2 " in gensyscalls.kernel_prototypes(calls)
    assert "#define SYSCALL_FIRST_WORDS 2 " in gensyscalls.kernel_prototypes(parse("0 a (void)\n1 b (void)\n"))
    with pytest.raises(gensyscalls.DefError, match=r"highest numbers, one after another \(they have 1;"):
        parse("0 a (void)\n1 w (int a) -> words\n2 b (void)\n")
    with pytest.raises(gensyscalls.DefError, match=r"they have 1, 3;"):
        parse("0 a (void)\n1 w (int a) -> words\n2 b (void)\n3 v (void) -> words\n")


def test_param_words():
    assert [gensyscalls.param_words(p) for p in
            ("int x", "uint64_t ns", "const uint64_t v", "uint64_t *va", "long long x",
             "unsigned long long x", "size_t len", "void (*f)(uint64_t)")] == [1, 2, 2, 1, 2, 2, 1, 1]


def test_sh4_abi_follows_the_c_abi():
    # As sh4-linux-gnu-gcc passes them: words in order, a 64-bit one in two
    # consecutive words (r7 and the stack too), no even-register alignment.
    calls = {c.name: c for c in parse(
        "0 a (int dev, uint64_t off, void *buf, size_t len)\n"
        "1 b (int x, int y, int z, uint64_t w)\n"
        "2 c (uint64_t ns) -> int64_t\n")}
    assert gensyscalls.sh4_abi(calls["a"]) == ([0x00, 0x81, 0x03, 0x04], 0)
    assert gensyscalls.sh4_abi(calls["b"]) == ([0x00, 0x01, 0x02, 0x83], 0)
    assert gensyscalls.sh4_abi(calls["c"]) == ([0x80], 1)
    table = gensyscalls.kernel_table(list(calls.values()), "sh4")
    assert "[1] = { { 0x00, 0x01, 0x02, 0x83, 0x04, 0x05 }, 0 }," in table
    assert "syscall_abi" not in gensyscalls.kernel_table(list(calls.values()))
    stubs = stubs_by_name(gensyscalls.user_stubs_sh4(list(calls.values())))
    assert "mov.l @r15, r0" in stubs["sys_a"] and "@(4,r15)" not in stubs["sys_a"]
    assert "mov.l @r15, r0" in stubs["sys_b"]
    assert "r15" not in stubs["sys_c"]


def test_more_than_six_words_refused():
    with pytest.raises(gensyscalls.DefError, match=r"line 1: f needs more than 6 argument words"):
        parse("0 f (uint64_t a, uint64_t b, uint64_t c, int d)")


def stubs_by_name(text):
    """Each stub's body (the lines from its label to the next .size)."""
    return dict(re.findall(r"^(sys_\w+):\n(.*?)^\t\.size", text, re.S | re.M))


def test_stubs_move_rcx_to_r10_only_for_more_than_three_args():
    lines = [f"{n} f{n} ({', '.join(f'long a{i}' for i in range(n)) or 'void'})" for n in range(7)]
    stubs = stubs_by_name(gensyscalls.user_stubs(parse("\n".join(lines))))
    for n in range(7):
        body = stubs[f"sys_f{n}"]
        assert body.startswith(f"\tmovl ${n}, %eax\n")
        assert ("movq %rcx, %r10" in body) == (n > 3), (n, body)
        assert body.endswith("\tsyscall\n\tret\n")
    assert "movq %r8, %r10" in stubs["sys_raw"]      # raw: a3 arrives in r8


def test_stubs_for_real_def_assemble(tmp_path):
    if not shutil.which("gcc"):
        pytest.skip("no gcc")
    src = tmp_path / "syscall_stubs.S"
    src.write_text(gensyscalls.user_stubs(parse(DEF.read_text())))
    r = subprocess.run(["gcc", "-c", str(src), "-o", str(tmp_path / "stubs.o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_main_writes_only_changed_files(tmp_path):
    out = tmp_path / "gen"
    assert gensyscalls.main(["gensyscalls.py", str(DEF), str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["fuzz_calls.h", "hako_syscalls.h", "kperf_calls.h", "syscall_handlers.h",
                     "syscall_stubs.S", "syscall_table.c"]
    for p in out.iterdir():
        os.utime(p, (1, 1))
    assert gensyscalls.main(["gensyscalls.py", str(DEF), str(out)]) == 0
    assert all(p.stat().st_mtime == 1 for p in out.iterdir())     # same text: untouched


def test_main_errors(tmp_path, capsys):
    bad = tmp_path / "bad.def"
    bad.write_text("0 a (void)\n0 b (void)\n")
    assert gensyscalls.main(["gensyscalls.py", str(bad), str(tmp_path / "gen")]) == 1
    assert "line 2: number 0 used twice" in capsys.readouterr().err
    assert not (tmp_path / "gen").exists()
    assert gensyscalls.main(["gensyscalls.py"]) == 2


# Names the generated code uses itself, and broken parameter lists.
def test_reserved_name_raw_refused():
    with pytest.raises(gensyscalls.DefError):
        parse("0 raw (int x)")


def test_unbalanced_parentheses_refused():
    with pytest.raises(gensyscalls.DefError):
        parse("0 f (int (*cb)(int, int)")


def test_kernel_prototypes_take_raw_words():
    header = gensyscalls.kernel_prototypes(parse("0 a (void)\n3 b (int x, const char *s)\n"))
    assert "#ifndef HAKO_SYSCALL_HANDLERS_H" in header and header.rstrip().endswith("#endif")
    assert "long sys_a(void);\n" in header
    assert "long sys_b(uint64_t, uint64_t);\n" in header


# user/fuzz's table: each parameter's kind from its declaration.
@pytest.mark.parametrize("param,kind", [
    ("const void *buf", "PTR"), ("struct hako_nic_info *info", "PTR"), ("char *const *argv", "PTR"),
    ("void (*entry)(void *)", "FN"), ("size_t len", "LEN"), ("uint64_t offset", "OFFSET"),
    ("uint64_t ns", "NS"), ("uint64_t mask", "MASK"), ("uint64_t seed", "U64"), ("int pid", "PID"),
    ("int tid", "TID"), ("int cpu", "CPU"), ("int op", "OP"), ("int flags", "FLAGS"),
    ("int prio", "PRIO"), ("int nic", "ID"), ("int code", "INT"), ("long result", "INT"),
])
def test_fuzz_kind(param, kind):
    assert gensyscalls.fuzz_kind(param) == kind


def test_fuzz_calls_lists_every_call_with_its_kinds():
    calls = parse(DEF.read_text())
    text = gensyscalls.fuzz_calls(calls)
    assert f"#define FZ_NCALLS {len(calls)}" in text
    assert '{ 2, "write", 2, { FZ_PTR, FZ_LEN } },' in text
    assert '{ 0, "null", 0, { 0 } },' in text
    assert '{ 12, "thread_create", 2, { FZ_FN, FZ_PTR } },' in text
    for i, kind in enumerate(gensyscalls.FUZZ_KINDS):
        assert f"#define FZ_{kind} {i}\n" in text


def test_fuzz_calls_marks_the_64_bit_parameters():
    """fz_wide: per call number, the parameters that take two words on SH-4."""
    text = gensyscalls.fuzz_calls(parse(DEF.read_text()))
    assert "static const unsigned char fz_wide[FZ_WIDE_NRS] = {\n" in text
    assert "\t[9] = 0x01,\n" in text            # sleep (uint64_t ns)
    assert "\t[46] = 0x02,\n" in text           # blk_write (int dev, uint64_t offset, ...)
    assert "\t[2] = " not in text              # write: no 64-bit parameter
