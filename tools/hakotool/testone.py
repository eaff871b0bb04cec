"""`make test T=NAME` (`./hako test-all --only NAME`): one test, sent to its runner.

NAME is looked up in the test tree (resolve()):
  * a pytest node id or file: anything with "::", ending in ".py" or under
    tests/harness/ -> pytest on it;
  * a host test: a binary of build/host-tests (test_string, test_costmodel_tlb),
    BINARY:CASE as `make test` prints it, or a case of tests/host/test_*.c or
    tests/costmodel/test_*.c (TEST or KNOWN_BUG) -> that binary for that case;
  * a kernel self-test (TEST(name) in tests/kernel/*.c) -> `ktest NAME` boots;
  * an in-guest test (TEST, TEST_NEEDS or ISPC_TEST in tests/user/*.c) ->
    `selftest NAME` boots.
A name several runners know runs in each of them.

A guest test boots on the machines of the full plan (testall.PLANS["full"])
that run its kind, one after the other, until one runs it instead of
skipping it: the boots that name it first, then those with the network
cards or disks (the tests that need them run only there, the others run
there too), then the rest in plan order; the ISO and the debug kernel are
left out.  A test skipped on every one is a failure, as make test's coverage
check would make it.  A skip whose reason says what to "boot with" (--disk,
--net, --drvproc, iop=N) moves the boots that have it to the front.  Output
as make test's: PASS/FAIL/SKIP lines, then `N passed, N failed, N skipped`.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .testall import (HOST_TESTS_DIR, BootCase, Plan, TestAll, TestItem, count_boot,
                      summary_line, _outcome_reason)

KERNEL_TESTS_DIR = "tests/kernel"
USER_TESTS_DIR = "tests/user"
HARNESS_TESTS_DIR = "tests/harness"
# Host test sources and the prefix of their binaries' names (tests/host/Makefile,
# tools/costmodel/costmodel.mk).
HOST_SOURCES = (("tests/host", "test_"), ("tests/costmodel", "test_costmodel_"))

_GUEST_TEST = re.compile(r"^\s*(?:TEST|TEST_NEEDS|ISPC_TEST)\((\w+)", re.M)
_HOST_TEST = re.compile(r"^\s*(?:TEST|KNOWN_BUG)\((\w+)\)", re.M)
# The guest word of each guest runner and the result kind it reports.
GUEST_KINDS = {"ktest": "ktest", "selftest": "utest"}


@dataclasses.dataclass(frozen=True)
class Target:
    """One runner's share of T=NAME."""

    runner: str          # "pytest", "host", "ktest" or "selftest"
    name: str            # node id, host binary or guest test name
    case: str = ""       # host: the one case to run; "" for all of the binary's


def _defined(directory: Path, pattern: re.Pattern) -> set[str]:
    names: set[str] = set()
    for source in sorted(directory.glob("*.c")):
        names.update(pattern.findall(source.read_text(errors="replace")))
    return names


def host_tests(root: Path) -> dict[str, set[str]]:
    """Host test binaries by name, each with the names of its cases."""
    found = {}
    for folder, prefix in HOST_SOURCES:
        for source in sorted((root / folder).glob("test_*.c")):
            binary = prefix + source.stem[len("test_"):]
            found[binary] = set(_HOST_TEST.findall(source.read_text(errors="replace")))
    return found


def resolve(name: str, root: Path) -> list[Target]:
    """The runners T=NAME goes to; empty if no test has that name."""
    if "::" in name or name.endswith(".py") or name.startswith(HARNESS_TESTS_DIR + "/"):
        return [Target("pytest", name)]
    targets = []
    hosts = host_tests(root)
    binary, _, case = name.partition(":")
    if binary in hosts and (not case or case in hosts[binary]):
        targets.append(Target("host", binary, case))
    elif not case:
        targets += [Target("host", b, name) for b, cases in sorted(hosts.items()) if name in cases]
    if name in _defined(root / KERNEL_TESTS_DIR, _GUEST_TEST):
        targets.append(Target("ktest", name))
    if name in _defined(root / USER_TESTS_DIR, _GUEST_TEST):
        targets.append(Target("selftest", name))
    return targets


