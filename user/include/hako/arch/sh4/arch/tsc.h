/*
 * arch/tsc.h — what benchmarks need that C cannot express, on SH-4.  The
 * timer unit the kernel counts with (TMU channel 1) sits in P4, which user
 * mode cannot reach, so tsc_now asks the kernel for its clock (sys_clock,
 * nanoseconds since boot); the spin hint is a compiler barrier, and a
 * value the compiler must treat as used.  The TLB is loaded by the
 * kernel's miss handler, which counts every miss it serves:
 * tlb_misses_now reads that count (perf_ctl HAKO_PERF_TLB_MISSES).
 */
#ifndef _HAKO_ARCH_TSC_H
#define _HAKO_ARCH_TSC_H

#include <stdint.h>
#include <hako_perf.h>
#include <hako_syscalls.h>

static inline uint64_t tsc_now(void)
{
	return (uint64_t)sys_clock();
}

static inline void cpu_pause(void)
{
	__asm__ volatile("" : : : "memory");
}

static inline void keep_value(uint64_t *x)
{
	__asm__ volatile("" : "+r"(*x));
}

#define ARCH_TLB_MISSES_COUNTED 1
static inline uint64_t tlb_misses_now(void)
{
	uint64_t n = 0;
	sys_perf_ctl(HAKO_PERF_TLB_MISSES, &n);
	return n;
}

#endif
