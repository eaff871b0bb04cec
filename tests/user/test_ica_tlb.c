/*
 * tests/user/test_ica_tlb.c — paper 002's resident ICA translations seen
 * from user space.  Where the kernel counts TLB misses (perf_ctl
 * HAKO_PERF_TLB_MISSES; SH-4, whose miss handler loads the UTLB), the
 * first read of a freshly pasted ICA misses in baseline mode and does not
 * in fast mode, whose paste loads a reserved entry (arch_ica_pin), and
 * finds what the ICA holds (the entry translates to the ICA's frame).  On
 * every arch a touch after a peel is killed in fast mode as in baseline:
 * the peel invalidated the entry the paste loaded.  Where misses are
 * counted, ispcbench's process switch inside ISPC traffic counts them by
 * class, the same from run to run, in both modes.
 */
#include <stdint.h>
#include <errno.h>
#include <arch/fault.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include <hako_perf.h>
#include <echo/proto.h>
#include "fleet.h"
#include "test.h"

static const char *counted_misses(void)
{
	uint64_t n;
	return sys_perf_ctl(HAKO_PERF_TLB_MISSES, &n) == 0 ? NULL :
	       "no TLB miss is counted here: the page walker loads the TLB";
}

static uint64_t misses(void)
{
	uint64_t n = 0;
	sys_perf_ctl(HAKO_PERF_TLB_MISSES, &n);
	return n;
}

#define MARK 0x1ca71ca7u

/* Misses of RUNS first reads of the one-page ICA id at va, each after a
 * peel and a paste (the count read twice first: its own path is loaded);
 * -1 if a read does not find MARK, which the ICA holds. */
static long first_reads_misses(int id, uint64_t va, int runs)
{
	uint64_t total = 0;
	for (int i = 0; i < runs; i++) {
		if (sys_ica_peel(id) < 0 || sys_ica_paste(id) != (long)va)
			return -1;
		misses();
		uint64_t before = misses();
		uint32_t got = *(volatile uint32_t *)va;
		total += misses() - before;
		if (got != MARK)
			return -1;
	}
	return (long)total;
}

UROLE(ica_tlb_switch_away)
{
	return 0;
}

TEST_NEEDS(ica_first_read_misses_in_baseline_not_in_fast_mode, counted_misses)
{
	uint64_t n;
	CHECK_EQ(sys_perf_ctl(HAKO_PERF_TLB_MISSES, (void *)8), -EFAULT);
	CHECK_EQ(sys_perf_ctl(HAKO_PERF_TLB_MISSES, &n), 0);
	CHECK(n > 0, "no miss served since boot");
	long was = sys_ispc_mode(HAKO_ISPC_QUERY);
	const int modes[] = { HAKO_ISPC_BASELINE, HAKO_ISPC_FAST };
	long seen[2];
	for (int m = 0; m < 2; m++) {
		CHECK_EQ(sys_ispc_mode(modes[m]), modes[m]);
		uint64_t va;
		long id = sys_ica_alloc(1, &va);
		CHECK(id > 0, "alloc %ld", id);
		*(volatile uint32_t *)va = MARK;
		/* a switch to another address space and back: every translation
		 * is looked up again beside the reserved entries */
		CHECK_EQ(run_role("ica_tlb_switch_away", NULL), 0);
		seen[m] = first_reads_misses((int)id, va, 4);
		CHECK_EQ(sys_ica_free((int)id), 0);
	}
	CHECK_EQ(sys_ispc_mode((int)was), was);
	CHECK(seen[0] >= 4, "baseline: %ld misses in 4 first reads", seen[0]);
	CHECK_EQ(seen[1], 0);
	return 0;
}

UROLE(ica_fast_touch_after_peel)
{
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	if (id < 0)
		return 1;
	*(volatile int *)va = 1;         /* translated, and in fast mode pinned */
	if (sys_ica_peel((int)id) < 0)
		return 1;
	return *(volatile int *)va;      /* must be killed here */
}

