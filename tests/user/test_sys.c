/*
 * tests/user/test_sys.c — every system call, fed bad pointers, huge
 * lengths and random numbers, answers with an error and nothing else.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"

#define KERNEL_PTR   0xffff800000100000ull   /* the direct map */
#define KERNEL_TEXT  0xffffffff80100000ull
#define NONCANONICAL 0x0000800000000000ull
#define UNMAPPED     0x0000100000000000ull   /* user half, nothing there */

static const uint64_t bad_ptrs[] = {
	0, 8, KERNEL_PTR, KERNEL_TEXT, NONCANONICAL, UNMAPPED, 0x00007fffffffffffull, ~0ull,
};
#define NBAD (sizeof bad_ptrs / sizeof bad_ptrs[0])

TEST(null_syscall_returns_zero)
{
	for (int i = 0; i < 100; i++)
		CHECK_EQ(sys_null(), 0);
	return 0;
}

/* The kernel's way back to user mode keeps the registers the C ABI keeps
 * (test.h's regs_kept_across_syscall): for a call that returns at once,
 * one that switches away and back, and one that sleeps. */
TEST(syscall_keeps_callee_saved_registers)
{
	const long none[4] = { 0 }, ns[4] = { 1000000 };
	CHECK_EQ(regs_kept_across_syscall(SYS_null, none, NULL), 0);
	CHECK_EQ(regs_kept_across_syscall(SYS_getpid, none, NULL), 0);
	CHECK_EQ(regs_kept_across_syscall(SYS_yield, none, NULL), 0);
	CHECK_EQ(regs_kept_across_syscall(SYS_sleep, ns, NULL), 0);
	return 0;
}

/* clock's result is 64 bits on every arch (r0:r1 on SH-4). */
TEST(clock_is_64_bit_and_advances)
{
	int64_t t0 = sys_clock();
	CHECK(t0 > 0, "clock %" PRId64, t0);
	CHECK_EQ(sys_sleep(1000000), 0);
	int64_t dt = sys_clock() - t0;
	CHECK(dt >= 1000000 && dt < 1000000000, "a 1 ms sleep took %" PRId64 " ns", dt);
	return 0;
}

/* A 64-bit argument arrives whole: priv_drop refuses a bit of its high word. */
TEST(syscall_64_bit_argument_whole)
{
	CHECK_EQ(sys_priv_drop(1ull << 40), -EINVAL);
	CHECK_EQ(sys_priv_drop((1ull << 32) | HAKO_PRIV_NONE), -EINVAL);
	return 0;
}

/* printf's 'l' is C's long, whatever its width; 64-bit values go by PRIu64. */
TEST(printf_long_is_a_long)
{
	char buf[80];
	long neg = -5;
	unsigned long big = 4000000000ul;
	snprintf(buf, sizeof buf, "%ld %lu %d %" PRIu64 " %lld", neg, big, 7, (uint64_t)1 << 40, -3ll);
	CHECK(strcmp(buf, "-5 4000000000 7 1099511627776 -3") == 0, "got \"%s\"", buf);
	return 0;
}

/* malloc's blocks are 16-byte aligned on every arch, and free takes them back. */
TEST(malloc_aligned_and_freed)
{
	for (size_t n = 1; n <= 100; n += 33) {
		char *p = malloc(n), *q = malloc(n);
		CHECK(p != NULL && q != NULL);
		CHECK(((uintptr_t)p & 15) == 0 && ((uintptr_t)q & 15) == 0, "%p %p", p, q);
		free(p);
		free(q);
	}
	return 0;
}

/* strtoull and strtoll read 64 bits where long has 32. */
TEST(strtoull_reads_64_bits)
{
	CHECK(strtoull("0xffff800000100000", NULL, 0) == 0xffff800000100000ull);
	CHECK(strtoll("-1099511627776", NULL, 10) == -(1ll << 40));
	CHECK(strtoull("0x1ffffffffffffffff", NULL, 0) == ~0ull);
	return 0;
}

