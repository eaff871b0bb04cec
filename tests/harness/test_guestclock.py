"""guestclock: an icount run's budget of guest instructions, read over QMP."""
import json
import socket
import subprocess
import threading
import time

from hakotool import guestclock, runner


class FakeQmp:
    """A QMP server on a unix socket whose guest runs STEP instructions per query."""

    def __init__(self, path, step):
        self.path, self.step, self.count = path, step, 0
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path))
        self.server.listen(1)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        conn, _ = self.server.accept()
        f = conn.makefile("rw", encoding="utf-8")
        f.write(json.dumps({"QMP": {"version": {}}}) + "\n")
        f.flush()
        for line in f:
            command = json.loads(line)["execute"]
            if command == "query-replay":
                self.count += self.step
                f.write(json.dumps({"event": "SOMETHING"}) + "\n")     # skipped by the client
                f.write(json.dumps({"return": {"icount": self.count, "mode": "none"}}) + "\n")
            else:
                f.write(json.dumps({"return": {}}) + "\n")
            f.flush()


def test_budget_reads_the_count_and_says_when_it_is_spent(tmp_path):
    path = tmp_path / "qmp.sock"
    budget = guestclock.Budget(path, limit=25)
    assert budget.poll() is None                     # QEMU has not made the socket yet
    FakeQmp(path, step=10)
    assert budget.poll() == 10 and not budget.exceeded()     # 20
    assert budget.exceeded() and budget.used == 30
    budget.close()


def test_a_run_past_its_budget_ends_like_a_timeout(tmp_path):
    path = tmp_path / "qmp.sock"
    FakeQmp(path, step=10**8)
    budget = guestclock.Budget(path, guestclock.budget_for(2.0))     # 200 M instructions
    proc = subprocess.Popen(["sleep", "30"], stdin=subprocess.PIPE, start_new_session=True)
    start = time.monotonic()
    status, event = runner.supervise(proc, 60.0, None, budget)
    assert event == "budget" and time.monotonic() - start < 15
    code, reason = runner.classify(status, event, 2.0, 1, 0.0, budget.used)
    assert code == runner.EXIT_TIMEOUT
    assert reason.startswith("guest time limit: more than 300 M instructions run (icount), "
                             "the budget of a 2 s run")


def test_without_qmp_host_time_is_the_backstop(tmp_path):
    budget = guestclock.Budget(tmp_path / "never.sock", 1)
    proc = subprocess.Popen(["sleep", "30"], stdin=subprocess.PIPE, start_new_session=True)
    status, event = runner.supervise(proc, 1.5, None, budget)
    assert event == "timeout" and budget.used == 0


def test_the_budget_is_generous():
    # A 60 s run may execute 6 G instructions: five times what icount runs in 60 s on a
    # quiet 2-core host.
    assert guestclock.budget_for(60) == 6 * 10**9
    assert guestclock.qmp_args("/tmp/x.sock") == ["-qmp", "unix:/tmp/x.sock,server=on,wait=off"]
