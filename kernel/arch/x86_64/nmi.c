/*
 * nmi.c — what a non-maskable interrupt means here.
 *
 * Two senders use it, because it reaches a CPU even when that CPU spins
 * with interrupts off: a panicking CPU stops the others with it
 * (smp_stop_others), and the thread dump asks every other CPU where it
 * is (arch_snapshot_others).  The NMI handler records its trap frame's
 * pc and frame pointer for the asker and returns; it takes no lock.
 */
#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <smp.h>
#include <time.h>
#include <arch/arch.h>
#include "lapic.h"
#include <arch/trapframe.h>

static volatile bool wanted[MAX_CPUS];          /* cpu i should record where it is */
static struct arch_snapshot taken[MAX_CPUS];    /* static: a late answer harms nobody */

void nmi(struct trapframe *tf)
{
	if (smp_stopping())
		arch_halt_forever();
	if (!__atomic_exchange_n(&wanted[cpu_id()], false, __ATOMIC_ACQ_REL))
		return;
	struct arch_snapshot *s = &taken[cpu_id()];
	s->user = tf_from_user(tf);
	s->pc = tf->rip;
	s->fp = tf->rbp;
	__atomic_store_n(&s->valid, true, __ATOMIC_RELEASE);
}

int arch_snapshot_others(struct arch_snapshot *snap, int n)
{
	int me = cpu_id(), asked = 0, answered = 0;
	for (int i = 0; i < n; i++) {
		taken[i].valid = false;
		if (i == me || !cpus[i].online)
			continue;
		__atomic_store_n(&wanted[i], true, __ATOMIC_RELEASE);
		lapic_send_nmi(cpus[i].apic_id);
		asked++;
	}
	uint64_t give_up = arch_tsc() + ns_to_tsc(50 * 1000 * 1000);
	while (answered < asked && arch_tsc() < give_up) {
		answered = 0;
		for (int i = 0; i < n; i++)
			answered += __atomic_load_n(&taken[i].valid, __ATOMIC_ACQUIRE);
		arch_spin_hint();
	}
	for (int i = 0; i < n; i++) {
		__atomic_store_n(&wanted[i], false, __ATOMIC_RELEASE);
		snap[i] = taken[i];
	}
	return answered;
}
