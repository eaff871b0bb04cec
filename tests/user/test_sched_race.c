/*
 * tests/user/test_sched_race.c — the scheduler under churn: priorities of
 * other threads changed while those threads sleep, wake, yield and move
 * between CPUs.  Every worker and changer draws its actions from its own
 * linear congruential sequence, so a run under icount repeats exactly.
 */
#include <stdint.h>
#include <hako/sys.h>
#include "test.h"
#include <hako/thread.h>

#define NWORKERS 8
#define NCHANGERS 3
#define WORKER_STEPS 500
#define PRIO_LOW 2
#define PRIO_HIGH 11               /* below the kernel's own threads */

static volatile int worker_tid[NWORKERS];
static volatile int workers_left;
static volatile long steps_done, prio_changes;

static uint64_t next_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

/* Sleeps (a timer wakes it), yields, moves to another CPU or changes its
 * own CPU set, in a random order. */
static void churn_worker(void *arg)
{
	uint64_t x = (uint64_t)(long)arg * 2654435761u + 7;
	int ncpu = online_cpus();
	for (int i = 0; i < WORKER_STEPS; i++) {
		uint64_t r = next_rand(&x);
		switch (r % 5) {
		case 0:
		case 1:
			sleep_ns((r >> 3) % 3000);
			break;
		case 2:
			sys_yield();
			break;
		case 3:
			sys_migrate((int)((r >> 3) % ncpu));
			break;
		default: {
			uint64_t mask = (r >> 3) & ((1ull << ncpu) - 1);
			sys_set_affinity(0, mask ? mask : ~0ull);
			break;
		}
		}
		__atomic_fetch_add(&steps_done, 1, __ATOMIC_RELAXED);
	}
	sys_set_affinity(0, ~0ull);
	__atomic_fetch_sub(&workers_left, 1, __ATOMIC_SEQ_CST);
}

/* Sets a random worker's priority, over and over, while any worker runs. */
static void prio_changer(void *arg)
{
	uint64_t x = (uint64_t)(long)arg * 40503u + 11;
	while (__atomic_load_n(&workers_left, __ATOMIC_SEQ_CST) > 0) {
		uint64_t r = next_rand(&x);
		int tid = worker_tid[r % NWORKERS];
		int prio = PRIO_LOW + (int)((r >> 8) % (PRIO_HIGH - PRIO_LOW + 1));
		if (tid > 0 && sys_setprio(tid, prio) == 0)
			__atomic_fetch_add(&prio_changes, 1, __ATOMIC_RELAXED);
		if (r & 0x100)
			sys_yield();
	}
}

TEST_NEEDS(setprio_while_threads_sleep_wake_and_migrate, needs_two_cpus)
{
	int changers[NCHANGERS];
	workers_left = NWORKERS;
	for (int i = 0; i < NWORKERS; i++) {
		worker_tid[i] = thread_start(churn_worker, (void *)(long)i);
		CHECK(worker_tid[i] > 0, "thread_start worker %d: %d", i, worker_tid[i]);
	}
	for (int i = 0; i < NCHANGERS; i++) {
		changers[i] = thread_start(prio_changer, (void *)(long)i);
		CHECK(changers[i] > 0, "thread_start changer %d: %d", i, changers[i]);
	}
	for (int i = 0; i < NWORKERS; i++)
		CHECK_EQ(thread_join(worker_tid[i]), 0);
	for (int i = 0; i < NCHANGERS; i++)
		CHECK_EQ(thread_join(changers[i]), 0);
	CHECK_EQ(steps_done, NWORKERS * WORKER_STEPS);
	CHECK(prio_changes > 0, "no priority was changed");
	return 0;
}

/*
 * A thread that lowers its own priority while it holds a user spinlock
 * still gets to release it: the spinners, one per CPU at the default
 * priority, nap rather than yield after a while (user/lib/spin.c), so
 * the holder, below them all, runs while they sleep.
 */
static struct spin low_lock = SPIN_INIT;
static volatile int low_holding;
static volatile long spinners_through;

static void low_holder(void *arg __attribute__((unused)))
{
	spin_lock(&low_lock);
	low_holding = 1;
	sys_setprio(0, PRIO_LOW);
	for (volatile int i = 0; i < 1000; i++)
		;
	spin_unlock(&low_lock);
}

static void spinner(void *arg __attribute__((unused)))
{
	while (!low_holding)
		sleep_ns(1000);
	spin_lock(&low_lock);
	spin_unlock(&low_lock);
	__atomic_fetch_add(&spinners_through, 1, __ATOMIC_RELAXED);
}

TEST(spin_lock_holder_lowered_below_its_spinners_still_releases)
{
	int n = online_cpus(), tids[16];
	int holder = thread_start(low_holder, NULL);
	CHECK(holder > 0, "thread_start holder: %d", holder);
	for (int i = 0; i < n && i < 16; i++) {
		tids[i] = thread_start(spinner, NULL);
		CHECK(tids[i] > 0, "thread_start spinner %d: %d", i, tids[i]);
	}
	CHECK_EQ(thread_join(holder), 0);
	for (int i = 0; i < n && i < 16; i++)
		CHECK_EQ(thread_join(tids[i]), 0);
	CHECK_EQ(spinners_through, n < 16 ? n : 16);
	return 0;
}
