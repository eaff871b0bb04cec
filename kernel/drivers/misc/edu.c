/*
 * edu.c — driver for QEMU's edu PCI device (1234:11e8).
 *
 * Registers of BAR0 used here: 0x00 identification, 0x24 interrupt
 * status, 0x60 raise (the written bits are ORed into the status and the
 * interrupt is asserted), 0x64 acknowledge (the written bits are
 * cleared; INTx is deasserted when none is left).  With MSI enabled the
 * device sends one message per raise instead of holding its pin.
 */
#include <stdbool.h>
#include <stddef.h>
#include <cpu.h>
#include <driver.h>
#include <edu.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <pci.h>
#include <vm.h>

#define EDU_IDENT      0x00
#define EDU_IRQ_STATUS 0x24
#define EDU_IRQ_RAISE  0x60
#define EDU_IRQ_ACK    0x64

static struct edu edu;
static bool present;

static uint32_t rd(struct edu *e, unsigned off) { return e->regs[off / 4]; }
static void wr(struct edu *e, unsigned off, uint32_t v) { e->regs[off / 4] = v; }

static void edu_probe(void)
{
	struct pci_device *d = pci_find(EDU_VENDOR, EDU_DEVICE, 0);
	if (!d || d->bar[0].io || !d->bar[0].addr)
		return;
	edu.pci = d;
	edu.regs = vm_map_mmio(d->bar[0].addr, 4096);
	if (!edu.regs) {
		kprintf("edu: cannot map BAR0 at %lx\n", d->bar[0].addr);
		return;
	}
	pci_enable_bus_master(d);                /* MSI messages are bus-master writes */
	present = true;
}

struct edu *edu_get(void) { return present ? &edu : NULL; }

uint32_t edu_ident(struct edu *e) { return rd(e, EDU_IDENT); }

/* Acknowledge before the EOI, so a level-triggered INTx line is low again. */
static void edu_interrupt(void *arg)
{
	struct edu *e = arg;
	uint32_t status = rd(e, EDU_IRQ_STATUS);
	wr(e, EDU_IRQ_ACK, status);
	e->status_seen |= status;
	e->last_cpu = cpu_id();
	e->irqs++;
}

int edu_route(struct edu *e, enum edu_route how, int cpu)
{
	if (cpu < 0 || cpu >= ncpus || how == EDU_ROUTE_NONE)
		return -EINVAL;
	edu_unroute(e);
	int vector = pci_irq_attach(e->pci, how == EDU_ROUTE_MSI, cpus[cpu].apic_id,
				    edu_interrupt, e, "edu");
	if (vector < 0)
		return vector;
	e->vector = vector;
	e->route = how;
	return 0;
}

void edu_unroute(struct edu *e)
{
	if (e->route == EDU_ROUTE_MSI)
		pci_msi_disable(e->pci);
	else if (e->route == EDU_ROUTE_INTX)
		pci_intx_unroute(e->pci);
	if (e->route != EDU_ROUTE_NONE)
		intr_release(e->vector);
	e->route = EDU_ROUTE_NONE;
}

void edu_raise(struct edu *e, uint32_t bits)
{
	wr(e, EDU_IRQ_RAISE, bits);
}

uint32_t edu_pending(struct edu *e)
{
	return rd(e, EDU_IRQ_STATUS);
}

DRIVER(edu, edu_probe, 10);
