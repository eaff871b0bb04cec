/*
 * user/lib/spin.c — spinlocks (hako/thread.h).
 *
 * Test-and-test-and-set: spin reading the lock with `pause`, and after
 * SPINS_BEFORE_NAP rounds give the CPU away for a moment, in case the
 * holder was preempted and needs it to finish.  A nap, not a yield: a
 * yield gives the CPU only to threads of the same or a higher priority,
 * and a holder whose priority was lowered while it held the lock would
 * never run again while spinners of higher priority fill every CPU.
 */
#include <hako/sys.h>
#include <hako/thread.h>
#include "cpu.h"

#define SPINS_BEFORE_NAP 1000
#define SPIN_NAP_NS      2000

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
			if (++spins >= SPINS_BEFORE_NAP) {
				sleep_ns(SPIN_NAP_NS);
				spins = 0;
			}
		}
	}
}

void spin_unlock(struct spin *s)
{
	__atomic_store_n(&s->locked, 0, __ATOMIC_RELEASE);
}
