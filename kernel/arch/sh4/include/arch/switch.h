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

#endif
