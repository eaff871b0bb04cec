/*
 * arch/switch.h — the SH-4 steps of a thread switch, called by the
 * scheduler's one switch (sched/sched_switch.h's switch_to):
 * arch_thread_switched_in(c, t), what changes on CPU c once t runs there
 * (the kernel stack for entries from user mode, t's address space;
 * thread_arch.c), and arch_switch, which parks the running thread and
 * resumes the other where it parked (switch.S).
 */
#ifndef HAKO_ARCH_SWITCH_H
#define HAKO_ARCH_SWITCH_H

#include <stdint.h>

struct cpu;
struct thread;

void arch_thread_switched_in(struct cpu *c, struct thread *t);
void arch_switch(uint64_t *save_sp, uint64_t new_sp);

/* The words calls' resume straight to user mode (x86_64's
 * arch_switch_to_user, arch_thread_words): SH-4 has no words calls
 * (ARCH_SYSCALL_WORDS), so the generic code that uses these is left out
 * by that constant; declared, never defined, a use that is not left out
 * does not link. */
uint64_t *arch_thread_words(struct thread *t);
void arch_switch_to_user(uint64_t *save_sp, struct thread *next, long result,
			 volatile uint32_t *release, uint32_t value);

#endif
