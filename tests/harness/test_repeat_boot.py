"""An icount boot on several CPUs repeats whatever the firmware did first.

Under icount QEMU's vCPUs take turns on one instruction counter, and a turn
ends at each deadline of QEMU's virtual clock.  The firmware's own length
varies from boot to boot (SeaBIOS polls the disks, which QEMU serves on host
threads), so any deadline armed before the kernel ran (the round-robin kick,
the PIT channel the firmware left ticking) would fall at another place in
the kernel's code each boot.  The kernel stops the PIT and sleeps once with
every CPU idle before the others start (kernel/sched/time.c `time_settle`),
so from there on QEMU's deadlines are the kernel's own.

The check: two boots of iotest on 8 CPUs, the second with a firmware that
runs 1 ms longer (SeaBIOS's boot menu, shown for 1 ms), print the same
result lines, instruction for instruction.  Without the two steps 21 of
25 lines differed.  Skipped until the kernel is built."""
from hakotool import runner
from hakotool.qemu import Profile

WORDS = ("iotest", "table1", "--devs", "ramdisk0,testdev0", "--ks", "2,4,8",
         "--waits", "0,10", "--loops", "10", "--pin", "on")
LONGER_FIRMWARE = "-boot menu=on,splash-time=1"


def results(root, env, name: str, extra: str = "") -> list[dict]:
    env = dict(env, HAKO_QEMU_EXTRA=extra) if extra else env
    outcome = runner.run_boot(Profile(smp=8, words=WORDS), name, 300.0, quiet=True,
                              announce=False, root=root, env=env)
    assert outcome.exit_code == 0, outcome.reason
    return [r for r in outcome.records if r.get("kind") == "iotest"]


def test_a_longer_firmware_leaves_every_figure_alone(kernel_tree):
    root, env = kernel_tree
    first = results(root, env, "repeat-a")
    second = results(root, env, "repeat-b", LONGER_FIRMWARE)
    assert len(first) == 24
    assert first == second
