/*
 * test_sem.c — self-tests of the semaphores' post (kernel/sync/sem.c):
 * with semdirect on, a post runs a waiter of its own CPU that would
 * preempt it at once (sched_wake_switch), and queues the waiter
 * otherwise; with it off, the waiter is always queued.  sem_post_wait's
 * direct switch (the poster sleeps, the waiter runs in its place) and its
 * fallbacks.  Both ways are run in one boot, the switch flipped here and
 * put back.
 */
#include <stdint.h>
#include <errno.h>
#include <cpu.h>
#include <ktest.h>
#include <sched.h>
#include <sem.h>
#include <smp.h>
#include <thread.h>

#define OWNER (-1)                   /* no process owns the tests' semaphores */

static volatile long sem_id;
static volatile int waiter_done;

static void sem_waiter(void *arg)
{
	long r = sem_wait((int)sem_id);
	waiter_done = 1;
	thread_exit(r == 0 ? 0 : 1);
}

/* Start a waiter of priority prio pinned to cpu and wait until it sleeps
 * on the semaphore; then post.  Returns whether the waiter had run by the
 * time the post returned (-1: it could not be set up), and joins it. */
static int post_to_waiter(int prio, int cpu)
{
	waiter_done = 0;
	sem_id = sem_create(0, OWNER);
	if (sem_id < 0)
		return -1;
	struct thread *w = thread_create("sem-waiter", sem_waiter, NULL, prio, 1ull << cpu);
	if (!w) {
		sem_destroy((int)sem_id, OWNER);
		return -1;
	}
	thread_start(w);
	while (__atomic_load_n(&w->state, __ATOMIC_ACQUIRE) != T_SLEEPING || !w->wait_on)
		thread_sleep_ns(20000);      /* not a yield: a waiter of lower priority must run */
	long r = sem_post((int)sem_id);
	int ran = waiter_done;
	int code = thread_join(w);
	sem_destroy((int)sem_id, OWNER);
	return r == 0 && code == 0 ? ran : -1;
}

/* The running test thread, pinned to its CPU for the test's length. */
struct pinned {
	struct thread *me;
	uint64_t affinity;
	int cpu;
};

static struct pinned pin_here(void)
{
	struct thread *me = thread_current();
	struct pinned p = { me, me->affinity, -1 };
	push_off();
	p.cpu = cpu_id();
	pop_off();
	sched_set_affinity(me, 1ull << p.cpu);
	return p;
}

static void unpin(struct pinned p, bool direct_was)
{
	sem_direct_on = direct_was;
	sched_set_affinity(p.me, p.affinity);
}

/* A waiter of higher priority preempts the poster either way: at once
 * with semdirect on; with it off, on the way out of the call (a system
 * call's end) or at the next interrupt (a kernel thread like this one),
 * so the off case is only checked to hand the unit over. */
TEST(sem_post_runs_a_waiter_of_its_cpu_at_once_only_with_semdirect_on)
{
	bool was = sem_direct_on;
	struct pinned p = pin_here();
	int prio = p.me->prio;
	if (prio >= NPRIO - 1) {
		unpin(p, was);
		SKIP("the test thread has the highest priority already");
	}
	sem_direct_on = true;
	int higher = post_to_waiter(prio + 1, p.cpu);
	int equal = post_to_waiter(prio, p.cpu);
	sem_direct_on = false;
	int higher_off = post_to_waiter(prio + 1, p.cpu);
	unpin(p, was);
	CHECK_EQ(higher, 1);             /* ran before the post returned */
	CHECK_EQ(equal, 0);              /* equal priority: no preemption, the poster runs on */
	CHECK(higher_off >= 0, "semdirect=off: the waiter did not get the unit");
	return 0;
}

TEST(sem_post_queues_a_waiter_of_lower_priority_or_another_cpu)
{
	bool was = sem_direct_on;
	struct pinned p = pin_here();
	int prio = p.me->prio;
	sem_direct_on = true;
	int lower = prio > 0 ? post_to_waiter(prio - 1, p.cpu) : 0;
	int elsewhere = 0;
	if (ncpus > 1) {
		/* Runs there at once, so it may be done early: only a fallback
		 * that went wrong (a switch to a thread of another CPU) fails. */
		elsewhere = post_to_waiter(prio, (p.cpu + 1) % ncpus) < 0 ? -1 : 0;
	}
	unpin(p, was);
	CHECK_EQ(lower, 0);              /* lower priority: never ahead of the poster */
	CHECK_EQ(elsewhere, 0);
	return 0;
}

/* Posters and waiters on every CPU at once on one semaphore: the count
 * and the sleepers' queue must lose no unit (a lost one leaves a waiter
 * asleep for ever) and make none (checked at the end: one wait more
 * would have nothing to take, so a post must hand its unit over). */
