"""Tests for the boots' progress lines (progress.py) and the console echo's
`@@` filter (runner.py)."""
import io
import json
import time

import pytest

from hakotool import progress, runner


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def result(**record) -> str:
    return "@@ " + json.dumps(record)


def test_tests_so_far_and_time_left():
    board = progress.Board(io.StringIO(), live=False)
    clock = Clock()
    boot = progress.BootProgress(board, "test-pc-smp4", expected=4, now=clock)
    assert boot.far() == "0/4 records" and boot.remaining() is None
    boot.feed("Hako booting")
    boot.feed(result(kind="utest", name="a", ok=True))
    boot.feed(result(kind="utest", name="b", ok=False))
    clock.t += 10
    assert boot.far() == "1 passed, 1 failed"
    assert boot.remaining() == 10.0            # 2 of 4 records in 10 s
    assert boot.plain_line() == "hako: test-pc-smp4: 1 passed, 1 failed, 0:10 elapsed, about 0:10 left"
    boot.feed(result(kind="utest", name="c", ok=True, skipped=True, reason="one CPU"))
    assert boot.far() == "1 passed, 1 failed, 1 skipped"


def test_records_without_tests_and_no_estimate():
    board = progress.Board(io.StringIO(), live=False)
    boot = progress.BootProgress(board, "bench-mp", expected=None, now=Clock())
    boot.feed(result(kind="iotest", n=1))
    boot.feed("@@ {not json")
    assert boot.far() == "1 record" and boot.remaining() is None
    assert boot.plain_line() == "hako: bench-mp: 1 record, 0:00 elapsed"


def test_expected_records_from_an_earlier_result_file(tmp_path):
    path = tmp_path / "run.jsonl"
    assert progress.expected_records(path) is None
    path.write_text('{"kind":"meta"}\n{"kind":"ktest","ok":true}\n{"kind":"ktest","ok":true}\n')
    assert progress.expected_records(path) == 2


def test_plain_lines_off_a_terminal():
    out = io.StringIO()
    with progress.Board(out, live=False, plain_every=0.05) as board:
        assert progress.current() is board
        boot = board.begin("bench-intr")
        time.sleep(progress.TICK + 0.5)
        board.end(boot)
    assert progress.current() is None
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith("hako: bench-intr: 0 records, 0:0") for line in lines)


def test_no_plain_line_for_a_short_boot():
    out = io.StringIO()
    with progress.Board(out, live=False) as board:
        board.end(board.begin("test-pc-smp1"))
        board.stream(out).write("PASS x\n")
    assert out.getvalue() == "PASS x\n"


def test_live_display_prints_lines_above_it():
    pytest.importorskip("rich")                # .venv has it (requirements.txt)
    out = io.StringIO()
    with progress.Board(out, live=True) as board:
        boot = board.begin("har-st", expected=2)
        board.stream(out).write("selftest: 1 passed\n")
        boot.feed(result(kind="utest", name="a", ok=True))
        board.end(boot)
        assert board.progress is None
    assert "selftest: 1 passed\n" in out.getvalue()


class Log:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text


def test_console_echo_hides_result_lines_unless_verbose():
    for verbose, expected in ((False, "hello\n"), (True, "hello\n@@ {\"kind\":\"x\"}\n")):
        out = io.StringIO()
        console = runner._Console(Log(), out, quiet=False, verbose=verbose)
        console.feed(b"hello\r\n")
        console.feed(b'@@ {"kind":"x"}\n')
        assert out.getvalue() == expected
        assert len(console.collector.records) == 1
