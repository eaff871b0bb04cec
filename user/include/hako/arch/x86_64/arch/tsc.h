/*
 * arch/tsc.h — what benchmarks need that C cannot express, on x86_64
 * (programs include <arch/tsc.h>; user/user.mk picks the arch's folder
 * with -I): reading the time-stamp counter, the spin hint, and a value the compiler
 * must treat as used (so a timed loop is not folded away), and the TLB
 * misses counter, which x86 does not have.
 *
 * Under QEMU -icount shift=0 the TSC advances one tick per guest
 * instruction, so a difference of two reads is an instruction count.
 */
#ifndef _HAKO_ARCH_TSC_H
#define _HAKO_ARCH_TSC_H

#include <stdint.h>

/* The TSC; lfence keeps earlier instructions from finishing after it. */
static inline uint64_t tsc_now(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* Spin hint: under QEMU icount it also hands the emulator to another vCPU. */
static inline void cpu_pause(void)
{
	__asm__ volatile("pause" : : : "memory");
}

/* x is used and may have changed here: no instruction, but the computation
 * that produced it stays in the loop that times it. */
static inline void keep_value(uint64_t *x)
{
	__asm__ volatile("" : "+r"(*x));
}

/* The TLB misses the kernel has served: none counted, the x86 TLB is
 * loaded by the page walker (ARCH_TLB_MISSES_COUNTED 0: the callers'
 * counting compiles away). */
#define ARCH_TLB_MISSES_COUNTED 0
static inline uint64_t tlb_misses_now(void)
{
	return 0;
}

#endif
