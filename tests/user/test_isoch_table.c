/*
 * tests/user/test_isoch_table.c — the reserved schedule (booted with
 * isoch=table, kernel/sched/isoch_table.c): three continuous-media
 * threads on each of two CPUs, compute hogs on every CPU, miss no release
 * and overrun none; a thread that never ends its job runs its budget in
 * every period and no more; START, STOP, DESTROY and a periodic process's
 * exit rebuild the CPU's table (its hyperperiod follows the started
 * threads) and every table is freed once no thread is started; a set
 * whose table is too big is refused at START with -ENOSPC and the others
 * go on.  Skipped, with the reason, in a boot without isoch=table (the
 * generic isoch tests, test_isoch.c, run in both).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <hako/thread.h>
#include <arch/tsc.h>

#define MAXC 4
#define MEDIA 3                          /* periodic threads per CPU */
#define PERIODS 10                       /* of the longest period */

/* Audio (2 ms, 300 us), video (5 ms, 1 ms), a control loop (10 ms, 1.5 ms):
 * 50 % of the CPU, a 10 ms hyperperiod. */
static const uint64_t media_period[MEDIA] = { 2000000, 5000000, 10000000 };
static const uint64_t media_budget[MEDIA] = { 300000, 1000000, 1500000 };

static long make_periodic(int tid, int cpu, uint64_t period, uint64_t budget)
{
	struct hako_isoch st = { .period_ns = period, .budget_ns = budget, .cpu = cpu };
	return sys_isoch_ctl(HAKO_ISOCH_CREATE, tid, &st);
}

/* NULL when booted with isoch=table, else why not. */
static const char *table_mode(void)
{
	struct hako_isoch st;
	if (make_periodic(0, 0, 10000000, 100000) < 0)
		return "cannot make a periodic thread";
	long r = sys_isoch_ctl(HAKO_ISOCH_INFO, 0, &st);
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
	return r == 0 && st.mode == HAKO_ISOCH_MODE_TABLE ? NULL : "booted without isoch=table";
}

/* The reserved schedules allocated now, all CPUs (a fresh thread's INFO). */
static int64_t tables_live(void)
{
	struct hako_isoch st;
	if (make_periodic(0, 0, 10000000, 100000) < 0)
		return -1;
	long r = sys_isoch_ctl(HAKO_ISOCH_INFO, 0, &st);
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
	return r == 0 ? (int64_t)st.tables_live : -1;
}

static volatile int stop_hogs;
static volatile uint64_t hog_count[MAXC];

static void hog(void *arg)
{
	int cpu = (int)(long)arg;
	sys_set_affinity(0, 1ull << cpu);
	while (!stop_hogs) {
		hog_count[cpu]++;
		cpu_pause();
	}
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = tsc_now() + ns;   /* TSC = ns under icount */
	while (tsc_now() < end)
		cpu_pause();
}

struct media_job {
	int cpu, k, periods;
	long err;
	struct hako_isoch st;
};

/* A job of 60 % of the budget each period. */
static void media_thread(void *arg)
{
	struct media_job *j = arg;
	j->err = make_periodic(0, j->cpu, media_period[j->k], media_budget[j->k]);
	if (!j->err)
		j->err = sys_isoch_ctl(HAKO_ISOCH_START, 0, NULL);
	for (int i = 0; !j->err && i < j->periods; i++) {
		spin_ns(media_budget[j->k] * 6 / 10);
		long r = sys_isoch_wait();
		if (r < 0)
			j->err = r;
	}
	if (!j->err)
		j->err = sys_isoch_ctl(HAKO_ISOCH_INFO, 0, &j->st);
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
}

