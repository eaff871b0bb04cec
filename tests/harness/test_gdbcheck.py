"""Tests for hakotool.gdbcheck: how `make gdb` is driven and judged."""
from hakotool.gdbcheck import free_port, gdb_argv, stopped_in_kmain

GOOD = """The target architecture is set to "i386:x86-64".
Hardware assisted breakpoint 1 at 0xffffffff8010bd50: file kernel/boot/main.c, line 89.

Thread 1 hit Breakpoint 1, kmain (magic=732803074, info_phys=38144) at kernel/boot/main.c:89
#0  kmain (magic=732803074, info_phys=38144) at kernel/boot/main.c:89
"""


def test_stop_in_kmain_with_source_passes():
    assert stopped_in_kmain(GOOD) is None


def test_no_stop_fails():
    text = "Hardware assisted breakpoint 1 at 0xffffffff8010bd50\nRemote connection closed\n"
    assert stopped_in_kmain(text) == "gdb did not stop at kmain"


def test_stop_without_symbols_fails():
    text = "Thread 1 hit Breakpoint 1, kmain () at ??\n"
    assert "symbols" in stopped_in_kmain(text)


def test_gdb_argv_targets_the_port_and_loads_gdbinit():
    argv = gdb_argv(4321)
    assert argv[0] == "gdb" and "-batch" in argv
    assert argv[argv.index("-x") + 1] == "tools/gdbinit"
    assert "target remote 127.0.0.1:4321" in argv
    assert argv[-1] == "build/hako.elf"


def test_free_port_is_a_user_port():
    assert 1024 <= free_port() < 65536
