/*
 * user/lib/spin.c — spinlocks (hako/thread.h).
 *
 * Test-and-test-and-set: spin reading the lock with `pause`, and after
 * SPINS_BEFORE_NAP rounds give the CPU away for a moment, in case the
 * holder was preempted and needs it to finish.  A nap, not a yield: a
 * yield gives the CPU only to threads of the same or a higher priority,
 * and a holder whose priority was lowered while it held the lock would
 * never run again while spinners of higher priority fill every CPU.
 * Each nap of one wait is twice the last, up to SPIN_NAP_MAX_NS: a nap
 * shorter than the way into the sleep (the -O0 SH-4 build's system call
 * path is longer than 2 us) has expired before the spinner sleeps, and the
 * holder would get no time at all.
 */
#include <hako/sys.h>
#include <hako/thread.h>
#include "cpu.h"

#define SPINS_BEFORE_NAP 1000
#define SPIN_NAP_NS      2000
#define SPIN_NAP_MAX_NS  1000000

int spin_trylock(struct spin *s)
{
	return __atomic_exchange_n(&s->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

void spin_lock(struct spin *s)
{
	unsigned spins = 0;
	uint64_t nap = SPIN_NAP_NS;

	while (!spin_trylock(s)) {
		while (__atomic_load_n(&s->locked, __ATOMIC_RELAXED)) {
			cpu_relax();
			if (++spins >= SPINS_BEFORE_NAP) {
				sleep_ns(nap);
				nap = nap < SPIN_NAP_MAX_NS ? nap * 2 : nap;
				spins = 0;
			}
		}
	}
}

void spin_unlock(struct spin *s)
{
	__atomic_store_n(&s->locked, 0, __ATOMIC_RELEASE);
}