TEST_NEEDS(isoch_table_no_missed_release_with_hogs_on_two_cpus, table_mode)
{
	int n = online_cpus() < MAXC ? online_cpus() : MAXC, cpus = 2;
	int hogs[MAXC], tids[2 * MEDIA];
	static struct media_job jobs[2 * MEDIA];
	CHECK(n >= 3, "needs 3 CPUs, has %d", n);
	stop_hogs = 0;
	for (int c = 0; c < n; c++) {
		hog_count[c] = 0;
		hogs[c] = thread_start(hog, (void *)(long)c);
		CHECK(hogs[c] > 0, "thread_start %d", hogs[c]);
	}
	for (int i = 0; i < cpus * MEDIA; i++) {
		int k = i % MEDIA;
		jobs[i] = (struct media_job){ .cpu = 1 + i / MEDIA, .k = k,
					      .periods = PERIODS * (int)(media_period[MEDIA - 1] / media_period[k]) };
		tids[i] = thread_start(media_thread, &jobs[i]);
		CHECK(tids[i] > 0, "thread_start %d", tids[i]);
	}
	for (int i = 0; i < cpus * MEDIA; i++)
		CHECK_EQ(thread_join(tids[i]), 0);
	stop_hogs = 1;
	for (int c = 0; c < n; c++)
		CHECK_EQ(thread_join(hogs[c]), 0);
	for (int i = 0; i < cpus * MEDIA; i++) {
		struct hako_isoch *s = &jobs[i].st;
		printf("selftest: isoch table cpu %d thread %d: releases %" PRIu64 " completions %" PRIu64
		       " overruns %" PRIu64 " missed %" PRIu64 " latency max %" PRIu64 " ns, table %u entries, "
		       "hyperperiod %" PRIu64 " ns\n", jobs[i].cpu, jobs[i].k, s->releases, s->completions,
		       s->overruns, s->missed, s->lat_max_ns, s->table_len, s->hyper_ns);
		CHECK_EQ(jobs[i].err, 0);
		CHECK_EQ(s->mode, HAKO_ISOCH_MODE_TABLE);
		CHECK_EQ(s->missed, 0);
		CHECK_EQ(s->overruns, 0);
		/* The first wait may come before the first release (a table
		 * in force only from the end of the current hyperperiod). */
		CHECK(s->completions + 1 >= (uint64_t)jobs[i].periods, "%" PRIu64 " completions", s->completions);
		/* A job starts by its period less its budget (EDF keeps its
		 * deadline), woken within 20 us of its entry. */
		CHECK(s->lat_max_ns <= media_period[jobs[i].k] - media_budget[jobs[i].k] + 20000,
		      "latency %" PRIu64 " ns", s->lat_max_ns);
	}
	for (int c = 0; c < n; c++)
		CHECK(hog_count[c] > 0, "the hog on cpu %d never ran", c);
	CHECK_EQ(tables_live(), 0);
	return 0;
}

/* A job that never ends: it runs in its reservations only.  The loop adds
 * up the time between two of its readings that are close (it ran), over
 * WINDOW periods. */
#define GREEDY_PERIOD 2000000ull
#define GREEDY_BUDGET 500000ull
#define GREEDY_WINDOW 20
static volatile uint64_t greedy_ran, greedy_span;
static volatile int greedy_done;

static void greedy(void *arg)
{
	int cpu = (int)(long)arg;
	if (make_periodic(0, cpu, GREEDY_PERIOD, GREEDY_BUDGET) < 0 ||
	    sys_isoch_ctl(HAKO_ISOCH_START, 0, NULL) < 0) {
		greedy_done = -1;
		return;
	}
	sys_isoch_wait();                 /* from a release on */
	uint64_t first = tsc_now(), last = first, ran = 0;
	while (last - first < GREEDY_WINDOW * GREEDY_PERIOD) {
		uint64_t now = tsc_now();
		if (now - last < 5000)
			ran += now - last;
		last = now;
		cpu_pause();
	}
	greedy_ran = ran;
	greedy_span = last - first;
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
	greedy_done = 1;
}

TEST_NEEDS(isoch_table_gives_a_greedy_thread_its_budget_and_no_more, table_mode)
{
	int cpu = online_cpus() < MAXC ? online_cpus() - 1 : MAXC - 1, hogs[1];
	stop_hogs = 0;
	greedy_done = 0;
	hog_count[cpu] = 0;
	hogs[0] = thread_start(hog, (void *)(long)cpu);
	CHECK(hogs[0] > 0, "thread_start %d", hogs[0]);
	int g = thread_start(greedy, (void *)(long)cpu);
	CHECK(g > 0, "thread_start %d", g);
	CHECK_EQ(thread_join(g), 0);
	stop_hogs = 1;
	CHECK_EQ(thread_join(hogs[0]), 0);
	CHECK_EQ(greedy_done, 1);
	uint64_t want = greedy_span / GREEDY_PERIOD * GREEDY_BUDGET;
	printf("selftest: isoch table greedy: ran %" PRIu64 " ns of %" PRIu64 " ns, reserved %" PRIu64
	       " ns\n", greedy_ran, greedy_span, want);
	CHECK(greedy_ran >= want * 95 / 100 && greedy_ran <= want * 105 / 100 + GREEDY_BUDGET,
	      "ran %" PRIu64 " ns, reserved %" PRIu64 " ns", greedy_ran, want);
	CHECK(hog_count[cpu] > 0, "the hog never ran");
	return 0;
}

/* A periodic thread that ends each job at once until told to stop. */
static volatile int waiters_go;

static void waiter(void *arg)
{
	(void)arg;
	while (!waiters_go)
		if (sys_isoch_wait() < 0)
			sleep_ms(1);
}

static int64_t hyper_of(int tid)
{
	struct hako_isoch st;
	return sys_isoch_ctl(HAKO_ISOCH_INFO, tid, &st) == 0 ? (int64_t)st.hyper_ns : -1;
}

