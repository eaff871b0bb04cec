/*
 * softirq.c — interrupts the kernel sends itself, and the x86 LAPIC's
 * task priority, on a CPU that has neither.
 *
 * The generic layer raises vectors on its own CPU (arch_send_ipi to
 * itself: the scheduler's reschedule, the interrupt-packaging tests' fake
 * devices) and holds a vector's class and below while it works
 * (arch_intr_block_upto).  Here a raised vector is a bit in a pending
 * set, and TMU channel 2, counting down from 1, makes the interrupt that
 * delivers it (INTEVT 0x440): its handler dispatches every pending vector
 * above the held class, highest first, as the LAPIC would.  The held
 * class is a number (tpr, as the LAPIC's TPR: a vector v is held while
 * (v & 0xf0) <= tpr); the timer's vector is held the same way.  A device
 * vector with a lean entry (interrupt packaging, paper 000) goes to
 * intr_pack_register instead of the full path unless it is diverted, as
 * x86's lean stubs do.  One CPU: interrupts masked is exclusion enough.
 */
#include <stdint.h>
#include <intr.h>
#include <intr_pack.h>
#include <arch/arch.h>
#include <arch/trapframe.h>
#include "sh4.h"

#define SOFT_PRIORITY 8

static volatile uint32_t pending[ARCH_INTR_VECTORS / 32];
static volatile unsigned tpr;

static volatile uint8_t lean[ARCH_INTR_VECTORS], diverted[ARCH_INTR_VECTORS];

static bool held(int v) { return (unsigned)(v & 0xf0) <= tpr; }

/* The highest pending vector not held, or -1. */
static int next_pending(void)
{
	for (int w = ARCH_INTR_VECTORS / 32 - 1; w >= 0; w--) {
		uint32_t bits = pending[w];
		while (bits) {
			int b = 31 - __builtin_clz(bits);
			int v = w * 32 + b;
			if (!held(v))
				return v;
			bits &= ~(1u << b);
		}
	}
	return -1;
}

/* Interrupts masked: if something can be delivered, make TMU2 interrupt. */
static void kick(void)
{
	if (next_pending() < 0)
		return;
	mmio_write8(SH4_TSTR, mmio_read8(SH4_TSTR) & ~(1u << 2));
	mmio_write16(SH4_TCR(2), TCR_UNIE);
	mmio_write32(SH4_TCOR(2), 0xffffffffu);
	mmio_write32(SH4_TCNT(2), 1);
	mmio_write8(SH4_TSTR, mmio_read8(SH4_TSTR) | (1u << 2));
}

void sh4_softirq_init(void)
{
	mmio_write16(SH4_IPRA, (uint16_t)((mmio_read16(SH4_IPRA) & ~0x00f0u) | (SOFT_PRIORITY << 4)));
}

/* Raise vector on this CPU: delivered once it is not held and interrupts are on. */
void sh4_raise(int vector)
{
	uint64_t flags = arch_irq_save();
	pending[vector / 32] |= 1u << (vector % 32);
	kick();
	arch_irq_restore(flags);
}

/* The lean registration, unless diverted or it asks for the full path. */
static void dispatch(int v)
{
	if (lean[v] && !diverted[v] && intr_pack_register(v, arch_tsc()) == 0)
		return;
	intr_dispatch(v);
}

/* In an interrupt: deliver vector now unless its class is held. */
void sh4_deliver(int vector)
{
	if (held(vector)) {
		pending[vector / 32] |= 1u << (vector % 32);
		return;
	}
	dispatch(vector);
}

/* TMU2's underflow: every deliverable pending vector, highest first. */
void sh4_softirq(void)
{
	mmio_write8(SH4_TSTR, mmio_read8(SH4_TSTR) & ~(1u << 2));
	mmio_write16(SH4_TCR(2), TCR_UNIE);
	for (int v; (v = next_pending()) >= 0;) {
		pending[v / 32] &= ~(1u << (v % 32));
		dispatch(v);
	}
}

void arch_send_ipi(int cpu, int vector)
{
	if (cpu == 0)
		sh4_raise(vector);
}

unsigned arch_intr_block_upto(int vector)
{
	uint64_t flags = arch_irq_save();
	unsigned old = tpr;
	tpr = (unsigned)vector & 0xf0;
	arch_irq_restore(flags);
	return old;
}

void arch_intr_unblock(unsigned old)
{
	uint64_t flags = arch_irq_save();
	tpr = old;
	kick();
	arch_irq_restore(flags);
}

/* TSC around the raise (fire) or around nothing: the raise's own cost. */
void arch_intr_probe_self(int vector, bool fire, uint64_t out[2])
{
	out[0] = arch_tsc();
	if (fire)
		sh4_raise(vector);
	out[1] = arch_tsc();
}

void arch_intr_lean_entry(int vector, bool on)
{
	if (vector < VECTOR_DEVICE_FIRST || vector > VECTOR_DEVICE_LAST)
		return;
	diverted[vector] = 1;
	lean[vector] = on;
}

void arch_intr_divert(int vector, bool on)
{
	diverted[vector & 0xff] = on;
}
