/*
 * ioapic.c — the 8259 PICs switched off and the I/O APICs programmed
 * (82093AA datasheet: IOREGSEL at +0x00, IOWIN at +0x10; register 0x01
 * holds the number of redirection entries, 0x10+2n/0x11+2n entry n).
 */
#include <stddef.h>
#include <stdint.h>
#include <acpi.h>
#include <errno.h>
#include <panic.h>
#include <spinlock.h>
#include <vm.h>
#include "x86.h"
#include "ioapic.h"

#define IOREGSEL 0x00
#define IOWIN    0x10
#define IOAPICVER 0x01
#define REDTBL(n) (0x10 + 2 * (n))

#define RED_MASKED     (1ull << 16)
#define RED_LEVEL      (1ull << 15)
#define RED_ACTIVE_LOW (1ull << 13)

struct ioapic {
	volatile uint32_t *regs;
	uint32_t gsi_base, nlines;
};

static struct ioapic ioapics[ACPI_MAX_IOAPICS];
static int nioapics;
static struct spinlock ioapic_lock = SPINLOCK_INIT("ioapic", LOCK_IOAPIC);

void pic_disable(void)
{
	outb(0x20, 0x11); outb(0xa0, 0x11);     /* ICW1: init, ICW4 follows */
	outb(0x21, 0x20); outb(0xa1, 0x28);     /* ICW2: vectors 0x20 / 0x28 */
	outb(0x21, 0x04); outb(0xa1, 0x02);     /* ICW3: cascade on IRQ 2 */
	outb(0x21, 0x01); outb(0xa1, 0x01);     /* ICW4: 8086 mode */
	outb(0x21, 0xff); outb(0xa1, 0xff);     /* mask everything */
}

static uint32_t rd(struct ioapic *io, uint32_t reg) { io->regs[IOREGSEL / 4] = reg; return io->regs[IOWIN / 4]; }
static void wr(struct ioapic *io, uint32_t reg, uint32_t v) { io->regs[IOREGSEL / 4] = reg; io->regs[IOWIN / 4] = v; }

static struct ioapic *find(uint32_t gsi, uint32_t *pin)
{
	for (int i = 0; i < nioapics; i++) {
		if (gsi >= ioapics[i].gsi_base && gsi < ioapics[i].gsi_base + ioapics[i].nlines) {
			*pin = gsi - ioapics[i].gsi_base;
			return &ioapics[i];
		}
	}
	return NULL;
}

void ioapic_init(void)
{
	for (int i = 0; i < acpi.nioapics; i++) {
		struct ioapic *io = &ioapics[nioapics];
		io->regs = vm_map_mmio(acpi.ioapics[i].addr, 4096);
		if (!io->regs)
			panic("ioapic: cannot map %x", acpi.ioapics[i].addr);
		io->gsi_base = acpi.ioapics[i].gsi_base;
		io->nlines = ((rd(io, IOAPICVER) >> 16) & 0xff) + 1;
		for (uint32_t pin = 0; pin < io->nlines; pin++) {
			wr(io, REDTBL(pin), RED_MASKED);
			wr(io, REDTBL(pin) + 1, 0);
		}
		nioapics++;
	}
}

int ioapic_count(void) { return nioapics; }

int ioapic_route(uint32_t gsi, int vector, uint32_t dest, bool active_low, bool level)
{
	uint32_t pin;
	struct ioapic *io = find(gsi, &pin);
	if (!io || vector < 0x20 || vector > 0xfe)
		return -EINVAL;
	uint64_t lo = (uint32_t)vector | (active_low ? RED_ACTIVE_LOW : 0) | (level ? RED_LEVEL : 0);
	spin_lock(&ioapic_lock);
	wr(io, REDTBL(pin) + 1, dest << 24);
	wr(io, REDTBL(pin), (uint32_t)lo);
	spin_unlock(&ioapic_lock);
	return 0;
}

int ioapic_set_dest(uint32_t gsi, uint32_t dest)
{
	uint32_t pin;
	struct ioapic *io = find(gsi, &pin);
	if (!io)
		return -EINVAL;
	spin_lock(&ioapic_lock);
	wr(io, REDTBL(pin) + 1, dest << 24);
	spin_unlock(&ioapic_lock);
	return 0;
}

int ioapic_mask(uint32_t gsi, bool masked)
{
	uint32_t pin;
	struct ioapic *io = find(gsi, &pin);
	if (!io)
		return -EINVAL;
	spin_lock(&ioapic_lock);
	uint32_t lo = rd(io, REDTBL(pin));
	wr(io, REDTBL(pin), masked ? lo | RED_MASKED : lo & ~(uint32_t)RED_MASKED);
	spin_unlock(&ioapic_lock);
	return 0;
}
