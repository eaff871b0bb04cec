/*
 * drvenv_kernel.h — the kernel placement's part of the driver environment
 * (drvenv.h, paper 003): what differs between a driver linked into the
 * kernel and the same source run as a driver process (drvenv_process.h).
 * Only drvenv.h includes it.
 *
 * Here: the driver's lock is a kernel spinlock (interrupts off while held,
 * rank LOCK_DRIVER), the timer is a kernel timer, the barrier and spin
 * hint are the arch's, and DRIVER() puts the driver into .drivers.<order>
 * for the driver core (drivers/driver.c).
 */
#ifndef HAKO_DRVENV_KERNEL_H
#define HAKO_DRVENV_KERNEL_H

#include <arch/arch.h>
#include <spinlock.h>
#include <time.h>

#define DRIVER(ident, order, ...)                                                   \
	static const struct driver driver_##ident                                  \
		__attribute__((used, section(".drivers." #order), aligned(8))) = {       \
		.name = #ident, __VA_ARGS__ }

static inline void drv_barrier(void) { arch_barrier(); }
static inline void drv_relax(void) { arch_spin_hint(); }

struct drv_lock { struct spinlock l; };
static inline void drv_lock_init(struct drv_lock *k, const char *name) { spin_init(&k->l, name, LOCK_DRIVER); }
static inline void drv_lock(struct drv_lock *k) { spin_lock(&k->l); }
static inline void drv_unlock(struct drv_lock *k) { spin_unlock(&k->l); }

struct drv_timer {
	struct timer t;
	drv_timer_fn fn;
	void *arg;
};

#endif