TEST(ica_peel_in_fast_mode_invalidates_the_pasted_translation)
{
	long was = sys_ispc_mode(HAKO_ISPC_QUERY);
	CHECK_EQ(sys_ispc_mode(HAKO_ISPC_FAST), HAKO_ISPC_FAST);
	int s = run_role("ica_fast_touch_after_peel", NULL);
	CHECK_EQ(sys_ispc_mode((int)was), was);
	CHECK(HAKO_WIFKILLED(s) && HAKO_WCAUSE(s) == ARCH_CAUSE_PAGE, "status 0x%x", s);
	return 0;
}

/*
 * ispcbench's process switch inside ISPC traffic (user/ispcbench/switch.c)
 * with --check, in both modes: an application touching 0 and 24 pages
 * between requests, each after a mode switch (which empties the TLB and
 * restarts its random replacement): the switches must have missed in each
 * mode (in baseline the ICAs' entries evict the processes' own; in fast
 * mode 24 pages overflow the 32 general entries).  Two runs in one boot
 * need not miss alike (the kernel stacks' slots differ); two boots do.
 */
TEST_NEEDS(ispc_switch_misses_counted_by_class, counted_misses)
{
	long was = sys_ispc_mode(HAKO_ISPC_QUERY);
	char *argv[] = { "ispcbench", "--check", "--ws", "0,24", "switch", NULL };
	int pid = spawnv("ispcbench", argv), status = -1;
	CHECK(pid > 0, "spawn ispcbench %d", pid);
	CHECK_EQ(waitpid(pid, &status), pid);
	CHECK_EQ(sys_ispc_mode((int)was), was);
	CHECK(!HAKO_WIFKILLED(status) && HAKO_WEXITCODE(status) == 0,
	      "ispcbench --check switch: status 0x%x", status);
	return 0;
}

/* The misses on ICA addresses the kernel has served since boot. */
static uint64_t ica_misses(void)
{
	struct hako_perf_tlb_classes c = { { 0 } };
	sys_perf_ctl(HAKO_PERF_TLB_MISS_CLASSES, &c);
	return c.misses[HAKO_TLB_MISS_ICA];
}

#define CROWD_PAGES 64
static char crowd[CROWD_PAGES][4096] __attribute__((aligned(4096)));

/*
 * Fast mode: a server with the ICA window (echo, of servers=) gets the
 * window's reserved entry when a request's ICAs are pasted into it (its
 * receive), as the application gets its own at paste.  So after every
 * general entry was replaced (64 pages touched three times over), a
 * request whose server sums the data ICA misses on no ICA address, in
 * the server or back here.
 */
TEST_NEEDS(ica_window_server_request_misses_no_ica_entry_in_fast_mode, counted_misses)
{
	long was = sys_ispc_mode(HAKO_ISPC_QUERY);
	CHECK_EQ(sys_ispc_mode(HAKO_ISPC_FAST), HAKO_ISPC_FAST);
	struct fleet fl = { .n = 0, .ns = 0 };
	struct ispc_call call;
	int echo = fleet_server(&fl, "echo", "echo", NULL);
	long r = echo > 0 ? ispc_call_open(&call, 1) : echo, sum = -1;
	uint64_t missed = 0;
	if (r >= 0) {
		r = ispc_call_op(&call, ECHO_SUM, 64, 0, NULL, 0);
		if (r >= 0)
			r = ispc_call(echo, &call, 0);
		for (int round = 0; round < 3; round++)
			for (int i = 0; i < CROWD_PAGES; i++)
				((volatile char *)crowd[i])[0]++;
		uint64_t before = ica_misses();
		if (r >= 0 && (r = ispc_call_op(&call, ECHO_SUM, 64, 0, NULL, 0)) >= 0)
			sum = ispc_call(echo, &call, 0);
		missed = ica_misses() - before;
		ispc_call_close(&call);
	}
	fleet_stop_all(&fl);
	CHECK_EQ(sys_ispc_mode((int)was), was);
	CHECK(r >= 0 && sum >= 0, "echo %d, request %ld, sum %ld", echo, r, sum);
	CHECK_EQ(missed, 0);
	return 0;
}
