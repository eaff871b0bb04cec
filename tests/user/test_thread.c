/*
 * tests/user/test_thread.c — threads of one process on several CPUs,
 * affinity and migration, semaphores between threads and processes.
 */
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <hako/thread.h>

#define NTHREADS 4
#define ROUNDS 20000

static volatile long shared_atomic;
static long shared_locked;
static struct spin lock = SPIN_INIT;
static volatile int cpus_seen[64];

static void add_many(void *arg)
{
	int cpu = (int)(long)arg;
	sys_set_affinity(0, 1ull << cpu);
	cpus_seen[sys_getcpu()] = 1;
	for (int i = 0; i < ROUNDS; i++) {
		__atomic_fetch_add(&shared_atomic, 1, __ATOMIC_RELAXED);
		spin_lock(&lock);
		shared_locked++;
		spin_unlock(&lock);
	}
}

TEST(threads_share_memory_across_cpus)
{
	int n = online_cpus(), tids[NTHREADS];
	for (int i = 0; i < NTHREADS; i++) {
		tids[i] = thread_start(add_many, (void *)(long)(i % n));
		CHECK(tids[i] > 0, "thread_start %d", tids[i]);
	}
	for (int i = 0; i < NTHREADS; i++)
		CHECK_EQ(thread_join(tids[i]), 0);
	CHECK_EQ(shared_atomic, NTHREADS * ROUNDS);
	CHECK_EQ(shared_locked, NTHREADS * ROUNDS);
	int seen = 0;
	for (int c = 0; c < 64; c++)
		seen += cpus_seen[c];
	CHECK_EQ(seen, n < NTHREADS ? n : NTHREADS);
	return 0;
}

static void exit_code(void *arg)
{
	sys_thread_exit((int)(long)arg);
}

TEST(thread_join_returns_exit_code)
{
	int tid = thread_start(exit_code, (void *)33L);
	CHECK(tid > 0, "thread_start %d", tid);
	CHECK_EQ(thread_join(tid), 33);
	CHECK_EQ(thread_join(tid), -ESRCH);     /* joined once, gone */
	return 0;
}

static void nap_thread(void *arg)
{
	sleep_ms((uint64_t)(long)arg);
}

TEST(thread_limit_eagain)
{
	int tids[HAKO_MAX_THREADS + 4], n = 0, r = 0;
	while (n < HAKO_MAX_THREADS + 4 && (r = thread_start(nap_thread, (void *)30L)) > 0)
		tids[n++] = r;
	CHECK(r == -EAGAIN, "after %d threads: %d", n, r);
	CHECK_EQ(n, HAKO_MAX_THREADS - 1);
	for (int i = 0; i < n; i++)
		CHECK_EQ(thread_join(tids[i]), 0);
	return 0;
}

static void fault_thread(void *arg)
{
	sleep_ms(5);
	*(volatile int *)arg = 1;
}

UROLE(thread_faults)
{
	thread_start(fault_thread, (void *)16);
	sys_sleep(1000000000000ull);        /* the fault in the other thread ends us */
	return 0;
}

TEST(thread_fault_kills_whole_process)
{
	int s = run_role("thread_faults", NULL);
	CHECK(HAKO_WIFKILLED(s) && HAKO_WCAUSE(s) == 14, "status 0x%x", s);
	return 0;
}

static void exit_process(void *arg __attribute__((unused)))
{
	sleep_ms(5);
	sys_exit(21);
}

UROLE(thread_exits_process)
{
	thread_start(exit_process, NULL);
	sys_sem_wait((int)sys_sem_create(0));
	return 0;
}

TEST(exit_from_thread_ends_process)
{
	CHECK_EQ(run_role("thread_exits_process", NULL), 21);
	return 0;
}

TEST(affinity_and_migration)
{
	int n = online_cpus();
	for (int c = 0; c < n; c++) {
		CHECK_EQ(sys_set_affinity(0, 1ull << c), 0);
		CHECK_EQ(sys_getcpu(), c);
	}
	CHECK_EQ(sys_set_affinity(0, ~0ull), 0);
	for (int c = n - 1; c >= 0; c--) {
		CHECK_EQ(sys_migrate(c), 0);
		CHECK_EQ(sys_getcpu(), c);
	}
	return 0;
}

static int sem_a, sem_b;
static volatile int woke_on = -1;

static void waiter(void *arg)
{
	sys_set_affinity(0, 1ull << (long)arg);
	sys_sem_post(sem_b);                 /* ready */
	sys_sem_wait(sem_a);
	woke_on = (int)sys_getcpu();
}

