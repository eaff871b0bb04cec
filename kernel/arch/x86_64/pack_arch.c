/*
 * pack_arch.c — the x86_64 side of interrupt packaging (kernel/intr/).
 *
 * Every device vector enters through its lean stub (vectors.S, installed
 * at boot), which tests the vector's two bytes of arch_pack_gate with one
 * 16-bit test: both 0 means "register only" (save nine registers, call
 * intr_pack_register, return); either set sends the interrupt down the
 * ordinary full path (every register into a trapframe, trap(),
 * intr_dispatch).  Byte 1 is set while the vector is not packaging's
 * (arch_intr_lean_entry); byte 0, the divert byte, is flipped by the
 * generic layer: for a device in sequential mode, and for the interrupt
 * that will complete a batch of N.  Each byte is written with a plain
 * byte store, so the two writers never undo each other, and the IDT is
 * never rewritten at run time.
 *
 * The interrupt mask the pre-processing changes is either the I/O APIC
 * input of a level-triggered line, or the LAPIC task priority (TPR):
 * raised to a vector's class, it holds every interrupt of that class and
 * below in the LAPIC until it is lowered again (SDM vol. 3, 11.8.3).
 *
 * For the phase probe, arch_intr_probe_self raises a vector on this CPU at
 * a known instruction: a self-IPI is taken right after the ICR write.
 */
#include <stdbool.h>
#include <stdint.h>
#include <arch/arch.h>
#include <intr.h>
#include "arch_cpu.h"
#include "ioapic.h"
#include "lapic.h"

/* Read by the lean stubs (vectors.S): [v][0] divert, [v][1] not packaging's; any set = full path. */
volatile uint8_t arch_pack_gate[256][2] __attribute__((aligned(2))) = { [0 ... 255] = { 0, 1 } };

void arch_intr_lean_entry(int vector, bool on)
{
	if (vector < VECTOR_DEVICE_FIRST || vector > VECTOR_DEVICE_LAST)
		return;
	arch_pack_gate[vector][0] = 1;
	__atomic_store_n(&arch_pack_gate[vector][1], !on, __ATOMIC_RELEASE);
}

void arch_intr_divert(int vector, bool on)
{
	arch_pack_gate[vector & 0xff][0] = on;
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

/* pack_probe.S: TSC, one 32-bit store, TSC. */
void pack_probe_store(volatile uint32_t *reg, uint32_t value, uint64_t out[2]);

void arch_intr_probe_self(int vector, bool fire, uint64_t out[2])
{
	static volatile uint32_t dummy;
	uint32_t value = 0;
	volatile uint32_t *reg = fire ? lapic_self_ipi_reg(vector, &value) : &dummy;
	pack_probe_store(reg, value, out);
}
