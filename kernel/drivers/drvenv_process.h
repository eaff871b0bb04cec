/*
 * drvenv_process.h — the driver-process placement's part of the driver
 * environment (drvenv.h, paper 003); the kernel's is drvenv_kernel.h.
 * drvenv.h includes it when HAKO_DRVENV_PROCESS is defined (the drv-*
 * programs, user/user.mk), so a driver's source compiles unchanged.
 *
 * The process runs the driver in one thread (the loop in main.c receives
 * calls and interrupts one at a time), so the driver's lock only has to
 * be correct, not fast: a flag taken with an atomic exchange.  A timer is
 * checked by that loop when it wakes (drvenv_process.c).  DRIVER() makes
 * the process's one driver, drvhost_driver, which main.c attaches.
 */
#ifndef HAKO_DRVENV_PROCESS_H
#define HAKO_DRVENV_PROCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/io.h>
#include <arch/tsc.h>

#define DRIVER(ident, order, ...) \
	const struct driver drvhost_driver = { .name = #ident, __VA_ARGS__ }

extern const struct driver drvhost_driver;

static inline void drv_barrier(void) { io_barrier(); }
static inline void drv_relax(void) { cpu_pause(); }

struct drv_lock {
	volatile int held;
	const char *name;
};
static inline void drv_lock_init(struct drv_lock *k, const char *name) { k->held = 0; k->name = name; }
static inline void drv_lock(struct drv_lock *k)
{
	while (__atomic_exchange_n(&k->held, 1, __ATOMIC_ACQUIRE))
		cpu_pause();
}
static inline void drv_unlock(struct drv_lock *k) { __atomic_store_n(&k->held, 0, __ATOMIC_RELEASE); }

struct drv_timer {
	drv_timer_fn fn;
	void *arg;
	uint64_t due_ns;             /* drv_now_ns() when it fires */
	bool armed;
	struct drv_timer *next;      /* the armed timers (drvenv_process.c) */
};

#endif
