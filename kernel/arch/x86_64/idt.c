/*
 * idt.c — the interrupt descriptor table, shared by all CPUs.
 *
 * All 256 vectors point at the stubs of vectors.S; they are interrupt
 * gates (IF cleared on entry).  Double faults and NMIs run on their own
 * IST stacks.
 */
#include <stdint.h>
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
		set_gate(v, vector_table[v], 0);
	set_gate(1, vector_table[1], IST_DEBUG);
	set_gate(2, vector_table[2], IST_NMI);
	set_gate(8, vector_table[8], IST_DOUBLE_FAULT);
}

/* Point a vector at another entry; only while nothing can raise it. */
void idt_set_entry(int v, uint64_t handler)
{
	set_gate(v, handler, 0);
}

void idt_load(void)
{
	struct idtr r = { sizeof idt - 1, (uint64_t)idt };
	lidt(&r);
}
