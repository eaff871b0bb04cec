/*
 * sys_perf.c — kernel self-measurement (paper 004): perf_ctl.  Its one
 * operation purges the caches and the calling CPU's TLB, so user/kperf
 * can time each call's worst case.  The rules are in uapi/hako_perf.h.
 */
#include <stdint.h>
#include <errno.h>
#include <syscall.h>
#include <arch/arch.h>
#include <uapi/hako_perf.h>

long sys_perf_ctl(uint64_t op, uint64_t arg)
{
	if ((int)op != HAKO_PERF_PURGE || arg)
		return -EINVAL;
	arch_purge_caches_and_tlb();
	return 0;
}
