/*
 * tests/user/test_kill.c — programs that touch what is not theirs or run
 * what they may not are killed, alone, with the right cause; the parent
 * sees it and the kernel goes on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <hako/thread.h>
#include <arch/tsc.h>
#include "forbidden.h"
#include <arch/fault.h>

#define PF ARCH_CAUSE_PAGE

UROLE(touch)
{
	uint64_t addr = strtoull(argv[0], NULL, 0);
	int write = argc > 1 && strcmp(argv[1], "w") == 0;
	if (write)
		*(volatile uint64_t *)addr = 0x5a5a;
	return (int)*(volatile uint64_t *)addr;
}

UROLE(insn)
{
	const char *what = argv[0];
	if (!strcmp(what, "cli")) do_cli();
	else if (!strcmp(what, "hlt")) do_hlt();
	else if (!strcmp(what, "x87")) do_x87();
	else if (!strcmp(what, "sse")) do_sse();
	else if (!strcmp(what, "wrmsr")) do_wrmsr();
	else if (!strcmp(what, "int3")) do_int3();
	else if (!strcmp(what, "ud2")) do_ud2();
	else if (!strcmp(what, "tf_syscall")) do_tf_syscall();
	else if (!strcmp(what, "div0")) {
		volatile int zero = 0;
		return 100 / zero;
	}
	return 0;                    /* still alive: the test fails */
}

static int killed_with(int status, int cause)
{
	return HAKO_WIFKILLED(status) && HAKO_WCAUSE(status) == cause;
}

#define EXPECT_KILLED(cause, role, ...) do { \
	int _s = run_role(role, __VA_ARGS__, NULL); \
	CHECK(killed_with(_s, cause), "%s %s: status 0x%x, expected killed by %d", role, #__VA_ARGS__, _s, cause); \
} while (0)

static const char *need_noncanonical(void) { return ARCH_NO_NONCANONICAL; }
static const char *need_divide_trap(void) { return ARCH_NO_DIVIDE_TRAP; }
static const char *need_no_execute(void) { return ARCH_NO_NO_EXECUTE; }

TEST(null_read_killed) { EXPECT_KILLED(PF, "touch", "0"); return 0; }
TEST(null_write_killed) { EXPECT_KILLED(PF, "touch", "8", "w"); return 0; }
TEST(kernel_direct_map_read_killed) { EXPECT_KILLED(ARCH_CAUSE_KERNEL_READ, "touch", ARCH_KERNEL_DATA_ADDR); return 0; }
TEST(kernel_image_write_killed) { EXPECT_KILLED(ARCH_CAUSE_KERNEL_WRITE, "touch", ARCH_KERNEL_TEXT_ADDR, "w"); return 0; }
TEST(kernel_stack_area_read_killed) { EXPECT_KILLED(ARCH_CAUSE_KERNEL_STACK, "touch", ARCH_KERNEL_STACK_ADDR); return 0; }
TEST_NEEDS(noncanonical_address_killed, need_noncanonical)
{
	EXPECT_KILLED(ARCH_CAUSE_NONCANONICAL, "touch", ARCH_NONCANONICAL_ADDR);
	return 0;
}
TEST(own_text_write_killed) { EXPECT_KILLED(PF, "touch", "0x400000", "w"); return 0; }
TEST(stack_guard_killed)
{
	char addr[32];
	snprintf(addr, sizeof addr, "0x%lx", (unsigned long)(HAKO_USER_STACK_TOP - HAKO_USER_STACK_MAX - 8));
	EXPECT_KILLED(PF, "touch", addr);
	return 0;
}
TEST(privileged_cli_killed) { EXPECT_KILLED(ARCH_CAUSE_PRIVILEGED, "insn", "cli"); return 0; }
TEST(privileged_hlt_killed) { EXPECT_KILLED(ARCH_CAUSE_PRIVILEGED, "insn", "hlt"); return 0; }
TEST(privileged_wrmsr_killed) { EXPECT_KILLED(ARCH_CAUSE_PRIVILEGED, "insn", "wrmsr"); return 0; }
TEST(fpu_x87_killed) { EXPECT_KILLED(ARCH_CAUSE_FPU, "insn", "x87"); return 0; }
TEST(sse_killed) { EXPECT_KILLED(ARCH_CAUSE_SIMD, "insn", "sse"); return 0; }
TEST(breakpoint_killed) { EXPECT_KILLED(ARCH_CAUSE_BREAKPOINT, "insn", "int3"); return 0; }
TEST(invalid_opcode_killed) { EXPECT_KILLED(ARCH_CAUSE_UNDEFINED, "insn", "ud2"); return 0; }
TEST(single_step_into_syscall_killed) { EXPECT_KILLED(ARCH_CAUSE_STEP, "insn", "tf_syscall"); return 0; }
TEST_NEEDS(divide_by_zero_killed, need_divide_trap) { EXPECT_KILLED(ARCH_CAUSE_DIVIDE, "insn", "div0"); return 0; }