TEST(unknown_syscalls_enosys)
{
	const long numbers[] = { SYS_COUNT, SYS_COUNT + 1, 255, 256, 1000, 0x7fffffff, -1, -2,
				 (long)(~0ul >> 2), (long)(~0ul >> 1) };
	for (unsigned i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
		CHECK_EQ(sys_raw(numbers[i], 1, 2, 3, 4, 5, 6), -ENOSYS);
	return 0;
}

TEST(write_bad_pointers_efault)
{
	for (unsigned i = 0; i < NBAD; i++)
		CHECK_EQ(sys_write((const void *)bad_ptrs[i], 16), -EFAULT);
	char ok[4] = "ok\n";
	CHECK_EQ(sys_write(ok, (size_t)-1), -EFAULT);          /* wraps past the end */
	CHECK_EQ(sys_write(ok, (size_t)(0x8000ull << HAKO_USER_SHIFT)), -EFAULT);   /* the user half's size */
	CHECK_EQ(sys_write(ok, 0), 0);
	CHECK_EQ(sys_write(ok, 3), 3);
	return 0;
}

/* One call writes at most 4096 bytes (whole); the caller writes the rest. */
TEST(write_sends_at_most_4096_bytes_a_call)
{
	char *buf = malloc(5000);
	CHECK(buf, "malloc");
	for (int i = 0; i < 5000; i++)
		buf[i] = i % 64 == 63 ? '\n' : i % 64 == 0 ? '#' : ' ';
	CHECK_EQ(sys_write(buf, 5000), 4096);    /* 64 whole lines */
	free(buf);
	return 0;
}

TEST(write_partly_bad_buffer)
{
	/* The last page of the main stack is mapped, the one above USER_TOP is not ours. */
	char *heap = malloc(64);
	CHECK(heap, "malloc");
	memset(heap, 'x', 64);
	heap[63] = '\n';
	CHECK_EQ(sys_write(heap, 64), 64);
	CHECK_EQ(sys_write((void *)(HAKO_USER_STACK_TOP - 8), 4096), -EFAULT);
	free(heap);
	return 0;
}

TEST(read_bad_arguments)
{
	char buf[8];
	/* An unmapped page of the user half is found only when the bytes come. */
	for (unsigned i = 0; i < NBAD; i++)
		if (bad_ptrs[i] != UNMAPPED)
			CHECK_EQ(sys_read((void *)bad_ptrs[i], 8, HAKO_READ_NONBLOCK), -EFAULT);
	CHECK_EQ(sys_read(buf, sizeof buf, 2), -EINVAL);
	CHECK_EQ(sys_read(buf, sizeof buf, -1), -EINVAL);
	CHECK(sys_read(buf, sizeof buf, HAKO_READ_NONBLOCK) >= 0, "nonblocking read");
	return 0;
}

TEST(spawn_bad_paths)
{
	for (unsigned i = 0; i < NBAD; i++)
		CHECK_EQ(sys_spawn((const char *)bad_ptrs[i], NULL), -EFAULT);
	CHECK_EQ(sys_spawn("no-such-program", NULL), -ENOENT);
	CHECK_EQ(sys_spawn("", NULL), -ENOENT);
	char longname[300];
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	CHECK_EQ(sys_spawn(longname, NULL), -ENOENT);
	/* A name running into unmapped memory: the last bytes of a page, no NUL. */
	char *edge = (char *)(HAKO_USER_STACK_TOP - 4);
	memset(edge, 'b', 4);
	CHECK_EQ(sys_spawn(edge, NULL), -EFAULT);
	return 0;
}

TEST(spawn_bad_argv)
{
	/* Only the values a pointer can hold: on a 32-bit arch the 64-bit ones would be cut
	 * to another address (a non-canonical one to 0, a NULL argv, which is allowed). */
	for (unsigned i = 0; i < NBAD; i++)
		if (bad_ptrs[i] && (uint64_t)(uintptr_t)bad_ptrs[i] == bad_ptrs[i])
			CHECK_EQ(sys_spawn("hello", (char *const *)(uintptr_t)bad_ptrs[i]), -EFAULT);
	char *bad_elem[] = { "hello", (char *)KERNEL_PTR, NULL };
	CHECK_EQ(sys_spawn("hello", bad_elem), -EFAULT);
	char *many[HAKO_ARGV_MAX + 2];
	for (int i = 0; i < HAKO_ARGV_MAX + 1; i++)
		many[i] = "x";
	many[HAKO_ARGV_MAX + 1] = NULL;
	CHECK_EQ(sys_spawn("hello", many), -E2BIG);
	static char big[HAKO_ARG_BYTES + 10];
	memset(big, 'y', sizeof big - 1);
	char *huge[] = { "hello", big, NULL };
	CHECK_EQ(sys_spawn("hello", huge), -E2BIG);
	return 0;
}

TEST(spawn_passes_arguments)
{
	char *argv[] = { "hello", "42", "second", "third", NULL };
	CHECK_EQ(spawn_wait("hello", argv), 42);
	return 0;
}

TEST(wait_bad_arguments)
{
	int status;
	CHECK_EQ(sys_wait(-1, &status), -ECHILD);
	CHECK_EQ(sys_wait(12345, &status), -ECHILD);
	CHECK_EQ(sys_wait(0, &status), -EINVAL);
	CHECK_EQ(sys_wait(-7, &status), -EINVAL);
	char *argv[] = { "hello", "3", NULL };
	int pid = spawnv("hello", argv);
	CHECK(pid > 0, "spawn %d", pid);
	CHECK_EQ(sys_wait(pid, (int *)KERNEL_PTR), -EFAULT);
	CHECK_EQ(sys_wait(pid, &status), pid);      /* still there: the bad call left it */
	CHECK_EQ(status, 3);
	return 0;
}

TEST(info_calls_bad_pointers)
{
	for (unsigned i = 0; i < NBAD; i++) {
		CHECK_EQ(sys_sysinfo((struct hako_sysinfo *)bad_ptrs[i]), -EFAULT);
		CHECK_EQ(sys_cpustat(0, (struct hako_cpustat *)bad_ptrs[i]), -EFAULT);
		CHECK_EQ(sys_progname(0, (char *)bad_ptrs[i], 32), -EFAULT);
	}
	struct hako_cpustat st;
	CHECK_EQ(sys_cpustat(-1, &st), -EINVAL);
	CHECK_EQ(sys_cpustat(64, &st), -EINVAL);
	char name[4];
	CHECK_EQ(sys_progname(0, name, 0), -ERANGE);
	CHECK_EQ(sys_progname(-1, name, sizeof name), -ENOENT);
	CHECK_EQ(sys_progname(100000, name, sizeof name), -ENOENT);
	return 0;
}

TEST(ps_bad_arguments)
{
	struct hako_psinfo info;
	for (unsigned i = 0; i < NBAD; i++)
		CHECK_EQ(sys_ps(0, (struct hako_psinfo *)bad_ptrs[i]), -EFAULT);
	CHECK_EQ(sys_ps(-1, &info), -EINVAL);
	CHECK_EQ(sys_ps(-2147483647 - 1, &info), -EINVAL);
	CHECK_EQ(sys_ps(1000000, &info), -ENOENT);
	return 0;
}

TEST(ps_lists_this_thread_running_here)
{
	struct hako_psinfo info;
	struct hako_sysinfo si;
	int i, mine = 0, kernel = 0;
	CHECK_EQ(sys_sysinfo(&si), 0);
	for (i = 0; sys_ps(i, &info) == 0; i++) {
		kernel += info.pid == 0;
		if (info.tid != sys_gettid())
			continue;
		mine++;
		CHECK_EQ(info.pid, sys_getpid());
		CHECK_EQ(info.state, HAKO_PS_RUNNING);
		CHECK_EQ(info.cpu, sys_getcpu());
		CHECK(strcmp(info.name, "selftest") == 0, "name %s", info.name);
	}
	CHECK_EQ(mine, 1);
	CHECK(kernel >= si.ncpus, "%d kernel threads for %d CPUs", kernel, si.ncpus);  /* the idle ones */
	CHECK_EQ(sys_ps(i, &info), -ENOENT);
	return 0;
}

TEST(sysinfo_and_cpustat)
{
	struct hako_sysinfo si;
	CHECK_EQ(sys_sysinfo(&si), 0);
	CHECK(si.free_frames > 0 && si.free_frames <= si.total_frames, "frames %lu/%lu",
	      (unsigned long)si.free_frames, (unsigned long)si.total_frames);
	CHECK(si.ncpus >= 1 && si.nprocs >= 2 && si.page_size == 4096, "ncpus %d nprocs %d", si.ncpus, si.nprocs);
	printf("selftest: this process costs the kernel %lu frames (page tables + kernel stack)\n",
	       (unsigned long)si.proc_kernel_frames);
	for (int c = 0; c < si.ncpus; c++) {
		struct hako_cpustat st;
		CHECK_EQ(sys_cpustat(c, &st), si.ncpus);
		CHECK(st.online == 1, "cpu %d offline", c);
	}
	return 0;
}

TEST(progname_lists_programs)
{
	char name[HAKO_PATH_MAX];
	int found = 0, i;
	for (i = 0; sys_progname(i, name, sizeof name) >= 0; i++)
		found += !strcmp(name, "selftest") || !strcmp(name, "hello");
	CHECK_EQ(found, 2);
	CHECK_EQ(sys_progname(i, name, sizeof name), -ENOENT);
	return 0;
}

TEST(poweroff_denied_to_others)
{
	if (sys_getpid() == 1)
		return 0;                    /* pid 1 may; never try it here */
	CHECK_EQ(sys_poweroff(0), -EPERM);
	CHECK_EQ(sys_poweroff(-1), -EPERM);
	return 0;
}

TEST(brk_bad_values)
{
	long cur = sys_brk(0);
	CHECK(cur > 0, "brk %ld", cur);
	CHECK_EQ(sys_brk((void *)0x1000), -ENOMEM);
	CHECK_EQ(sys_brk((void *)KERNEL_PTR), -ENOMEM);
	CHECK_EQ(sys_brk((void *)(cur + (long)HAKO_HEAP_MAX + 4096)), -ENOMEM);   /* past the limit */
	CHECK_EQ(sys_brk(0), cur);
	return 0;
}

TEST(sleep_clock_yield)
{
	uint64_t t0 = clock_ns();
	CHECK_EQ(sys_yield(), 0);
	CHECK_EQ(sys_sleep(10000000), 0);
	uint64_t t1 = clock_ns();
	CHECK(t1 - t0 >= 10000000, "slept %lu ns", (unsigned long)(t1 - t0));
	uint64_t prev = clock_ns();
	for (int i = 0; i < 1000; i++) {
		uint64_t now = clock_ns();
		CHECK(now >= prev, "clock went back");
		prev = now;
	}
	CHECK_EQ(sys_sleep(0), 0);
	return 0;
}

TEST(thread_and_cpu_bad_arguments)
{
	CHECK_EQ(sys_thread_create(NULL, NULL), -EINVAL);
	CHECK_EQ(sys_thread_create((void (*)(void *))KERNEL_TEXT, NULL), -EINVAL);
	CHECK_EQ(sys_thread_join(0), -ESRCH);
	CHECK_EQ(sys_thread_join(-5), -ESRCH);
	CHECK_EQ(sys_thread_join(99999), -ESRCH);
	CHECK_EQ(sys_thread_join((int)sys_gettid()), -ESRCH);    /* the main thread is not joinable */
	CHECK_EQ(sys_set_affinity(0, 0), -EINVAL);
	CHECK_EQ(sys_set_affinity(0, 1ull << 63), -EINVAL);
	CHECK_EQ(sys_set_affinity(99999, 1), -ESRCH);
	CHECK_EQ(sys_migrate(-1), -EINVAL);
	CHECK_EQ(sys_migrate(1000), -EINVAL);
	CHECK_EQ(sys_setprio(0, 0), -EINVAL);
	CHECK_EQ(sys_setprio(0, 31), -EINVAL);
	CHECK_EQ(sys_setprio(0, -3), -EINVAL);
	CHECK_EQ(sys_setprio(99999, 8), -ESRCH);
	CHECK_EQ(sys_setprio(0, 8), 0);
	return 0;
}

TEST(semaphore_bad_ids)
{
	CHECK_EQ(sys_sem_post(0), -EINVAL);
	CHECK_EQ(sys_sem_wait(-1), -EINVAL);
	CHECK_EQ(sys_sem_destroy(12345), -EINVAL);
	CHECK_EQ(sys_sem_create(-1), -EINVAL);
	int id = (int)sys_sem_create(1);
	CHECK(id > 0, "create %d", id);
	CHECK_EQ(sys_sem_wait(id), 0);
	CHECK_EQ(sys_sem_post(id), 0);
	CHECK_EQ(sys_sem_post_wait(-1, id), -EINVAL);   /* no post: no wait */
	CHECK_EQ(sys_sem_post_wait(id, 0), -EINVAL);    /* posted, then the wait fails */
	CHECK_EQ(sys_sem_post_wait(id, id), 0);         /* three units now, one taken */
	CHECK_EQ(sys_sem_wait(id), 0);
	CHECK_EQ(sys_sem_wait(id), 0);
	CHECK_EQ(sys_sem_destroy(id), 0);
	CHECK_EQ(sys_sem_post(id), -EINVAL);        /* a destroyed id stays dead */
	return 0;
}

TEST(semaphore_table_exhaustion)
{
	int ids[80], n = 0;
	long r;
	while (n < 80 && (r = sys_sem_create(0)) > 0)
		ids[n++] = (int)r;
	CHECK(n < 80 && r == -EAGAIN, "created %d, last %ld", n, r);
	/* The rest are freed when this process ends; destroy half by hand. */
	for (int i = 0; i < n / 2; i++)
		CHECK_EQ(sys_sem_destroy(ids[i]), 0);
	return 0;
}

/* A small deterministic generator: the same garbage every run. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return rng_state ^ (rng_state >> 29);
}

static uint64_t garbage_arg(void)
{
	switch (rnd() % 6) {
	case 0: return 0;
	case 1: return rnd() & 0xff;
	case 2: return bad_ptrs[rnd() % NBAD];
	case 3: return rnd();
	case 4: return (uint64_t)-(long)(rnd() % 64);
	default: return HAKO_USER_IMAGE_BASE + (rnd() & 0xffff);
	}
}

static int reckless;                 /* garbage_all: keep the calls that block or start code */

/* sleep's uint64_t as the kernel reads it from the raw words: one word on a
 * 64-bit arch; on a 32-bit one two, low first (the SH-4 system-call ABI). */
static uint64_t sleep_arg_ns(uint64_t a0, uint64_t a1)
{
	if (sizeof(long) == 8)
		return a0;
	return (uint32_t)a0 | (uint64_t)(uint32_t)a1 << 32;
}

/* Calls that would end the garbage process itself or sleep for ever are
 * left out, and always ispc_mode and intr_ctl SET: they would switch the
 * mode the rest of the suite runs in. */
static int harmless(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	if (nr == SYS_ispc_mode || (nr == SYS_intr_ctl && a1 == HAKO_INTR_SET))
		return 0;
	if (reckless)
		return nr != SYS_exit && nr != SYS_poweroff;
	if (nr == SYS_exit || nr == SYS_thread_exit || nr == SYS_poweroff || nr == SYS_kill)
		return 0;
	if (nr == SYS_read && !(a2 & HAKO_READ_NONBLOCK))
		return 0;
	if (nr == SYS_sleep && sleep_arg_ns(a0, a1) > 1000000)
		return 0;
	if (nr == SYS_sem_wait || nr == SYS_wait || nr == SYS_thread_create || nr == SYS_spawn)
		return 0;                    /* could block or start code at a random address */
	if ((nr == SYS_ispc_receive && !(a1 & HAKO_ISPC_NONBLOCK)) ||
	    (nr == SYS_ispc_result && !(a2 & HAKO_ISPC_NONBLOCK)) ||
	    (nr == SYS_ispc_reply && (a1 & HAKO_ISPC_WAIT)) ||
	    (nr == SYS_ispc_request && !(a2 & HAKO_ISPC_ASYNC)) ||
	    (nr == SYS_ispc_call && !((int)a3 & ~HAKO_ISPC_DIRECT)) ||
	    (nr == SYS_ispc_reply_recv && !(a2 & HAKO_ISPC_NONBLOCK)))
		return 0;                    /* could wait for a request or result for ever */
	if (nr == SYS_nic_recv && !(a3 & HAKO_NIC_NONBLOCK))
		return 0;                    /* could wait for a frame for ever */
	return 1;
}

UROLE(garbage)
{
	rng_state = strtoull(argv[0], NULL, 0);
	reckless = argc > 1;
	long calls = 0;
	for (int i = 0; i < 4000; i++) {
		long nr = (long)(rnd() % (SYS_COUNT + 4));
		uint64_t a[6];
		for (int k = 0; k < 6; k++)
			a[k] = garbage_arg();
		if (nr == SYS_write)
			a[0] = bad_ptrs[rnd() % NBAD];   /* keep the console readable */
		if (nr == SYS_spawn)             /* a real name (say "sh") would outlive the test */
			a[0] = bad_ptrs[rnd() % NBAD];
		if (!harmless(nr, a[0], a[1], a[2], a[3]))
			continue;
		sys_raw(nr, (long)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4], (long)a[5]);
		calls++;
	}
	return calls > 1000 ? 0 : 1;
}

