/*
 * trapframe.h — what the SH-4 exception entry (vectors.S) saves on the
 * kernel stack.  The order must match the stores in vectors.S.
 *
 * Generic code keeps register values in uint64_t; the SH-4's are 32 bits,
 * and the accessors below widen them.
 */
#ifndef HAKO_ARCH_TRAPFRAME_H
#define HAKO_ARCH_TRAPFRAME_H

#include <stdbool.h>
#include <stdint.h>

struct trapframe {
	uint32_t r[16];         /* r0-r15 of bank 0; r[15] is the interrupted stack pointer */
	uint32_t pr, mach, macl, gbr;
	uint32_t spc, ssr;      /* the interrupted pc and status register */
	uint32_t event;         /* EXPEVT or INTEVT: what was taken */
	uint32_t tea;           /* the faulting address of an address exception */
};

#define SH4_SR_MD   (1u << 30)   /* privileged mode */
#define SH4_SR_RB   (1u << 29)   /* register bank 1 */
#define SH4_SR_BL   (1u << 28)   /* exceptions and interrupts blocked */
#define SH4_SR_FD   (1u << 15)   /* FPU disabled */
#define SH4_SR_IMASK (0xfu << 4)

static inline int tf_from_user(const struct trapframe *tf) { return !(tf->ssr & SH4_SR_MD); }

/* trap.c */
void user_exception(struct trapframe *tf);     /* user-mode exception: serve it or kill */
bool uaccess_fault(struct trapframe *tf);      /* kernel fault inside a user copy */

#endif
