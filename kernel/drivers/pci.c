/*
 * pci.c — enumerating PCI devices: a recursive scan from bus 0 through
 * PCI-to-PCI bridges, BAR sizing, the capability list, MSI and INTx.
 */
#include <stdint.h>
#include <acpi.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <pci.h>
#include <arch/arch.h>

#define CFG_VENDOR   0x00
#define CFG_COMMAND  0x04
#define CFG_STATUS   0x06
#define CFG_CLASS    0x08     /* revision, prog-if, subclass, class */
#define CFG_HEADER   0x0e
#define CFG_BAR0     0x10
#define CFG_SECONDARY_BUS 0x19
#define CFG_CAP_PTR  0x34
#define CFG_IRQ      0x3c     /* line, pin */

#define CMD_IO         (1u << 0)
#define CMD_MEMORY     (1u << 1)
#define CMD_BUS_MASTER (1u << 2)
#define CMD_INTX_OFF   (1u << 10)
#define STATUS_CAPS    (1u << 4)

/* MSI-X capability (PCI 3.0, 6.8.2.1-6.8.2.5), offsets from the capability */
#define MSIX_CTRL        0x02           /* Message Control */
#define MSIX_CTRL_SIZE   0x07ffu        /*   bits 10:0: table size, N - 1 */
#define MSIX_CTRL_FMASK  (1u << 14)     /*   Function Mask: every vector held back */
#define MSIX_CTRL_ENABLE (1u << 15)     /*   MSI-X Enable */
#define MSIX_TABLE       0x04           /* Table Offset (bits 31:3) / Table BIR (bits 2:0) */
#define MSIX_BIR_MASK    0x7u

/* An MSI-X table entry, 16 bytes (6.8.2.6-6.8.2.9) */
#define MSIX_ENTRY_SIZE   16
#define MSIX_ENTRY_ADDR   0x0           /* Message Address (low 32 bits; bits 1:0 zero) */
#define MSIX_ENTRY_UADDR  0x4           /* Message Upper Address */
#define MSIX_ENTRY_DATA   0x8           /* Message Data */
#define MSIX_ENTRY_CTRL   0xc           /* Vector Control: bit 0 masks the vector */
#define MSIX_ENTRY_MASKED 1u

struct pci_device pci_devices[PCI_MAX_DEVICES];
int pci_ndevices;

uint32_t pci_read32(const struct pci_device *d, uint8_t off) { return arch_pci_read32(d->bus, d->dev, d->fn, off); }
uint16_t pci_read16(const struct pci_device *d, uint8_t off) { return pci_read32(d, off & ~3) >> ((off & 2) * 8); }
uint8_t pci_read8(const struct pci_device *d, uint8_t off) { return pci_read32(d, off & ~3) >> ((off & 3) * 8); }
void pci_write32(const struct pci_device *d, uint8_t off, uint32_t v) { arch_pci_write32(d->bus, d->dev, d->fn, off, v); }

void pci_write16(const struct pci_device *d, uint8_t off, uint16_t v)
{
	uint32_t old = pci_read32(d, off & ~3);
	int shift = (off & 2) * 8;
	pci_write32(d, off & ~3, (old & ~(0xffffu << shift)) | ((uint32_t)v << shift));
}

uint8_t pci_find_cap(const struct pci_device *d, uint8_t cap_id)
{
	if (!(pci_read16(d, CFG_STATUS) & STATUS_CAPS))
		return 0;
	uint8_t off = pci_read8(d, CFG_CAP_PTR) & 0xfc;
	for (int guard = 0; off && guard < 48; guard++) {
		if (pci_read8(d, off) == cap_id)
			return off;
		off = pci_read8(d, off + 1) & 0xfc;
	}
	return 0;
}