TEST(garbage_syscalls_leave_kernel_up)
{
	const char *seeds[] = { "1", "2", "3", "0xdeadbeef" };
	for (unsigned i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
		uint64_t t0 = clock_ns();
		int s = run_role("garbage", seeds[i], NULL);
		uint64_t ms = (clock_ns() - t0) / 1000000;
		CHECK(s >= 0, "seed %s: spawn %d", seeds[i], s);
		/* Exiting or being killed by a fault are both fine; the kernel must stay.
		 * Its sleeps are 1 ms at most, 4000 calls in all: a run that takes
		 * longer slept for longer than the role meant. */
		CHECK(ms < 10000, "seed %s ran %" PRIu64 " ms", seeds[i], ms);
	}
	char *argv[] = { "hello", "5", NULL };
	CHECK_EQ(spawn_wait("hello", argv), 5);
	return 0;
}

/*
 * The same with nothing left out (spawn, thread_create at random
 * addresses, blocking calls), under a watchdog: whatever state the child
 * ends in, a kill must end it and give back every frame.
 */
TEST(garbage_syscalls_reckless_then_killed)
{
	const char *seeds[] = { "11", "12", "13", "14", "15", "16" };
	for (unsigned i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
		int pid = spawn_role("garbage", seeds[i], "all", NULL);
		CHECK(pid > 0, "spawn %d", pid);
		sleep_ms(100);
		long k = sys_kill(pid);
		CHECK(k == 0, "kill %ld", k);
		int status;
		CHECK_EQ(waitpid(pid, &status), pid);
	}
	sleep_ms(50);                        /* orphans it spawned (if any) finish */
	char *argv[] = { "hello", "2", NULL };
	CHECK_EQ(spawn_wait("hello", argv), 2);
	return 0;
}

