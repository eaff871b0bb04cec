/*
 * smp.h — bringing the other CPUs up, and making them do things.
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

void smp_boot_aps(void);
void smp_call_mask(uint64_t mask, void (*fn)(void *), void *arg, bool wait);
void smp_send_resched(int cpu);
void smp_send_ipi(int cpu, int vector);
void smp_stop_others(void);            /* NMI every other CPU into a halt */
bool smp_stopping(void);
uint64_t smp_online_mask(void);

#endif
