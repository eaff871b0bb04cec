"""How far an icount guest has run, read from QEMU while it runs; a run's budget.

Under icount a run's length is known in guest instructions, not in host
seconds: a loaded host slows a run down without changing what it does.  So
an icount boot's timeout is a budget of guest instructions — the timeout's
seconds at INSNS_PER_SECOND — read every POLL_SECONDS through QEMU's QMP
socket (`query-replay` returns the instruction count in every mode of QEMU
10).  QEMU 10's icount ran Hako at about 5 million guest instructions per
host second on a 2-core host with a load of 8, which makes a quiet host some
20 million; the rate is five times that, so a run that ends within its timeout
on a quiet host is far inside its budget, however loaded the host or however
slow the cost-model plugin makes it.  Host time is the backstop, LOAD_FACTOR
times the timeout: it ends a guest whose CPUs all sleep while nothing wakes
them, which spends almost no budget, and bounds how long a spinning guest can
run on a host slower than the rate assumes.
"""
from __future__ import annotations

import json
import socket
from pathlib import Path

INSNS_PER_SECOND = 100_000_000
LOAD_FACTOR = 5
POLL_SECONDS = 1.0
CONNECT_TIMEOUT = 2.0


def qmp_args(path: Path) -> list[str]:
    """QEMU arguments for a QMP server on the unix socket PATH (QEMU does not wait for us)."""
    return ["-qmp", f"unix:{path},server=on,wait=off"]


class Budget:
    """The guest-instruction budget of one boot, checked through QMP."""

    def __init__(self, path: Path, limit: int):
        self.path = Path(path)
        self.limit = limit
        self.used = 0
        self._sock: socket.socket | None = None
        self._file = None
        self._broken = False

    def _connect(self) -> bool:
        if self._file is not None:
            return True
        if self._broken or not self.path.exists():
            return False
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(CONNECT_TIMEOUT)
            sock.connect(str(self.path))
            self._sock, self._file = sock, sock.makefile("rw", encoding="utf-8")
            self._file.readline()                        # the greeting
            self._request("qmp_capabilities")
            return True
        except (OSError, ValueError):
            self.close()
            return False

    def _request(self, command: str) -> dict:
        self._file.write(json.dumps({"execute": command}) + "\n")
        self._file.flush()
        while True:
            line = self._file.readline()
            if not line:
                raise OSError("QMP closed")
            reply = json.loads(line)
            if "return" in reply or "error" in reply:    # events are skipped
                return reply

    def poll(self) -> int | None:
        """The guest's instruction count now, or None when QMP does not answer."""
        if not self._connect():
            return None
        try:
            reply = self._request("query-replay")
        except (OSError, ValueError):
            self._broken = True                  # QEMU is going away or is no QEMU
            self.close()
            return None
        count = (reply.get("return") or {}).get("icount")
        if isinstance(count, int):
            self.used = count
        return self.used

    def exceeded(self) -> bool:
        count = self.poll()
        return count is not None and count > self.limit

    def close(self) -> None:
        for thing in (self._file, self._sock):
            try:
                if thing is not None:
                    thing.close()
            except OSError:
                pass
        self._file = self._sock = None


def budget_for(timeout: float) -> int:
    """The guest instructions a TIMEOUT-second icount run may execute."""
    return int(timeout * INSNS_PER_SECOND)
