/*
 * user/lib/arch/x86_64/cpu.h — the few CPU instructions the library needs
 * that C cannot express.  Private to user/lib.
 */
#ifndef HAKO_USER_ARCH_CPU_H
#define HAKO_USER_ARCH_CPU_H

/* Tell the CPU we are spinning: saves power, frees the sibling thread. */
static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

#endif