UROLE(recurse)
{
	volatile char page[4096];
	page[0] = (char)argc;
	if (argc > 1000000)          /* never: the stack ends long before */
		return 0;
	return urole_recurse(argc + 1, argv) + page[0];
}

TEST(stack_overflow_killed)
{
	int s = run_role("recurse", NULL);
	CHECK(killed_with(s, PF), "status 0x%x", s);
	return 0;
}

UROLE(exec_heap)
{
	uint8_t *code = malloc(64);
	memset(code, 0xc3, 64);      /* ret */
	((void (*)(void))code)();
	return 0;
}

TEST_NEEDS(heap_not_executable, need_no_execute) { int s = run_role("exec_heap", NULL); CHECK(killed_with(s, PF), "status 0x%x", s); return 0; }

/* The loop pauses: under QEMU 7.2 icount a vCPU in a bare loop can go
 * for minutes of guest time without its timer interrupt (docs/design/qemu.md,
 * "Unequal vCPU time"), and then the kill lands only when an NMI shakes
 * the emulator.  On hardware the pause changes nothing. */
UROLE(spin)
{
	for (volatile int i = 0;; i++)
		cpu_pause();
	return 0;
}

TEST(kill_spinning_child)
{
	int pid = spawn_role("spin", NULL);
	CHECK(pid > 0, "spawn %d", pid);
	int status = kill_after(pid, 20);
	CHECK(status >= 0 && killed_with(status, HAKO_CAUSE_KILL), "status 0x%x", status);
	return 0;
}

UROLE(nap)
{
	sleep_ms((uint64_t)atoi(argv[0]));
	return 0;
}

UROLE(block)
{
	char c;
	if (!strcmp(argv[0], "read"))
		sys_read(&c, 1, 0);
	else if (!strcmp(argv[0], "sleep"))
		sys_sleep(1000000000000ull);
	else if (!strcmp(argv[0], "sem"))
		sys_sem_wait((int)sys_sem_create(0));
	else if (!strcmp(argv[0], "wait")) {
		spawn_role("nap", "100", NULL);
		sys_wait(-1, NULL);
	}
	return 0;
}

/* A process asleep in the kernel (console read, sleep, semaphore, wait) can be killed. */
TEST(kill_blocked_child)
{
	const char *how[] = { "read", "sleep", "sem", "wait" };
	for (unsigned i = 0; i < sizeof how / sizeof how[0]; i++) {
		int pid = spawn_role("block", how[i], NULL);
		CHECK(pid > 0, "spawn %d", pid);
		int status = kill_after(pid, 20);
		CHECK(status >= 0 && killed_with(status, HAKO_CAUSE_KILL), "%s: status 0x%x", how[i], status);
	}
	sleep_ms(150);               /* the orphan of "wait" ends by itself; let it */
	return 0;
}

/* Threads that nap for a few microseconds at a time, for ever. */
static void nap_forever(void *unused __attribute__((unused)))
{
	for (uint64_t x = 1;; x = x * 6364136223846793005ull + 1)
		sleep_ns((x >> 33) % 3000);
}

UROLE(nappers)
{
	for (int i = 0; i < 3; i++)
		thread_start(nap_forever, NULL);
	nap_forever(NULL);
	return 0;
}

/* A kill lands while threads are between arming their sleep timer and
 * leaving the CPU: each must end exactly once, nothing resumed twice. */
TEST(kill_during_short_sleeps)
{
	for (int i = 0; i < 12; i++) {
		int pid = spawn_role("nappers", NULL);
		CHECK(pid > 0, "spawn %d", pid);
		int status = kill_after(pid, 3 + i % 4);
		CHECK(status >= 0 && killed_with(status, HAKO_CAUSE_KILL), "round %d: status 0x%x", i, status);
	}
	return 0;
}

UROLE(kill_parent)
{
	return sys_kill(atoi(argv[0])) == -EPERM ? 0 : 1;
}

TEST(kill_permissions)
{
	char me[16];
	snprintf(me, sizeof me, "%ld", sys_getpid());
	CHECK_EQ(run_role("kill_parent", me, NULL), 0);   /* a child may not kill its parent */
	CHECK_EQ(sys_kill(0), -ESRCH);
	CHECK_EQ(sys_kill(-1), -ESRCH);
	CHECK_EQ(sys_kill(0x7fffffff), -ESRCH);
	return 0;
}

TEST(fault_leaves_kernel_running)
{
	EXPECT_KILLED(PF, "touch", "0");
	char *argv[] = { "hello", "7", NULL };
	int s = spawn_wait("hello", argv);
	CHECK_EQ(s, 7);
	return 0;
}
