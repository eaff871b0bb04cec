/*
 * test_lock.c — the lock-order check: its rule on made-up held lists
 * (an inversion is caught without taking the locks, so without a panic),
 * and, under lockcheck=on, the per-CPU list of held locks.
 */
#include <stdint.h>
#include <cpu.h>
#include <ktest.h>
#include <spinlock.h>

static struct spinlock outer = SPINLOCK_INIT("test-outer", LOCK_PROC_JOIN);
static struct spinlock middle = SPINLOCK_INIT("test-middle", LOCK_WAITQ);
static struct spinlock inner = SPINLOCK_INIT("test-inner", LOCK_RUNQUEUE);
static struct spinlock twin = SPINLOCK_INIT("test-twin", LOCK_RUNQUEUE);

KTEST(lock_order_allows_rising_ranks)
{
	struct spinlock *held[] = { &outer, &middle };
	KT_CHECK(!lock_order_conflict(held, 0, &outer), "nothing held, yet a conflict");
	KT_CHECK(!lock_order_conflict(held, 1, &middle), "outer then middle refused");
	KT_CHECK(!lock_order_conflict(held, 2, &inner), "outer, middle then inner refused");
	return 0;
}

KTEST(lock_order_catches_inversion)
{
	struct spinlock *held[] = { &outer, &inner };
	KT_CHECK(lock_order_conflict(held, 2, &middle) == &inner,
		 "middle under inner not blamed on inner");
	KT_CHECK(lock_order_conflict(&held[1], 1, &outer) == &inner, "outer under inner allowed");
	KT_CHECK(lock_order_conflict(&held[1], 1, &twin) == &inner,
		 "two locks of one rank allowed together");
	return 0;
}

KTEST(lock_check_follows_held_locks)
{
	if (!lock_check)
		KTEST_SKIP("needs lockcheck=on");
	spin_lock(&outer);
	struct cpu *c = this_cpu();      /* interrupts are off until outer goes */
	bool first = c->nheld == 1 && c->held[0] == &outer;
	spin_lock(&middle);
	spin_lock(&inner);
	bool stacked = c->nheld == 3 && c->held[1] == &middle && c->held[2] == &inner;
	spin_unlock(&middle);            /* out of order, as sleep_on does */
	bool kept = c->nheld == 2 && c->held[0] == &outer && c->held[1] == &inner;
	spin_unlock(&inner);
	bool popped = c->nheld == 1;
	spin_unlock(&outer);
	KT_CHECK(first, "outer alone is not the held list");
	KT_CHECK(stacked, "middle and inner not on top of it");
	KT_CHECK(kept, "releasing the middle lock lost the others");
	KT_CHECK(popped, "inner still on the held list");
	return 0;
}
