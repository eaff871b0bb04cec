"""Tests for hakotool.shellcheck's Terminal, on small shell programs."""
import sys
import time
from pathlib import Path

from hakotool.shellcheck import Terminal


def make_terminal(script: str) -> Terminal:
    return Terminal([sys.executable, "-c", script], Path("."), {"PATH": "/usr/bin:/bin"})


def test_read_until_sees_typed_echo():
    term = make_terminal("import sys\nprint('> ', flush=True)\nline = sys.stdin.readline()\n"
                         "print('got ' + line.strip(), flush=True)")
    try:
        deadline = time.monotonic() + 10
        assert term.read_until("> ", 0, deadline)
        start = len(term.text)
        term.type_line("hello")
        assert term.read_until("got hello", start, deadline)
        assert term.wait_exit(deadline)
    finally:
        term.kill()


def test_read_until_times_out_on_silence():
    term = make_terminal("import time\ntime.sleep(5)")
    try:
        assert not term.read_until("never", 0, time.monotonic() + 0.5)
    finally:
        term.kill()


def test_each_arch_has_a_shell_session():
    from hakotool.shellcheck import COMMON_SCRIPT, SCRIPTS, shell_argv
    assert shell_argv("x86_64") == ["./hako", "shell", "--smp", "2"]
    assert shell_argv("sh4") == ["./hako", "shell", "--arch", "sh4"]
    for arch in ("x86_64", "sh4"):
        assert SCRIPTS[arch][:len(COMMON_SCRIPT)] == COMMON_SCRIPT
    # r2d has one CPU and no PCI bus: no line may ask for testdev0 there.
    assert not any("testdev0" in line for line, _ in SCRIPTS["sh4"])
