/*
 * tests/user/test_proc.c — processes: exit status, isolation, many
 * spawns, a fork bomb, a CPU hog, memory exhaustion.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"

UROLE(exit_with)
{
	return atoi(argv[0]);
}

TEST(exit_status_reaches_parent)
{
	const char *codes[] = { "0", "1", "7", "128", "255" };
	for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
		CHECK_EQ(run_role("exit_with", codes[i], NULL), atoi(codes[i]));
	return 0;
}

UROLE(report_pid)
{
	return (int)(sys_getpid() & 0x7f);
}

TEST(getpid_matches_spawn)
{
	int pid = spawn_role("report_pid", NULL);
	CHECK(pid > 1, "pid %d", pid);
	int status;
	CHECK_EQ(waitpid(pid, &status), pid);
	CHECK_EQ(status, pid & 0x7f);
	return 0;
}

TEST(wait_any_collects_every_child)
{
	int pids[5], seen = 0;
	for (int i = 0; i < 5; i++) {
		pids[i] = spawn_role("exit_with", "9", NULL);
		CHECK(pids[i] > 0, "spawn %d", pids[i]);
	}
	for (int i = 0; i < 5; i++) {
		int status, pid = waitpid(-1, &status);
		CHECK_EQ(status, 9);
		for (int k = 0; k < 5; k++)
			seen += pid == pids[k];
	}
	CHECK_EQ(seen, 5);
	CHECK_EQ(sys_wait(-1, NULL), -ECHILD);
	return 0;
}

#define PATTERN 0x5eed5eed5eed5eedull

/* Our heap address holds the parent's pattern there?  It must not. */
UROLE(peek)
{
	uint64_t addr = strtoull(argv[0], NULL, 0);
	long brk = sys_brk(0);
	if (addr >= (uint64_t)brk)
		sys_brk((void *)(addr + 8));
	return *(volatile uint64_t *)addr == PATTERN ? 1 : 0;
}

TEST(processes_cannot_see_each_other)
{
	uint64_t *mine = malloc(4096);
	CHECK(mine, "malloc");
	for (int i = 0; i < 512; i++)
		mine[i] = PATTERN;
	char addr[32];
	snprintf(addr, sizeof addr, "0x%lx", (unsigned long)&mine[100]);
	CHECK_EQ(run_role("peek", addr, NULL), 0);
	CHECK(mine[100] == PATTERN, "our memory changed");
	free(mine);
	return 0;
}

TEST(spawn_exit_wait_1000_times)
{
	uint64_t before = free_frames();
	for (int i = 0; i < 1000; i++) {
		int s = run_role("exit_with", "0", NULL);
		CHECK(s == 0, "round %d: %d", i, s);
	}
	/* More free than before is fine: the previous test's last threads
	 * may still have been waiting to be reaped when `before` was read. */
	uint64_t after = free_frames();
	CHECK(after >= before, "leaked %ld frames", (long)(before - after));
	return 0;
}

/* Spawn children until the kernel says no; each child naps, then exits. */
UROLE(bomb)
{
	int depth = atoi(argv[0]), made = 0;
	char next[8];
	snprintf(next, sizeof next, "%d", depth + 1);
	for (int i = 0; i < 8 && depth < 6; i++)
		if (spawn_role("bomb", next, NULL) > 0)
			made++;
	sleep_ms(50);
	while (made > 0 && sys_wait(-1, NULL) > 0)
		made--;
	return 0;
}

TEST(fork_bomb_is_contained)
{
	int s = run_role("bomb", "0", NULL);
	CHECK_EQ(s, 0);
	char *argv[] = { "hello", "4", NULL };
	CHECK_EQ(spawn_wait("hello", argv), 4);   /* the table has room again */
	return 0;
}

