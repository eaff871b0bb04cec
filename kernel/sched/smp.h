/*
 * smp.h — bringing the other CPUs up, and making them do things
 * (kernel/sched/smp.c over the arch's arch_cpu_start and arch_send_ipi).
 *
 * smp_call_mask() runs fn(arg) on each CPU in the mask from an IPI handler
 * (interrupts off) and, with wait, returns only when all have finished.
 * It must be called with interrupts on (a CPU waiting with interrupts off
 * could deadlock against one calling it).
 */
#ifndef HAKO_SMP_H
#define HAKO_SMP_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/arch.h>

struct cpu;

void smp_boot_aps(void);
void smp_cpu_online(struct cpu *c) __attribute__((noreturn));   /* end of a started CPU's set-up */
void smp_call_mask(uint64_t mask, void (*fn)(void *), void *arg, bool wait);
void smp_send_resched(int cpu);
static inline void smp_send_ipi(int cpu, int vector) { arch_send_ipi(cpu, vector); }
void smp_stop_others(void);            /* NMI every other CPU into a halt */
bool smp_stopping(void);
uint64_t smp_online_mask(void);

#endif
