/*
 * sysbench/bench_basic.c — the benchmarks one thread does alone: the null
 * system call, getpid, a page fault on first touch, and spawn + exit + wait.
 *
 * Each runs pinned to BENCH_CPU and times single operations, a TSC read
 * on each side (the pair itself costs a few ticks, included).  Each timed
 * operation is a span of its region (hako/region.h), marked just outside
 * the TSC reads so the figures do not count the markers.
 */
#include <stdio.h>
#include <hako/sys.h>
#include <hako/region.h>
#include "sysbench.h"
#include <arch/tsc.h>

#define CALL_RUNS	10000
#define CALL_WARMUP	100
#define FAULT_PAGES	1000		/* 4 MiB of heap */
#define SPAWN_RUNS	200
#define PAGE		4096ul

/* Time CALL_RUNS calls of FN, after a few untimed ones, in REGION (one
 * of sysbench's, all below REGION_NTH_MAX). */
static int time_calls(const char *name, long (*fn)(void), unsigned region)
{
	struct samples s;
	int err = pin_self(BENCH_CPU);

	if (err < 0 || (err = samples_init(&s, CALL_RUNS)) < 0)
		return err;
	for (int i = 0; i < CALL_WARMUP; i++)
		fn();
	for (int i = 0; i < CALL_RUNS; i++) {
		region_begin_nth(0, region);
		uint64_t t0 = tsc_now();
		long r = fn();
		uint64_t t1 = tsc_now();
		region_end_nth(0, region);
		if (r < 0) {
			samples_free(&s);
			return fail(name, r);
		}
		samples_add(&s, t1 - t0);
	}
	report(name, &s, "per call", region, s.n);
	samples_free(&s);
	return 0;
}

int bench_null_syscall(void)
{
	return time_calls("null_syscall", sys_null, REGION_SYS_NULL_SYSCALL);
}

int bench_getpid(void)
{
	return time_calls("getpid", sys_getpid, REGION_SYS_GETPID);
}

/*
 * Move the break up by FAULT_PAGES fresh pages, write one byte to each
 * (one fault each: the kernel maps a zeroed frame), then give them back.
 * The sample array is allocated first so malloc leaves the break alone.
 */
int bench_page_fault(void)
{
	struct samples s;
	int err = pin_self(BENCH_CPU);

	if (err < 0 || (err = samples_init(&s, FAULT_PAGES)) < 0)
		return err;
	long old = sys_brk(NULL);
	if (old < 0) {
		samples_free(&s);
		return fail("brk", old);
	}
	uint64_t start = ((uint64_t)old + PAGE - 1) & ~(PAGE - 1);
	long r = sys_brk((void *)(start + FAULT_PAGES * PAGE));
	if (r < 0) {
		samples_free(&s);
		return fail("brk", r);
	}
	for (unsigned i = 0; i < FAULT_PAGES; i++) {
		volatile char *p = (volatile char *)(start + i * PAGE);
		region_begin(REGION_SYS_PAGE_FAULT);
		uint64_t t0 = tsc_now();
		*p = 1;
		uint64_t t1 = tsc_now();
		region_end(REGION_SYS_PAGE_FAULT);
		samples_add(&s, t1 - t0);
	}
	r = sys_brk((void *)old);
	if (r >= 0)
		report("page_fault_first_touch", &s, "per first write to a page",
		       REGION_SYS_PAGE_FAULT, s.n);
	samples_free(&s);
	return r < 0 ? fail("brk back", r) : 0;
}

/*
 * Spawn `sysbench --exit` (returns from main at once, prints nothing) and
 * wait for it: from before sys_spawn to the return of sys_wait.  The
 * child goes where the kernel puts it (the least loaded CPU), so the
 * region is global: every CPU's work counts.
 */
int bench_spawn(void)
{
	char *argv[] = { "sysbench", "--exit", NULL };
	struct samples s;
	int err = pin_self(BENCH_CPU);

	if (err < 0 || (err = samples_init(&s, SPAWN_RUNS)) < 0)
		return err;
	for (int i = 0; i < SPAWN_RUNS && err == 0; i++) {
		int status = 0;
		region_global_begin(REGION_SYS_SPAWN);
		uint64_t t0 = tsc_now();
		int pid = spawnv("sysbench", argv);
		int r = pid < 0 ? pid : waitpid(pid, &status);
		uint64_t t1 = tsc_now();
		region_global_end(REGION_SYS_SPAWN);
		if (r < 0)
			err = fail(pid < 0 ? "spawn" : "wait", r);
		else if (status != 0) {
			printf("sysbench: sysbench --exit ended with status 0x%x\n", status);
			err = -1;
		}
		else
			samples_add(&s, t1 - t0);
	}
	if (err == 0)
		report("spawn_exit_wait", &s, "per spawn + exit + wait", REGION_SYS_SPAWN, s.n);
	samples_free(&s);
	return err;
}
