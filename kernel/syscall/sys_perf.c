/*
 * sys_perf.c — kernel self-measurement (paper 004): perf_ctl.  It purges
 * the caches and the calling CPU's TLB, so user/kperf can time each
 * call's worst case, and reads or resets the longest preemption-off
 * section per context (preempt_trace.c), and times the kernel-internal
 * interfaces (kinternal.c), and reads the TLB misses a software-loaded
 * TLB has served (arch_tlb_misses), also by class (arch_tlb_miss_classes).  Reading the sections and the misses
 * is open, every other op needs HAKO_PRIV_MEASURE (priv.h).  The rules are in
 * uapi/hako_perf.h.
 */
#include <stdint.h>
#include <errno.h>
#include <heap.h>
#include <measure.h>
#include <preempt_trace.h>
#include <priv.h>
#include <syscall.h>
#include <uaccess.h>
#include <arch/arch.h>
#include <arch/mmu.h>
#include <hako_perf.h>

static long preempt_get(uint64_t uout)
{
	if (!user_range_ok(uout, sizeof(struct hako_perf_preempt)))
		return -EFAULT;
	struct hako_perf_preempt *k = kmalloc(sizeof *k);
	if (!k)
		return -ENOMEM;
	preempt_trace_get(k);
	long r = copy_to_user(uout, k, sizeof *k);
	kfree(k);
	return r;
}

static long internal(uint64_t uio)
{
	struct hako_perf_internal io;
	if (copy_from_user(&io, uio, sizeof io) < 0)
		return -EFAULT;
	long r = kinternal_time(&io);
	if (r < 0 && r != -ENOENT)
		return r;
	long c = copy_to_user(uio, &io, sizeof io);
	return c < 0 ? c : r;
}

static long tlb_misses(uint64_t uout)
{
	uint64_t n;
	int r = arch_tlb_misses(&n);
	return r < 0 ? r : copy_to_user(uout, &n, sizeof n);
}

static long tlb_miss_classes(uint64_t uout)
{
	struct hako_perf_tlb_classes c;
	int r = arch_tlb_miss_classes(c.misses, HAKO_TLB_MISS_CLASSES);
	return r < 0 ? r : copy_to_user(uout, &c, sizeof c);
}

long sys_perf_ctl(uint64_t op, uint64_t arg)
{
	if ((int)op != HAKO_PERF_PREEMPT_GET && (int)op != HAKO_PERF_TLB_MISSES &&
	    (int)op != HAKO_PERF_TLB_MISS_CLASSES && priv_check(HAKO_PRIV_MEASURE) < 0)
		return -EPERM;
	switch ((int)op) {
	case HAKO_PERF_PURGE:
		if (arg)
			return -EINVAL;
		arch_purge_caches_and_tlb();
		return 0;
	case HAKO_PERF_PREEMPT_GET:
		return preempt_get(arg);
	case HAKO_PERF_PREEMPT_RESET:
		if (arg)
			return -EINVAL;
		preempt_trace_reset();
		return 0;
	case HAKO_PERF_INTERNAL:
		return internal(arg);
	case HAKO_PERF_TLB_MISSES:
		return tlb_misses(arg);
	case HAKO_PERF_TLB_MISS_CLASSES:
		return tlb_miss_classes(arg);
	}
	return -EINVAL;
}