/* Size a BAR by writing all ones and reading back (decode off meanwhile). */
static int size_bar(struct pci_device *d, int i)
{
	uint8_t off = CFG_BAR0 + 4 * i;
	uint32_t orig = pci_read32(d, off);
	struct pci_bar *b = &d->bar[i];
	uint16_t cmd = pci_read16(d, CFG_COMMAND);
	pci_write16(d, CFG_COMMAND, cmd & ~(CMD_IO | CMD_MEMORY));
	pci_write32(d, off, 0xffffffff);
	uint32_t mask = pci_read32(d, off);
	pci_write32(d, off, orig);
	b->io = orig & 1;
	if (b->io) {
		b->addr = orig & ~3u;
		b->size = (~(mask & ~3u) + 1) & 0xffff;
	} else {
		b->is64 = ((orig >> 1) & 3) == 2;
		b->prefetch = orig & 8;
		uint64_t addr = orig & ~0xfull, m = mask & ~0xfull;
		if (b->is64 && i < 5) {
			uint32_t orig_hi = pci_read32(d, off + 4);
			pci_write32(d, off + 4, 0xffffffff);
			uint64_t mask_hi = pci_read32(d, off + 4);
			pci_write32(d, off + 4, orig_hi);
			addr |= (uint64_t)orig_hi << 32;
			m |= mask_hi << 32;
		} else {
			m |= 0xffffffff00000000ull;
		}
		b->addr = addr;
		b->size = m ? ~m + 1 : 0;
	}
	pci_write16(d, CFG_COMMAND, cmd);
	if (mask == 0)
		b->size = 0;
	return b->is64 ? 2 : 1;
}

static void scan_bus(uint8_t bus, int depth);

static void add_function(uint8_t bus, uint8_t dev, uint8_t fn, int depth)
{
	if (pci_ndevices >= PCI_MAX_DEVICES)
		return;
	struct pci_device *d = &pci_devices[pci_ndevices];
	*d = (struct pci_device){ .bus = bus, .dev = dev, .fn = fn, .intx_gsi = -1 };
	uint32_t id = pci_read32(d, CFG_VENDOR), cls = pci_read32(d, CFG_CLASS);
	d->vendor = id & 0xffff;
	d->device = id >> 16;
	d->revision = cls & 0xff;
	d->prog_if = (cls >> 8) & 0xff;
	d->subclass = (cls >> 16) & 0xff;
	d->class_code = cls >> 24;
	uint8_t header = pci_read8(d, CFG_HEADER) & 0x7f;
	pci_ndevices++;
	if (header == 0) {
		for (int i = 0; i < 6;)
			i += size_bar(d, i);
		d->irq_line = pci_read8(d, CFG_IRQ);
		d->irq_pin = pci_read8(d, CFG_IRQ + 1);
		d->msi_cap = pci_find_cap(d, PCI_CAP_MSI);
		d->msix_cap = pci_find_cap(d, PCI_CAP_MSIX);
		if (d->msix_cap) {
			uint32_t table = pci_read32(d, d->msix_cap + MSIX_TABLE);
			d->msix_bar = table & MSIX_BIR_MASK;
			d->msix_offset = table & ~MSIX_BIR_MASK;
			d->msix_entries = (pci_read16(d, d->msix_cap + MSIX_CTRL) & MSIX_CTRL_SIZE) + 1;
		}
	} else if (header == 1 && depth < 8) {
		scan_bus(pci_read8(d, CFG_SECONDARY_BUS), depth + 1);
	}
}

static void scan_bus(uint8_t bus, int depth)
{
	for (uint8_t dev = 0; dev < 32; dev++) {
		if ((arch_pci_read32(bus, dev, 0, CFG_VENDOR) & 0xffff) == 0xffff)
			continue;
		bool multi = (arch_pci_read32(bus, dev, 0, 0x0c) >> 16) & 0x80;
		for (uint8_t fn = 0; fn < (multi ? 8 : 1); fn++)
			if ((arch_pci_read32(bus, dev, fn, CFG_VENDOR) & 0xffff) != 0xffff)
				add_function(bus, dev, fn, depth);
	}
}

