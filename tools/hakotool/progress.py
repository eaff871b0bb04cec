"""Live progress of the harness's boots: one line per boot while it runs.

A command that boots (`./hako boot`, `bench`, `test-all`, so `make test`)
opens a Board; runner.run_boot starts a BootProgress on it for each boot and
feeds it every console line.  The line says what is running (the run's
name), how far it is (tests passed and failed so far when the guest reports
tests, else result records received), the time since it started and, when
an earlier run of the same name left a result file, the time left, estimated
from how many records that run had.

On a terminal (stdout a tty) the lines are a rich.progress display under
the output: text the harness prints meanwhile goes through Board.stream()
and appears above it, and a boot's line disappears when it ends.  Anywhere
else (CI, a pipe, a file) a boot that runs longer than PLAIN_EVERY seconds
gets one plain line every PLAIN_EVERY seconds, and nothing is redrawn.
Without a Board (tests, library use) run_boot shows no progress.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from pathlib import Path

from .results import load_records, parse_result, result_text, verdict

PLAIN_EVERY = 60.0        # seconds between two plain lines of one boot
TICK = 1.0                # how often the plain lines are looked at


def expected_records(path: Path) -> int | None:
    """How many records an earlier run left in PATH (its result file), or None."""
    try:
        count = len(load_records(path))
    except OSError:
        return None
    return count or None


def clock(seconds: float) -> str:
    """0:07, 1:05, 1:02:03."""
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


class BootProgress:
    """What one running boot has reported so far."""

    def __init__(self, board: "Board", name: str, expected: int | None, now=time.monotonic):
        self.board = board
        self.name = name
        self.expected = expected
        self.now = now
        self.started = now()
        self.next_plain = self.started + PLAIN_EVERY
        self.records = 0
        self.tests = {"pass": 0, "fail": 0, "skip": 0}
        self.task_id = None

    def feed(self, line: str) -> None:
        """One console line of the guest (runner's watcher)."""
        text = result_text(line)
        record = None if text is None else parse_result(text)
        if record is None:
            return
        self.records += 1
        if "ok" in record:
            self.tests[verdict(record)] += 1
        self.board.changed(self)

    def far(self) -> str:
        """How far the boot is: tests so far, or records received."""
        if any(self.tests.values()):
            text = f"{self.tests['pass']} passed, {self.tests['fail']} failed"
            return text + (f", {self.tests['skip']} skipped" if self.tests["skip"] else "")
        if self.expected:
            return f"{self.records}/{self.expected} records"
        return f"{self.records} record" + ("" if self.records == 1 else "s")

    def elapsed(self) -> float:
        return self.now() - self.started

    def remaining(self) -> float | None:
        """Seconds left at the pace so far, when an earlier run's count is known."""
        if not self.expected or not self.records or self.records >= self.expected:
            return None
        return self.elapsed() * (self.expected - self.records) / self.records

    def plain_line(self) -> str:
        left = self.remaining()
        return (f"hako: {self.name}: {self.far()}, {clock(self.elapsed())} elapsed"
                + (f", about {clock(left)} left" if left is not None else ""))


class _Through:
    """A text stream whose lines appear above the live display while it is shown."""

    def __init__(self, board: "Board", target):
        self.board = board
        self.target = target

    def write(self, text: str) -> int:
        self.board.write(text, self.target)
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.target.flush()

    def isatty(self) -> bool:
        return self.target.isatty()


def is_terminal(stream) -> bool:
    try:
        return stream.isatty() and os.environ.get("TERM", "") != "dumb"
    except (AttributeError, ValueError):
        return False


class Board:
    """Every boot of one command: a live display on a terminal, plain lines elsewhere."""

    def __init__(self, out=None, live: bool | None = None, plain_every: float = PLAIN_EVERY):
        self.out = sys.stdout if out is None else out
        self.live = is_terminal(self.out) if live is None else live
        self.plain_every = plain_every
        self.lock = threading.RLock()
        self.running: list[BootProgress] = []
        self.progress = None           # rich.progress.Progress while a boot runs (live)
        self.ticker: threading.Thread | None = None
        self.stop_ticker = threading.Event()

    # -- used by the commands -------------------------------------------
    def __enter__(self) -> "Board":
        _boards.append(self)
        return self

    def __exit__(self, *exc) -> None:
        for boot in list(self.running):
            self.end(boot)
        _boards.remove(self)

    def stream(self, target):
        """TARGET (stdout or stderr) as a stream that prints above the live display."""
        return target if isinstance(target, _Through) else _Through(self, target)

    # -- used by the runner ---------------------------------------------
    def begin(self, name: str, expected: int | None = None) -> BootProgress:
        with self.lock:
            boot = BootProgress(self, name, expected)
            boot.next_plain = boot.started + self.plain_every
            self.running.append(boot)
            if self.live:
                self._start_live()
                boot.task_id = self.progress.add_task(name, total=expected, far=boot.far(),
                                                      left="")
            elif self.ticker is None:
                self.stop_ticker.clear()
                self.ticker = threading.Thread(target=self._tick, daemon=True)
                self.ticker.start()
        return boot

    def changed(self, boot: BootProgress) -> None:
        if not self.live:
            return
        with self.lock:
            if self.progress is not None and boot.task_id is not None:
                left = boot.remaining()
                self.progress.update(boot.task_id, completed=boot.records, far=boot.far(),
                                     left=f"~{clock(left)} left" if left is not None else "")

    def end(self, boot: BootProgress) -> None:
        ticker = None
        with self.lock:
            if boot not in self.running:
                return
            self.running.remove(boot)
            if self.progress is not None and boot.task_id is not None:
                self.progress.remove_task(boot.task_id)
            if not self.running:
                self._stop_live()
                if self.ticker is not None:
                    self.stop_ticker.set()
                    ticker, self.ticker = self.ticker, None
        if ticker is not None and ticker is not threading.current_thread():
            ticker.join()

    def write(self, text: str, target) -> None:
        """Write TEXT to TARGET, above the live display when one is shown."""
        with self.lock:
            if self.progress is not None:
                self.progress.console.print(text, end="", markup=False, highlight=False,
                                            emoji=False, soft_wrap=True)
                return
        with contextlib.suppress(OSError, ValueError):
            target.write(text)

    # -- inside ----------------------------------------------------------
    def _start_live(self) -> None:
        if self.progress is not None:
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
        console = Console(file=self.out, highlight=False)
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(bar_width=16),
                                 TextColumn("{task.fields[far]}"), TimeElapsedColumn(),
                                 TextColumn("{task.fields[left]}"), console=console,
                                 transient=True, redirect_stdout=False, redirect_stderr=False,
                                 refresh_per_second=4)
        self.progress.start()

    def _stop_live(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def _tick(self) -> None:
        while not self.stop_ticker.wait(TICK):
            self.plain_lines()

    def plain_lines(self) -> None:
        """A plain line for every boot whose next one is due."""
        with self.lock:
            for boot in self.running:
                if boot.now() >= boot.next_plain:
                    boot.next_plain += self.plain_every
                    self.write(boot.plain_line() + "\n", self.out)
            with contextlib.suppress(OSError, ValueError):
                self.out.flush()


_boards: list[Board] = []


def current() -> Board | None:
    """The Board of the command running, if it opened one."""
    return _boards[-1] if _boards else None
