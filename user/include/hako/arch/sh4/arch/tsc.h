/*
 * arch/tsc.h — what benchmarks need that C cannot express, on SH-4.  The
 * timer unit the kernel counts with (TMU channel 1) sits in P4, which user
 * mode cannot reach, so tsc_now asks the kernel for its clock (sys_clock,
 * nanoseconds since boot); the spin hint is a compiler barrier, and a
 * value the compiler must treat as used.
 */
#ifndef _HAKO_ARCH_TSC_H
#define _HAKO_ARCH_TSC_H

#include <stdint.h>
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

#endif