void pci_init(void)
{
	pci_ndevices = 0;
	scan_bus(0, 0);
	for (int i = 0; i < pci_ndevices; i++) {
		struct pci_device *d = &pci_devices[i];
		kprintf("pci %02x:%02x.%x %04x:%04x class %02x.%02x%s%s\n", d->bus, d->dev, d->fn,
			d->vendor, d->device, d->class_code, d->subclass,
			d->msi_cap ? " msi" : "", d->msix_cap ? " msi-x" : "");
	}
}

struct pci_device *pci_find(uint16_t vendor, uint16_t device, int index)
{
	for (int i = 0; i < pci_ndevices; i++)
		if (pci_devices[i].vendor == vendor && pci_devices[i].device == device && index-- == 0)
			return &pci_devices[i];
	return NULL;
}

void pci_enable_bus_master(const struct pci_device *d)
{
	pci_write16(d, CFG_COMMAND, pci_read16(d, CFG_COMMAND) | CMD_MEMORY | CMD_IO | CMD_BUS_MASTER);
}

void pci_disable_bus_master(const struct pci_device *d)
{
	pci_write16(d, CFG_COMMAND, pci_read16(d, CFG_COMMAND) & ~CMD_BUS_MASTER);
}

/* PCI 2.3, 6.2.2: command bit 10 keeps the device from asserting INTx. */
void pci_intx_disable(const struct pci_device *d, bool off)
{
	uint16_t cmd = pci_read16(d, CFG_COMMAND);
	pci_write16(d, CFG_COMMAND, off ? cmd | CMD_INTX_OFF : cmd & ~CMD_INTX_OFF);
}

/*
 * MSI (PCI 3.0, 6.8.1): the address and data the arch wants for vector on
 * CPU dest (arch_msi_message).  Control bit 0 enables, bit 7 says the
 * address is 64-bit, which moves the data register.
 */
int pci_msi_enable(struct pci_device *d, int vector, uint32_t dest)
{
	uint8_t cap = d->msi_cap;
	if (!cap)
		return -ENODEV;
	uint16_t ctrl = pci_read16(d, cap + 2);
	bool is64 = ctrl & (1u << 7);
	uint64_t addr;
	uint32_t data;
	arch_msi_message(dest, vector, &addr, &data);
	pci_write32(d, cap + 4, (uint32_t)addr);
	if (is64)
		pci_write32(d, cap + 8, (uint32_t)(addr >> 32));
	pci_write16(d, cap + (is64 ? 12 : 8), (uint16_t)data);
	ctrl = (ctrl & ~(7u << 4)) | 1u;       /* one vector, enabled */
	pci_write16(d, cap + 2, ctrl);
	pci_write16(d, CFG_COMMAND, pci_read16(d, CFG_COMMAND) | CMD_INTX_OFF);
	return 0;
}

/*
 * One 32-bit configuration write (the address's upper half stays 0): the
 * device sends its next message to the new CPU, never a torn one.  The
 * data register, which holds the vector, is not touched.
 */
int pci_msi_set_dest(struct pci_device *d, int vector, uint32_t dest)
{
	if (!d->msi_cap)
		return -ENODEV;
	uint64_t addr;
	uint32_t data;
	arch_msi_message(dest, vector, &addr, &data);
	pci_write32(d, d->msi_cap + 4, (uint32_t)addr);
	return 0;
}

int pci_msi_disable(struct pci_device *d)
{
	if (!d->msi_cap)
		return -ENODEV;
	pci_write16(d, d->msi_cap + 2, pci_read16(d, d->msi_cap + 2) & ~1u);
	pci_write16(d, CFG_COMMAND, pci_read16(d, CFG_COMMAND) & ~CMD_INTX_OFF);
	return 0;
}

/*
 * MSI-X.  MSI and MSI-X must not both be on, so MSI goes off first.  The
 * function mask holds every vector back while the enable bit changes;
 * each entry keeps its own mask bit, which after reset is set, so only
 * the entries pci_msix_program has unmasked can fire.
 */
