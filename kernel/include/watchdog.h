/*
 * watchdog.h — kick a CPU that stopped ticking (watchdog.c).
 */
#ifndef HAKO_WATCHDOG_H
#define HAKO_WATCHDOG_H

struct cpu;

/* From each CPU's tick: note it, and NMI any CPU silent for too long. */
void watchdog_ticked(struct cpu *me);

#endif
