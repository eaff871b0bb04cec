/*
 * drvenv_kernel.c — the driver environment (drvenv.h) for drivers linked
 * into the kernel: the grants of a device's manifest and the calls that
 * check them.
 *
 * Registers: the manifest's MMIO BARs are mapped uncached into the kernel
 * half at grant time (vm_map_mmio) and handed out by drv_mmio; port ranges
 * are recorded and each drv_port_in/out is bounds-checked.  DMA: frames
 * from pmm_alloc_contig (zeroed), reached through the direct map; the
 * device address is the physical one (no IOMMU).  Interrupts: a fresh
 * vector whose handler calls the driver's (or the kernel's hook, see
 * drv_irq_set_hook), the device's MSI or INTx routed to it
 * (pci_irq_attach) and later retargeted by drv_irq_retarget; with MSI-X a
 * vector per table entry, each entry programmed through the granted
 * mapping of the table's BAR.  Revoking stops bus mastering before
 * anything is freed; the MMIO mappings stay (the kernel never unmaps MMIO).
 */
#include <stdarg.h>
#include <arch/arch.h>
#include <arch/portio.h>
#include <cpu.h>
#include <driver.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <pci.h>
#include <pmm.h>
#include <thread.h>
#include <time.h>
#include <vm.h>

#define DMA32_LIMIT (1ull << 32)

static const struct drv_bar *granted_bar(const struct drv_dev *dev, int bar, enum drv_bar_use use)
{
	if (bar < 0 || bar >= DRV_BARS || dev->driver->manifest->bar[bar].use != use)
		return NULL;
	return &dev->driver->manifest->bar[bar];
}

int drv_grant(struct drv_dev *dev)
{
	if (!dev->pci)                   /* no hardware: DMA memory is all it gets */
		return 0;
	for (int i = 0; i < DRV_BARS; i++) {
		const struct pci_bar *b = &dev->pci->bar[i];
		const struct drv_bar *want = &dev->driver->manifest->bar[i];
		if (want->use == DRV_BAR_MMIO) {
			dev->mmio[i].base = vm_map_mmio(b->addr, want->size);
			if (!dev->mmio[i].base)
				return -ENOMEM;
			dev->mmio[i].size = want->size;
		} else if (want->use == DRV_BAR_PORTS) {
			dev->ports[i] = (struct drv_ports){ (uint16_t)b->addr, (uint16_t)want->size };
		}
	}
	pci_enable_bus_master(dev->pci);
	dev->granted = true;
	return 0;
}

void drv_revoke(struct drv_dev *dev)
{
	if (dev->granted)
		pci_disable_bus_master(dev->pci);    /* no DMA into what is freed below */
	drv_irq_detach(dev);
	for (int i = 0; i < DRV_DMA_MAX; i++)
		if (dev->dma[i].bytes)
			drv_dma_free(dev, &dev->dma[i]);
	for (int i = 0; i < DRV_BARS; i++) {
		dev->mmio[i] = (struct drv_mmio){ 0 };
		dev->ports[i] = (struct drv_ports){ 0 };
	}
	dev->granted = false;
}

void drv_log(const struct drv_dev *dev, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	kprintf("%s: %s", dev->name, line);
}

/* ---- registers ---------------------------------------------------------- */

int drv_mmio(struct drv_dev *dev, int bar, struct drv_mmio *out)
{
	if (!granted_bar(dev, bar, DRV_BAR_MMIO) || !dev->mmio[bar].base)
		return -EPERM;
	*out = dev->mmio[bar];
	return 0;
}

int drv_ports(struct drv_dev *dev, int bar, struct drv_ports *out)
{
	if (!granted_bar(dev, bar, DRV_BAR_PORTS) || !dev->ports[bar].size)
		return -EPERM;
	*out = dev->ports[bar];
	return 0;
}

static bool port_ok(const struct drv_ports *p, uint32_t off, int width)
{
	return (width == 1 || width == 2 || width == 4) && off + (uint32_t)width <= p->size;
}

uint32_t drv_port_in(const struct drv_ports *p, uint32_t off, int width)
{
	return port_ok(p, off, width) ? arch_port_in((uint16_t)(p->base + off), width) : ~0u;
}

void drv_port_out(const struct drv_ports *p, uint32_t off, int width, uint32_t v)
{
	if (port_ok(p, off, width))
		arch_port_out((uint16_t)(p->base + off), width, v);
}

/* ---- DMA memory ----------------------------------------------------------- */

static uint64_t pages_of(uint64_t bytes) { return (bytes + PAGE_SIZE - 1) / PAGE_SIZE; }

