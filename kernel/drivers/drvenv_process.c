/*
 * drvenv_process.c — the driver environment (drvenv.h) in a driver
 * process (paper 003): the same calls as kernel/drivers/drvenv_kernel.c, made
 * with system calls.  The kernel checks every grant against the device's
 * manifest (kernel/drvproc/drvproc_grant.c); this side only remembers what
 * it was given.
 *
 *   registers  drv_mmio asks for the BAR's window, which the kernel maps
 *              uncached into this process; drv_read/write are then plain
 *              loads and stores, as in the kernel.  drv_ports asks for the
 *              port range, which the kernel opens in the I/O permission
 *              bitmap; drv_port_in/out execute in/out directly (a port
 *              outside the grant faults and the kernel kills us).
 *   DMA        the kernel allocates, maps into us and returns the device
 *              address; freed with drv_dma_free or when we end.
 *   interrupts a network card's come through the card (nic_process.c and
 *              the loop in main.c).  drv_irq_attach has the kernel
 *              forward the device's interrupt (a block device's): the loop
 *              runs the handler on EV_IRQ, then says HAKO_DRV_IRQ_DONE.
 *              MSI-X, masking and retargeting are not offered: -ENODEV.
 *   time       the kernel's clock; drv_sleep_ns sleeps; a timer fires when
 *              the loop next wakes after its due time (no wake-up of its
 *              own yet: the network drivers use none).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <hako/sys.h>
#include <drvenv.h>
#include <drvhost.h>

struct drv_dev {
	struct hako_drv_info info;
};

static struct drv_dev the_dev;
static struct drv_timer *armed;

struct drv_dev *drvhost_dev(const struct hako_drv_info *info)
{
	the_dev.info = *info;
	return &the_dev;
}

const char *drv_name(const struct drv_dev *dev) { return dev->info.name; }
int drv_index(const struct drv_dev *dev) { return dev->info.index; }

void drv_log(const struct drv_dev *dev, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	printf("%s: %s", dev->info.name, line);
}

/* ---- registers -------------------------------------------------------- */

int drv_mmio(struct drv_dev *dev, int bar, struct drv_mmio *out)
{
	struct hako_drv_grant g = { .bar = bar };
	long r = sys_drv_ctl(HAKO_DRV_MMIO, &g);
	if (r < 0)
		return (int)r;
	*out = (struct drv_mmio){ .base = (volatile uint8_t *)(uintptr_t)g.va, .size = g.size };
	return 0;
}

int drv_ports(struct drv_dev *dev, int bar, struct drv_ports *out)
{
	struct hako_drv_grant g = { .bar = bar };
	long r = sys_drv_ctl(HAKO_DRV_PORTS, &g);
	if (r < 0)
		return (int)r;
	*out = (struct drv_ports){ .base = (uint16_t)g.base, .size = (uint16_t)g.size };
	return 0;
}

static bool port_ok(const struct drv_ports *p, uint32_t off, int width)
{
	return (width == 1 || width == 2 || width == 4) && off + (uint32_t)width <= p->size;
}

uint32_t drv_port_in(const struct drv_ports *p, uint32_t off, int width)
{
	if (!port_ok(p, off, width))
		return ~0u;
	uint16_t port = (uint16_t)(p->base + off);
	return width == 1 ? io_in8(port) : width == 2 ? io_in16(port) : io_in32(port);
}

void drv_port_out(const struct drv_ports *p, uint32_t off, int width, uint32_t v)
{
	if (!port_ok(p, off, width))
		return;
	uint16_t port = (uint16_t)(p->base + off);
	if (width == 1)
		io_out8(port, (uint8_t)v);
	else if (width == 2)
		io_out16(port, (uint16_t)v);
	else
		io_out32(port, v);
}

/* ---- DMA memory ------------------------------------------------------- */

