/*
 * arch/syscall.h — where a system call's number, arguments and result
 * live in the saved user registers (SH-4, `trapa #0`: number in r3).
 * The user stub leaves the argument words where the C ABI put them:
 * words 0-3 in r4-r7, words 4 and 5 (the caller's stack) in r0 and r1.
 * A 64-bit argument takes two consecutive words, low word first; the
 * generated syscall_abi (tools/build/gensyscalls.py, in
 * build/sh4/gen/syscall_table.c) says, per call, which word each
 * argument starts at and which are 64 bits.  A 64-bit result goes back
 * in r0:r1.  Inline: they are on every system call.
 */
#ifndef HAKO_ARCH_SYSCALL_H
#define HAKO_ARCH_SYSCALL_H

#include <stdint.h>
#include <stddef.h>
#include <arch/trapframe.h>

#define ARCH_SYSCALL_ARGS 6

/* One call's argument layout: word[n] is argument n's first word, with
 * ARCH_SYSCALL_WIDE set if it is 64 bits; result64: the result is 64 bits. */
#define ARCH_SYSCALL_WIDE 0x80
struct arch_syscall_abi {
	uint8_t word[ARCH_SYSCALL_ARGS];
	uint8_t result64;
};
extern const struct arch_syscall_abi syscall_abi[];
extern const unsigned syscall_count;

static inline uint64_t arch_syscall_nr(const struct trapframe *tf) { return tf->r[3]; }

/* Argument word K: r4-r7, then r0, r1. */
static inline uint32_t arch_syscall_word(const struct trapframe *tf, unsigned k)
{
	return k < 4 ? tf->r[4 + k] : tf->r[(k - 4) & 1];
}

/* Argument N of the call in r3, rebuilt to 64 bits where it has them; a
 * 32-bit one is widened without sign.  A number outside the table reads
 * word N. */
static inline uint64_t arch_syscall_arg(const struct trapframe *tf, int n)
{
	uint32_t nr = tf->r[3];
	unsigned w = nr < syscall_count ? syscall_abi[nr].word[n] : (unsigned)n;
	unsigned k = w & ~(unsigned)ARCH_SYSCALL_WIDE;
	uint64_t v = arch_syscall_word(tf, k);
	if ((w & ARCH_SYSCALL_WIDE) && k + 1 < ARCH_SYSCALL_ARGS)
		v |= (uint64_t)arch_syscall_word(tf, k + 1) << 32;
	return v;
}

/* r0, and r1 the high half where the call's result is 64 bits (the
 * handler returned a `long` otherwise, and r1 is left to the caller's
 * clobbered registers). */
static inline void arch_syscall_set_result(struct trapframe *tf, int64_t r)
{
	uint32_t nr = tf->r[3];
	tf->r[0] = (uint32_t)r;
	if (nr < syscall_count && syscall_abi[nr].result64)
		tf->r[1] = (uint32_t)((uint64_t)r >> 32);
}

/* A `-> words` call's words (syscalls.def): none here, a register holds
 * 32 bits; such calls return -ENOSYS (kernel/syscall/sys_ispc.c) before
 * asking for them. */
#define ARCH_SYSCALL_WORDS 0
static inline uint64_t *arch_syscall_words(void) { return NULL; }

#endif