/* The archive carries two broken copies of hello (see user/user.mk). */
TEST(spawn_malformed_elf_enoexec)
{
	CHECK_EQ(sys_spawn("broken-truncated", NULL), -ENOEXEC);
	CHECK_EQ(sys_spawn("broken-magic", NULL), -ENOEXEC);
	char *argv[] = { "hello", "1", NULL };
	CHECK_EQ(spawn_wait("hello", argv), 1);
	return 0;
}

/* With irqtrace=on every system call goes through the kernel's general
 * dispatch, which charges the call's interrupts-off sections to it (x86_64:
 * LSTAR names the entry that does, chosen once the command line is read). */
static struct hako_perf_preempt traced;

static const char *need_irqtrace(void)
{
	if (sys_perf_ctl(HAKO_PERF_PREEMPT_GET, &traced) < 0 || !traced.enabled)
		return "irqtrace is off (boot with irqtrace=on)";
	return NULL;
}

TEST_NEEDS(irqtrace_charges_sections_to_the_call, need_irqtrace)
{
	long s = sys_sem_create(0);
	CHECK(s >= 0, "sem_create %ld", s);
	CHECK_EQ(sys_perf_ctl(HAKO_PERF_PREEMPT_RESET, NULL), 0);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(sys_sem_post((int)s), 0);
	CHECK_EQ(sys_perf_ctl(HAKO_PERF_PREEMPT_GET, &traced), 0);
	uint64_t n = traced.ctx[HAKO_PERF_CTX_CALL(SYS_sem_post)].count;
	CHECK(n >= 10, "%" PRIu64 " sections charged to sem_post for 10 calls", n);
	CHECK_EQ(sys_sem_destroy((int)s), 0);
	return 0;
}
