"""make test's plan: which steps run and which guest boots are made (testall.py runs it).

Each boot case names the guest command words and the result-record kinds
it counts, so e.g. a user-space selftest is
    BootCase("pc", 4, words=("selftest",), kinds=("utest",))
a boot with the two network cards on a QEMU hub
    BootCase("pc", 4, net="hub")
and one of the debug kernel (build/debug/hako.elf)
    BootCase("pc", 4, debug_kernel=True)
Two tiers: PLANS["check"] is `make check`, PLANS["full"] is `make test`.
"""
from __future__ import annotations

import dataclasses

from .qemu import Profile

GUEST_WORDS = ("ktest",)
COUNTED_KINDS = ("ktest",)
BOOT_TIMEOUT = 180.0


@dataclasses.dataclass(frozen=True)
class BootCase:
    """One guest boot in the matrix and what its results count as."""

    machine: str
    smp: int
    iso: bool = False
    mode: str = "icount"
    mem: str = "128M"
    words: tuple[str, ...] = GUEST_WORDS
    kinds: tuple[str, ...] = COUNTED_KINDS
    timeout: float = BOOT_TIMEOUT
    cmdline: str = ""                    # kernel options, "k=v ..."
    net: str = "none"
    debug_kernel: bool = False           # boot build/debug/hako.elf (make kernel-debug)
    disk: str = "none"                   # --disk: fresh disk images (disks.py)
    tag: str = ""                        # told apart from a boot otherwise alike
    arch: str = "x86_64"                 # sh4: QEMU's r2d board (machine "r2d")

    @property
    def label(self) -> str:
        text = ("sh4-" if self.arch == "sh4" else "") + f"{self.machine}-smp{self.smp}" + \
            ("-iso" if self.iso else "")
        if self.mem != BootCase.mem:
            text += f"-{self.mem}"
        if self.net != BootCase.net:
            text += f"-net-{self.net}"
        if self.disk != BootCase.disk:
            text += f"-disk-{self.disk}"
        if self.words != GUEST_WORDS:
            text += f"-{self.words[0]}" if self.words else "-default"
        for option in self.cmdline.split():
            text += "-" + option.replace("=", "-")
        if self.debug_kernel:
            text += "-debug-kernel"
        if self.tag:
            text += f"-{self.tag}"
        return text

    def profile(self) -> Profile:
        return Profile(arch=self.arch, machine=self.machine, smp=self.smp, mem=self.mem,
                       mode=self.mode, words=self.words, iso=self.iso,
                       cmdline=self.cmdline, net=self.net, disk=self.disk,
                       debug_kernel=self.debug_kernel)


# tests/user/test_iop.c: what the iop=3 boot runs.
IOP_TESTS = (
    "iop_every_device_checked_data_from_the_other_cpus",
    "iop_completions_follow_the_delivery_policy",
    "iop_runs_no_thread",
    "iop_switching_on_and_off_while_workers_run_loses_nothing",
)


# user/selftest: the card and drvproc tests the drvproc boot runs (paper 003),
# with both network drivers as processes.
DRVPROC = "drvproc=rtl8139,e1000"
# The reserved schedule (isoch=table): its own selftests, which every other
# boot skips, and the generic clean-up one (the generic isoch tests all pass
# in this mode too: `./hako boot --cmdline isoch=table -- selftest NAME`).
IRQTRACE_TESTS = ("irqtrace_charges_sections_to_the_call", "null_syscall_returns_zero",
                  "syscall_keeps_callee_saved_registers", "unknown_syscalls_enosys")

# Server calls in fast mode with the selftest processes among the windowed
# servers: the words calls' dedicated reply (ispc_reply_recv) and the
# return straight to user mode of the side whose call the other ends
# (sched_switch_direct_user) run only for a windowed server, which the
# other boots' test servers are not.
WINDOWED = "ispc=fast servers=nameserver,echo,ramdisk,selftest"
WINDOWED_TESTS = (
    "ispc_call_same_results_both_paths", "ispc_call_with_data_same_results_both_paths",
    "ispc_call_server_on_other_cpu_falls_back", "ispc_call_keeps_callee_saved_registers",
    "ispc_call_forward_of_direct_request_passed_on", "ispc_call_bad_arguments_refused",
    "fastpath_server_awaiting_its_forward_by_ispc_call", "fastpath_too_many_awaited_eagain_by_ispc_call",
    "fastpath_dead_server_esrch_by_ispc_call", "fastpath_requester_killed_mid_call_by_ispc_call",
    "fastpath_direct_sleeper_woken_general_way_by_ispc_call",
    "fastpath_queue_not_empty_falls_back_by_ispc_call", "fastpath_server_killed_mid_call_by_ispc_call",
    "fastpath_server_not_waiting_falls_back_by_ispc_call",
    "fastpath_server_on_other_cpu_falls_back_by_ispc_call",
    "fastpath_calls_same_results_as_general_path_by_ispc_call",
)

