/*
 * user/lib/spin.c — spinlocks (hako/thread.h).
 *
 * Test-and-test-and-set: spin reading the lock with `pause`, and after
 * SPINS_BEFORE_YIELD rounds give the CPU away, in case the holder was
 * preempted and needs it to finish.
 */
#include <hako/sys.h>
#include <hako/thread.h>
#include "cpu.h"

#define SPINS_BEFORE_YIELD 1000

int spin_trylock(struct spin *s)
{
	return __atomic_exchange_n(&s->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

void spin_lock(struct spin *s)
{
	unsigned spins = 0;

	while (!spin_trylock(s)) {
		while (__atomic_load_n(&s->locked, __ATOMIC_RELAXED)) {
			cpu_relax();
			if (++spins >= SPINS_BEFORE_YIELD) {
				sys_yield();
				spins = 0;
			}
		}
	}
}

void spin_unlock(struct spin *s)
{
	__atomic_store_n(&s->locked, 0, __ATOMIC_RELEASE);
}