TEST_NEEDS(cross_cpu_wakeup, needs_two_cpus)
{
	sem_a = (int)sys_sem_create(0);
	sem_b = (int)sys_sem_create(0);
	CHECK(sem_a > 0 && sem_b > 0, "sem_create");
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int tid = thread_start(waiter, (void *)1L);
	CHECK(tid > 0, "thread_start");
	CHECK_EQ(sys_sem_wait(sem_b), 0);
	sleep_ms(2);                         /* let it block */
	CHECK_EQ(sys_sem_post(sem_a), 0);
	CHECK_EQ(thread_join(tid), 0);
	CHECK_EQ(woke_on, 1);
	return 0;
}

UROLE(pong)
{
	int a = atoi(argv[0]), b = atoi(argv[1]), n = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		if (sys_sem_wait(a) < 0)
			return 1;
		sys_sem_post(b);
	}
	return 0;
}

/* 500 turns against helper `role`: post A + wait B each, or one
 * sem_post_wait(A, B). */
static int pingpong_with_role(const char *role, bool post_wait)
{
	int a = (int)sys_sem_create(0), b = (int)sys_sem_create(0);
	char sa[16], sb[16];
	snprintf(sa, sizeof sa, "%d", a);
	snprintf(sb, sizeof sb, "%d", b);
	int pid = spawn_role(role, sa, sb, "500", NULL);
	CHECK(pid > 0, "spawn %d", pid);
	for (int i = 0; i < 500; i++) {
		if (post_wait) {
			CHECK_EQ(sys_sem_post_wait(a, b), 0);
			continue;
		}
		CHECK_EQ(sys_sem_post(a), 0);
		CHECK_EQ(sys_sem_wait(b), 0);
	}
	int status;
	CHECK_EQ(waitpid(pid, &status), pid);
	CHECK_EQ(status, 0);
	CHECK_EQ(sys_sem_destroy(a), 0);
	CHECK_EQ(sys_sem_destroy(b), 0);
	return 0;
}

TEST(semaphore_pingpong_between_processes)
{
	return pingpong_with_role("pong", false);
}

/* Wait on A, then answer each turn with one sem_post_wait(B, A); the
 * last answer a plain post. */
UROLE(pong_post_wait)
{
	int a = atoi(argv[0]), b = atoi(argv[1]), n = atoi(argv[2]);
	if (sys_sem_wait(a) < 0)
		return 1;
	for (int i = 1; i < n; i++)
		if (sys_sem_post_wait(b, a) < 0)
			return 1;
	return sys_sem_post(b) < 0 ? 1 : 0;
}

TEST(semaphore_post_wait_pingpong_between_processes)
{
	return pingpong_with_role("pong_post_wait", true);
}

TEST(semaphore_destroyed_wakes_waiter)
{
	sem_a = (int)sys_sem_create(0);
	int tid = thread_start(nap_thread, (void *)1L);
	CHECK(tid > 0, "thread_start");
	CHECK_EQ(thread_join(tid), 0);
	CHECK_EQ(sys_sem_destroy(sem_a), 0);
	CHECK_EQ(sys_sem_wait(sem_a), -EINVAL);
	return 0;
}

static void linger(void *arg __attribute__((unused)))
{
	sleep_ms(10);
	sys_thread_exit(17);
}

UROLE(main_thread_exits_first)
{
	thread_start(linger, NULL);
	sys_thread_exit(3);              /* the process lives on in the other thread */
	return 1;
}

TEST(last_thread_exit_sets_status)
{
	CHECK_EQ(run_role("main_thread_exits_first", NULL), 17);
	return 0;
}

static volatile int tid_b, tid_c;

static void join_other(void *arg)
{
	volatile int *other = arg;
	while (!*other)
		sys_yield();
	sys_thread_join(*other);
}

/* Two threads joining each other wait for ever; a kill must still end them. */
UROLE(mutual_join)
{
	tid_b = thread_start(join_other, (void *)&tid_c);
	tid_c = thread_start(join_other, (void *)&tid_b);
	sys_sleep(1000000000000ull);
	return 0;
}

TEST(kill_ends_threads_joining_each_other)
{
	int pid = spawn_role("mutual_join", NULL);
	CHECK(pid > 0, "spawn %d", pid);
	int status = kill_after(pid, 20);
	CHECK(status >= 0 && HAKO_WIFKILLED(status), "status 0x%x", status);
	return 0;
}

/*
 * Many threads taking sleeps so short that the timer fires while the
 * sleeper is still on its way off the CPU.  A wake-up that queued the
 * sleeper before its switch had finished let an idle CPU steal it and
 * resume it from stale registers (seen under TCG as a ring-0 fault).
 */
#define NSLEEPERS 6
#define NAPS 1500
static volatile long naps_done;

static void nap_many(void *arg)
{
	uint64_t x = (uint64_t)(long)arg * 2654435761u + 1;
	for (int i = 0; i < NAPS; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		sleep_ns((x >> 33) % 4000);          /* 0 to 4 µs */
		__atomic_fetch_add(&naps_done, 1, __ATOMIC_RELAXED);
	}
}

