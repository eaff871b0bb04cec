/*
 * sysbench/bench_switch.c — the benchmarks that switch between threads or
 * processes: yield between two threads on one CPU, a ping-pong between
 * two processes on one CPU, and a wake-up sent from one CPU to another.
 *
 * Nothing here busy-waits without `pause`: under QEMU 7.2 icount a vCPU
 * in a pure compute loop can keep the others from running for tens of
 * milliseconds (docs/design/qemu.md, "Unequal vCPU time").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <hako/sys.h>
#include <hako/region.h>
#include <hako/thread.h>
#include "sysbench.h"
#include <arch/tsc.h>

#define YIELD_ROUNDS	5000		/* yields per thread */
#define PINGPONG_ROUNDS	2000

/* ---- yield_one_cpu ---------------------------------------------------- */

/*
 * Two threads pinned to BENCH_CPU call sys_yield in turn.  Before each
 * yield a thread notes its id and the TSC; when the yield returns and the
 * note is the other thread's, one switch happened: the sample is the
 * time from the other's sys_yield call to the return of ours.  A return
 * that finds its own note means nobody ran in between: counted, not timed.
 * Region: from before one thread's note to after the other's TSC read on
 * return, a span per yield (both threads are on BENCH_CPU).
 */
static struct {
	volatile int last;
	volatile uint64_t stamp;
	volatile int ready;
	struct samples side[2];
	unsigned missed[2];
} ys;

static void yield_turns(int me)
{
	for (int i = 0; i < YIELD_ROUNDS; i++) {
		region_begin(REGION_SYS_YIELD);
		ys.last = me;
		ys.stamp = tsc_now();
		sys_yield();
		uint64_t now = tsc_now();
		region_end(REGION_SYS_YIELD);
		if (ys.last == !me)
			samples_add(&ys.side[me], now - ys.stamp);
		else
			ys.missed[me]++;
	}
}

static void yield_partner(void *arg)
{
	(void)arg;
	if (pin_self(BENCH_CPU) < 0) {
		ys.ready = -1;
		return;
	}
	ys.ready = 1;
	yield_turns(1);
}

/* Start the partner and wait, yielding, until it runs on our CPU. */
static int yield_start(void)
{
	int tid = thread_start(yield_partner, NULL);

	if (tid < 0)
		return fail("thread_start", tid);
	while (ys.ready == 0) {
		cpu_pause();
		sys_yield();
	}
	return tid;
}

int bench_yield(void)
{
	int err = pin_self(BENCH_CPU);

	ys.ready = 0;
	ys.missed[0] = ys.missed[1] = 0;
	if (err < 0 || (err = samples_init(&ys.side[0], 2 * YIELD_ROUNDS)) < 0)
		return err;
	if ((err = samples_init(&ys.side[1], YIELD_ROUNDS)) < 0) {
		samples_free(&ys.side[0]);
		return err;
	}
	int tid = yield_start();
	if (tid >= 0 && ys.ready > 0)
		yield_turns(0);
	if (tid >= 0)
		thread_join(tid);
	unsigned done = ys.side[0].n + ys.side[1].n;
	if (tid >= 0 && ys.ready > 0) {
		printf("sysbench: yield_one_cpu: %u of %u yields switched to the other thread\n",
		       done, 2 * YIELD_ROUNDS);
		/* The last yield has nobody left to switch to. */
		if (done + 1 < 2 * YIELD_ROUNDS) {
			printf("sysbench: yield_one_cpu: the threads did not alternate\n");
			err = -1;
		}
	} else if (err == 0)
		err = tid < 0 ? tid : -1;
	if (err == 0) {
		samples_append(&ys.side[0], &ys.side[1]);
		report("yield_one_cpu", &ys.side[0], "per switch", REGION_SYS_YIELD,
		       2 * YIELD_ROUNDS);
	}
	samples_free(&ys.side[0]);
	samples_free(&ys.side[1]);
	return err;
}

/* ---- process_switch --------------------------------------------------- */

/*
 * The parent posts semaphore A and waits on B; the child (`sysbench
 * --pong A B N`, pinned to the same CPU) waits on A and posts B.  One
 * round trip is two process switches; one way is half of it.  After the
 * last round the child waits on A once more, so that its exit (which the
 * parent's CPU would run before the parent) falls outside the timing.
 * The postwait rows (`--pong A B N pw`) play the same game with one call
 * per turn, sem_post_wait: the poster is known to wait next, so the
 * kernel can switch straight to the partner (semdirect=on).
 */
int pong_main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int a = atoi(argv[0]), b = atoi(argv[1]), n = atoi(argv[2]);
	bool pw = argc > 3 && strcmp(argv[3], "pw") == 0;
	if (pin_self(BENCH_CPU) < 0 || sys_sem_post(b) < 0)
		return 1;
	if (pw) {
		if (sys_sem_wait(a) < 0)
			return 1;
		for (int i = 0; i < n; i++)
			if (sys_sem_post_wait(b, a) < 0)
				return 1;
		return 0;
	}
	for (int i = 0; i < n; i++)
		if (sys_sem_wait(a) < 0 || sys_sem_post(b) < 0)
			return 1;
	return sys_sem_wait(a) < 0 ? 1 : 0;
}

