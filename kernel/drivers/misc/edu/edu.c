/*
 * edu.c — driver for QEMU's edu PCI device (1234:11e8), a known-good
 * interrupt source for the self-tests (edu.h).
 *
 * QEMU flags that create the device (the harness always adds it):
 *   -device edu
 *
 * Source: QEMU's docs/specs/edu.rst and hw/misc/edu.c.  Registers are in
 * the 1 MiB memory BAR0, 32-bit; the first page is all this driver uses.
 * With MSI enabled the device sends one message per raise instead of
 * holding its pin.
 */
#include <stdbool.h>
#include <stddef.h>
#include <drvenv.h>
#include <edu.h>

#define EDU_REGS       4096   /* bytes of BAR0 granted */

/* Registers (offsets into BAR0). */
#define EDU_IDENT      0x00   /* identification: 0xRRrr00ed, RR.rr the version */
#define EDU_IRQ_STATUS 0x24   /* interrupt status: the bits raised and not acknowledged */
#define EDU_IRQ_RAISE  0x60   /* raise: written bits ORed into the status, interrupt asserted */
#define EDU_IRQ_ACK    0x64   /* acknowledge: written bits cleared; INTx drops when none is left */

/* One device, its first page, MSI or its pin (the tests choose), no DMA. */
static const struct drv_manifest edu_manifest = {
	.ids = { { EDU_VENDOR, EDU_DEVICE } },
	.bar[0] = { DRV_BAR_MMIO, EDU_REGS },
	.irq = DRV_IRQ_ANY,
	.max_devices = 1,
};

static struct edu edu;
static bool present;

static uint32_t rd(struct edu *e, unsigned off) { return drv_read32(&e->regs, off); }
static void wr(struct edu *e, unsigned off, uint32_t v) { drv_write32(&e->regs, off, v); }

static int edu_attach(struct drv_dev *dev)
{
	int err = drv_mmio(dev, 0, &edu.regs);
	if (err < 0)
		return err;
	edu.dev = dev;
	present = true;
	return 0;
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
	e->last_cpu = drv_cpu();
	e->irqs++;
}

int edu_route(struct edu *e, enum edu_route how, int cpu)
{
	if (how == EDU_ROUTE_NONE)
		return -EINVAL;
	edu_unroute(e);
	int err = drv_irq_attach(e->dev, how == EDU_ROUTE_MSI ? DRV_IRQ_MSI : DRV_IRQ_INTX, cpu,
				 edu_interrupt, e);
	if (err == 0)
		e->route = how;
	return err;
}

void edu_unroute(struct edu *e)
{
	drv_irq_detach(e->dev);
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

DRIVER(edu, 10, .class = DRV_CLASS_MISC, .manifest = &edu_manifest, .attach = edu_attach);