TEST(process_table_limit_eagain)
{
	int pids[80], n = 0, r = 0;
	while (n < 80 && (r = spawn_role("nap", "1000", NULL)) > 0)
		pids[n++] = r;
	CHECK(r == -EAGAIN || r == -ENOMEM, "after %d spawns: %d", n, r);
	CHECK(n >= 16, "only %d processes", n);
	for (int i = 0; i < n; i++)
		CHECK_EQ(sys_kill(pids[i]), 0);
	for (int i = 0; i < n; i++)
		CHECK_EQ(waitpid(pids[i], NULL), pids[i]);
	return 0;
}

/* A process spinning on our CPU at our priority must not keep us off it. */
TEST(spinner_cannot_starve_others)
{
	int cpu = (int)sys_getcpu();
	CHECK_EQ(sys_set_affinity(0, 1ull << cpu), 0);
	char where[8];
	snprintf(where, sizeof where, "%d", cpu);
	int pid = spawn_role("spin_on", where, NULL);
	CHECK(pid > 0, "spawn %d", pid);
	uint64_t t0 = clock_ns();
	long work = 0;
	while (clock_ns() - t0 < 100000000)      /* 100 ms of our own computing */
		work++;
	CHECK(work > 1000, "we ran %ld loops", work);
	struct hako_cpustat st;
	CHECK(sys_cpustat(cpu, &st) > 0, "cpustat");
	CHECK_EQ(sys_kill(pid), 0);
	CHECK_EQ(waitpid(pid, NULL), pid);
	return 0;
}

UROLE(spin_on)
{
	sys_set_affinity(0, 1ull << atoi(argv[0]));
	for (volatile long i = 0;; i++)
		;
	return 0;
}

/* Take memory until brk says no, touching all of it; then give it back. */
UROLE(hog)
{
	long base = sys_brk(0), end = base, step = 64 * 4096;
	while (sys_brk((void *)(end + step)) > 0) {
		for (long a = end; a < end + step; a += 4096)
			*(volatile char *)a = 1;
		end += step;
	}
	int got_mib = (int)((end - base) >> 20);
	printf("selftest: hog took %d MiB before brk said ENOMEM\n", got_mib);
	return got_mib > 0 ? 0 : 1;
}

TEST(memory_exhaustion_is_an_error)
{
	CHECK_EQ(run_role("hog", NULL), 0);
	char *argv[] = { "hello", "6", NULL };
	CHECK_EQ(spawn_wait("hello", argv), 6);
	return 0;
}

TEST(heap_pages_zero_and_reusable)
{
	long base = sys_brk(0);
	CHECK(sys_brk((void *)(base + 8 * 4096)) > 0, "grow");
	for (long a = base; a < base + 8 * 4096; a += 512)
		CHECK(*(volatile char *)a == 0, "dirty page at %lx", a);
	memset((void *)base, 0xab, 8 * 4096);
	CHECK_EQ(sys_brk((void *)base), base);
	CHECK(sys_brk((void *)(base + 8 * 4096)) > 0, "regrow");
	CHECK(*(volatile unsigned char *)(base + 4096) == 0, "old contents came back");
	CHECK_EQ(sys_brk((void *)base), base);
	return 0;
}

static int deep(int n)
{
	volatile char pad[1024];
	pad[0] = (char)n;
	return n == 0 ? 0 : deep(n - 1) + pad[0] - (char)n;
}

TEST(stack_grows_on_demand)
{
	CHECK_EQ(deep(700), 0);          /* about 700 KiB of stack */
	return 0;
}

TEST(malloc_many_sizes)
{
	void *p[200];
	for (int i = 0; i < 200; i++) {
		p[i] = malloc((size_t)(i * 37 % 5000) + 1);
		CHECK(p[i], "malloc %d", i);
		memset(p[i], i, (size_t)(i * 37 % 5000) + 1);
	}
	for (int i = 0; i < 200; i += 2)
		free(p[i]);
	for (int i = 1; i < 200; i += 2)
		CHECK(((unsigned char *)p[i])[0] == (unsigned char)i, "block %d overwritten", i);
	for (int i = 1; i < 200; i += 2)
		free(p[i]);
	return 0;
}
