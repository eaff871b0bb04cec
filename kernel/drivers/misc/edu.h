/*
 * edu.h — QEMU's "edu" teaching device (docs/specs/edu.rst in QEMU),
 * used as a known-good interrupt source: software asks it to raise an
 * interrupt, by MSI or by its INTx pin through the I/O APIC, and the
 * self-tests check that the interrupt arrives, once, on the CPU chosen.
 */
#ifndef HAKO_EDU_H
#define HAKO_EDU_H

#include <stdint.h>
#include <drvenv.h>

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8

enum edu_route { EDU_ROUTE_NONE, EDU_ROUTE_MSI, EDU_ROUTE_INTX };

struct edu {
	struct drv_dev *dev;            /* the device and its grants */
	struct drv_mmio regs;           /* BAR0 */
	enum edu_route route;
	volatile uint64_t irqs;         /* handler runs */
	volatile uint32_t status_seen;  /* status bits acknowledged, ORed */
	volatile int last_cpu;
};

struct edu *edu_get(void);           /* NULL when QEMU has no -device edu */
uint32_t edu_ident(struct edu *e);   /* 0x010000ed for version 1.0 */
/* Deliver the device's interrupt to cpu, by MSI or INTx (-ENODEV, -EAGAIN). */
int edu_route(struct edu *e, enum edu_route how, int cpu);
void edu_unroute(struct edu *e);
void edu_raise(struct edu *e, uint32_t bits);
uint32_t edu_pending(struct edu *e);     /* status bits not yet acknowledged */

#endif