ISOCH_TABLE_TESTS = (
    "isoch_table_no_missed_release_with_hogs_on_two_cpus",
    "isoch_table_gives_a_greedy_thread_its_budget_and_no_more",
    "isoch_table_is_rebuilt_by_start_stop_destroy_and_exit_and_freed",
    "isoch_table_too_big_is_refused_at_start",
    "isoch_stop_destroy_and_exit_give_the_reservation_back",
)
DRVPROC_TESTS = (
    "nic_owner_end_gives_card_back",
    "nic_flood_sequential_loses_nothing",
    "nic_full_queue_is_refilled_in_batches",
    "nic_frames_in_order_sequential",
    "nic_calls_check_arguments_on_the_cards",
    "intr_and_nic_calls_check_arguments",
    "drvproc_driver_calls_refused_to_other_processes",
    "drvproc_call_to_unknown_card_fails",
    # Phase 2: faults and restart (tests/user/test_restart.c).
    "drvproc_inject_checks_its_arguments",
    "driver_killed_mid_flood_restarts_and_accounts_every_frame",
    "driver_hung_is_killed_by_the_watchdog_and_restarted",
    "driver_faults_leave_kernel_and_bystanders_running",
    "driver_failing_its_start_is_given_up_then_restarted_on_request",
    "counter_reset_keeps_a_given_up_driver_restartable",
    "drvproc_copy_from_a_page_freed_under_it_reads_no_other_process_frame",
    "fault_counters_are_the_kernels_and_stay_bounded",
    "driver_breaking_the_call_protocol_is_killed_and_sends_succeed_again",
    "driver_refusing_every_send_is_killed_by_the_watchdog",
    "driver_crashing_in_its_own_code_is_killed_alone_and_restarted",
)


# user/selftest: block I/O through driver processes (paper 003): the
# ramdisk's and the AHCI disk's drivers as processes, the data checked
# against the disk's labels and read back on every device, each driver
# killed and restarted.
DRVPROC_BLK = "drvproc=ramdisk,ahci"
DRVPROC_BLK_TESTS = (
    "drvproc_block_devices_move_the_same_data_as_in_the_kernel",
    "drvproc_block_driver_killed_is_restarted_and_serves_again",
    "blk_every_device_reads_back_what_was_written",
    "blk_processes_on_every_cpu_share_each_device",
)


# The driver processes of the boots above in supervisor mode instead of ring 3,
# and the kernel tests that boot runs: the cards through the drivers, the
# grants, the supervisor-mode checks (the others do not meet a driver).
DRVMODE_SUPER = "drvmode=super"
DRVMODE_SUPER_KTESTS = (
    "nic_pair_found_on_the_hub",
    "nic_rtl8139_to_e1000_200_frames",
    "nic_e1000_to_rtl8139_200_frames",
    "nic_send_rejects_bad_lengths",
    "drvproc_port_outside_grant_kills_process",
    "drvproc_cards_granted_to_processes_only",
    "drvproc_grants_outside_manifest_refused",
    "drvproc_super_drivers_map_only_supervisor_pages",
    "driver_refuses_resources_outside_manifest",
)


# user/fuzz in make test: CALLS SEED THREADS PROCS, every call of syscalls.def.
# Two seeds: seed 1 with these numbers once stopped the kernel (a thread
# preempted inside a cross-CPU call it had taken, moved behind a CPU waiting
# for that call with interrupts off), so it stays as that bug's test.
FUZZ_SEEDS = ("1", "2")


def fuzz_words(seed: str) -> tuple[str, ...]:
    return ("fuzz", "100000", seed, "8", "3")


@dataclasses.dataclass(frozen=True)
class Plan:
    """Which steps run, in order, and the boots they use."""

    steps: tuple[str, ...]
    boots: tuple[BootCase, ...]
    # Every kernel self-test, the network cards' included, twice: identical results.
    determinism: BootCase = BootCase("pc", 4, net="hub")


ALL_STEPS = ("layout", "host", "pytest", "boots", "coverage", "determinism", "crash", "options",
             "gdb", "shell", "peer")

