/*
 * test_lock.c — the lock-order check: its rule on made-up held lists
 * (an inversion is caught without taking the locks, so without a panic),
 * and, in the debug kernel (LOCK_CHECK), the per-CPU list of held locks.
 */
#include <stdint.h>
#include <cpu.h>
#include <ktest.h>
#include <spinlock.h>

static struct spinlock outer = SPINLOCK_INIT("test-outer", LOCK_PROC_JOIN);
static struct spinlock middle = SPINLOCK_INIT("test-middle", LOCK_WAITQ);
static struct spinlock inner = SPINLOCK_INIT("test-inner", LOCK_RUNQUEUE);
static struct spinlock twin = SPINLOCK_INIT("test-twin", LOCK_RUNQUEUE);

TEST(lock_order_allows_rising_ranks)
{
	struct spinlock *held[] = { &outer, &middle };
	CHECK(!lock_order_conflict(held, 0, &outer), "nothing held, yet a conflict");
	CHECK(!lock_order_conflict(held, 1, &middle), "outer then middle refused");
	CHECK(!lock_order_conflict(held, 2, &inner), "outer, middle then inner refused");
	return 0;
}

TEST(lock_order_catches_inversion)
{
	struct spinlock *held[] = { &outer, &inner };
	CHECK(lock_order_conflict(held, 2, &middle) == &inner,
		 "middle under inner not blamed on inner");
	CHECK(lock_order_conflict(&held[1], 1, &outer) == &inner, "outer under inner allowed");
	CHECK(lock_order_conflict(&held[1], 1, &twin) == &inner,
		 "two locks of one rank allowed together");
	return 0;
}

TEST(lock_check_follows_held_locks)
{
	if (!LOCK_CHECK)
		SKIP("needs the debug kernel (make kernel-debug)");
	spin_lock(&outer);
	const struct held_locks *h = held_locks_here();  /* interrupts are off until outer goes */
	bool first = h->n == 1 && h->lock[0] == &outer;
	spin_lock(&middle);
	spin_lock(&inner);
	bool stacked = h->n == 3 && h->lock[1] == &middle && h->lock[2] == &inner;
	spin_unlock(&middle);            /* out of order, as sleep_on does */
	bool kept = h->n == 2 && h->lock[0] == &outer && h->lock[1] == &inner;
	spin_unlock(&inner);
	bool popped = h->n == 1;
	spin_unlock(&outer);
	CHECK(first, "outer alone is not the held list");
	CHECK(stacked, "middle and inner not on top of it");
	CHECK(kept, "releasing the middle lock lost the others");
	CHECK(popped, "inner still on the held list");
	return 0;
}
