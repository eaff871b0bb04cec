/*
 * drvenv.h — the driver environment: everything a device driver may use.
 *
 * A driver (kernel/drivers/<class>/<name>/) includes this header and its
 * class interface (nic_driver.h, blk_driver.h) — nothing else of the
 * kernel (tools/checkarch.py checks it).  It declares what it needs in a
 * manifest: the PCI ids it binds, which BARs it uses as registers (MMIO)
 * or I/O ports and how much of each, its interrupt kind, and how much DMA
 * memory a device takes.  DRIVER() enters the driver and its manifest in
 * the .drivers section; at boot the driver core (driver.c) matches every
 * PCI device against the manifests, grants the listed resources and calls
 * the driver's attach once per device bound.  If attach fails the driver
 * core takes every grant back (bus mastering off first, so no DMA lands
 * in freed memory).
 *
 * The driver reaches its device only through the calls below, and each
 * checks the grant: a BAR, port range, interrupt kind or DMA amount the
 * manifest does not list is -EPERM, never a mapping.  The manifest is
 * what a driver process is granted when paper 003 runs the same source
 * as a process (drvproc); that implementation of this header maps
 * the BARs and DMA areas into the process and turns interrupts into a
 * wait, and the drivers need no change.  Register accesses are plain
 * loads and stores through the granted mapping (inline below) in both.
 *
 * Two placements implement it (paper 003), and a driver's source compiles
 * unchanged into either:
 *   in the kernel        drvenv_kernel.c, with drvenv_kernel.h
 *   in a driver process  drvenv_process.c, with drvenv_process.h
 *                        (built with HAKO_DRVENV_PROCESS defined: the
 *                        driver programs drv-NAME, user/user.mk)
 * The placement header, included at the end of this one, supplies what
 * differs in kind and not just in code: the lock (a kernel spinlock, or a
 * flag in a process), the timer's storage, the barrier and spin hint, and
 * DRIVER() (a .drivers section entry, or the one driver a process hosts).
 */
#ifndef HAKO_DRVENV_H
#define HAKO_DRVENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>

/* ---- the manifest ------------------------------------------------------- */

enum drv_class { DRV_CLASS_NET, DRV_CLASS_BLOCK, DRV_CLASS_MISC };

enum drv_bar_use {
	DRV_BAR_NONE,                /* not granted */
	DRV_BAR_MMIO,                /* memory-mapped registers */
	DRV_BAR_PORTS,               /* an I/O port range */
};

enum drv_irq_kind {
	DRV_IRQ_NONE,                /* no interrupt */
	DRV_IRQ_INTX,                /* the PCI pin, through the interrupt controller */
	DRV_IRQ_MSI,                 /* message-signalled only */
	DRV_IRQ_ANY,                 /* MSI where the device offers it, else INTx */
	DRV_IRQ_MSIX,                /* MSI-X: one vector per table entry, each to a CPU of its own;
	                              * the BAR holding the table must be granted as MMIO */
};

#define DRV_BARS    6            /* BARs of a PCI function */
#define DRV_PCI_IDS 4            /* vendor:device pairs a manifest may list */

struct drv_pci_id {
	uint16_t vendor, device;
};

struct drv_bar {
	enum drv_bar_use use;
	uint32_t size;               /* bytes granted from its start; the BAR must be as long */
};

struct drv_manifest {
	struct drv_pci_id ids[DRV_PCI_IDS];   /* the devices it binds; vendor 0 ends the list */
	struct drv_bar bar[DRV_BARS];
	enum drv_irq_kind irq;
	uint32_t dma_bytes;          /* DMA memory a device may hold, in all */
	bool dma32;                  /* the device takes 32-bit addresses only */
	int max_devices;             /* devices bound at most */
};

struct drv_dev;                  /* one device bound to its driver: a handle */

struct driver {
	const char *name;
	enum drv_class class;
	const struct drv_manifest *manifest;
	int (*attach)(struct drv_dev *dev);   /* set the device up, interrupts masked */
	bool process;                /* it may also run as a process: drvproc= may name it (a
	                              * network driver always may; the program drv-NAME exists) */
} __attribute__((aligned(8)));       /* the section's entries are 8-aligned: the size is a multiple, so they stay an array */

