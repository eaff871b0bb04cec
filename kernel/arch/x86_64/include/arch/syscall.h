/*
 * arch/syscall.h — where a system call's number, arguments and result
 * live in the saved user registers (x86_64: number in rax, arguments in
 * rdi, rsi, rdx, r10, r8, r9, result in rax, a `-> words` call's words
 * in rdx, rsi, rdi, r8, r9, r10; syscall_entry.S saves them all).
 * Inline: they are on every system call.
 */
#ifndef HAKO_ARCH_SYSCALL_H
#define HAKO_ARCH_SYSCALL_H

#include <stdint.h>
#include <arch/arch.h>
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

/*
 * A `-> words` call's words (syscalls.def, hako.h's struct hako_words):
 * rdx, rsi, rdi, r8, r9, r10 of the running thread's syscall frame, at
 * the top of its kernel stack (gs:16) — registers the C ABI lets a call
 * clobber, which sysret and iretq load from the frame.  They lie one
 * after the other (trapframe.h's words), so the handler writes the words
 * there in place through this pointer.  Only from a system call's
 * handler, on its own thread, after the call's arguments are read (they
 * share those registers), and only the words of a call that succeeds: a
 * call that fails leaves the caller's registers as they were.
 */
#define ARCH_SYSCALL_WORDS 6
static inline uint64_t *arch_syscall_words(void)
{
	uint64_t top = arch_this_cpu_read64(__builtin_offsetof(struct arch_cpu_head, syscall_kstack));
	struct trapframe *tf = (struct trapframe *)(top - sizeof *tf);
	return tf->words;
}

#endif
