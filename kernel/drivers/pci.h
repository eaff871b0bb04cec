/*
 * pci.h — PCI devices found at boot: identity, BARs, capabilities, MSI.
 *
 * Configuration space is read through the legacy 0xcf8/0xcfc ports,
 * which both QEMU machines (pc: i440FX, q35: ICH9) provide.
 */
#ifndef HAKO_PCI_H
#define HAKO_PCI_H

#include <stdbool.h>
#include <stdint.h>
#include <intr.h>

#define PCI_MAX_DEVICES 64
#define PCI_CAP_MSI   0x05
#define PCI_CAP_MSIX  0x11

struct pci_bar {
	uint64_t addr;          /* physical address or I/O port */
	uint64_t size;
	bool io, prefetch, is64;
};

struct pci_device {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint8_t class_code, subclass, prog_if, revision;
	uint8_t irq_line, irq_pin;
	struct pci_bar bar[6];
	uint8_t msi_cap;        /* config offset of the MSI capability, 0 if none */
	uint8_t msix_cap;       /* config offset of the MSI-X capability, 0 if none */
	uint8_t msix_bar;       /* MSI-X: the BAR that holds the table, */
	uint32_t msix_offset;   /* where in it the table starts, */
	uint16_t msix_entries;  /* and its entries (16 bytes each) */
	int intx_gsi;           /* the I/O APIC input INTx is routed to, -1 if none */
};

extern struct pci_device pci_devices[PCI_MAX_DEVICES];
extern int pci_ndevices;

void pci_init(void);
struct pci_device *pci_find(uint16_t vendor, uint16_t device, int index);
uint32_t pci_read32(const struct pci_device *d, uint8_t off);
uint16_t pci_read16(const struct pci_device *d, uint8_t off);
uint8_t pci_read8(const struct pci_device *d, uint8_t off);
void pci_write32(const struct pci_device *d, uint8_t off, uint32_t v);
void pci_write16(const struct pci_device *d, uint8_t off, uint16_t v);
uint8_t pci_find_cap(const struct pci_device *d, uint8_t cap_id);
void pci_enable_bus_master(const struct pci_device *d);   /* and memory and I/O decoding */
void pci_disable_bus_master(const struct pci_device *d);  /* no more DMA from the device */
void pci_intx_disable(const struct pci_device *d, bool off);   /* off: it asserts no INTx */
/* Point the device's MSI at vector on the CPU with dest_apic_id; -ENODEV without MSI. */
int pci_msi_enable(struct pci_device *d, int vector, uint32_t dest_apic_id);
int pci_msi_disable(struct pci_device *d);
/*
 * MSI-X (PCI 3.0, 6.8.2): the table lives in a BAR (msix_bar at
 * msix_offset), mapped by whoever calls these; table is that mapping's
 * address of entry 0.  pci_msix_enable turns MSI off and MSI-X on with
 * every entry left as it is (masked after reset) and INTx off;
 * pci_msix_program points entry at vector on the CPU with dest_apic_id
 * and unmasks it; pci_msix_mask holds an entry back or lets it through.
 */
int pci_msix_enable(struct pci_device *d);
int pci_msix_disable(struct pci_device *d);
void pci_msix_program(volatile uint8_t *table, int entry, int vector, uint32_t dest_apic_id);
void pci_msix_mask(volatile uint8_t *table, int entry, bool masked);
/* Send the enabled MSI to the CPU with dest_apic_id instead: the address alone is rewritten. */
int pci_msi_set_dest(struct pci_device *d, int vector, uint32_t dest_apic_id);
/* Route the device's INTx line through the I/O APIC (legacy pin). */
int pci_intx_route(struct pci_device *d, int vector, uint32_t dest_apic_id);
int pci_intx_unroute(struct pci_device *d);    /* mask the line again */
/*
 * A fresh vector with fn(arg) registered on it, and the device's interrupt
 * delivered there by MSI or by INTx; returns the vector, or an error with
 * nothing left allocated.  Undo with pci_msi_disable / pci_intx_unroute
 * and intr_release.
 */
int pci_irq_attach(struct pci_device *d, bool msi, uint32_t dest_apic_id,
		   intr_handler_t fn, void *arg, const char *name);

/* arch: configuration space access */
uint32_t arch_pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
void arch_pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off, uint32_t v);

#endif
