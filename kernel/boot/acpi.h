/*
 * acpi.h — what Hako reads from the ACPI tables: CPUs, I/O APICs and
 * interrupt overrides (MADT), the HPET, and PCI Express ECAM (MCFG).
 *
 * acpi_parse() is pure (tables in memory through p2v, struct out) and is
 * unit-tested on the host with synthetic tables.
 */
#ifndef HAKO_ACPI_H
#define HAKO_ACPI_H

#include <stdbool.h>
#include <stdint.h>
#include <bootinfo.h>

#define ACPI_MAX_CPUS 64
#define ACPI_MAX_IOAPICS 8
#define ACPI_MAX_OVERRIDES 16

struct acpi_ioapic {
	uint8_t id;
	uint32_t addr;
	uint32_t gsi_base;
};

/* An ISA IRQ that reaches the I/O APIC on another pin or with other polarity. */
struct acpi_override {
	uint8_t irq;
	uint32_t gsi;
	bool active_low, level;
	uint16_t flags;         /* MPS INTI flags as found: 0 means "conforms to the bus" */
};

struct acpi_info {
	char oem[7];
	uint8_t revision;
	uint32_t lapic_addr;
	bool has_8259;
	int ncpus;
	uint32_t cpu_apic_ids[ACPI_MAX_CPUS];   /* enabled CPUs, MADT order */
	int nioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	int noverrides;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	uint64_t hpet_addr;                     /* 0: none */
	uint64_t ecam_addr;                     /* 0: none (pc has no MCFG) */
	uint8_t ecam_bus_start, ecam_bus_end;
	uint32_t pm1a_cnt;                      /* FADT: PM1a control port for S5 */
};

extern struct acpi_info acpi;

uint64_t acpi_find_rsdp(p2v_fn p2v);    /* scan EBDA and BIOS ROM; 0 if none */
int acpi_parse(uint64_t rsdp_pa, p2v_fn p2v, struct acpi_info *out);
void acpi_init(const struct bootinfo *bi);

/* The GSI and flags for an ISA IRQ after overrides. */
uint32_t acpi_isa_gsi(int irq, bool *active_low, bool *level);
/*
 * The same for the ISA IRQ a PCI INTx pin was routed to: where the
 * override does not say otherwise the line behaves as PCI does, level
 * triggered and active low.
 */
uint32_t acpi_pci_gsi(int irq, bool *active_low, bool *level);

#endif
