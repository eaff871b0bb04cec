/*
 * arch_init.c — the SH-4 steps of the boot order that kmain calls through
 * arch_* hooks, and the hooks whose x86 hardware the r2d board lacks
 * (other CPUs, I/O APIC lines, MSI, ACPI, PCI configuration):
 * each gives the "none" answer the generic code expects of a machine
 * without it.
 */
#include <stdint.h>
#include <bootinfo.h>
#include <cpu.h>
#include <errno.h>
#include <kprintf.h>
#include <pci.h>
#include <arch/arch.h>
#include <arch/mmu.h>
#include <arch/portio.h>
#include <arch/trapframe.h>
#include "sh4.h"

struct cpu *sh4_cpu;

void arch_set_this_cpu(struct cpu *c) { sh4_cpu = c; }

void arch_early_init(struct cpu *bsp)
{
	arch_cpu_head_init(bsp);
	arch_set_this_cpu(bsp);
}

/* VBR was set by boot.S before anything could fault; nothing else to load. */
void arch_trap_init(void)
{
	__asm__ volatile("ldc %0, vbr" : : "r"(sh4_vectors));
}

/* Every on-chip source at priority 0 (masked) until its driver raises it. */
void arch_intc_init(struct cpu *bsp)
{
	mmio_write16(SH4_IPRA, 0);
	mmio_write16(SH4_IPRB, 0);
	mmio_write16(SH4_IPRC, 0);
	sh4_softirq_init();
	bsp->apic_id = 0;
}

int arch_intc_count(void) { return 0; }

/* No firmware tables: the one CPU and no devices beyond the on-chip ones. */
void arch_platform_init(const struct bootinfo *bi) {}
const char *arch_machine_name(void) { return "r2d"; }

int arch_intr_line_route(int gsi, int vector, uint32_t dest, bool active_low, bool level) { return -ENODEV; }
int arch_intr_line_retarget(int gsi, uint32_t dest) { return -ENODEV; }
int arch_intr_line_mask(int gsi, bool masked) { return -ENODEV; }

/* Interrupt packaging: no interrupt controller to acknowledge (the lean
 * entries, held classes and self-raised vectors are softirq.c's). */
void arch_intr_eoi(void) {}

/* One CPU. */
uint32_t arch_cpu_apic_id(void) { return 0; }
int arch_cpu_start(struct cpu *c) { return -1; }
void arch_cpu_stop(struct cpu *c) {}
int arch_snapshot_others(struct arch_snapshot *snap, int n) { return 0; }

void arch_cpu_summary(void)
{
	uint64_t misses;
	arch_tlb_misses(&misses);
	kprintf("cpu: SH-4 (SH7751R), one CPU, TLB misses served %u\n", (unsigned)misses);
}


/* No PCI host bridge is set up: every read finds nothing. */
uint32_t arch_pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off) { return 0xffffffffu; }
void arch_pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off, uint32_t v) {}

/* No port space. */
uint32_t arch_port_in(uint16_t port, int width) { return 0xffffffffu >> (32 - 8 * width); }
void arch_port_out(uint16_t port, int width, uint32_t v) {}
void arch_io_bitmap_load(const struct arch_io_grant *g) {}
