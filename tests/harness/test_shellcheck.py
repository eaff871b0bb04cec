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
