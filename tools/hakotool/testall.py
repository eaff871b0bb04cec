"""`./hako test-all`: the engine behind `make test`.

The test plan is testplan.py's table: which steps run
(host unit tests, pytest, the guest boot matrix, the determinism check,
a kernel fault and a panic reported as such, wrong kernel options refused
at boot, the `make gdb` path, an
interactive `./hako shell` session, the coverage check, one boot of
Debian's Linux with the peer benchmark, peer.py)
and which guest boots are made.  Each boot case names the guest command
words and the result-record kinds it counts, so e.g. a user-space
selftest can be added as
    BootCase("pc", 4, words=("selftest",), kinds=("utest",))
and a boot with the two network cards on a QEMU hub as
    BootCase("pc", 4, net="hub")
and one of the debug kernel (build/debug/hako.elf) as
    BootCase("pc", 4, debug_kernel=True)

A test that cannot run on a boot's machine (the network tests without
`--net hub`, a two-CPU test on one) reports itself skipped; a skip is
counted apart, never as a pass.  The coverage step then fails every test
that was skipped in every boot of the plan: the plan must run each test
somewhere.

Counting is done by pure functions (count_boot, count_host_output,
count_pytest, compare_runs, coverage_items) so it can be tested on canned
data; the TestAll class only runs things and feeds their output to them.

Two tiers: PLANS["check"] is `make check` (the layout check, the host
tests, pytest, one kernel self-test boot and one selftest boot: minutes),
PLANS["full"] is `make test`.  `make test T=NAME` runs one test by name
(testone.py).

Output: one progress line per item (`PASS name` / `FAIL name: reason` /
`SKIP name: why`), then exactly one last line `N passed, M failed, K skipped`.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import paths
from .crashcheck import EXPECTED as CRASH_KINDS, crash_profile, judge_crash
from .gdbcheck import check_gdb
from .optioncheck import EXPECTED as OPTION_CASES, judge_option, option_profile
from .shellcheck import check_shell
from .qemu import (DEBUG_KERNEL_IMAGE, ISO_IMAGE, KERNEL_IMAGE, Profile, image_path, make_variables,
                   qemu_available, qemu_command)
from .jobs import default_jobs, run_ordered
from .progress import Board
from .results import guest_bytes, skip_reason, verdict
from .runner import BootOutcome, build_enabled, run_boot, run_make
from .testplan import (BOOT_TIMEOUT, COUNTED_KINDS, DRVMODE_SUPER_KTESTS, DRVPROC_BLK_TESTS,  # noqa: F401
                       DRVPROC_TESTS, GUEST_WORDS, IOP_TESTS, ISOCH_TABLE_TESTS, PLANS,
                       WINDOWED, WINDOWED_TESTS, BootCase, Plan)

# ----------------------------------------------------------------------
# The runner's own settings (the plan is testplan.py's).
# ----------------------------------------------------------------------
HOST_TEST_TIMEOUT = 120.0
HOST_TESTS_DIR = "build/host-tests"
# pytest's JUnit XML report of the harness tests, for CI (build/junit/pytest.xml).
JUNIT_XML = "build/junit/pytest.xml"
PYTEST_ARGV = ("-m", "pytest", "-q", f"--junitxml={JUNIT_XML}", "tests/harness")
# Where a run leaves how long each step and each boot took (wall seconds), slowest
# first: the list to read when `make test` grows past its time.
TIMES_FILE = "build/test-times.tsv"


# ----------------------------------------------------------------------
# Pure counting functions.
# ----------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class TestItem:
    """One counted result; `weight` > 1 stands for several passes.

    A skipped item has ok False and skipped True: it is neither a pass
    nor a failure."""

    __test__ = False  # not a pytest test class

    name: str
    ok: bool
    reason: str = ""
    weight: int = 1
    skipped: bool = False


def record_reason(record: dict) -> str:
    """Why a failing result record failed (guest-supplied when present)."""
    for key in ("reason", "msg", "message", "error"):
        if record.get(key):
            return str(record[key])
    return "reported ok=false"


def count_results(label: str, records, kinds) -> list[TestItem]:
    """One item per result record whose kind is counted."""
    items = []
    for record in records:
        if record.get("kind") not in kinds:
            continue
        name = f"{label}:{record.get('name', '?')}"
        result = verdict(record)
        if result == "skip":
            items.append(TestItem(name, False, skip_reason(record), skipped=True))
        else:
            ok = result == "pass"
            items.append(TestItem(name, ok, "" if ok else record_reason(record)))
    return items


def count_boot(label: str, exit_code: int, reason: str, records, kinds=COUNTED_KINDS) -> list[TestItem]:
    """Items for one boot: its counted records plus a boot-level failure."""
    items = count_results(label, records, kinds)
    if exit_code != 0:
        items.append(TestItem(f"{label}:boot", False, reason))
    elif not items:
        items.append(TestItem(f"{label}:boot", False,
                              f"no {'/'.join(kinds)} result lines"))
    return items


def coverage_items(boots) -> list[TestItem]:
    """The coverage verdict over a plan's boots, each given as (records, kinds).

    A test ran somewhere if some boot reported it passed or failed; one
    that was only ever skipped is a failure `coverage:NAME`.  Without such
    tests the result is one pass item "coverage".
    """
    ran: dict[tuple, bool] = {}
    for records, kinds in boots:
        for record in records:
            if record.get("kind") in kinds:
                key = (record["kind"], str(record.get("name", "?")))
                ran[key] = ran.get(key, False) or verdict(record) != "skip"
    missed = [TestItem(f"coverage:{name}", False, "skipped in every boot")
              for (_, name), did in ran.items() if not did]
    return missed or [TestItem("coverage", True)]


def count_host_output(exe: str, text: str, status: int | None) -> list[TestItem]:
    """Items from a host test binary's `ok NAME` / `not ok NAME: why` lines."""
    items = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("not ok "):
            name, _, why = line[len("not ok "):].partition(":")
            items.append(TestItem(f"{exe}:{name.strip()}", False, why.strip() or "failed"))
        elif line.startswith("ok "):
            items.append(TestItem(f"{exe}:{line[3:].strip()}", True))
    if status is None:
        items.append(TestItem(f"{exe}:exit", False, "timeout"))
    elif status != 0 and not any(not item.ok for item in items):
        items.append(TestItem(f"{exe}:exit", False, f"exited with status {status}"))
    elif status == 0 and not items:
        items.append(TestItem(f"{exe}:exit", False, "printed no test lines"))
    return items


