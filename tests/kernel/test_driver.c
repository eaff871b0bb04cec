/*
 * test_driver.c — self-tests of the driver core (drivers/driver.c) and the
 * in-kernel driver environment (drivers/drvenv_kernel.c): manifests match the
 * devices they should, the network cards are bound with exactly their
 * manifests' resources, and a driver asking for anything else gets
 * -EPERM, not a mapping.
 */
#include <stdint.h>
#include <driver.h>
#include <errno.h>
#include <ktest.h>
#include <nic.h>
#include <pci.h>
#include <pmm.h>

#define TEST_VENDOR 0x1af4
#define TEST_DEVICE 0x0042

static const struct drv_manifest test_manifest = {
	.ids = { { 0x8086, 0x1234 }, { TEST_VENDOR, TEST_DEVICE } },
	.bar[0] = { DRV_BAR_MMIO, 0x1000 },
	.bar[2] = { DRV_BAR_PORTS, 0x20 },
	.irq = DRV_IRQ_INTX,
	.max_devices = 1,
};

/* A device test_manifest binds: MMIO BAR0 of 8 KiB, 32 ports at BAR2, pin A. */
static struct pci_device fitting_device(void)
{
	struct pci_device d = { .vendor = TEST_VENDOR, .device = TEST_DEVICE,
				.irq_pin = 1, .irq_line = 11, .intx_gsi = -1 };
	d.bar[0] = (struct pci_bar){ .addr = 0xfebf0000, .size = 0x2000 };
	d.bar[2] = (struct pci_bar){ .addr = 0xc000, .size = 0x20, .io = true };
	return d;
}

TEST(driver_manifest_match_checks_ids_bars_and_irq)
{
	struct pci_device d = fitting_device();
	CHECK(drv_manifest_match(&test_manifest, &d) == 0, "the fitting device does not match");
	d.device = 0x0043;
	CHECK(drv_manifest_match(&test_manifest, &d) == -ENODEV, "an unlisted id matched");
	d = fitting_device();
	d.bar[0].size = 0x800;
	CHECK(drv_manifest_match(&test_manifest, &d) == -ENODEV, "a short BAR matched");
	d = fitting_device();
	d.bar[0].io = true;
	CHECK(drv_manifest_match(&test_manifest, &d) == -ENODEV, "ports matched as MMIO");
	d = fitting_device();
	d.bar[2].io = false;
	CHECK(drv_manifest_match(&test_manifest, &d) == -ENODEV, "MMIO matched as ports");
	d = fitting_device();
	d.irq_pin = 0;
	CHECK(drv_manifest_match(&test_manifest, &d) == -ENODEV, "a device without INTx matched");
	return 0;
}

/* dev is drv's device on a card of that vendor:device, with exactly bar's
 * registers mapped, its whole DMA budget below 4 GiB, registered as nic n. */
static int check_card(struct drv_dev *dev, uint16_t vendor, uint16_t device, int bar,
		      struct nic *n)
{
	const struct drv_manifest *m = dev->driver->manifest;
	CHECK(dev->pci->vendor == vendor && dev->pci->device == device,
		 "%s bound to %04x:%04x", dev->name, dev->pci->vendor, dev->pci->device);
	CHECK(dev->driver->class == DRV_CLASS_NET, "%s is not a network driver", dev->name);
	for (int i = 0; i < DRV_BARS; i++) {
		bool want = i == bar;
		CHECK(!dev->mmio[i].base == !want, "%s: BAR%d mapped: %d", dev->name, i, !want);
		CHECK(!dev->ports[i].size, "%s: ports of BAR%d granted", dev->name, i);
	}
	CHECK(dev->mmio[bar].size == m->bar[bar].size, "%s: %u bytes of registers, manifest %u",
		 dev->name, dev->mmio[bar].size, m->bar[bar].size);
	CHECK(dev->dma_used == m->dma_bytes, "%s holds %lu bytes of DMA, manifest %u",
		 dev->name, (unsigned long)dev->dma_used, m->dma_bytes);
	for (int i = 0; i < DRV_DMA_MAX; i++)
		CHECK(dev->dma[i].addr + dev->dma[i].bytes <= (1ull << 32),
			 "%s: DMA area %d above 4 GiB", dev->name, i);
	CHECK(n && n->dev == dev, "%s is not the registered card", dev->name);
	CHECK(dev->irq == DRV_IRQ_NONE, "%s: interrupt attached outside nic.c", dev->name);
	return 0;
}