UROLE(isoch_table_forever)
{
	if (make_periodic(0, 2, 3000000, 100000) < 0 || sys_isoch_ctl(HAKO_ISOCH_START, 0, NULL) < 0)
		return 1;
	for (;;)
		sys_isoch_wait();
}

TEST_NEEDS(isoch_table_is_rebuilt_by_start_stop_destroy_and_exit_and_freed, table_mode)
{
	int cpu = 2;
	CHECK(online_cpus() > cpu, "needs %d CPUs", cpu + 1);
	CHECK_EQ(tables_live(), 0);
	waiters_go = 0;
	int a = thread_start(waiter, NULL), b = thread_start(waiter, NULL);
	CHECK(a > 0 && b > 0, "thread_start %d %d", a, b);
	CHECK_EQ(make_periodic(a, cpu, 1000000, 100000), 0);
	CHECK_EQ(make_periodic(b, cpu, 1500000, 100000), 0);
	CHECK_EQ(hyper_of(a), 0);                          /* created, not started: no table */
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, a, NULL), 0);
	CHECK_EQ(hyper_of(a), 1000000);                    /* the first table: at once */
	CHECK_EQ(tables_live(), 1);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, b, NULL), 0);
	sleep_ms(3);                                       /* from the end of a's hyperperiod */
	CHECK_EQ(hyper_of(a), 3000000);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_STOP, a, NULL), 0);
	sleep_ms(4);
	CHECK_EQ(hyper_of(b), 1500000);
	CHECK_EQ(tables_live(), 1);                        /* the old one freed */
	/* a process's exit rebuilds it too */
	int pid = spawn_role("isoch_table_forever", NULL);
	CHECK(pid > 0, "spawn %d", pid);
	sleep_ms(10);
	CHECK_EQ(hyper_of(b), 3000000);
	int status = kill_after(pid, 1);
	CHECK(status >= 0, "kill_after %d", status);
	sleep_ms(4);
	CHECK_EQ(hyper_of(b), 1500000);
	/* DESTROY of the last started thread: no table left */
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_DESTROY, b, NULL), 0);
	CHECK_EQ(hyper_of(a), 0);
	CHECK_EQ(tables_live(), 0);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_DESTROY, a, NULL), 0);
	waiters_go = 1;
	CHECK_EQ(thread_join(a), 0);
	CHECK_EQ(thread_join(b), 0);
	CHECK_EQ(tables_live(), 0);
	return 0;
}

TEST_NEEDS(isoch_table_too_big_is_refused_at_start, table_mode)
{
	int cpu = 2;
	CHECK(online_cpus() > cpu, "needs %d CPUs", cpu + 1);
	waiters_go = 0;
	int a = thread_start(waiter, NULL), b = thread_start(waiter, NULL), c = thread_start(waiter, NULL);
	CHECK(a > 0 && b > 0 && c > 0, "thread_start %d %d %d", a, b, c);
	/* Periods 100 us and 199.9 us: 3,000 jobs in a hyperperiod of 0.2 s,
	 * more entries than a table holds. */
	CHECK_EQ(make_periodic(a, cpu, 10000000, 100000), 0);
	CHECK_EQ(make_periodic(b, cpu, 100000, 10000), 0);
	CHECK_EQ(make_periodic(c, cpu, 199900, 10000), 0);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, b, NULL), 0);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, c, NULL), -ENOSPC);
	struct hako_isoch st;
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_INFO, c, &st), 0);
	CHECK_EQ(st.started, 0);
	CHECK_EQ(st.hyper_ns, 100000);                     /* b's alone */
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_STOP, b, NULL), 0);
	/* Two periods whose lcm is over 10 s (two primes near 10 ms). */
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_DESTROY, c, NULL), 0);
	CHECK_EQ(make_periodic(c, cpu, 9999991, 100000), 0);
	CHECK_EQ(make_periodic(b, cpu, 9999973, 100000), -EBUSY);   /* periodic already */
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_DESTROY, b, NULL), 0);
	CHECK_EQ(make_periodic(b, cpu, 9999973, 100000), 0);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, b, NULL), 0);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, c, NULL), -ENOSPC);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_START, 12345, NULL), -ESRCH);
	CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_STOP + 10, b, NULL), -EINVAL);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(sys_isoch_ctl(HAKO_ISOCH_DESTROY, i == 0 ? a : i == 1 ? b : c, NULL), 0);
	waiters_go = 1;
	CHECK_EQ(thread_join(a), 0);
	CHECK_EQ(thread_join(b), 0);
	CHECK_EQ(thread_join(c), 0);
	CHECK_EQ(tables_live(), 0);
	return 0;
}