/*
 * DRIVER(name, order, .class = ..., .manifest = ..., .attach = ...) is
 * defined by the placement header.  In the kernel the entry goes into
 * .drivers.<order>; the driver core binds drivers by order (two digits, which
 * decides for instance which network card is nic 0).  In a driver
 * process it is the process's one driver.
 */

/* ---- the device --------------------------------------------------------- */

const char *drv_name(const struct drv_dev *dev);   /* "rtl8139.0" */
int drv_index(const struct drv_dev *dev);          /* 0, 1, ... among its driver's devices */

/* printf prefixed with the device's name. */
void drv_log(const struct drv_dev *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- registers: MMIO and I/O ports ---------------------------------------- */

struct drv_mmio {
	volatile uint8_t *base;      /* NULL: not granted */
	uint32_t size;
};

struct drv_ports {
	uint16_t base;
	uint16_t size;               /* 0: not granted */
};

/* The mapping of BAR bar; -EPERM unless the manifest grants it as MMIO. */
int drv_mmio(struct drv_dev *dev, int bar, struct drv_mmio *out);
/* The port range of BAR bar; -EPERM unless the manifest grants it as ports. */
int drv_ports(struct drv_dev *dev, int bar, struct drv_ports *out);

static inline uint8_t drv_read8(const struct drv_mmio *m, uint32_t off) { return m->base[off]; }
static inline uint16_t drv_read16(const struct drv_mmio *m, uint32_t off) { return *(volatile uint16_t *)(m->base + off); }
static inline uint32_t drv_read32(const struct drv_mmio *m, uint32_t off) { return *(volatile uint32_t *)(m->base + off); }
static inline void drv_write8(const struct drv_mmio *m, uint32_t off, uint8_t v) { m->base[off] = v; }
static inline void drv_write16(const struct drv_mmio *m, uint32_t off, uint16_t v) { *(volatile uint16_t *)(m->base + off) = v; }
static inline void drv_write32(const struct drv_mmio *m, uint32_t off, uint32_t v) { *(volatile uint32_t *)(m->base + off) = v; }

/* Port access of width 1, 2 or 4 bytes; outside the range reads all ones, writes nothing. */
uint32_t drv_port_in(const struct drv_ports *p, uint32_t off, int width);
void drv_port_out(const struct drv_ports *p, uint32_t off, int width, uint32_t v);

static inline uint8_t drv_in8(const struct drv_ports *p, uint32_t off) { return (uint8_t)drv_port_in(p, off, 1); }
static inline uint16_t drv_in16(const struct drv_ports *p, uint32_t off) { return (uint16_t)drv_port_in(p, off, 2); }
static inline uint32_t drv_in32(const struct drv_ports *p, uint32_t off) { return drv_port_in(p, off, 4); }
static inline void drv_out8(const struct drv_ports *p, uint32_t off, uint8_t v) { drv_port_out(p, off, 1, v); }
static inline void drv_out16(const struct drv_ports *p, uint32_t off, uint16_t v) { drv_port_out(p, off, 2, v); }
static inline void drv_out32(const struct drv_ports *p, uint32_t off, uint32_t v) { drv_port_out(p, off, 4, v); }

/* The placement header: drv_barrier() orders memory accesses the compiler might
 * move across a register access; drv_relax() in a polling loop lets the
 * other CPUs (QEMU's vCPUs) run. */

/* ---- DMA memory ------------------------------------------------------------ */

struct drv_dma {
	void *va;                    /* where the driver reaches it */
	uint64_t addr;               /* where the device reaches it */
	uint64_t bytes;
};

/* Physically contiguous, zeroed memory (below 4 GiB if the manifest says dma32);
 * -EPERM past the manifest's dma_bytes, -ENOMEM. */
int drv_dma_alloc(struct drv_dev *dev, uint64_t bytes, struct drv_dma *out);
void drv_dma_free(struct drv_dev *dev, const struct drv_dma *dma);

/* ---- interrupts ------------------------------------------------------------- */

/*
 * fn(arg) runs on each interrupt of the device, delivered to cpu by MSI or
 * INTx (how: DRV_IRQ_MSI, DRV_IRQ_INTX, or DRV_IRQ_ANY for MSI where the
 * device has it).  -EPERM if the manifest does not grant that kind,
 * -ENODEV if the device lacks it, -EBUSY if attached already.  In the
 * kernel fn runs in the interrupt and the interrupt controller is
 * acknowledged when it returns; fn must acknowledge the device itself (so
 * a level-triggered line drops) and must not sleep.  In a driver process
 * a wait returns instead and fn runs in the process.
 *
 * A network card's interrupt is not attached this way: nic.c routes it
 * into interrupt packaging (paper 000), within the same grant.
 */
typedef void (*drv_irq_fn)(void *arg);
int drv_irq_attach(struct drv_dev *dev, enum drv_irq_kind how, int cpu, drv_irq_fn fn, void *arg);
/*
 * MSI-X: fn(arg) runs on cpu for each message of table entry `entry` (a
 * vector of its own; MSI-X is turned on with the first entry attached).
 * -EPERM unless the manifest says DRV_IRQ_MSIX and grants the table's BAR
 * as MMIO far enough to cover the table; -ENODEV if the device has no
 * MSI-X or no such entry; -EBUSY if the entry is attached already.  The
 * same rules for fn as above; each entry may be attached once.
 */
int drv_irq_attach_vector(struct drv_dev *dev, int entry, int cpu, drv_irq_fn fn, void *arg);
/* Every interrupt of the device, INTx, MSI or all MSI-X entries. */
void drv_irq_detach(struct drv_dev *dev);
/* Hold back (masked) or let through the device's INTx line; -ENODEV if not on INTx. */
int drv_irq_mask(struct drv_dev *dev, bool masked);
/* Hold back or let through MSI-X entry `entry`, attached before: a message
 * the device signals while the entry is masked is kept pending and sent
 * when it is let through (PCI 3.0, 6.8.2.9).  -ENODEV if the entry is not
 * attached (and in a driver process, which has no MSI-X). */
int drv_irq_vector_mask(struct drv_dev *dev, int entry, bool masked);
/* Deliver the device's interrupt to cpu from now on (the MSI address or the
 * I/O APIC entry is rewritten; an interrupt already sent lands where it was
 * sent).  -EINVAL for a CPU that is not online, -ENODEV without an interrupt. */
int drv_irq_retarget(struct drv_dev *dev, int cpu);
int drv_cpu(void);                  /* the CPU this code runs on */
int drv_ncpus(void);                /* CPUs online: drv_cpu() is below this */

/* ---- locks ------------------------------------------------------------------ */

/*
 * A driver's own lock, for state its submit path and its interrupt share
 * (the ring, the slots in flight).  Interrupts are off while it is held;
 * it is taken before any lock of the layer the driver reports to (the
 * block layer's completion), never after.
 */
/* struct drv_lock, drv_lock_init(k, name), drv_lock(k), drv_unlock(k): the placement header. */

/* ---- time ------------------------------------------------------------------- */

uint64_t drv_now_ns(void);          /* since boot */

/* A one-shot timer: fn(arg) runs ns from now, in an interrupt on the CPU
 * that started it (interrupts off; it must not sleep). */
typedef void (*drv_timer_fn)(void *arg);
struct drv_timer;                   /* the placement header */
void drv_timer_init(struct drv_timer *t, drv_timer_fn fn, void *arg);
void drv_timer_start(struct drv_timer *t, uint64_t ns);
bool drv_timer_cancel(struct drv_timer *t);        /* true if it was armed; waits out a run */
void drv_delay_us(uint64_t us);     /* busy wait */
void drv_sleep_ns(uint64_t ns);     /* block the calling thread (not in attach or a handler) */
/* Poll until done(arg); -ETIMEDOUT after ns (resets take microseconds). */
int drv_spin_until(bool (*done)(void *arg), void *arg, uint64_t ns);

#ifdef HAKO_DRVENV_PROCESS
#include <drvenv_process.h>
#else
#include <drvenv_kernel.h>
#endif

#endif