_PYTEST_COUNT = re.compile(r"(\d+) (passed|failed|errors?)\b")


def pytest_counts(text: str) -> dict[str, int] | None:
    """Counts from pytest's final summary line ("3 failed, 40 passed in ...")."""
    for line in reversed(text.splitlines()):
        pairs = _PYTEST_COUNT.findall(line)
        if pairs:
            counts = {"passed": 0, "failed": 0}
            for number, word in pairs:
                key = "passed" if word == "passed" else "failed"
                counts[key] += int(number)
            return counts
    return None


def pytest_failures(text: str) -> list[tuple[str, str]]:
    """(test id, reason) for each FAILED/ERROR line of pytest's short summary."""
    found = []
    for line in text.splitlines():
        for prefix in ("FAILED ", "ERROR "):
            if line.startswith(prefix):
                name, _, why = line[len(prefix):].partition(" - ")
                found.append((name.strip(), why.strip() or prefix.strip().lower()))
    return found


def count_pytest(text: str, status: int) -> list[TestItem]:
    """Items for a pytest run: named failures, and one weighted pass item."""
    counts = pytest_counts(text)
    if counts is None:
        why = "no tests ran" if status in (0, 5) else f"pytest exited with status {status}"
        return [TestItem("pytest", False, why)]
    items = [TestItem(f"pytest:{name}", False, why) for name, why in pytest_failures(text)]
    items = items[:counts["failed"]]
    missing = counts["failed"] - len(items)
    if missing > 0:
        items.append(TestItem("pytest", False, "unnamed failures", weight=missing))
    if counts["passed"]:
        items.insert(0, TestItem("pytest", True, weight=counts["passed"]))
    if status != 0 and not counts["failed"]:
        items.append(TestItem("pytest", False, f"pytest exited with status {status}"))
    return items


def compare_runs(first: bytes, second: bytes) -> str | None:
    """None if two result files are identical, else where they differ."""
    if first == second:
        return None
    a, b = first.splitlines(), second.splitlines()
    for number, (left, right) in enumerate(zip(a, b), start=1):
        if left != right:
            return f"results differ at line {number}"
    return f"results differ in length ({len(a)} vs {len(b)} lines)"


