/*
 * user/lib/arch/sh4/cpu.h — the few CPU operations the library needs that
 * C cannot express, on SH-4.  Private to user/lib.
 */
#ifndef HAKO_USER_ARCH_CPU_H
#define HAKO_USER_ARCH_CPU_H

/* Spinning: SH-4 has no hint instruction; a compiler barrier keeps the loop's loads. */
static inline void cpu_relax(void)
{
	__asm__ volatile("" ::: "memory");
}

#endif
