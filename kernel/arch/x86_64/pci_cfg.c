/*
 * pci_cfg.c — PCI configuration mechanism #1: address to 0xcf8, data at
 * 0xcfc (PCI Local Bus spec 3.0, 3.2.2.3.2).  Serialised by a lock since
 * the address/data pair is shared by all CPUs.
 */
#include <stdint.h>
#include <pci.h>
#include <spinlock.h>
#include "x86.h"

#define PCI_ADDR 0xcf8
#define PCI_DATA 0xcfc

static struct spinlock cfg_lock = SPINLOCK_INIT("pci_cfg", LOCK_PCI_CFG);

static uint32_t address(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	return (1u << 31) | ((uint32_t)bus << 16) | ((uint32_t)dev << 11) | ((uint32_t)fn << 8) | (off & 0xfc);
}

uint32_t arch_pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	spin_lock(&cfg_lock);
	outl(PCI_ADDR, address(bus, dev, fn, off));
	uint32_t v = inl(PCI_DATA);
	spin_unlock(&cfg_lock);
	return v;
}

void arch_pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off, uint32_t v)
{
	spin_lock(&cfg_lock);
	outl(PCI_ADDR, address(bus, dev, fn, off));
	outl(PCI_DATA, v);
	spin_unlock(&cfg_lock);
}