#define STRESS_THREADS 4
#define STRESS_ROUNDS 400

static void stress_poster(void *arg)
{
	for (int i = 0; i < STRESS_ROUNDS; i++) {
		if (sem_post((int)sem_id) != 0)
			thread_exit(1);
		if (i % 7 == 0)
			sched_yield();
	}
	thread_exit(0);
}

static void stress_waiter(void *arg)
{
	for (int i = 0; i < STRESS_ROUNDS; i++)
		if (sem_wait((int)sem_id) != 0)
			thread_exit(1);
	thread_exit(0);
}

TEST(sem_counts_hold_with_posters_and_waiters_on_every_cpu)
{
	bool was = sem_direct_on;
	struct thread *t[2 * STRESS_THREADS];
	int bad = 0;
	for (int direct = 0; direct < 2; direct++) {
		sem_direct_on = direct;
		sem_id = sem_create(0, OWNER);
		CHECK(sem_id >= 0, "sem_create %ld", sem_id);
		for (int i = 0; i < 2 * STRESS_THREADS; i++) {
			t[i] = thread_create(i & 1 ? "sem-poster" : "sem-waiter",
					     i & 1 ? stress_poster : stress_waiter, NULL, PRIO_DEFAULT,
					     1ull << (i / 2 % ncpus));
			CHECK(t[i], "thread_create");
			thread_start(t[i]);
		}
		for (int i = 0; i < 2 * STRESS_THREADS; i++)
			bad += thread_join(t[i]);
		/* Every unit taken: a waiter started now sleeps until the post. */
		waiter_done = 0;
		struct thread *w = thread_spawn("sem-waiter", sem_waiter, NULL, PRIO_DEFAULT);
		CHECK(w, "thread_spawn");
		thread_sleep_ns(2000000);
		int early = waiter_done;
		sem_post((int)sem_id);
		bad += thread_join(w);
		sem_destroy((int)sem_id, OWNER);
		CHECK(!early, "semdirect %d: a unit was left over", direct);
	}
	sem_direct_on = was;
	CHECK_EQ(bad, 0);
	return 0;
}

/* ---- sem_post_wait ---------------------------------------------------- */

static volatile long pw_a, pw_b;
static volatile long pw_result;

/* Wait on A, then answer each of n turns with post B + wait A (the last
 * answer a plain post B). */
static void pw_partner(void *arg)
{
	int n = (int)(uint64_t)arg;
	long r = sem_wait((int)pw_a);
	for (int i = 1; i < n && r == 0; i++)
		r = sem_post_wait((int)pw_b, (int)pw_a);
	if (r == 0)
		r = sem_post((int)pw_b);
	thread_exit(r == 0 ? 0 : 1);
}

/* Post A and wait on B in one call (or as asked), and keep the result. */
static void pw_caller(void *arg)
{
	pw_result = sem_post_wait((int)pw_a, (int)pw_b);
	thread_exit(0);
}

static struct thread *pw_start(void (*fn)(void *), void *arg, int cpu)
{
	struct thread *t = thread_create("sem-pw", fn, arg, PRIO_DEFAULT, 1ull << cpu);
	if (t)
		thread_start(t);
	return t;
}

static void pw_wait_asleep(struct thread *t)
{
	while (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != T_SLEEPING || !t->wait_on)
		thread_sleep_ns(20000);
}

TEST(sem_post_wait_pingpongs_on_one_cpu_and_across_with_semdirect_on_and_off)
{
	bool was = sem_direct_on;
	struct pinned p = pin_here();
	int bad = 0;
	for (int round = 0; round < 4; round++) {
		sem_direct_on = round & 1;
		int cpu = round < 2 || ncpus == 1 ? p.cpu : (p.cpu + 1) % ncpus;
		pw_a = sem_create(0, OWNER);
		pw_b = sem_create(0, OWNER);
		struct thread *t = pw_start(pw_partner, (void *)200, cpu);
		CHECK(t && pw_a >= 0 && pw_b >= 0, "set-up");
		for (int i = 0; i < 200; i++)
			if (sem_post_wait((int)pw_a, (int)pw_b) != 0)
				bad++;
		bad += thread_join(t);
		sem_destroy((int)pw_a, OWNER);
		sem_destroy((int)pw_b, OWNER);
	}
	unpin(p, was);
	CHECK_EQ(bad, 0);
	return 0;
}

