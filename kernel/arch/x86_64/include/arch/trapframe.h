/*
 * trapframe.h — what the interrupt entry (vectors.S) saves on the stack.
 * The order must match the pushes in vectors.S.
 */
#ifndef HAKO_ARCH_TRAPFRAME_H
#define HAKO_ARCH_TRAPFRAME_H

#include <stdint.h>

struct trapframe {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;      /* pushed by the CPU */
};

static inline int tf_from_user(const struct trapframe *tf) { return (tf->cs & 3) == 3; }

/* user_arch.c */
void user_exception(struct trapframe *tf);     /* ring-3 exception: serve it or kill */
bool uaccess_fault(struct trapframe *tf);      /* kernel #PF inside a user copy */

/* nmi.c */
void nmi(struct trapframe *tf);                /* a panic's stop, or a snapshot request */

#endif
