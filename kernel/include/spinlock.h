/*
 * spinlock.h — fair (ticket) spinlocks.
 *
 * Taking a lock disables interrupts on this CPU until the last lock it
 * holds is released (push_off/pop_off nest, as in xv6), so a lock holder
 * is never preempted and an interrupt handler never spins on a lock its
 * own CPU holds.  Tickets make the lock FIFO-fair between CPUs.
 */
#ifndef HAKO_SPINLOCK_H
#define HAKO_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct spinlock {
	volatile uint32_t next;     /* next ticket to hand out */
	volatile uint32_t owner;    /* ticket now being served */
	const char *name;
	int cpu;                    /* holder's CPU id, -1 if free */
};

#define SPINLOCK_INIT(n) { 0, 0, (n), -1 }

void spin_init(struct spinlock *l, const char *name);
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
bool spin_held(struct spinlock *l);     /* by this CPU */

void push_off(void);
void pop_off(void);
extern bool irq_trace;              /* time interrupts-off sections (irqtrace=on) */

#endif