def determinism_item(outcomes, contents) -> TestItem:
    """Verdict for the determinism check from two boots and their files."""
    for outcome in outcomes:
        if outcome.exit_code != 0:
            return TestItem("determinism", False, f"{outcome.name}: {outcome.reason}")
    if not contents[0].strip():
        return TestItem("determinism", False, "no result lines")
    why = compare_runs(*contents)
    return TestItem("determinism", why is None, why or "")


def summary_line(passed: int, failed: int, skipped: int) -> str:
    return f"{passed} passed, {failed} failed, {skipped} skipped"


def times_table(times: list[tuple[str, str, float]]) -> str:
    """TIMES_FILE's text: kind, name and wall seconds a line, slowest first, then the total
    of the steps (boots run side by side, so theirs add up to more than their step)."""
    lines = ["kind\tname\tseconds"]
    for kind, name, seconds in sorted(times, key=lambda t: -t[2]):
        lines.append(f"{kind}\t{name}\t{seconds:.1f}")
    total = sum(seconds for kind, _, seconds in times if kind == "step")
    lines.append(f"total\tsteps\t{total:.1f}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------
# Running.
# ----------------------------------------------------------------------
class Reporter:
    """Prints progress lines and keeps the tally."""

    def __init__(self, out):
        self.out = out
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def add(self, items) -> None:
        for item in items:
            if item.skipped:
                self.skip(item.name, item.reason, item.weight)
            elif item.ok:
                self.passed += item.weight
                extra = f" ({item.weight} tests)" if item.weight > 1 else ""
                self._say(f"PASS {item.name}{extra}")
            else:
                self.failed += item.weight
                self._say(f"FAIL {item.name}: {item.reason}")

    def skip(self, name: str, why: str, weight: int = 1) -> None:
        self.skipped += weight
        self._say(f"SKIP {name}: {why}")

    def _say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()


def _outcome_reason(outcome: BootOutcome, root: Path) -> str:
    if outcome.log is not None and outcome.log.exists():
        return f"{outcome.reason} (log: {paths.relative(root, outcome.log)})"
    return outcome.reason


def host_test_binaries(directory: Path) -> list[Path]:
    """Executables named test_* in build/host-tests/, sorted."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob("test_*")
                  if p.is_file() and os.access(p, os.X_OK))


class TestAll:
    """Runs a Plan's steps and reports through a Reporter."""

    __test__ = False  # not a pytest test class

    def __init__(self, plan: Plan, root: Path, env: dict, out=None, err=None, jobs: int = 1):
        self.plan = plan
        self.jobs = jobs                                # boots at a time (jobs.py)
        self.root = root
        self.env = env
        self.err = sys.stderr if err is None else err
        self.reporter = Reporter(sys.stdout if out is None else out)
        self._built: dict[str, bool] = {}
        self._booted: list[tuple[list, tuple]] = []   # (records, kinds) of each boot
        self._times: list[tuple[str, str, float]] = []  # (kind, name, seconds): TIMES_FILE
        self._times_lock = threading.Lock()            # boots end on run_ordered's threads

    def _took(self, kind: str, name: str, since: float) -> None:
        with self._times_lock:
            self._times.append((kind, name, time.monotonic() - since))

    def run(self) -> int:
        for step in self.plan.steps:
            since = time.monotonic()
            getattr(self, f"step_{step}")()
            self._took("step", step, since)
        times = self.root / TIMES_FILE
        try:
            times.parent.mkdir(parents=True, exist_ok=True)
            times.write_text(times_table(self._times), encoding="utf-8")
        except OSError as exc:
            self.err.write(f"test-all: cannot write {TIMES_FILE}: {exc}\n")
        r = self.reporter
        r.out.write(summary_line(r.passed, r.failed, r.skipped) + "\n")
        r.out.flush()
        return 0 if r.failed == 0 else 1

    # -- builds ----------------------------------------------------------
    def _make(self, target: str, variables: tuple[str, ...] = ()) -> tuple[int, str]:
        if not build_enabled(self.env):
            return 0, ""
        status, output = run_make(self.root, target, self.env, capture=True, variables=variables)
        if status != 0 and output.strip():
            self.err.write(output if output.endswith("\n") else output + "\n")
        return status, output

    def built(self, target: str, artefact: str, counted: bool,
              variables: tuple[str, ...] = ()) -> bool:
        """Build `target` once; a counted failure adds a `build:` item."""
        key = " ".join(variables + (target,))
        if key not in self._built:
            status, _ = self._make(target, variables)
            ok = status == 0 and (self.root / artefact).is_file()
            self._built[key] = ok
            if not ok and counted:
                why = f"make -s {key} exited {status}" if status else f"{artefact} missing"
                self.reporter.add([TestItem(f"build:{key}", False, why)])
        return self._built[key]

    # -- steps -----------------------------------------------------------
    def step_layout(self) -> None:
        """The arch boundary (tools/build/checkarch.py): no arch-internal header in generic code."""
        proc = subprocess.run([sys.executable, str(self.root / "tools" / "build" / "checkarch.py"), str(self.root)],
                              capture_output=True, text=True, timeout=HOST_TEST_TIMEOUT)
        self.reporter.add(count_host_output("layout", proc.stdout, proc.returncode))

    def step_host(self) -> None:
        status, _ = self._make("host-tests")
        if status != 0:
            self.reporter.add([TestItem("host-tests:build", False,
                                        f"make -s host-tests exited {status}")])
            return
        binaries = host_test_binaries(self.root / HOST_TESTS_DIR)
        if not binaries:
            self.reporter.skip("host-tests", f"no {HOST_TESTS_DIR}/test_* executables")
        for binary in binaries:
            self.reporter.add(self._run_host_binary(binary))

    def _run_host_binary(self, binary: Path, *args: str) -> list[TestItem]:
        try:
            proc = subprocess.run([str(binary), *args], cwd=self.root, env=self.env,
                                  capture_output=True, timeout=HOST_TEST_TIMEOUT)
        except subprocess.TimeoutExpired as exc:
            text = (exc.stdout or b"").decode("utf-8", errors="replace")
            return count_host_output(binary.name, text, None)
        except OSError as exc:
            return [TestItem(f"{binary.name}:exit", False, f"cannot run: {exc}")]
        text = proc.stdout.decode("utf-8", errors="replace")
        return count_host_output(binary.name, text, proc.returncode)

    def step_pytest(self) -> None:
        self.run_pytest(PYTEST_ARGV)

    def run_pytest(self, argv) -> None:
        proc = subprocess.run([sys.executable, *argv], cwd=self.root,
                              env=self.env, capture_output=True, text=True,
                              errors="replace")
        text = proc.stdout + proc.stderr
        items = count_pytest(text, proc.returncode)
        if any(not item.ok for item in items):
            self.err.write(text)
        self.reporter.add(items)

    def _boot(self, case: BootCase, name: str) -> BootOutcome:
        since = time.monotonic()
        outcome = run_boot(case.profile(), name, case.timeout, quiet=True,
                           announce=False, build=False, root=self.root,
                           env=self.env, err=self.err)
        self._took("boot", name, since)
        return outcome

    def _arch_built(self, case: BootCase, label: str) -> bool:
        """A second arch's kernel is built; without its tools `label` is skipped."""
        missing = arch_tools_missing(case.arch, self.env)
        if missing:
            self.reporter.skip(label, f"{missing} not found (make deps installs the "
                               f"{case.arch} tools)")
            return False
        profile = case.profile()
        return self.built("kernel", image_path(profile), counted=True,
                          variables=make_variables(profile))

    def _case_ready(self, case: BootCase) -> bool:
        if case.arch != "x86_64":
            return self._arch_built(case, case.label)
        if not self.built("kernel", KERNEL_IMAGE, counted=True):
            return False
        if case.debug_kernel and not self.built("kernel-debug", DEBUG_KERNEL_IMAGE, counted=True):
            return False
        if case.iso and not self.built("iso", ISO_IMAGE, counted=False):
            self.reporter.skip(case.label, "make iso did not produce build/hako.iso")
            return False
        return True

    def step_boots(self) -> None:
        """Every boot of the plan, self.jobs at a time, reported in plan order."""
        ready = [case for case in self.plan.boots if self._case_ready(case)]

        def report(_, case, outcome):
            self._booted.append((outcome.records, case.kinds))
            self.reporter.add(count_boot(case.label, outcome.exit_code,
                                         _outcome_reason(outcome, self.root),
                                         outcome.records, case.kinds))
        run_ordered(ready, lambda case: self._boot(case, f"test-{case.label}"), self.jobs,
                    report)

    def step_coverage(self) -> None:
        """Every test the boots reported ran (passed or failed) in one of them."""
        if self._booted:
            self.reporter.add(coverage_items(self._booted))

    def step_determinism(self) -> None:
        case = self.plan.determinism
        if not self._case_ready(case):
            return
        outcomes = []
        run_ordered((1, 2), lambda i: self._boot(case, f"determinism-{i}"), self.jobs,
                    lambda _, __, outcome: outcomes.append(outcome))
        contents = [guest_bytes(o.jsonl.read_bytes()) if o.jsonl and o.jsonl.exists() else b""
                    for o in outcomes]                  # the meta records differ by date
        self.reporter.add([determinism_item(outcomes, contents)])

    def _failing_boot(self, profile: Profile, name: str) -> tuple[BootOutcome, str]:
        """A boot meant to fail: its outcome and console (the log is not kept)."""
        outcome = run_boot(profile, name, BOOT_TIMEOUT, quiet=True, announce=False, build=False,
                           root=self.root, env=self.env, err=self.err)
        console = ""
        if outcome.log is not None and outcome.log.exists():
            console = outcome.log.read_text(encoding="utf-8", errors="replace")
            outcome.log.unlink()
        return outcome, console

    def step_crash(self) -> None:
        if not self.built("kernel", KERNEL_IMAGE, counted=True):
            return
        for kind in CRASH_KINDS:
            outcome, console = self._failing_boot(crash_profile(kind), f"crash-{kind}")
            why = judge_crash(kind, outcome.exit_code, console)
            self.reporter.add([TestItem(f"crash-{kind}", why is None, why or "")])

    def step_options(self) -> None:
        """Each wrong kernel option stops the boot with its one line (optioncheck.py)."""
        if not self.built("kernel", KERNEL_IMAGE, counted=True):
            return
        for name in OPTION_CASES:
            outcome, console = self._failing_boot(option_profile(name),
                                                  f"option-{name.replace('=', '-')}")
            why = judge_option(name, outcome.exit_code, console)
            self.reporter.add([TestItem(f"option-{name}", why is None, why or "")])

    def step_gdb(self) -> None:
        if not self.built("kernel", KERNEL_IMAGE, counted=True):
            return
        ok, why = check_gdb(self.root, self.env)
        self.reporter.add([TestItem("gdb", ok, why)])

    def step_shell(self) -> None:
        """`./hako shell` typed at on x86, then on SH-4 (skipped without its tools)."""
        if self.built("kernel", KERNEL_IMAGE, counted=True):
            ok, why = check_shell(self.root, self.env)
            self.reporter.add([TestItem("shell", ok, why)])
        if self._arch_built(BootCase("r2d", 1, arch="sh4"), "shell-sh4"):
            ok, why = check_shell(self.root, self.env, "sh4")
            self.reporter.add([TestItem("shell-sh4", ok, why)])


    def step_peer(self) -> None:
        """Debian's Linux boots in Hako's QEMU set-up and linuxbench prints every
        figure (`./hako bench peer`'s Linux half, once; ~20 s)."""
        from .peer import check_linux
        ok, why = check_linux(self.root, self.env, self.err)
        self.reporter.add([TestItem("peer-linux", ok, why)])


# The compiler each second arch's kernel is built with (kernel/arch/ARCH/arch.mk).
ARCH_COMPILERS = {"sh4": "sh4-linux-gnu-gcc"}


def arch_tools_missing(arch: str, env: dict) -> str:
    """The first tool a second arch's boot lacks (its compiler, its QEMU), or ""."""
    compiler = ARCH_COMPILERS.get(arch, "")
    if compiler and shutil.which(compiler, path=env.get("PATH")) is None:
        return compiler
    command = qemu_command(env, arch)
    if not qemu_available(command):
        return command[0]
    return ""


def run_test_all(quick: bool = False, plan: Plan | None = None,
                 root: Path | None = None, env: dict | None = None,
                 out=None, err=None, check: bool = False, only: str = "",
                 jobs: int = 1) -> int:
    """Entry point used by the CLI (and by tests with a custom plan).

    only: one test's name, run alone by its runner (testone.py); jobs: boots
    at a time (0: jobs.default_jobs())."""
    env = dict(os.environ) if env is None else env
    root = paths.repo_root(env) if root is None else Path(root)
    if only:
        from .testone import OneTest
        return OneTest(only, PLANS["full"], root, env, out, err).run()
    plan = plan or PLANS["check" if check else "quick" if quick else "full"]
    out = sys.stdout if out is None else out
    with Board(out) as board:             # a progress line per boot while it runs
        err = board.stream(sys.stderr if err is None else err)
        return TestAll(plan, root, env, board.stream(out), err, jobs or default_jobs()).run()
