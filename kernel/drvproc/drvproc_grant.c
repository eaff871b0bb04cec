/*
 * drvproc_grant.c — what a driver process is granted of its device, exactly
 * as its manifest lists it (the MINIX 3 way), and taking it back.
 *
 *   MMIO   a BAR the manifest lists as MMIO is mapped uncached, writable,
 *          user-accessible into the process at the next free address of
 *          HAKO_DRV_AREA (the manifest's size, whole pages).  The frames
 *          are the device's: vm_destroy does not free them.
 *   ports  a BAR the manifest lists as ports becomes a range of the
 *          process's I/O grant (struct arch_io_grant), which every thread
 *          switch into the process loads into the CPU's I/O permission
 *          bitmap; any other port faults (#GP) and kills the process.
 *   DMA    physically contiguous zeroed frames (below 4 GiB if dma32),
 *          within the manifest's dma_bytes, mapped writable into the
 *          process; the device address returned is the physical one (no
 *          IOMMU).  They are freed when the driver frees them or the
 *          process ends, after bus mastering is off.
 * Bus mastering is turned on with the first grant and off at the end,
 * when the device's INTx is also turned off (PCI 2.3 command bit 10: a
 * device whose driver is gone cannot hold a shared line) until the next
 * driver process registers; what was granted is forgotten (the mappings
 * go with the address space), so the next process starts from nothing.
 * Anything outside the manifest is -EPERM and maps nothing.  The callers
 * are the driver process's own system calls, one thread at a time per
 * process in practice; c->wq.lock is not needed for the grant.
 */
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <drvproc.h>
#include <errno.h>
#include <pci.h>
#include <pmm.h>
#include <proc.h>
#include <thread.h>
#include <vm.h>

#define DMA32_LIMIT (1ull << 32)

static uint64_t pages_of(uint64_t bytes) { return (bytes + PAGE_SIZE - 1) / PAGE_SIZE; }

static const struct drv_bar *manifest_bar(const struct drvproc *c, int bar, enum drv_bar_use use)
{
	if (!c->dev || bar < 0 || bar >= DRV_BARS || c->dev->driver->manifest->bar[bar].use != use)
		return NULL;
	return &c->dev->driver->manifest->bar[bar];
}

/* npages of the driver area, or 0 when it is used up. */
static uint64_t take_va(struct drvproc *c, uint64_t npages)
{
	uint64_t va = c->grant.next_va;
	if (va + npages * PAGE_SIZE > HAKO_DRV_AREA + HAKO_DRV_AREA_SIZE)
		return 0;
	c->grant.next_va = va + (npages + 1) * PAGE_SIZE;     /* an unmapped page between windows */
	return va;
}

static int map_pages(struct drvproc *c, uint64_t va, uint64_t pa, uint64_t npages, unsigned flags)
{
	for (uint64_t i = 0; i < npages; i++) {
		int err = vm_map(c->proc->as, va + i * PAGE_SIZE, pa + i * PAGE_SIZE, flags);
		if (err < 0) {
			vm_unmap_range(c->proc->as, va, i);
			return err;
		}
	}
	return 0;
}

void drvproc_grant_bus_master(struct drvproc *c)
{
	if (c->dev && c->dev->pci && !c->grant.bus_master) {    /* the ramdisk has no device */
		pci_enable_bus_master(c->dev->pci);
		c->grant.bus_master = true;
	}
}

int drvproc_grant_mmio(struct drvproc *c, int bar, struct hako_drv_grant *out)
{
	const struct drv_bar *want = manifest_bar(c, bar, DRV_BAR_MMIO);
	if (!want)
		return -EPERM;
	if (c->grant.mmio_va[bar]) {           /* asked again: the same window */
		*out = (struct hako_drv_grant){ .bar = bar, .size = want->size, .va = c->grant.mmio_va[bar] };
		return 0;
	}
	uint64_t pa = c->dev->pci->bar[bar].addr;
	uint64_t npages = pages_of(want->size + (pa & (PAGE_SIZE - 1)));
	uint64_t va = take_va(c, npages);
	if (!va)
		return -ENOMEM;
	int err = map_pages(c, va, pa & ~(PAGE_SIZE - 1), npages, VM_USER | VM_WRITE | VM_NOCACHE);
	if (err < 0)
		return err;
	drvproc_grant_bus_master(c);
	c->grant.mmio_va[bar] = va + (pa & (PAGE_SIZE - 1));
	*out = (struct hako_drv_grant){ .bar = bar, .size = want->size, .va = c->grant.mmio_va[bar] };
	return 0;
}