int pci_msix_enable(struct pci_device *d)
{
	uint8_t cap = d->msix_cap;
	if (!cap)
		return -ENODEV;
	if (d->msi_cap)
		pci_write16(d, d->msi_cap + 2, pci_read16(d, d->msi_cap + 2) & ~1u);
	uint16_t ctrl = pci_read16(d, cap + MSIX_CTRL);
	pci_write16(d, cap + MSIX_CTRL, ctrl | MSIX_CTRL_ENABLE | MSIX_CTRL_FMASK);
	pci_write16(d, CFG_COMMAND, pci_read16(d, CFG_COMMAND) | CMD_INTX_OFF);
	pci_write16(d, cap + MSIX_CTRL, (ctrl | MSIX_CTRL_ENABLE) & ~MSIX_CTRL_FMASK);
	return 0;
}

int pci_msix_disable(struct pci_device *d)
{
	uint8_t cap = d->msix_cap;
	if (!cap)
		return -ENODEV;
	uint16_t ctrl = pci_read16(d, cap + MSIX_CTRL);
	pci_write16(d, cap + MSIX_CTRL, ctrl & ~(MSIX_CTRL_ENABLE | MSIX_CTRL_FMASK));
	pci_write16(d, CFG_COMMAND, pci_read16(d, CFG_COMMAND) & ~CMD_INTX_OFF);
	return 0;
}

static volatile uint32_t *msix_word(volatile uint8_t *table, int entry, int off)
{
	return (volatile uint32_t *)(table + entry * MSIX_ENTRY_SIZE + off);
}

void pci_msix_mask(volatile uint8_t *table, int entry, bool masked)
{
	volatile uint32_t *ctrl = msix_word(table, entry, MSIX_ENTRY_CTRL);
	*ctrl = masked ? *ctrl | MSIX_ENTRY_MASKED : *ctrl & ~MSIX_ENTRY_MASKED;
}

/* The message is written while the entry is masked: the device never
 * sends half of an old message and half of a new one. */
void pci_msix_program(volatile uint8_t *table, int entry, int vector, uint32_t dest)
{
	uint64_t addr;
	uint32_t data;
	arch_msi_message(dest, vector, &addr, &data);
	pci_msix_mask(table, entry, true);
	*msix_word(table, entry, MSIX_ENTRY_ADDR) = (uint32_t)addr;
	*msix_word(table, entry, MSIX_ENTRY_UADDR) = (uint32_t)(addr >> 32);
	*msix_word(table, entry, MSIX_ENTRY_DATA) = data;
	pci_msix_mask(table, entry, false);
}

/*
 * INTx: the BIOS wrote the ISA IRQ it routed the pin to in the interrupt
 * line register; the MADT may say how that line reaches the I/O APIC
 * (QEMU declares its PCI lines level, active high), otherwise it is a
 * PCI line, level-triggered and active low.
 */
int pci_intx_route(struct pci_device *d, int vector, uint32_t dest)
{
	if (!d->irq_pin || d->irq_line == 0xff)
		return -ENODEV;
	bool low, level;
	uint32_t gsi = acpi_pci_gsi(d->irq_line, &low, &level);
	int err = arch_intr_line_route((int)gsi, vector, dest, low, level);
	if (err == 0)
		d->intx_gsi = (int)gsi;
	return err;
}

int pci_intx_unroute(struct pci_device *d)
{
	if (d->intx_gsi < 0)
		return -ENODEV;
	int err = arch_intr_line_mask(d->intx_gsi, true);
	d->intx_gsi = -1;
	return err;
}

int pci_irq_attach(struct pci_device *d, bool msi, uint32_t dest,
		   intr_handler_t fn, void *arg, const char *name)
{
	int vector = intr_alloc_vector();
	if (vector < 0)
		return vector;
	intr_register(vector, fn, arg, name);
	int err = msi ? pci_msi_enable(d, vector, dest) : pci_intx_route(d, vector, dest);
	if (err < 0) {
		intr_release(vector);
		return err;
	}
	return vector;
}
