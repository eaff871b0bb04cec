"""Tests for hakotool.crashcheck: judging a deliberate kernel crash."""
from hakotool.crashcheck import crash_profile, judge_crash

NULL_CONSOLE = """
KERNEL FAULT: #PF page fault (vector 14) on cpu 0
  rip ffffffff8010c53c <cmd_crash+0x3c>
  cr0 0000000080010011 cr2 0000000000000008 cr3 0000000000134000 cr4 00000000003000a0
backtrace:
  ffffffff8010c5f3 run_command+0x73
"""


def test_fault_with_registers_and_backtrace_passes():
    assert judge_crash("null", 3, NULL_CONSOLE) is None


def test_wrong_exit_fails():
    assert "expected 3" in judge_crash("null", 4, NULL_CONSOLE)


def test_missing_backtrace_fails():
    console = NULL_CONSOLE.replace("backtrace:", "").replace("run_command+0x73", "")
    assert "backtrace" in judge_crash("null", 3, console)


def test_panic_needs_its_message():
    assert "PANIC" in judge_crash("panic", 3, NULL_CONSOLE)


def test_profile_runs_the_crash_command():
    assert crash_profile("panic").words == ("crash", "panic")