PLANS = {
    "full": Plan(steps=ALL_STEPS, boots=(
        BootCase("pc", 1),
        BootCase("pc", 2),
        BootCase("pc", 4),
        BootCase("q35", 4),
        BootCase("q35", 8),
        BootCase("pc", 4, iso=True),  # only if `make iso` succeeds
        # Network cards: an rtl8139 and an e1000 on one QEMU hub.
        BootCase("pc", 4, net="hub"),
        BootCase("q35", 4, net="hub"),
        # User space: the in-guest suite, one process per test.
        BootCase("pc", 4, words=("selftest",), kinds=("utest",)),
        BootCase("q35", 4, words=("selftest",), kinds=("utest",)),
        BootCase("pc", 2, mem="32M", words=("selftest",), kinds=("utest",)),
        BootCase("pc", 1, words=("selftest",), kinds=("utest",)),
        # Server communication in its fast mode; the boots above are baseline.
        BootCase("pc", 4, words=("selftest",), kinds=("utest",), cmdline="ispc=fast"),
        # The words calls' dedicated paths, with the debug kernel's lock checks too.
        BootCase("pc", 2, words=("selftest",) + WINDOWED_TESTS, kinds=("utest",), cmdline=WINDOWED),
        BootCase("pc", 2, words=("selftest",) + WINDOWED_TESTS, kinds=("utest",), cmdline=WINDOWED,
                 debug_kernel=True),
        # irqtrace=on: every system call through the general dispatch, which
        # charges its sections to it (the others walk the table in the entry).
        BootCase("pc", 2, words=("selftest",) + IRQTRACE_TESTS, kinds=("utest",),
                 cmdline="irqtrace=on"),
        # Interrupt packaging with the cards: the selftests that need them run here.
        BootCase("pc", 4, net="hub", words=("selftest",), kinds=("utest",)),
        # The lock order checked by the debug kernel: kernel and user
        # tests, with the cards.
        BootCase("pc", 4, net="hub", debug_kernel=True),
        BootCase("pc", 4, net="hub", words=("selftest",), kinds=("utest",), debug_kernel=True),
        # Disks (paper 001): AHCI and NVMe (a queue pair and an MSI-X vector per
        # CPU), kernel tests and the block selftests on every device.  Not in the
        # determinism check: QEMU completes disk I/O on host threads.
        BootCase("q35", 4, disk="both"),
        BootCase("q35", 4, disk="both", words=("selftest",), kinds=("utest",)),
        # The I/O processor: CPU 3 runs no thread; the IOP selftests,
        # which the boots above skip (the others pin workers to CPU 3).
        BootCase("pc", 4, words=("selftest",) + IOP_TESTS, kinds=("utest",), cmdline="iop=3"),
        # The paper's isochronous scheduler, the reserved schedule (paper 004).
        BootCase("pc", 4, words=("selftest",) + ISOCH_TABLE_TESTS, kinds=("utest",),
                 cmdline="isoch=table"),
        # Drivers as processes (paper 003): both cards' drivers in processes, the
        # kernel tests (the cards' and the grants') and the card selftests.
        BootCase("pc", 4, net="hub", cmdline=DRVPROC),
        BootCase("pc", 4, net="hub", words=("selftest",) + DRVPROC_TESTS, kinds=("utest",),
                 cmdline=DRVPROC),
        # Block drivers as processes: the ramdisk and the AHCI disk.
        BootCase("pc", 4, disk="ahci", words=("selftest",) + DRVPROC_BLK_TESTS, kinds=("utest",),
                 cmdline=DRVPROC_BLK),
        # The same drivers as processes in supervisor mode (drvmode=super: ring 0,
        # their own address spaces, paper 003's placement): the kernel tests
        # (its pages and entry), the card and restart selftests, the block ones.
        BootCase("pc", 4, net="hub", words=("ktest",) + DRVMODE_SUPER_KTESTS,
                 cmdline=f"{DRVPROC} {DRVMODE_SUPER}"),
        BootCase("pc", 4, net="hub", words=("selftest",) + DRVPROC_TESTS, kinds=("utest",),
                 cmdline=f"{DRVPROC} {DRVMODE_SUPER}"),
        BootCase("pc", 4, disk="ahci", words=("selftest",) + DRVPROC_BLK_TESTS, kinds=("utest",),
                 cmdline=f"{DRVPROC_BLK} {DRVMODE_SUPER}"),
        # The second arch: SH-4 on QEMU's r2d board, the kernel self-tests
        # and the selftests (skipped with the reason when the SH-4 compiler or
        # QEMU is absent).
        BootCase("r2d", 1, arch="sh4"),
        BootCase("r2d", 1, arch="sh4", words=("selftest",), kinds=("utest",)),
        # The fuzzer on SH-4, one CPU (about 11 s): 64-bit arguments as two
        # words, and waits that must let a lower priority run (isoch.c's
        # step_aside: a spin there never ended with child processes).
        BootCase("r2d", 1, arch="sh4", words=fuzz_words("1"), kinds=("fuzz",), tag="seed1"),
        # The standing soak, short: user/fuzz's calls from threads and
        # child processes on 4 CPUs with both cards; one "fuzz" record, failed by a
        # fault in a child, a leaked frame or a kernel fault (the boot's status).
        *(BootCase("pc", 4, net="hub", words=fuzz_words(seed), kinds=("fuzz",),
                   tag=f"seed{seed}")
          for seed in FUZZ_SEEDS),
    )),
    # `make check`, the quick tier: no coverage step (two boots cannot run every test).
    "check": Plan(steps=("layout", "host", "pytest", "boots"), boots=(
        BootCase("pc", 4),
        BootCase("pc", 4, words=("selftest",), kinds=("utest",)),
    )),
    "quick": Plan(steps=("boots",), boots=(BootCase("pc", 4),)),
}
