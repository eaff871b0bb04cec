/*
 * driver.h — the driver core: the devices bound to drivers at boot and
 * what each was granted.  Drivers see none of this; they hold a struct
 * drv_dev as a handle and use drvenv.h.
 *
 * drivers_probe() (drivers/driver.c), called once at boot after PCI
 * enumeration, goes through the drivers registered with DRIVER() in
 * order; for each PCI device whose id a driver's manifest lists it checks
 * the device against the manifest, grants the resources (drvenv_kernel.c)
 * and calls attach.  Devices are bound at boot only, so the table is read
 * without a lock.
 */
#ifndef HAKO_DRIVER_H
#define HAKO_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <drvenv.h>

#define DRV_DEV_MAX 16           /* devices bound, all drivers together */
#define DRV_DMA_MAX 4            /* DMA areas one device holds at once */
#define DRV_MSIX_MAX 32          /* MSI-X entries one device may attach */

struct pci_device;

struct drv_dev {
	const struct driver *driver;
	struct pci_device *pci;
	int index;                   /* among its driver's devices */
	char name[16];               /* driver.index */
	bool granted;                /* drv_grant ran: bus mastering is on */
	bool in_process;             /* drvproc= lists its driver: a driver process attaches it
	                              * (paper 003, drvproc.h); the kernel grants it nothing */
	struct drv_mmio mmio[DRV_BARS];     /* the register windows granted */
	struct drv_ports ports[DRV_BARS];   /* the port ranges granted */
	struct drv_dma dma[DRV_DMA_MAX];    /* DMA areas held; bytes 0: a free slot */
	uint64_t dma_used;           /* bytes of them, against the manifest's dma_bytes */
	enum drv_irq_kind irq;       /* attached by drv_irq_attach: INTX, MSI or NONE;
	                              * MSIX once drv_irq_attach_vector attached an entry */
	int irq_vector;
	volatile uint8_t *msix_table;           /* MSI-X: entry 0, in the granted BAR mapping */
	uint8_t msix_vector[DRV_MSIX_MAX];      /* the vector of each entry attached, 0 if none */
	drv_irq_fn irq_fn;           /* the driver's handler and its argument */
	void *irq_arg;
	void (*irq_hook)(struct drv_dev *dev, void *ctx);   /* NULL, or runs instead of irq_fn */
	void *irq_hook_ctx;
};

void drivers_probe(void);
int drv_dev_count(void);
struct drv_dev *drv_dev_get(int i);                        /* NULL past the end */
struct drv_dev *drv_dev_find(const char *driver, int index);   /* index-th device of a driver */

/* 0 if d is a device m binds and has every BAR and the interrupt m asks for; -ENODEV if not. */
int drv_manifest_match(const struct drv_manifest *m, const struct pci_device *d);

/* drvenv_kernel.c: the grants behind drvenv.h. */
int drv_grant(struct drv_dev *dev);      /* map the manifest's BARs, bus mastering on */
void drv_revoke(struct drv_dev *dev);    /* bus mastering off, interrupt detached, DMA freed */
/* Whether the device's interrupt goes by MSI: the manifest allows it and the device has it. */
bool drv_uses_msi(const struct drv_dev *dev);
/*
 * The kernel's own say in a device's interrupt (paper 001's delivery
 * policies, kernel/mpio/): with a hook set, each interrupt of the device
 * calls hook(dev, ctx) instead of the driver's handler, and the hook runs
 * the handler with drv_irq_run when and where it decides.  Set it before
 * the device is used; the handler's own contract (interrupts off, no
 * sleep) holds for the hook.
 */
void drv_irq_set_hook(struct drv_dev *dev, void (*hook)(struct drv_dev *dev, void *ctx), void *ctx);
void drv_irq_run(struct drv_dev *dev);

#endif