TEST(short_sleeps_on_all_cpus)
{
	int tids[NSLEEPERS];
	for (int i = 0; i < NSLEEPERS; i++) {
		tids[i] = thread_start(nap_many, (void *)(long)i);
		CHECK(tids[i] > 0, "thread_start %d", tids[i]);
	}
	for (int i = 0; i < NSLEEPERS; i++)
		CHECK_EQ(thread_join(tids[i]), 0);
	CHECK_EQ(naps_done, NSLEEPERS * NAPS);
	return 0;
}

/*
 * A call that wakes a thread of higher priority on the caller's CPU
 * switches to it before the call returns (dispatch.c), not at the next
 * tick: the waiter has run by the time sem_post is back.
 */
#define PRIO_TEST_HIGH 12          /* above a program's default (8) */

static volatile int waiter_ran, waiter_ready, waiter_cpu, waiter_sem;

static void high_waiter(void *arg)
{
	(void)arg;
	int sem = waiter_sem;
	if (sys_set_affinity(0, 1ull << waiter_cpu) < 0 || sys_migrate(waiter_cpu) < 0 ||
	    sys_setprio(0, PRIO_TEST_HIGH) < 0) {
		waiter_ready = -1;
		return;
	}
	waiter_ready = 1;
	sys_sem_wait(sem);
	waiter_ran = 1;
}

TEST(wakeup_of_higher_priority_switches_at_call_exit)
{
	int cpu = sys_getcpu();
	CHECK_EQ(sys_set_affinity(0, 1ull << cpu), 0);
	int sem = (int)sys_sem_create(0);
	CHECK(sem >= 0, "sem_create %d", sem);
	waiter_ran = waiter_ready = 0;
	waiter_cpu = cpu;
	waiter_sem = sem;
	int tid = thread_start(high_waiter, NULL);
	CHECK(tid > 0, "thread_start %d", tid);
	while (!waiter_ready)
		sys_sleep(1000000);          /* it comes here, then blocks in sem_wait */
	CHECK_EQ(waiter_ready, 1);
	sys_sleep(1000000);
	CHECK_EQ(waiter_ran, 0);
	CHECK_EQ(sys_sem_post(sem), 0);
	int seen = waiter_ran;            /* read before anything else can switch */
	CHECK_EQ(thread_join(tid), 0);
	sys_sem_destroy(sem);
	sys_set_affinity(0, ~0ull);
	CHECK_EQ(seen, 1);
	return 0;
}

/*
 * thread_join returns only once the joined thread's stack slot is back
 * (paper 004's serialising thread unmaps it after the thread is gone, so
 * the join waits for that; serialise=off frees it before the thread
 * leaves).  A slot is then reusable at once, by the same slot index.
 */
#define STACK_TOUCH_PAGES 48

static void touch_stack(void *arg __attribute__((unused)))
{
	volatile char deep[STACK_TOUCH_PAGES * 4096];
	for (int i = 0; i < STACK_TOUCH_PAGES; i++)
		deep[i * 4096] = (char)i;
	(void)deep[0];
}

TEST(thread_join_returns_with_its_stack_freed)
{
	int tid = thread_start(touch_stack, NULL);      /* warm-up: heap, tables */
	CHECK(tid > 0, "thread_start %d", tid);
	CHECK_EQ(thread_join(tid), 0);
	for (int round = 0; round < 5; round++) {
		uint64_t before = free_frames();
		tid = thread_start(touch_stack, NULL);
		CHECK(tid > 0, "thread_start %d", tid);
		CHECK_EQ(thread_join(tid), 0);
		CHECK_EQ(free_frames(), before);
	}
	return 0;
}

/* A process whose 40 threads each used stack pages, and which holds ICAs,
 * is gone with every frame back when its parent's wait returns. */
UROLE(threads_touch_then_exit)
{
	for (int i = 0; i < 40; i++)
		thread_start(touch_stack, NULL);
	uint64_t va;
	for (int i = 0; i < 3; i++)
		if (sys_ica_alloc(64, &va) >= 0)
			((volatile char *)va)[0] = 1;
	sleep_ms(5);
	return 3;
}

/* A leak shows as fewer free frames.  In one boot (ispc=fast, the whole
 * selftest) a frame held when `before` was read came back during the
 * rounds, freed by background work of an earlier test (its source is
 * not known); so more frames than before is no failure here. */
TEST(exit_with_many_threads_frees_everything_before_wait_returns)
{
	uint64_t before = free_frames();
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(run_role("threads_touch_then_exit", NULL), 3);
		uint64_t now = free_frames();
		CHECK(now >= before, "%lu frames free, %lu before: leaked", (unsigned long)now,
		      (unsigned long)before);
	}
	return 0;
}
