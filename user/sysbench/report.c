/*
 * sysbench/report.c — the targets for sysbench's figures; the
 * sample sets and the report itself are the library's (hako/bench.h).
 */
#include <hako/bench.h>
#include "sysbench.h"

/* The targets, in guest instructions under icount (median). */
static const struct bench_target targets[] = {
	{ "null_syscall", 150, "null syscall round trip" },
	{ "process_switch_oneway", 800, "process switch, one way" },
	{ "process_switch_postwait_oneway", 400, "process switch, one way, sem_post_wait" },
	{ "page_fault_first_touch", 1500, "first-touch page fault" },
	{ "spawn_exit_wait", 200000, "spawn + exit + wait" },
};

void report(const char *name, struct samples *s, const char *what,
	    unsigned region, unsigned long iters)
{
	bench_report_region(name, s, what, region, iters);
}

void report_summary(void)
{
	bench_summary(targets, sizeof targets / sizeof targets[0]);
}