TEST(sem_post_wait_falls_back_and_fails_like_post_then_wait)
{
	bool was = sem_direct_on;
	struct pinned p = pin_here();
	sem_direct_on = true;
	pw_a = sem_create(0, OWNER);
	pw_b = sem_create(1, OWNER);
	/* A unit to take on B: no sleep, the waiter on A woken the usual way. */
	waiter_done = 0;
	sem_id = pw_a;
	struct thread *w = thread_create("sem-waiter", sem_waiter, NULL, p.me->prio, 1ull << p.cpu);
	CHECK(w, "thread_create");
	thread_start(w);
	pw_wait_asleep(w);
	long took = sem_post_wait((int)pw_a, (int)pw_b);
	int ran_early = waiter_done;
	int wcode = thread_join(w);
	/* Bad ids: a post that fails waits for nothing; a wait that fails
	 * comes after a post that was made. */
	long bad_post = sem_post_wait(-1, (int)pw_b);
	long bad_wait = sem_post_wait((int)pw_b, -1);
	long left = sem_post_wait((int)pw_a, (int)pw_b);   /* bad_wait's post is there */
	long drained = sem_wait((int)pw_a);  /* left's post: nobody waited */
	/* Killed while it sleeps in the direct wait: -EINTR, as sem_wait. */
	sem_id = pw_a;
	w = thread_create("sem-waiter", sem_waiter, NULL, p.me->prio, 1ull << p.cpu);
	CHECK(w, "thread_create");
	thread_start(w);
	pw_wait_asleep(w);
	pw_result = 1;
	struct thread *caller = pw_start(pw_caller, NULL, p.cpu);
	CHECK(caller, "thread_create");
	pw_wait_asleep(caller);
	int wcode2 = thread_join(w);     /* it ran and got A's unit */
	thread_interrupt(caller);
	thread_join(caller);
	long killed = pw_result;
	/* The wait semaphore destroyed under a sleeper: -EINVAL. */
	pw_result = 1;
	caller = pw_start(pw_caller, NULL, p.cpu);
	CHECK(caller, "thread_create");
	pw_wait_asleep(caller);
	sem_destroy((int)pw_b, OWNER);
	thread_join(caller);
	long destroyed = pw_result;
	sem_destroy((int)pw_a, OWNER);
	unpin(p, was);
	CHECK_EQ(took, 0);
	CHECK_EQ(ran_early, 0);          /* equal priority, no sleep: the caller ran on */
	CHECK_EQ(wcode, 0);
	CHECK_EQ(bad_post, -EINVAL);
	CHECK_EQ(bad_wait, -EINVAL);
	CHECK_EQ(left, 0);
	CHECK_EQ(drained, 0);
	CHECK_EQ(wcode2, 0);
	CHECK_EQ(killed, -EINTR);
	CHECK_EQ(destroyed, -EINVAL);
	return 0;
}

/* sem_post_wait locks the semaphore it waits on before it releases the
 * one it posted only by a nested trylock, and only keeps it if it is the
 * semaphore asked for: a post and wait on one semaphore (its lock is the
 * caller's already) and a wait on a destroyed semaphore (its slot's lock
 * is free, the id is stale) take the long way, and give what sem_post
 * then sem_wait give. */
TEST(sem_post_wait_on_its_own_or_a_destroyed_semaphore_is_post_then_wait)
{
	bool was = sem_direct_on;
	struct pinned p = pin_here();
	sem_direct_on = true;
	pw_a = sem_create(0, OWNER);
	long gone = sem_create(0, OWNER);
	CHECK(pw_a >= 0 && gone >= 0, "sem_create");
	sem_destroy((int)gone, OWNER);
	/* One semaphore: the waiter gets the unit and runs, the caller sleeps
	 * on A until the post below. */
	sem_id = pw_a;
	struct thread *w = thread_create("sem-waiter", sem_waiter, NULL, p.me->prio, 1ull << p.cpu);
	CHECK(w, "thread_create");
	thread_start(w);
	pw_wait_asleep(w);
	pw_b = pw_a;
	pw_result = 1;
	struct thread *caller = pw_start(pw_caller, NULL, p.cpu);
	CHECK(caller, "thread_create");
	int wcode = thread_join(w);
	pw_wait_asleep(caller);
	long posted = sem_post((int)pw_a);
	thread_join(caller);
	long own = pw_result;
	/* A destroyed semaphore to wait on: the post is made, the wait fails. */
	w = thread_create("sem-waiter", sem_waiter, NULL, p.me->prio, 1ull << p.cpu);
	CHECK(w, "thread_create");
	thread_start(w);
	pw_wait_asleep(w);
	long stale = sem_post_wait((int)pw_a, (int)gone);
	int wcode2 = thread_join(w);
	sem_destroy((int)pw_a, OWNER);
	unpin(p, was);
	CHECK_EQ(wcode, 0);
	CHECK_EQ(posted, 0);
	CHECK_EQ(own, 0);
	CHECK_EQ(stale, -EINVAL);
	CHECK_EQ(wcode2, 0);
	return 0;
}
