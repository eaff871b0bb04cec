/*
 * idt.c — the interrupt descriptor table, shared by all CPUs.
 *
 * All 256 vectors point at the stubs of vectors.S; they are interrupt
 * gates (IF cleared on entry).  Double faults and NMIs run on their own
 * IST stacks.  The device vectors point at their lean stubs, which take
 * the ordinary path unless interrupt packaging owns the vector
 * (pack_arch.c).  Every gate is written once, at boot, before any CPU
 * loads the table: a gate is never rewritten while a CPU may deliver
 * through it.
 */
#include <stdint.h>
#include <arch/arch.h>
#include "x86.h"
#include "arch_cpu.h"

struct idt_entry {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type;       /* 0x8E: present, DPL 0, 64-bit interrupt gate */
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t zero;
} __attribute__((packed));

struct idtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern const uint64_t vector_table[256];
extern const uint64_t pack_lean_table[VECTOR_DEVICE_LAST - VECTOR_DEVICE_FIRST + 1];
static struct idt_entry idt[256] __attribute__((aligned(16)));

static void set_gate(int v, uint64_t handler, int ist)
{
	idt[v] = (struct idt_entry){
		.off_lo = handler & 0xffff,
		.sel = SEL_KCODE,
		.ist = ist,
		.type = 0x8E,
		.off_mid = (handler >> 16) & 0xffff,
		.off_hi = handler >> 32,
	};
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, v >= VECTOR_DEVICE_FIRST && v <= VECTOR_DEVICE_LAST
			    ? pack_lean_table[v - VECTOR_DEVICE_FIRST] : vector_table[v], 0);
	set_gate(1, vector_table[1], IST_DEBUG);
	set_gate(2, vector_table[2], IST_NMI);
	set_gate(8, vector_table[8], IST_DOUBLE_FAULT);
}

void idt_load(void)
{
	struct idtr r = { sizeof idt - 1, (uint64_t)idt };
	lidt(&r);
}