TEST(driver_nics_bound_with_manifest_grants)
{
	struct drv_dev *rtl = drv_dev_find("rtl8139", 0), *e1k = drv_dev_find("e1000", 0);
	if (!rtl || !e1k)
		SKIP("no NIC pair (boot with --net hub)");
	if (rtl->in_process || e1k->in_process)
		SKIP("driver processes hold the grants (drvproc=)");
	struct nic *rn = nic_find("rtl8139", 0), *en = nic_find("e1000", 0);
	if (check_card(rtl, 0x10ec, 0x8139, 1, rn) || check_card(e1k, 0x8086, 0x100e, 0, en))
		return -1;
	/* The grant is the card: its MAC reads back through it (RTL8139 IDR0-5, e1000 RAL0). */
	for (int i = 0; i < ETH_ALEN; i++)
		CHECK(drv_read8(&rtl->mmio[1], (uint32_t)i) == rn->mac[i], "IDR%d differs", i);
	uint32_t ral = drv_read32(&e1k->mmio[0], 0x5400);
	CHECK(ral == (uint32_t)(en->mac[0] | en->mac[1] << 8 | en->mac[2] << 16 |
				   (uint32_t)en->mac[3] << 24), "RAL0 %x differs", ral);
	return 0;
}

/* Every BAR, interrupt kind and DMA amount the manifest leaves out is refused. */
static int check_refusals(struct drv_dev *dev)
{
	const struct drv_manifest *m = dev->driver->manifest;
	for (int bar = -1; bar <= DRV_BARS; bar++) {
		struct drv_mmio mmio = { 0 };
		struct drv_ports ports = { 0 };
		bool mmio_ok = bar >= 0 && bar < DRV_BARS && m->bar[bar].use == DRV_BAR_MMIO;
		bool ports_ok = bar >= 0 && bar < DRV_BARS && m->bar[bar].use == DRV_BAR_PORTS;
		if (!mmio_ok)
			CHECK(drv_mmio(dev, bar, &mmio) == -EPERM && !mmio.base,
				 "%s: BAR%d mapped outside the manifest", dev->name, bar);
		if (!ports_ok)
			CHECK(drv_ports(dev, bar, &ports) == -EPERM && !ports.size,
				 "%s: ports of BAR%d granted outside the manifest", dev->name, bar);
	}
	uint64_t used = dev->dma_used, free_frames = pmm_free_count();
	enum drv_irq_kind attached = dev->irq;    /* testdev and the disks attach at boot */
	struct drv_dma dma = { 0 };
	int err = drv_dma_alloc(dev, m->dma_bytes - used + 1, &dma);
	CHECK(err == -EPERM && !dma.va, "%s: DMA past the manifest: %d", dev->name, err);
	CHECK(dev->dma_used == used && pmm_free_count() == free_frames,
		 "%s: a refused DMA allocation took memory", dev->name);
	if (m->irq == DRV_IRQ_INTX || m->irq == DRV_IRQ_NONE)
		CHECK(drv_irq_attach(dev, DRV_IRQ_MSI, 0, NULL, NULL) == -EPERM,
			 "%s: MSI attached outside the manifest", dev->name);
	if (m->irq == DRV_IRQ_MSI || m->irq == DRV_IRQ_NONE)
		CHECK(drv_irq_attach(dev, DRV_IRQ_INTX, 0, NULL, NULL) == -EPERM,
			 "%s: INTx attached outside the manifest", dev->name);
	if (m->irq == DRV_IRQ_MSIX) {
		CHECK(drv_irq_attach(dev, DRV_IRQ_MSI, 0, NULL, NULL) == -EPERM &&
			 drv_irq_attach(dev, DRV_IRQ_INTX, 0, NULL, NULL) == -EPERM,
			 "%s: MSI or INTx attached beside MSI-X", dev->name);
		for (int e = 0; e < DRV_MSIX_MAX && e < dev->pci->msix_entries; e++)
			if (dev->msix_vector[e])
				CHECK(drv_irq_attach_vector(dev, e, 0, NULL, NULL) == -EBUSY,
					 "%s: MSI-X entry %d attached twice", dev->name, e);
		return 0;
	}
	CHECK(drv_irq_attach_vector(dev, 0, 0, NULL, NULL) == -EPERM,
		 "%s: MSI-X attached outside the manifest", dev->name);
	CHECK(dev->irq == attached, "%s: a refused interrupt was attached", dev->name);
	return 0;
}

TEST(driver_refuses_resources_outside_manifest)
{
	if (drv_dev_count() == 0)
		SKIP("no device bound");
	for (int i = 0; i < drv_dev_count(); i++)
		if (check_refusals(drv_dev_get(i)))
			return -1;
	struct drv_ports none = { 0 };
	CHECK(drv_in32(&none, 0) == ~0u, "a port outside the range was read");
	return 0;
}