int drvproc_grant_ports(struct drvproc *c, int bar, struct hako_drv_grant *out)
{
	const struct drv_bar *want = manifest_bar(c, bar, DRV_BAR_PORTS);
	if (!want)
		return -EPERM;
	uint16_t base = (uint16_t)c->dev->pci->bar[bar].addr, size = (uint16_t)want->size;
	struct arch_io_grant *io = &c->grant.io;
	bool have = false;
	for (int i = 0; i < io->n; i++)
		have |= io->base[i] == base;
	if (!have) {
		if (io->n == ARCH_IO_RANGES)
			return -ENOSPC;
		io->base[io->n] = base;
		io->size[io->n] = size;
		__atomic_store_n(&io->n, io->n + 1, __ATOMIC_RELEASE);
		uint64_t irq = arch_irq_save();
		arch_io_bitmap_load(io);           /* this thread's CPU now; others at their next switch in */
		arch_irq_restore(irq);
	}
	drvproc_grant_bus_master(c);
	*out = (struct hako_drv_grant){ .bar = bar, .size = size, .base = base };
	return 0;
}

static struct drvproc_dma *free_slot(struct drvproc *c)
{
	for (int i = 0; i < DRV_DMA_MAX; i++)
		if (!c->grant.dma[i].pages)
			return &c->grant.dma[i];
	return NULL;
}

int drvproc_grant_dma(struct drvproc *c, uint64_t bytes, struct hako_drv_dma *out)
{
	if (!c->dev)
		return -EPERM;
	const struct drv_manifest *m = c->dev->driver->manifest;
	struct drvproc_dma *slot = free_slot(c);
	/* A block driver's process also holds the buffers of its requests (drvproc_blk.c). */
	uint64_t limit = m->dma_bytes + (c->dev->driver->class == DRV_CLASS_BLOCK ? DRVPROC_BLK_BOUNCE : 0);
	if (bytes == 0 || bytes > limit - c->grant.dma_used || !slot)
		return -EPERM;
	uint64_t npages = pages_of(bytes);
	uint64_t va = take_va(c, npages);
	if (!va)
		return -ENOMEM;
	uint64_t pa = pmm_alloc_contig(npages, 1);
	if (pa && m->dma32 && pa + npages * PAGE_SIZE > DMA32_LIMIT) {
		pmm_free_contig(pa, npages);
		pa = 0;
	}
	if (!pa)
		return -ENOMEM;
	int err = map_pages(c, va, pa, npages, VM_USER | VM_WRITE);
	if (err < 0) {
		pmm_free_contig(pa, npages);
		return err;
	}
	drvproc_grant_bus_master(c);
	*slot = (struct drvproc_dma){ .pa = pa, .pages = npages, .va = va, .bytes = bytes };
	c->grant.dma_used += bytes;
	*out = (struct hako_drv_dma){ .bytes = bytes, .va = va, .addr = pa };
	return 0;
}

int drvproc_free_dma(struct drvproc *c, uint64_t addr)
{
	for (int i = 0; i < DRV_DMA_MAX; i++) {
		struct drvproc_dma *d = &c->grant.dma[i];
		if (d->pages && d->pa == addr) {
			vm_unmap_range(c->proc->as, d->va, d->pages);
			pmm_free_contig(d->pa, d->pages);
			c->grant.dma_used -= d->bytes;
			*d = (struct drvproc_dma){ 0 };
			return 0;
		}
	}
	return -EINVAL;
}

/* A device on an INTx line (not MSI): let it assert the line (on) or not. */
void drvproc_grant_intx(struct drvproc *c, bool on)
{
	if (c->dev && c->dev->pci && !drv_uses_msi(c->dev))
		pci_intx_disable(c->dev->pci, !on);
}

/* The process is ending (no thread of it runs): the device stops using memory first. */
void drvproc_revoke(struct drvproc *c)
{
	if (c->grant.bus_master)
		pci_disable_bus_master(c->dev->pci);
	c->grant.bus_master = false;
	drvproc_grant_intx(c, false);
	for (int i = 0; i < DRV_BARS; i++)
		c->grant.mmio_va[i] = 0;
	c->grant.next_va = HAKO_DRV_AREA;
	for (int i = 0; i < DRV_DMA_MAX; i++) {
		struct drvproc_dma *d = &c->grant.dma[i];
		if (d->pages)
			pmm_free_contig(d->pa, d->pages);   /* mapped, not owned: vm_destroy leaves them */
		*d = (struct drvproc_dma){ 0 };
	}
	c->grant.dma_used = 0;
}