int drv_dma_alloc(struct drv_dev *dev, uint64_t bytes, struct drv_dma *out)
{
	struct hako_drv_dma d = { .bytes = bytes };
	long r = sys_drv_ctl(HAKO_DRV_DMA_ALLOC, &d);
	if (r < 0)
		return (int)r;
	*out = (struct drv_dma){ .va = (void *)(uintptr_t)d.va, .addr = d.addr, .bytes = d.bytes };
	return 0;
}

void drv_dma_free(struct drv_dev *dev, const struct drv_dma *dma)
{
	struct hako_drv_dma d = { .addr = dma->addr };
	sys_drv_ctl(HAKO_DRV_DMA_FREE, &d);
}

/* ---- interrupts --------------------------------------------------------- */

static drv_irq_fn irq_fn;             /* the driver's handler, run by the loop on EV_IRQ */
static void *irq_arg;

/* The kernel forwards the interrupt (the kind the manifest grants) as EV_IRQ. */
int drv_irq_attach(struct drv_dev *dev, enum drv_irq_kind how, int cpu, drv_irq_fn fn, void *arg)
{
	if (irq_fn)
		return -EBUSY;
	long r = sys_drv_ctl(HAKO_DRV_IRQ_ATTACH, (void *)(uintptr_t)cpu);
	if (r < 0)
		return (int)r;
	irq_fn = fn;
	irq_arg = arg;
	return 0;
}

bool drvhost_irq(void)
{
	if (!irq_fn)
		return false;
	irq_fn(irq_arg);
	return true;
}

int drv_irq_attach_vector(struct drv_dev *dev, int entry, int cpu, drv_irq_fn fn, void *arg)
{
	return -ENODEV;
}

void drv_irq_detach(struct drv_dev *dev) { }
int drv_irq_mask(struct drv_dev *dev, bool masked) { return -ENODEV; }
int drv_irq_vector_mask(struct drv_dev *dev, int entry, bool masked) { return -ENODEV; }
int drv_irq_retarget(struct drv_dev *dev, int cpu) { return -ENODEV; }
int drv_cpu(void) { return (int)sys_getcpu(); }

int drv_ncpus(void)
{
	struct hako_sysinfo si;
	return sys_sysinfo(&si) < 0 ? 1 : si.ncpus;
}

/* ---- time ------------------------------------------------------------------ */

uint64_t drv_now_ns(void) { return (uint64_t)sys_clock(); }

void drv_timer_init(struct drv_timer *t, drv_timer_fn fn, void *arg)
{
	*t = (struct drv_timer){ .fn = fn, .arg = arg };
}

void drv_timer_start(struct drv_timer *t, uint64_t ns)
{
	t->due_ns = drv_now_ns() + ns;
	if (!t->armed) {
		t->armed = true;
		t->next = armed;
		armed = t;
	}
}

bool drv_timer_cancel(struct drv_timer *t)
{
	bool was = t->armed;
	for (struct drv_timer **link = &armed; *link; link = &(*link)->next)
		if (*link == t) {
			*link = t->next;
			break;
		}
	t->armed = false;
	return was;
}

/* The loop, each time it wakes: run the timers that are due. */
void drvhost_run_timers(void)
{
	uint64_t now = drv_now_ns();
	for (struct drv_timer **link = &armed; *link;) {
		struct drv_timer *t = *link;
		if (t->due_ns > now) {
			link = &t->next;
			continue;
		}
		*link = t->next;
		t->armed = false;
		t->fn(t->arg);
	}
}

void drv_delay_us(uint64_t us)
{
	uint64_t end = drv_now_ns() + us * 1000;
	while (drv_now_ns() < end)
		cpu_pause();
}

void drv_sleep_ns(uint64_t ns) { sys_sleep(ns); }

int drv_spin_until(bool (*done)(void *arg), void *arg, uint64_t ns)
{
	uint64_t deadline = drv_now_ns() + ns;
	while (!done(arg)) {
		if (drv_now_ns() > deadline)
			return -ETIMEDOUT;
		cpu_pause();
	}
	return 0;
}
