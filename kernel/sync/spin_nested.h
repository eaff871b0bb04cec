/*
 * spin_nested.h — the lock steps of the scheduler's direct switches
 * (sched/sched_direct.c): a ticket lock taken, or released, by a CPU that
 * holds another lock already, without the interrupt nesting's
 * bookkeeping (spinlock.c's irq_push/irq_pop: the flags read, cli, the
 * nesting counter, irqtrace's section).
 *
 * spin_lock_nested(l) takes l and spin_unlock_nested(l) releases it,
 * leaving this CPU's nesting counter (ncli) as it is: the lock the caller
 * already holds keeps interrupts off around both.  Taking b nested and
 * then releasing a, held, with spin_unlock_nested hands a's count to b,
 * so b ends up held exactly as if spin_lock(b) had come first and
 * spin_unlock(a) after; b is released later with spin_unlock.
 *
 * Precondition of both: the caller holds at least one lock (ncli >= 1,
 * interrupts off) that it keeps until after the call, or whose count the
 * call hands over as above.  The debug kernel checks that, the lock order
 * and the holder, as spin_lock and spin_unlock do.
 *
 * A free lock is taken as spin_trylock takes it (its next ticket is the
 * one served); a lock another CPU holds or waits for is taken by
 * spin_lock, in its turn, whose extra count of the nesting is dropped
 * again (pop_off: ncli stays >= 1, so interrupts stay off).
 */
#ifndef HAKO_SPIN_NESTED_H
#define HAKO_SPIN_NESTED_H

#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <region.h>
#include <spinlock.h>

/* spinlock.c: the debug kernel's checks (LOCK_CHECK only). */
void spin_nested_check(struct spinlock *l, bool acquire);

static inline __attribute__((always_inline)) void spin_lock_nested(struct spinlock *l)
{
	uint32_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint32_t expect = owner;
	if (__builtin_expect(!__atomic_compare_exchange_n(&l->next, &expect, owner + 1, false,
							  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 0)) {
		spin_lock(l);                /* held or awaited elsewhere: wait in turn */
		pop_off();
		return;
	}
	if (LOCK_CHECK)
		spin_nested_check(l, true);
	l->cpu = this_cpu()->id;
	sync_acquire(l);
}

static inline __attribute__((always_inline)) void spin_unlock_nested(struct spinlock *l)
{
	if (LOCK_CHECK)
		spin_nested_check(l, false);
	l->cpu = -1;
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

#endif
