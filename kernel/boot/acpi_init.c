/*
 * acpi_init.c — the kernel side of ACPI: find the RSDP, parse, and stop
 * with a clear message when a machine has no usable tables.
 */
#include <acpi.h>
#include <kprintf.h>
#include <panic.h>
#include <pmm.h>
#include <arch/arch.h>

static const void *kernel_p2v(uint64_t pa)
{
	return phys_to_virt(pa);
}

void acpi_init(const struct bootinfo *bi)
{
	uint64_t rsdp = bi->rsdp_phys ? bi->rsdp_phys : acpi_find_rsdp(kernel_p2v);
	if (!rsdp)
		panic("acpi: no RSDP found; Hako needs ACPI (MADT) to find CPUs");
	int err = acpi_parse(rsdp, kernel_p2v, &acpi);
	if (err < 0)
		panic("acpi: tables unusable (error %d)", err);
}
