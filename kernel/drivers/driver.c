/*
 * driver.c — the driver core: binds PCI devices to the drivers registered
 * with DRIVER() (the .drivers section, kernel/arch/x86_64/linker.ld).
 *
 * For each driver in order, each PCI device in bus order whose id its
 * manifest lists is checked against the manifest (BARs of the right kind
 * and size, the interrupt kind), granted exactly what the manifest lists
 * (drvenv_kernel.c) and handed to the driver's attach.  A device that does
 * not fit, or whose attach fails, is said and skipped, with its grants
 * taken back; a driver binds at most max_devices.
 *
 * A driver listed in the kernel option `drvproc=` (paper 003) runs as a
 * process instead: its devices are checked against the manifest and bound
 * (their index and name as always) but neither granted nor attached here;
 * at the end of boot the kernel spawns the driver process for each
 * (kernel/drvproc/drvproc.c), which is granted the manifest's resources and
 * attaches the device through system calls.
 */
#include <string.h>
#include <drvproc.h>
#include <driver.h>
#include <errno.h>
#include <kprintf.h>
#include <options.h>
#include <pci.h>

extern const struct driver __drivers_start[], __drivers_end[];

static struct drv_dev devs[DRV_DEV_MAX];
static int ndevs;

static bool id_listed(const struct drv_manifest *m, const struct pci_device *d)
{
	for (int i = 0; i < DRV_PCI_IDS && m->ids[i].vendor; i++)
		if (m->ids[i].vendor == d->vendor && m->ids[i].device == d->device)
			return true;
	return false;
}

static bool bar_fits(const struct drv_bar *want, const struct pci_bar *b)
{
	if (want->use == DRV_BAR_NONE)
		return true;
	bool io = want->use == DRV_BAR_PORTS;
	return b->io == io && b->addr && b->size >= want->size;
}

static bool irq_fits(enum drv_irq_kind irq, const struct pci_device *d)
{
	bool intx = d->irq_pin && d->irq_line != 0xff;
	switch (irq) {
	case DRV_IRQ_INTX: return intx;
	case DRV_IRQ_MSI:  return d->msi_cap;
	case DRV_IRQ_ANY:  return intx || d->msi_cap;
	case DRV_IRQ_MSIX: return d->msix_cap;
	default:           return true;
	}
}

int drv_manifest_match(const struct drv_manifest *m, const struct pci_device *d)
{
	if (!id_listed(m, d) || !irq_fits(m->irq, d))
		return -ENODEV;
	for (int i = 0; i < DRV_BARS; i++)
		if (!bar_fits(&m->bar[i], &d->bar[i]))
			return -ENODEV;
	return 0;
}

/* The next free entry bound to d as drv's index-th device, or an error. */
static int bind(const struct driver *drv, struct pci_device *d, int index)
{
	if (ndevs == DRV_DEV_MAX)
		return -ENOSPC;
	struct drv_dev *dev = &devs[ndevs];
	*dev = (struct drv_dev){ .driver = drv, .pci = d, .index = index };
	ksnprintf(dev->name, sizeof dev->name, "%s.%d", drv->name, index);
	int err = d ? drv_manifest_match(drv->manifest, d) : 0;
	if (err == 0 && drvproc_placed(drv)) {
		dev->in_process = true;       /* attached later, by its driver process */
		ndevs++;
		return 0;
	}
	if (err == 0)
		err = drv_grant(dev);
	if (err == 0)
		err = drv->attach(dev);
	if (err < 0) {
		drv_revoke(dev);
		return err;
	}
	ndevs++;
	return 0;
}

/* A manifest that lists no PCI id binds devices without hardware (the
 * ramdisk): max_devices of them, granted DMA memory only. */
static bool memory_only(const struct drv_manifest *m) { return m->ids[0].vendor == 0; }

/* Whether an earlier driver bound d already (two drivers may list one id:
 * edu and testdev, each taking one of QEMU's edu devices). */
static bool taken(const struct pci_device *d)
{
	for (int i = 0; i < ndevs; i++)
		if (devs[i].pci == d)
			return true;
	return false;
}

static void bind_driver(const struct driver *drv)
{
	int bound = 0;
	if (memory_only(drv->manifest)) {
		for (; bound < drv->manifest->max_devices; bound++) {
			int err = bind(drv, NULL, bound);
			if (err < 0) {
				kprintf("%s.%d: not attached (error %d)\n", drv->name, bound, err);
				break;
			}
		}
		return;
	}
	for (int i = 0; i < pci_ndevices && bound < drv->manifest->max_devices; i++) {
		struct pci_device *d = &pci_devices[i];
		if (!id_listed(drv->manifest, d) || taken(d))
			continue;
		int err = bind(drv, d, bound);
		if (err < 0)
			kprintf("%s: pci %02x:%02x.%x skipped (error %d)\n", drv->name, d->bus, d->dev,
				d->fn, err);
		else
			bound++;
	}
}

void drivers_probe(void)
{
	for (const struct driver *drv = __drivers_start; drv < __drivers_end; drv++)
		bind_driver(drv);
}

const char *options_drvproc_driver(int i)
{
	for (const struct driver *drv = __drivers_start; drv < __drivers_end; drv++)
		if ((drv->class == DRV_CLASS_NET || drv->process) && i-- == 0)
			return drv->name;
	return NULL;
}

int drv_dev_count(void) { return ndevs; }

struct drv_dev *drv_dev_get(int i) { return i >= 0 && i < ndevs ? &devs[i] : NULL; }

struct drv_dev *drv_dev_find(const char *driver, int index)
{
	for (int i = 0; i < ndevs; i++)
		if (strcmp(devs[i].driver->name, driver) == 0 && index-- == 0)
			return &devs[i];
	return NULL;
}

const char *drv_name(const struct drv_dev *dev) { return dev->name; }

int drv_index(const struct drv_dev *dev) { return dev->index; }
