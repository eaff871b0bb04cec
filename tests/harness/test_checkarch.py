"""Tests for tools/build/checkarch.py: generic kernel code sees only the arch interface, and
nothing under kernel/sched or kernel/proc includes a header of a subsystem built on them."""
import importlib.util
import pathlib

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("checkarch", REPO_ROOT / "tools" / "build" / "checkarch.py")
checkarch = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checkarch)


def make_tree(tmp_path, generic_text):
    arch = tmp_path / "kernel" / "arch" / "x86_64"
    (arch / "include" / "arch").mkdir(parents=True)
    (arch / "include" / "arch" / "arch.h").write_text("")
    (arch / "ioapic.h").write_text("")
    (tmp_path / "kernel" / "dev").mkdir(parents=True)
    (tmp_path / "kernel" / "dev" / "pci.c").write_text(generic_text)
    (arch / "ioapic.c").write_text('#include "ioapic.h"\n__asm__ volatile("cli");\n')
    return tmp_path


def test_the_repository_keeps_the_boundary():
    assert checkarch.breaches(REPO_ROOT) == []


def test_interface_headers_are_allowed(tmp_path):
    root = make_tree(tmp_path, "#include <arch/arch.h>\n#include <pci.h>\n")
    assert checkarch.breaches(root) == []


def test_internal_header_in_generic_code_is_a_breach(tmp_path):
    root = make_tree(tmp_path, '#include "ioapic.h"\n')
    found = checkarch.breaches(root)
    assert len(found) == 1 and "kernel/dev/pci.c:1" in found[0] and "arch-internal" in found[0]


def test_unknown_arch_header_and_relative_paths_are_breaches(tmp_path):
    root = make_tree(tmp_path, "#include <arch/lapic.h>\n#include \"../arch/x86_64/ioapic.h\"\n")
    assert len(checkarch.breaches(root)) == 2


def test_inline_assembly_outside_arch_is_a_breach(tmp_path):
    root = make_tree(tmp_path, 'void f(void) { __asm__ volatile("hlt"); }\n')
    found = checkarch.breaches(root)
    assert len(found) == 1 and "inline assembly" in found[0]


def test_main_prints_the_host_test_format(tmp_path, capsys):
    root = make_tree(tmp_path, '#include "ioapic.h"\n')
    assert checkarch.main(["checkarch.py", str(root)]) == 1
    assert capsys.readouterr().out.startswith("not ok arch_boundary: ")
    root2 = tmp_path / "clean"
    make_tree(root2, "")
    assert checkarch.main(["checkarch.py", str(root2)]) == 0
    assert capsys.readouterr().out == "ok arch_boundary\n"


def test_inline_assembly_in_user_code_outside_arch_is_a_breach(tmp_path):
    root = make_tree(tmp_path, "")
    (root / "user" / "prog").mkdir(parents=True)
    (root / "user" / "prog" / "main.c").write_text('void f(void) { __asm__ volatile("pause"); }\n')
    (root / "user" / "include" / "arch").mkdir(parents=True)
    (root / "user" / "include" / "arch" / "ok.h").write_text('__asm__ volatile("pause");\n')
    found = checkarch.breaches(root)
    assert found == ["user/prog/main.c:1: inline assembly outside an arch/ folder"]


def plant_arch_function(root, text, name="lapic.c"):
    (root / "kernel" / "arch" / "x86_64" / name).write_text(text)


def test_generic_call_to_a_non_arch_function_of_the_arch_is_a_breach(tmp_path):
    root = make_tree(tmp_path, "void f(void)\n{\n\tlapic_eoi();\n}\n")
    plant_arch_function(root, "#include \"lapic.h\"\n\nvoid lapic_eoi(void)\n{\n}\n")
    found = checkarch.breaches(root)
    assert len(found) == 1 and "kernel/dev/pci.c:3" in found[0] and "lapic_eoi()" in found[0]
    assert "kernel/arch/x86_64/lapic.c" in found[0]


def test_arch_hooks_static_functions_and_mentions_are_not_breaches(tmp_path):
    generic = ("/* lapic_eoi() is the arch's */\nvoid f(void)\n{\n\tarch_intr_eoi();\n"
               "\tkprintf(\"eoi()\");\n\tops->eoi();\n}\n")
    root = make_tree(tmp_path, generic)
    plant_arch_function(root, "static void eoi(void)\n{\n}\n\nvoid arch_intr_eoi(void)\n{\n\teoi();\n}\n"
                              "void lapic_eoi(void);\n")
    assert checkarch.breaches(root) == []


def test_generic_call_to_an_assembly_symbol_or_interface_inline_is_a_breach(tmp_path):
    root = make_tree(tmp_path, "void f(void)\n{\n\ttrap_return();\n\tmuldiv64(1, 2, 3);\n}\n")
    plant_arch_function(root, "\t.globl arch_switch, trap_return\ntrap_return:\n\tiretq\n", "vectors.S")
    (root / "kernel" / "arch" / "x86_64" / "include" / "arch" / "arch.h").write_text(
        "static inline unsigned long muldiv64(unsigned long a, unsigned long b, unsigned long c)\n"
        "{\n\treturn a * b / c;\n}\n")
    found = checkarch.breaches(root)
    assert [f.split(": ")[0] for f in found] == ["kernel/dev/pci.c:3", "kernel/dev/pci.c:4"]


