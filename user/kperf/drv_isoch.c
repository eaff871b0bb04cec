/*
 * kperf/drv_isoch.c — drivers of the periodic-thread calls (isoch_ctl,
 * isoch_wait).  kperf makes itself periodic on its own CPU for the time
 * of one driver and gives the reservation back after.
 */
#include <errno.h>
#include "kperf.h"

#define KPERF_ISOCH_PERIOD_NS 10000000ull   /* 10 ms: never released while timed */
#define KPERF_ISOCH_BUDGET_NS 1000000ull

static long become_periodic(void)
{
	struct hako_isoch req = { .period_ns = KPERF_ISOCH_PERIOD_NS,
				  .budget_ns = KPERF_ISOCH_BUDGET_NS, .cpu = KPERF_CPU };
	return sys_isoch_ctl(HAKO_ISOCH_CREATE, 0, &req);
}

int kperf_drv_isoch_ctl(struct kperf_run *run)
{
	long r = become_periodic();
	if (r < 0)
		return kperf_fail("isoch_ctl CREATE", r);
	struct hako_isoch st;
	r = KPERF_TIME(run, sys_isoch_ctl(HAKO_ISOCH_INFO, 0, &st),
		       sys_isoch_ctl(HAKO_ISOCH_INFO, 0, &st));
	run->note = "HAKO_ISOCH_INFO of the caller, periodic but not started";
	long d = sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
	return r < 0 ? kperf_fail("isoch_ctl INFO", r) : d < 0 ? kperf_fail("isoch_ctl DESTROY", d) : 0;
}

int kperf_drv_isoch_wait(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_isoch_wait(), sys_isoch_wait());
	run->note = "a normal thread: -EINVAL (a periodic one sleeps to its next release)";
	return r == -EINVAL ? 0 : kperf_fail("isoch_wait", r < 0 ? r : -1);
}
