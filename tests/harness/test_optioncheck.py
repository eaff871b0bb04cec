"""Tests for hakotool.optioncheck: judging a boot refused for a wrong kernel option."""
from hakotool.optioncheck import EXPECTED, LONG_WORD, judge_option, option_profile

TICK_LINE = EXPECTED["tick=0"][2]
CONSOLE = f"Hako booting\n{TICK_LINE}\n"


def test_refused_boot_passes():
    assert judge_option("tick=0", 1, CONSOLE) is None


def test_wrong_exit_fails():
    assert "expected 1" in judge_option("tick=0", 0, CONSOLE)
    assert "expected 1" in judge_option("tick=0", 3, CONSOLE)


def test_missing_or_other_line_fails():
    assert "lacks" in judge_option("tick=0", 1, "Hako booting\n")
    assert "lacks" in judge_option("slice=-1", 1, CONSOLE)


def test_line_twice_fails():
    assert "twice" in judge_option("tick=0", 1, CONSOLE + TICK_LINE + "\n")


def test_program_that_ran_fails():
    console = CONSOLE + "hako: hello (pid 1) exited with status 0\n"
    assert "ran" in judge_option("tick=0", 1, console)


def test_profiles_boot_hello_on_two_cpus():
    for name in EXPECTED:
        profile = option_profile(name)
        assert profile.smp == 2 and profile.words[0] == "hello"
    assert option_profile("tick=0").cmdline == "tick=0"
    assert option_profile("iop=3-on-2-cpus").cmdline == "iop=3"
    assert len(option_profile("line-cut").append()) > 1024
    assert LONG_WORD in option_profile("line-cut").words


def test_the_issue_s_options_are_all_there():
    cmdlines = {cmdline for cmdline, _, _ in EXPECTED.values()}
    assert {"tick=0", "slice=-1", "drvproc=nosuch", "serialise=maybe", "iop=99"} <= cmdlines