def test_a_header_name_in_two_include_folders_is_a_breach(tmp_path):
    root = make_tree(tmp_path, "")
    for folder in ("mm", "sched"):
        (root / "kernel" / folder).mkdir()
        (root / "kernel" / folder / "time.h").write_text("")
    found = checkarch.breaches(root)
    assert len(found) == 1 and "kernel/sched/time.h" in found[0] and "kernel/mm/time.h" in found[0]


def test_kernel_tests_are_generic_kernel_code(tmp_path):
    root = make_tree(tmp_path, "")
    (root / "tests" / "kernel").mkdir(parents=True)
    (root / "tests" / "kernel" / "test_x.c").write_text('#include "ioapic.h"\nvoid f(void) { asm("hlt"); }\n')
    found = checkarch.breaches(root)
    assert len(found) == 2 and all(f.startswith("tests/kernel/test_x.c:") for f in found)


def test_inline_assembly_in_user_tests_outside_arch_is_a_breach(tmp_path):
    root = make_tree(tmp_path, "")
    (root / "tests" / "user" / "arch").mkdir(parents=True)
    (root / "tests" / "user" / "test_y.c").write_text('void f(void) { __asm__("pause"); }\n')
    (root / "tests" / "user" / "arch" / "ok.c").write_text('void g(void) { __asm__("pause"); }\n')
    assert checkarch.breaches(root) == ["tests/user/test_y.c:1: inline assembly outside an arch/ folder"]


# ---- layering: sched and proc include nothing of drvproc, drivers, ipc, mpio ----

def make_layers(tmp_path, sched_text):
    """A kernel with sched.c (sched_text), a lib header, and one header in each folder above."""
    (tmp_path / "kernel" / "arch" / "x86_64" / "include" / "arch").mkdir(parents=True)
    files = {
        "kernel/sched/sched.h": "",
        "kernel/sched/sched.c": sched_text,
        "kernel/proc/proc.c": "#include <proc.h>\n#include <sched.h>\n",
        "kernel/proc/proc.h": "#include <list.h>\n",
        "kernel/lib/list.h": "",
        "kernel/lib/wrap.h": "#include <ica.h>\n",
        "kernel/drvproc/drvproc.h": "#include <proc.h>\n",
        "kernel/drivers/net/nic.h": "",
        "kernel/ipc/ica.h": "#include <proc.h>\n",
        "kernel/mpio/mpio.h": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_repository_keeps_the_layering():
    assert checkarch.layering(REPO_ROOT) == []


def test_core_and_lib_headers_are_allowed(tmp_path):
    root = make_layers(tmp_path, "#include <sched.h>\n#include <list.h>\n#include <proc.h>\n")
    assert checkarch.layering(root) == []


def test_a_header_of_each_subsystem_above_is_a_breach(tmp_path):
    root = make_layers(tmp_path, "#include <sched.h>\n#include <drvproc.h>\n#include <nic.h>\n"
                               "#include <ica.h>\n#include <mpio.h>\n")
    found = checkarch.layering(root)
    assert len(found) == 4
    assert all(f.startswith("kernel/sched/sched.c:") for f in found)
    for line, path in zip((2, 3, 4, 5), ("drvproc/drvproc.h", "drivers/net/nic.h", "ipc/ica.h", "mpio/mpio.h")):
        assert any(f"sched.c:{line}: includes kernel/{path}" in f for f in found)


def test_a_breach_through_another_header_names_the_chain(tmp_path):
    root = make_layers(tmp_path, "#include <wrap.h>\n")
    found = checkarch.layering(root)
    assert len(found) == 1 and "(wrap.h -> ica.h)" in found[0]


def test_a_planted_include_fails_main(tmp_path, capsys):
    root = make_layers(tmp_path, "")
    (root / "kernel" / "proc" / "proc.c").write_text("#include <proc.h>\n#include <drvproc.h>\n")
    assert checkarch.main(["checkarch.py", str(root)]) == 1
    out = capsys.readouterr().out
    assert "not ok arch_boundary: kernel/proc/proc.c:2: includes kernel/drvproc/drvproc.h" in out


def test_an_interface_header_one_arch_lacks_is_a_breach(tmp_path):
    root = make_tree(tmp_path, "#include <arch/arch.h>\n")
    second = root / "kernel" / "arch" / "sh4" / "include" / "arch"
    second.mkdir(parents=True)
    assert checkarch.breaches(root) == ["kernel/arch/sh4/include/arch/arch.h: missing; another arch "
                                        "has it (every arch provides the whole interface)"]
    (second / "arch.h").write_text("")
    assert checkarch.breaches(root) == []