static int spawn_pong(int a, int b, bool pw)
{
	char sa[16], sb[16], sn[16];
	char *argv[] = { "sysbench", "--pong", sa, sb, sn, pw ? "pw" : NULL, NULL };

	snprintf(sa, sizeof sa, "%d", a);
	snprintf(sb, sizeof sb, "%d", b);
	snprintf(sn, sizeof sn, "%d", PINGPONG_ROUNDS);
	return spawnv("sysbench", argv);
}

/* The timed rounds; the child has said it is ready (pinned). */
static int pingpong(int a, int b, struct samples *rt, struct samples *ow)
{
	for (int i = 0; i < PINGPONG_ROUNDS; i++) {
		region_begin(REGION_SYS_PROCESS_SWITCH);
		uint64_t t0 = tsc_now();
		long r = sys_sem_post(a);
		if (r >= 0)
			r = sys_sem_wait(b);
		uint64_t t1 = tsc_now();
		region_end(REGION_SYS_PROCESS_SWITCH);
		if (r < 0)
			return fail("sem_post/sem_wait", r);
		samples_add(rt, t1 - t0);
		samples_add(ow, (t1 - t0) / 2);
	}
	return 0;
}

/* The same with one sem_post_wait a turn (a region marker is a constant,
 * so the loop is a second one). */
static int pingpong_pw(int a, int b, struct samples *rt, struct samples *ow)
{
	for (int i = 0; i < PINGPONG_ROUNDS; i++) {
		region_begin(REGION_SYS_PROCESS_SWITCH_PW);
		uint64_t t0 = tsc_now();
		long r = sys_sem_post_wait(a, b);
		uint64_t t1 = tsc_now();
		region_end(REGION_SYS_PROCESS_SWITCH_PW);
		if (r < 0)
			return fail("sem_post_wait", r);
		samples_add(rt, t1 - t0);
		samples_add(ow, (t1 - t0) / 2);
	}
	return 0;
}

/* Spawn the partner, play, collect it; the semaphores exist. */
static int pingpong_with_child(int a, int b, bool pw, struct samples *rt, struct samples *ow)
{
	int status = 0, pid = spawn_pong(a, b, pw);
	if (pid < 0)
		return fail("spawn sysbench --pong", pid);
	long r = sys_sem_wait(b);
	int err = r < 0 ? fail("sem_wait", r) :
		  pw ? pingpong_pw(a, b, rt, ow) : pingpong(a, b, rt, ow);
	if (err == 0 && (r = sys_sem_post(a)) < 0)
		err = fail("sem_post", r);   /* the child's leave to end */
	if (err < 0)
		sys_sem_destroy(a);          /* the child's wait fails: it ends */
	r = waitpid(pid, &status);
	if (r < 0)
		return fail("wait", r);
	if (err == 0 && status != 0) {
		printf("sysbench: sysbench --pong ended with status 0x%x\n", status);
		err = -1;
	}
	return err;
}

/* One game of PINGPONG_ROUNDS on fresh semaphores; its two rows reported. */
static int process_switch_game(bool pw)
{
	struct samples rt, ow;
	int err = samples_init(&rt, PINGPONG_ROUNDS);

	if (err < 0)
		return err;
	if ((err = samples_init(&ow, PINGPONG_ROUNDS)) < 0) {
		samples_free(&rt);
		return err;
	}
	long a = sys_sem_create(0), b = a < 0 ? a : sys_sem_create(0);
	if (a < 0 || b < 0)
		err = fail("sem_create", a < 0 ? a : b);
	else
		err = pingpong_with_child((int)a, (int)b, pw, &rt, &ow);
	if (a >= 0)
		sys_sem_destroy((int)a);
	if (b >= 0)
		sys_sem_destroy((int)b);
	if (err == 0 && pw) {
		report("process_switch_postwait_oneway", &ow, "per switch, round trip / 2, sem_post_wait",
		       REGION_SYS_PROCESS_SWITCH_PW, 2ul * ow.n);
		report("process_switch_postwait_roundtrip", &rt, "per sem_post_wait round trip",
		       REGION_SYS_PROCESS_SWITCH_PW, rt.n);
	} else if (err == 0) {
		report("process_switch_oneway", &ow, "per switch, round trip / 2",
		       REGION_SYS_PROCESS_SWITCH, 2ul * ow.n);
		report("process_switch_roundtrip", &rt, "per post + wait round trip",
		       REGION_SYS_PROCESS_SWITCH, rt.n);
	}
	samples_free(&rt);
	samples_free(&ow);
	return err;
}

int bench_process_switch(void)
{
	int err = pin_self(BENCH_CPU);

	if (err == 0)
		err = process_switch_game(false);
	if (err == 0)
		err = process_switch_game(true);
	return err;
}
