/*
 * arch/syscall.h — where a system call's number, arguments and result
 * live in the saved user registers (SH-4, `trapa #0`: number in r3,
 * arguments in r4-r7 then r0 and r1, result in r0).  Inline: they are on
 * every system call.
 */
#ifndef HAKO_ARCH_SYSCALL_H
#define HAKO_ARCH_SYSCALL_H

#include <stdint.h>
#include <arch/trapframe.h>

#define ARCH_SYSCALL_ARGS 6

static inline uint64_t arch_syscall_nr(const struct trapframe *tf) { return tf->r[3]; }

/* An argument is a 32-bit register: an address or a value a 32-bit
 * caller passed, widened without sign. */
static inline uint64_t arch_syscall_arg(const struct trapframe *tf, int n)
{
	switch (n) {
	case 0: return tf->r[4];
	case 1: return tf->r[5];
	case 2: return tf->r[6];
	case 3: return tf->r[7];
	case 4: return tf->r[0];
	default: return tf->r[1];
	}
}

static inline void arch_syscall_set_result(struct trapframe *tf, long r) { tf->r[0] = (uint32_t)r; }

#endif