static struct drv_dma *free_dma_slot(struct drv_dev *dev)
{
	for (int i = 0; i < DRV_DMA_MAX; i++)
		if (!dev->dma[i].bytes)
			return &dev->dma[i];
	return NULL;
}

int drv_dma_alloc(struct drv_dev *dev, uint64_t bytes, struct drv_dma *out)
{
	const struct drv_manifest *m = dev->driver->manifest;
	struct drv_dma *slot = free_dma_slot(dev);
	if (bytes == 0 || bytes > m->dma_bytes - dev->dma_used || !slot)
		return -EPERM;
	uint64_t pages = pages_of(bytes);
	uint64_t pa = pmm_alloc_contig(pages, 1);
	if (pa && m->dma32 && pa + pages * PAGE_SIZE > DMA32_LIMIT) {
		pmm_free_contig(pa, pages);
		pa = 0;
	}
	if (!pa)
		return -ENOMEM;
	*slot = (struct drv_dma){ .va = phys_to_virt(pa), .addr = pa, .bytes = bytes };
	dev->dma_used += bytes;
	*out = *slot;
	return 0;
}

void drv_dma_free(struct drv_dev *dev, const struct drv_dma *dma)
{
	for (int i = 0; i < DRV_DMA_MAX; i++) {
		struct drv_dma *held = &dev->dma[i];
		if (held->bytes && held->addr == dma->addr) {
			pmm_free_contig(held->addr, pages_of(held->bytes));
			dev->dma_used -= held->bytes;
			*held = (struct drv_dma){ 0 };
			return;
		}
	}
}

/* ---- interrupts ------------------------------------------------------------- */

static bool irq_granted(const struct drv_dev *dev, enum drv_irq_kind how)
{
	enum drv_irq_kind m = dev->driver->manifest->irq;
	return m != DRV_IRQ_NONE && (m == DRV_IRQ_ANY || m == how);
}

bool drv_uses_msi(const struct drv_dev *dev)
{
	return irq_granted(dev, DRV_IRQ_MSI) && dev->pci->msi_cap;
}

/* Every attached interrupt enters here: the kernel's hook if one is set, else the driver. */
static void irq_entry(void *arg)
{
	struct drv_dev *dev = arg;
	void (*hook)(struct drv_dev *, void *) = __atomic_load_n(&dev->irq_hook, __ATOMIC_ACQUIRE);
	if (hook)
		hook(dev, dev->irq_hook_ctx);
	else
		dev->irq_fn(dev->irq_arg);
}

void drv_irq_set_hook(struct drv_dev *dev, void (*hook)(struct drv_dev *, void *), void *ctx)
{
	dev->irq_hook_ctx = ctx;
	__atomic_store_n(&dev->irq_hook, hook, __ATOMIC_RELEASE);
}

void drv_irq_run(struct drv_dev *dev) { dev->irq_fn(dev->irq_arg); }

int drv_irq_attach(struct drv_dev *dev, enum drv_irq_kind how, int cpu, drv_irq_fn fn, void *arg)
{
	if (cpu < 0 || cpu >= ncpus || how == DRV_IRQ_NONE || how == DRV_IRQ_MSIX)
		return -EINVAL;
	if (!irq_granted(dev, how))
		return -EPERM;
	if (dev->irq != DRV_IRQ_NONE)
		return -EBUSY;
	bool msi = how == DRV_IRQ_MSI || (how == DRV_IRQ_ANY && dev->pci->msi_cap);
	dev->irq_fn = fn;
	dev->irq_arg = arg;
	int vector = pci_irq_attach(dev->pci, msi, cpus[cpu].apic_id, irq_entry, dev, dev->name);
	if (vector < 0)
		return vector;
	dev->irq_vector = vector;
	dev->irq = msi ? DRV_IRQ_MSI : DRV_IRQ_INTX;
	return 0;
}

/* The MSI-X table as the grant maps it: its BAR granted as MMIO far
 * enough to hold every entry; NULL otherwise. */
static volatile uint8_t *msix_table(struct drv_dev *dev)
{
	const struct pci_device *d = dev->pci;
	const struct drv_mmio *m = &dev->mmio[d->msix_bar];
	uint64_t end = (uint64_t)d->msix_offset + (uint64_t)d->msix_entries * 16;
	if (!granted_bar(dev, d->msix_bar, DRV_BAR_MMIO) || !m->base || end > m->size)
		return NULL;
	return m->base + d->msix_offset;
}

