/*
 * trapframe.h — what the interrupt and system-call entries (vectors.S,
 * syscall_entry.S, super_entry.S) save on the stack.  The order must
 * match PUSH_GPRS (trapframe_asm.h).  rdx, rsi, rdi, r8, r9, r10 lie in
 * that order one after the other: a `-> words` call's words, which its
 * handler writes in place (arch/syscall.h's arch_syscall_words).
 */
#ifndef HAKO_ARCH_TRAPFRAME_H
#define HAKO_ARCH_TRAPFRAME_H

#include <stdint.h>

struct trapframe {
	uint64_t r15, r14, r13, r12, r11, rbp, rbx, rcx, rax;
	union {                                 /* a `-> words` call's words */
		struct { uint64_t rdx, rsi, rdi, r8, r9, r10; };
		uint64_t words[6];              /* arch/syscall.h */
	};
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;      /* pushed by the CPU */
};

/* Was a process's code interrupted: ring 3 (CS 0x23), or a supervisor-mode
 * process in ring 0, which runs with a code selector of its own (SEL_SCODE
 * 0x38, arch_cpu.h; super_arch.c)?  Both have selector bit 5, the kernel's
 * code (0x08) has not: one test, like the RPL test it stands for. */
#define TF_PROCESS_CS_BIT 0x20
static inline int tf_from_user(const struct trapframe *tf) { return (tf->cs & TF_PROCESS_CS_BIT) != 0; }

/* user_arch.c */
void user_exception(struct trapframe *tf);     /* ring-3 exception: serve it or kill */
bool uaccess_fault(struct trapframe *tf);      /* kernel #PF inside a user copy */

/* nmi.c */
void nmi(struct trapframe *tf);                /* a panic's stop, or a snapshot request */

#endif
