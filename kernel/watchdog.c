/*
 * watchdog.c — a CPU that stops taking its timer tick gets an NMI.
 *
 * Every tick, each CPU looks at when the others last ticked.  One that
 * has not for WATCHDOG_NS is sent a non-maskable interrupt, at most once
 * per WATCHDOG_NS, and counted.  The NMI itself does nothing (nmi.c); it
 * exists because QEMU 7.2 in icount mode can leave a vCPU unscheduled
 * with an interrupt pending for minutes of guest time, and an NMI sets
 * it going again (docs/design.md, "Unequal vCPU time").  On hardware a
 * CPU that misses ticks is spinning with interrupts off; the counter
 * then says which one, and the NMI is harmless.
 */
#include <stdint.h>
#include <cpu.h>
#include <smp.h>
#include <time.h>
#include <watchdog.h>

#define WATCHDOG_NS (50ull * 1000 * 1000)   /* five ticks of 10 ms */

void watchdog_ticked(struct cpu *me)
{
	uint64_t now = arch_tsc(), limit = ns_to_tsc(WATCHDOG_NS);
	me->last_tick_tsc = now;
	for (int i = 0; i < ncpus; i++) {
		struct cpu *c = &cpus[i];
		if (c == me || !c->online || !c->last_tick_tsc)
			continue;
		if (now - c->last_tick_tsc < limit || now - c->last_kick_tsc < limit)
			continue;
		c->last_kick_tsc = now;      /* racing CPUs may both kick: harmless */
		c->watchdog_kicks++;
		smp_send_nmi(i);
	}
}
