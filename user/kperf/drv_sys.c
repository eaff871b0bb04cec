/*
 * kperf/drv_sys.c — drivers of the calls about the machine (CPU and
 * system counters, the program archive, the thread list), semaphores and
 * perf_ctl.
 */
#include "kperf.h"

int kperf_drv_cpustat(struct kperf_run *run)
{
	struct hako_cpustat st;
	long r = KPERF_TIME(run, sys_cpustat(KPERF_CPU, &st), sys_cpustat(KPERF_CPU, &st));
	return r < 0 ? kperf_fail("cpustat", r) : 0;
}

int kperf_drv_sysinfo(struct kperf_run *run)
{
	struct hako_sysinfo si;
	long r = KPERF_TIME(run, sys_sysinfo(&si), sys_sysinfo(&si));
	return r < 0 ? kperf_fail("sysinfo", r) : 0;
}

int kperf_drv_progname(struct kperf_run *run)
{
	char name[64];
	long r = KPERF_TIME(run, sys_progname(0, name, sizeof name),
			    sys_progname(0, name, sizeof name));
	run->note = "the first program";
	return r < 0 ? kperf_fail("progname", r) : 0;
}

int kperf_drv_ps(struct kperf_run *run)
{
	struct hako_psinfo info;
	long r = KPERF_TIME(run, sys_ps(0, &info), sys_ps(0, &info));
	run->note = "the first thread of the list";
	return r < 0 ? kperf_fail("ps", r) : 0;
}

int kperf_drv_sem_create(struct kperf_run *run)
{
	long a = -1;
	long b = KPERF_TIME(run, a = sys_sem_create(0), sys_sem_create(0));
	if (a >= 0)
		sys_sem_destroy((int)a);
	if (b >= 0)
		sys_sem_destroy((int)b);
	return a < 0 || b < 0 ? kperf_fail("sem_create", a < 0 ? a : b) : 0;
}

int kperf_drv_sem_post(struct kperf_run *run)
{
	long id = sys_sem_create(0);
	if (id < 0)
		return kperf_fail("sem_create", id);
	long r = KPERF_TIME(run, sys_sem_post((int)id), sys_sem_post((int)id));
	sys_sem_destroy((int)id);
	run->note = "nobody waiting";
	return r < 0 ? kperf_fail("sem_post", r) : 0;
}

int kperf_drv_sem_wait(struct kperf_run *run)
{
	long id = sys_sem_create(2);
	if (id < 0)
		return kperf_fail("sem_create", id);
	long r = KPERF_TIME(run, sys_sem_wait((int)id), sys_sem_wait((int)id));
	sys_sem_destroy((int)id);
	run->note = "count above 0: no block";
	return r < 0 ? kperf_fail("sem_wait", r) : 0;
}

int kperf_drv_sem_post_wait(struct kperf_run *run)
{
	long a = sys_sem_create(0), b = a < 0 ? a : sys_sem_create(2);
	long r = a < 0 || b < 0 ? (a < 0 ? a : b) :
		 KPERF_TIME(run, sys_sem_post_wait((int)a, (int)b), sys_sem_post_wait((int)a, (int)b));
	if (a >= 0)
		sys_sem_destroy((int)a);
	if (b >= 0)
		sys_sem_destroy((int)b);
	run->note = "nobody waiting, count above 0: no block";
	return r < 0 ? kperf_fail("sem_post_wait", r) : 0;
}

int kperf_drv_sem_destroy(struct kperf_run *run)
{
	long a = sys_sem_create(0);
	long b = a < 0 ? a : sys_sem_create(0);
	if (b < 0)
		return kperf_fail("sem_create", b);
	long r = KPERF_TIME(run, sys_sem_destroy((int)a), sys_sem_destroy((int)b));
	return r < 0 ? kperf_fail("sem_destroy", r) : 0;
}

int kperf_drv_perf_ctl(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_perf_ctl(HAKO_PERF_PURGE, NULL),
			    sys_perf_ctl(HAKO_PERF_PURGE, NULL));
	run->note = "HAKO_PERF_PURGE: WBINVD and a full TLB flush";
	return r < 0 ? kperf_fail("perf_ctl", r) : 0;
}
