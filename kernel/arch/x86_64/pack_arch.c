/*
 * pack_arch.c — the x86_64 side of interrupt packaging (intr_pack.c).
 *
 * A packed vector enters through its lean stub (vectors.S), which looks
 * at arch_pack_divert[vector] first: 0 means "register only" (save nine
 * registers, call intr_pack_register, return), 1 sends the interrupt down
 * the ordinary full path (every register into a trapframe, trap(),
 * intr_dispatch).  The generic layer flips the byte: for a device in
 * sequential mode, and for the interrupt that will complete a batch of N.
 *
 * The interrupt mask the pre-processing changes is either the I/O APIC
 * input of a level-triggered line, or the LAPIC task priority (TPR):
 * raised to a vector's class, it holds every interrupt of that class and
 * below in the LAPIC until it is lowered again (SDM vol. 3, 11.8.3).
 */
#include <stdbool.h>
#include <stdint.h>
#include <arch.h>
#include <intr.h>
#include "arch_cpu.h"
#include "ioapic.h"
#include "lapic.h"

/* Read by the lean stubs (vectors.S): 1 = take the full path. */
volatile uint8_t arch_pack_divert[256];

extern const uint64_t vector_table[256];
extern const uint64_t pack_lean_table[VECTOR_DEVICE_LAST - VECTOR_DEVICE_FIRST + 1];

void arch_intr_lean_entry(int vector, bool on)
{
	if (vector < VECTOR_DEVICE_FIRST || vector > VECTOR_DEVICE_LAST)
		return;
	arch_pack_divert[vector] = 1;
	idt_set_entry(vector, on ? pack_lean_table[vector - VECTOR_DEVICE_FIRST] : vector_table[vector]);
}

void arch_intr_divert(int vector, bool on)
{
	arch_pack_divert[vector & 0xff] = on;
}

void arch_intr_eoi(void)
{
	lapic_eoi();
}

unsigned arch_intr_block_upto(int vector)
{
	return lapic_tpr_swap((uint32_t)vector & 0xf0);
}

void arch_intr_unblock(unsigned old)
{
	lapic_tpr_swap(old);
}

int arch_intr_line_mask(int gsi, bool masked)
{
	return ioapic_mask((uint32_t)gsi, masked);
}
