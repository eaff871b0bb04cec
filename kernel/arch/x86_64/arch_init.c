/*
 * arch_init.c — the x86_64 steps of the boot order that kmain (boot/main.c)
 * calls through arch_* hooks: per-CPU descriptors, the trap table, the
 * firmware tables (ACPI), the interrupt controllers; and device-line routing for the PCI layer.
 */
#include <acpi.h>
#include <cpu.h>
#include <arch/arch.h>
#include "arch_cpu.h"
#include "ioapic.h"
#include "lapic.h"

static struct arch_cpu bsp_arch;

void arch_early_init(struct cpu *bsp)
{
	arch_cpu_head_init(bsp);
	gdt_init_cpu(bsp, &bsp_arch);    /* GDT, TSS, per-CPU pointer */
}

void arch_trap_init(void)
{
	idt_init();                      /* exception and interrupt gates */
	idt_load();
	syscall_init_cpu();              /* again: LSTAR follows irqtrace=, read since */
}

void arch_platform_init(const struct bootinfo *bi)
{
	acpi_init(bi);                   /* CPUs, IOAPICs, HPET, ECAM */
}

const char *arch_machine_name(void)
{
	return acpi.ecam_addr ? "q35" : "pc";
}

void arch_intc_init(struct cpu *bsp)
{
	pic_disable();                   /* legacy PICs off: APIC mode */
	lapic_init();
	lapic_init_cpu();
	bsp->apic_id = lapic_id();
	ioapic_init();                   /* all lines masked */
}

int arch_intc_count(void)
{
	return ioapic_count();
}

int arch_intr_line_route(int gsi, int vector, uint32_t dest, bool active_low, bool level)
{
	return ioapic_route((uint32_t)gsi, vector, dest, active_low, level);
}

int arch_intr_line_retarget(int gsi, uint32_t dest)
{
	return ioapic_set_dest((uint32_t)gsi, dest);
}
