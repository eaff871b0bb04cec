/*
 * spin_nested.h — the lock steps of the direct switches (sched/
 * sched_direct.c), of sem_post_wait (sem.c) and of the server calls'
 * round trip (ipc/ispc_call.c): a ticket lock taken, or
 * released, by a CPU that holds another lock already, without the
 * interrupt nesting's bookkeeping (spinlock.c's irq_push/irq_pop: the
 * flags read, cli, the nesting counter, irqtrace's section).
 *
 * spin_lock_nested(c, l) takes l, spin_trylock_nested(c, l) takes it only
 * if it is free, and spin_unlock_nested(l) releases it, all leaving this
 * CPU's nesting counter (ncli) as it is: the lock the caller already
 * holds keeps interrupts off around them.  Taking b nested and then
 * releasing a, held, with spin_unlock_nested hands a's count to b, so b
 * ends up held exactly as if spin_lock(b) had come first and
 * spin_unlock(a) after; b is released later with spin_unlock.
 *
 * Precondition of all three: c is this CPU and the caller holds at least
 * one lock (ncli >= 1, interrupts off) that it keeps until after the
 * call, or whose count the call hands over as above.  The debug kernel
 * checks that, the lock order (not for the trylock, which cannot wait,
 * as spin_trylock) and the holder, as spin_lock and spin_unlock do.
 *
 * A free lock is taken as spin_trylock takes it (its next ticket is the
 * one served); spin_lock_nested takes a lock another CPU holds or waits
 * for by spin_lock, in its turn, whose extra count of the nesting is
 * dropped again (pop_off: ncli stays >= 1, so interrupts stay off).
 *
 * spin_lock_inline(l) is spin_lock inline at its call site, for the
 * sections of a server call's round trip (ica_lock in ipc/ispc_call.c):
 * the interrupt nesting counted and a free l taken in place.  A lock
 * that is held or awaited, irqtrace=on (whose sections are stamped with
 * spin_lock's caller) and the debug kernel (whose checks are spin_lock's)
 * go to spin_lock.  Released with spin_unlock, as any spin_lock.  No
 * precondition beyond spin_lock's.
 */
#ifndef HAKO_SPIN_NESTED_H
#define HAKO_SPIN_NESTED_H

#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <panic.h>
#include <region.h>
#include <spinlock.h>

/* spinlock.c: the debug kernel's checks (LOCK_CHECK only). */
enum spin_nested_step { SPIN_NESTED_LOCK, SPIN_NESTED_TRY, SPIN_NESTED_UNLOCK };
void spin_nested_check(struct spinlock *l, enum spin_nested_step step);

/* A free l just taken by c: its holder marked, the acquire stamped. */
static inline __attribute__((always_inline)) void spin_mark_taken(struct cpu *c, struct spinlock *l)
{
	l->cpu = c->id;
	sync_acquire(l);
}

static inline __attribute__((always_inline)) void spin_lock_nested(struct cpu *c, struct spinlock *l)
{
	if (__builtin_expect(!spin_take_if_free(l), 0)) {
		spin_lock(l);                /* held or awaited elsewhere: wait in turn */
		pop_off();
		return;
	}
	if (LOCK_CHECK)
		spin_nested_check(l, SPIN_NESTED_LOCK);
	spin_mark_taken(c, l);
}

static inline __attribute__((always_inline)) bool spin_trylock_nested(struct cpu *c, struct spinlock *l)
{
	if (!spin_take_if_free(l))
		return false;
	if (LOCK_CHECK)
		spin_nested_check(l, SPIN_NESTED_TRY);
	spin_mark_taken(c, l);
	return true;
}

/* c, which has counted l in its nesting already, takes l: a free l in
 * place, else by spin_lock in its turn (its count dropped again). */
static inline __attribute__((always_inline)) void take_counted(struct cpu *c, struct spinlock *l)
{
	if (__builtin_expect(!spin_take_if_free(l), 0)) {
		spin_lock(l);                /* held or awaited elsewhere: wait in turn */
		pop_off();                   /* its count of the nesting; ours stays */
		return;
	}
	spin_mark_taken(c, l);
}

static inline __attribute__((always_inline)) void spin_lock_inline(struct spinlock *l)
{
	if (LOCK_CHECK || irq_trace) {
		spin_lock(l);
		return;
	}
	uint64_t was_on = arch_irq_save();
	struct cpu *c = this_cpu();
	if (c->ncli++ == 0)              /* spinlock.c's irq_push, irq_trace off */
		c->intena = was_on;
	take_counted(c, l);
}

/*
 * spin_lock_inline for a caller that runs with interrupts off and holds no
 * lock: the dedicated paths of the words calls (ipc/ispc_call.c), which
 * x86_64's syscall_entry runs with interrupts off.  The nesting is counted
 * as spin_lock counts it when interrupts were off already (intena false),
 * so the release with spin_unlock leaves them off; without the flags read
 * and the cli.  irqtrace=on and the debug kernel go to spin_lock, as in
 * spin_lock_inline (the debug kernel checks that interrupts are off).
 */
static inline __attribute__((always_inline)) void spin_lock_irqs_off(struct spinlock *l)
{
	if (LOCK_CHECK || irq_trace) {
		if (LOCK_CHECK && arch_irq_enabled())
			panic("spinlock %s: spin_lock_irqs_off with interrupts on", l->name);
		spin_lock(l);
		return;
	}
	struct cpu *c = this_cpu();
	if (c->ncli++ == 0)
		c->intena = false;
	take_counted(c, l);
}

static inline __attribute__((always_inline)) void spin_unlock_nested(struct spinlock *l)
{
	if (LOCK_CHECK)
		spin_nested_check(l, SPIN_NESTED_UNLOCK);
	l->cpu = -1;
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

#endif
