/*
 * sysbench/bench_wake.c — cross_cpu_wakeup: how long a semaphore post on
 * one CPU takes to bring a thread sleeping on another CPU back to user mode.
 *
 * A thread pinned to WAKE_CPU waits on semaphore GO.  Once that CPU is
 * idle (so the thread is asleep, not on its way to sleep), the main thread
 * on BENCH_CPU reads the TSC and posts GO; the woken thread reads the TSC
 * when sys_sem_wait returns, stores the difference and counts the round.
 * Under QEMU icount every vCPU reads the same virtual clock, so the two
 * readings compare.  The region is global, from before the post to after
 * the sleeper's TSC read, like the figure: under icount the TSC counts
 * every CPU's instructions.
 *
 * The main thread waits for that count with `pause`, not by blocking:
 * QEMU 7.2 runs the vCPUs one at a time and leaves BENCH_CPU only when it
 * halts or pauses, so a main thread going to sleep would put its own way
 * into the idle loop inside every figure (measured: 2,260 ticks that way
 * against 1,148 with `pause`, most of the difference on BENCH_CPU).
 */
#include <stdio.h>
#include <hako/sys.h>
#include <hako/region.h>
#include <hako/thread.h>
#include "sysbench.h"
#include <arch/tsc.h>

#define WAKE_ROUNDS	1000

static struct {
	int go, ready;
	volatile uint64_t posted, delta;
	volatile unsigned woken;         /* rounds the sleeper has finished */
	volatile long err;
} ws;

static void sleeper(void *arg)
{
	(void)arg;
	if (pin_self(WAKE_CPU) < 0)
		ws.err = -1;
	sys_sem_post(ws.ready);          /* ready, or failed */
	for (int i = 0; i < WAKE_ROUNDS && ws.err == 0; i++) {
		long r = sys_sem_wait(ws.go);
		uint64_t now = tsc_now();
		region_global_end(REGION_SYS_CROSS_CPU_WAKEUP);
		if (r < 0)
			ws.err = r;
		else
			ws.delta = now - ws.posted;
		__atomic_store_n(&ws.woken, ws.woken + 1, __ATOMIC_RELEASE);
	}
}

/* 1 if CPU runs its idle thread, 0 if not, or a negative errno. */
static int cpu_idle(int cpu)
{
	struct hako_cpustat st;
	long r = sys_cpustat(cpu, &st);

	return r < 0 ? (int)r : st.idle != 0;
}

/* Wait, with `pause`, until CPU has gone idle. */
static int wait_idle(int cpu)
{
	int r;

	while ((r = cpu_idle(cpu)) == 0)
		cpu_pause();
	return r < 0 ? fail("cpustat", r) : 0;
}

static int wake_rounds(struct samples *s)
{
	for (int i = 0; i < WAKE_ROUNDS; i++) {
		int err = wait_idle(WAKE_CPU);
		if (err < 0)
			return err;
		unsigned woken = ws.woken;
		region_global_begin(REGION_SYS_CROSS_CPU_WAKEUP);
		ws.posted = tsc_now();
		long r = sys_sem_post(ws.go);
		if (r < 0)
			return fail("sem_post", r);
		while (__atomic_load_n(&ws.woken, __ATOMIC_ACQUIRE) == woken)
			cpu_pause();
		if (ws.err != 0)
			return fail("the sleeper's sem_wait", ws.err);
		samples_add(s, ws.delta);
	}
	return 0;
}

/* With the semaphores made: start the sleeper, time, collect it. */
static int wake_with_sleeper(struct samples *s)
{
	int tid = thread_start(sleeper, NULL);
	if (tid < 0)
		return fail("thread_start", tid);
	long r = sys_sem_wait(ws.ready);
	int err = r < 0 ? fail("sem_wait", r) : ws.err != 0 ? -1 : wake_rounds(s);
	if (err < 0) {
		ws.err = err;
		sys_sem_destroy(ws.go);      /* a sleeper still waiting gets -EINVAL */
	}
	thread_join(tid);
	return err;
}

int bench_cross_cpu(void)
{
	struct samples s;
	int err;

	if (online_cpus() < 2) {
		printf("sysbench: cross_cpu_wakeup needs 2 CPUs, this machine has 1\n");
		return BENCH_SKIPPED;
	}
	ws.err = 0;
	ws.woken = 0;
	if ((err = pin_self(BENCH_CPU)) < 0 || (err = samples_init(&s, WAKE_ROUNDS)) < 0)
		return err;
	long go = sys_sem_create(0), ready = go < 0 ? go : sys_sem_create(0);
	if (go < 0 || ready < 0)
		err = fail("sem_create", go < 0 ? go : ready);
	else {
		ws.go = (int)go;
		ws.ready = (int)ready;
		err = wake_with_sleeper(&s);
	}
	if (go >= 0)
		sys_sem_destroy((int)go);
	if (ready >= 0)
		sys_sem_destroy((int)ready);
	if (err == 0)
		report("cross_cpu_wakeup", &s, "from sem_post on cpu 0 to sem_wait's return on cpu 1",
		       REGION_SYS_CROSS_CPU_WAKEUP, s.n);
	samples_free(&s);
	return err;
}