int drv_irq_attach_vector(struct drv_dev *dev, int entry, int cpu, drv_irq_fn fn, void *arg)
{
	if (cpu < 0 || cpu >= ncpus || entry < 0 || entry >= DRV_MSIX_MAX)
		return -EINVAL;
	if (dev->driver->manifest->irq != DRV_IRQ_MSIX)
		return -EPERM;
	if (!dev->pci || !dev->pci->msix_cap || entry >= dev->pci->msix_entries)
		return -ENODEV;
	volatile uint8_t *table = msix_table(dev);
	if (!table)
		return -EPERM;
	if ((dev->irq != DRV_IRQ_NONE && dev->irq != DRV_IRQ_MSIX) || dev->msix_vector[entry])
		return -EBUSY;
	int vector = intr_alloc_vector();
	if (vector < 0)
		return vector;
	intr_register(vector, fn, arg, dev->name);
	if (dev->irq == DRV_IRQ_NONE) {
		pci_msix_enable(dev->pci);
		dev->msix_table = table;
		dev->irq = DRV_IRQ_MSIX;
	}
	pci_msix_program(table, entry, vector, cpus[cpu].apic_id);
	dev->msix_vector[entry] = (uint8_t)vector;
	return 0;
}

/* Mask every attached entry, MSI-X off, then give the vectors back. */
static void msix_detach(struct drv_dev *dev)
{
	for (int i = 0; i < DRV_MSIX_MAX; i++)
		if (dev->msix_vector[i])
			pci_msix_mask(dev->msix_table, i, true);
	pci_msix_disable(dev->pci);
	for (int i = 0; i < DRV_MSIX_MAX; i++) {
		if (dev->msix_vector[i])
			intr_release(dev->msix_vector[i]);
		dev->msix_vector[i] = 0;
	}
	dev->msix_table = NULL;
	dev->irq = DRV_IRQ_NONE;
}

void drv_irq_detach(struct drv_dev *dev)
{
	if (dev->irq == DRV_IRQ_MSIX) {
		msix_detach(dev);
		return;
	}
	if (dev->irq == DRV_IRQ_MSI)
		pci_msi_disable(dev->pci);
	else if (dev->irq == DRV_IRQ_INTX)
		pci_intx_unroute(dev->pci);
	if (dev->irq != DRV_IRQ_NONE)
		intr_release(dev->irq_vector);
	dev->irq = DRV_IRQ_NONE;
}

int drv_irq_mask(struct drv_dev *dev, bool masked)
{
	if (dev->irq != DRV_IRQ_INTX || dev->pci->intx_gsi < 0)
		return -ENODEV;
	return arch_intr_line_mask(dev->pci->intx_gsi, masked);
}

int drv_irq_vector_mask(struct drv_dev *dev, int entry, bool masked)
{
	if (dev->irq != DRV_IRQ_MSIX || entry < 0 || entry >= DRV_MSIX_MAX || !dev->msix_vector[entry])
		return -ENODEV;
	pci_msix_mask(dev->msix_table, entry, masked);
	return 0;
}

int drv_irq_retarget(struct drv_dev *dev, int cpu)
{
	if (cpu < 0 || cpu >= ncpus || !cpus[cpu].online)
		return -EINVAL;
	uint32_t dest = cpus[cpu].apic_id;
	if (dev->irq == DRV_IRQ_MSI)
		return pci_msi_set_dest(dev->pci, dev->irq_vector, dest);
	if (dev->irq == DRV_IRQ_INTX && dev->pci->intx_gsi >= 0)
		return arch_intr_line_retarget(dev->pci->intx_gsi, dest);
	return -ENODEV;
}

int drv_cpu(void) { return cpu_id(); }

int drv_ncpus(void) { return ncpus; }

/* ---- time --------------------------------------------------------------------- */

uint64_t drv_now_ns(void) { return time_ns(); }

static void timer_fired(struct timer *t, void *arg)
{
	struct drv_timer *dt = arg;
	(void)t;
	dt->fn(dt->arg);
}

void drv_timer_init(struct drv_timer *t, drv_timer_fn fn, void *arg)
{
	timer_init(&t->t, timer_fired, t);
	t->fn = fn;
	t->arg = arg;
}

void drv_timer_start(struct drv_timer *t, uint64_t ns)
{
	timer_arm(&t->t, arch_tsc() + ns_to_tsc(ns));
}

bool drv_timer_cancel(struct drv_timer *t) { return timer_cancel_sync(&t->t); }

void drv_delay_us(uint64_t us) { time_delay_us(us); }

void drv_sleep_ns(uint64_t ns) { thread_sleep_ns(ns); }

int drv_spin_until(bool (*done)(void *arg), void *arg, uint64_t ns)
{
	uint64_t deadline = time_ns() + ns;
	while (!done(arg)) {
		if (time_ns() > deadline)
			return -ETIMEDOUT;
		arch_spin_hint();
	}
	return 0;
}