def guest_boots(plan: Plan, word: str, name: str) -> list[BootCase]:
    """The boots to try for guest test NAME, in order, each running only it."""
    kind = GUEST_KINDS[word]
    named, rest, seen = [], [], set()
    for case in plan.boots:
        if case.kinds != (kind,) or case.words[:1] != (word,) or case.iso or case.debug_kernel:
            continue
        one = dataclasses.replace(case, words=(word, name))
        if one.profile() in seen:
            continue
        seen.add(one.profile())
        (named if name in case.words[1:] else rest).append(one)
    # The boots with devices first: they also run the tests that need none.
    rest.sort(key=lambda case: (case.net == "none", case.disk == "none"))
    return named + rest


# What a skip reason's "boot with ..." asks for, and whether a boot has it.
_HINTS = (("--disk", lambda case: case.disk != "none"),
          ("--net", lambda case: case.net != "none"),
          ("--drvproc", lambda case: "drvproc=" in case.cmdline),
          ("drvmode=super", lambda case: "drvmode=super" in case.cmdline),
          ("iop", lambda case: "iop=" in case.cmdline))


def by_hint(boots: list[BootCase], reason: str) -> list[BootCase]:
    """The boots left, those giving what the skip reason's "boot with ..." names first."""
    _, found, wish = reason.partition("boot with")
    if not found:
        return boots
    wanted = [has for word, has in _HINTS if word in wish]
    return sorted(boots, key=lambda case: -sum(has(case) for has in wanted))


class OneTest(TestAll):
    """Runs the targets of one name and reports like TestAll."""

    def __init__(self, name: str, plan: Plan, root: Path, env: dict, out=None, err=None):
        super().__init__(Plan(steps=(), boots=()), root, env, out, err)
        self.name = name
        self.full = plan

    def run(self) -> int:
        targets = resolve(self.name, self.root)
        if not targets:
            self.reporter.add([TestItem(self.name, False,
                                        "no test of that name (a ktest or selftest name, a host "
                                        "test BINARY[:CASE] or CASE, or a pytest node id)")])
        for target in targets:
            getattr(self, f"one_{target.runner}")(target)
        r = self.reporter
        r.out.write(summary_line(r.passed, r.failed, r.skipped) + "\n")
        r.out.flush()
        return 0 if r.failed == 0 else 1

    def one_pytest(self, target: Target) -> None:
        self.run_pytest(("-m", "pytest", "-q", target.name))

    def one_host(self, target: Target) -> None:
        status, _ = self._make("host-tests")
        if status != 0:
            self.reporter.add([TestItem("host-tests:build", False,
                                        f"make -s host-tests exited {status}")])
            return
        binary = self.root / HOST_TESTS_DIR / target.name
        if not target.case:
            self.reporter.add(self._run_host_binary(binary))
            return
        # check.h runs the cases whose names contain the argument; keep the one named.
        # A known bug (KNOWN_BUG) named alone is run too.
        self.env = dict(self.env, HOST_TESTS_KNOWN_BUGS="1")
        wanted = f"{target.name}:{target.case}"
        items = [item for item in self._run_host_binary(binary, target.case)
                 if item.name == wanted or item.name == f"{target.name}:exit"]
        self.reporter.add(items or [TestItem(wanted, False, "the binary did not report it")])

    def one_ktest(self, target: Target) -> None:
        self._one_guest("ktest", target.name)

    def one_selftest(self, target: Target) -> None:
        self._one_guest("selftest", target.name)

    def _one_guest(self, word: str, name: str) -> None:
        skips = []
        boots = guest_boots(self.full, word, name)
        while boots:
            case = boots.pop(0)
            if not self._case_ready(case):
                return
            outcome = self._boot(case, f"test-one-{case.label}")
            items = count_boot(case.label, outcome.exit_code,
                               _outcome_reason(outcome, self.root), outcome.records, case.kinds)
            if items and all(item.skipped for item in items):
                skips.append(f"{case.label}: {items[0].reason}")
                self.err.write(f"hako: {name} skipped on {case.label} ({items[0].reason}); "
                               "the next boot\n")
                boots = by_hint(boots, items[0].reason)
                continue
            self.reporter.add(items)
            return
        why = "; ".join(skips) if skips else "no boot of the plan runs this kind"
        self.reporter.add([TestItem(f"{word}:{name}", False, f"skipped in every boot ({why})")])

