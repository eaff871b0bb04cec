/*
 * arch/syscall.h — where a system call's number, arguments and result
 * live in the saved user registers (x86_64: number in rax, arguments in
 * rdi, rsi, rdx, r10, r8, r9, result in rax; syscall_entry.S saves them).
 * Inline: they are on every system call.
 */
#ifndef HAKO_ARCH_SYSCALL_H
#define HAKO_ARCH_SYSCALL_H

#include <stdint.h>
#include <arch/trapframe.h>

#define ARCH_SYSCALL_ARGS 6

static inline uint64_t arch_syscall_nr(const struct trapframe *tf) { return tf->rax; }

static inline uint64_t arch_syscall_arg(const struct trapframe *tf, int n)
{
	switch (n) {
	case 0: return tf->rdi;
	case 1: return tf->rsi;
	case 2: return tf->rdx;
	case 3: return tf->r10;
	case 4: return tf->r8;
	default: return tf->r9;
	}
}

static inline void arch_syscall_set_result(struct trapframe *tf, int64_t r) { tf->rax = (uint64_t)r; }

#endif
