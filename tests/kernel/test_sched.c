/*
 * test_sched.c — self-tests of the scheduler: threads running on every
 * CPU at once, migration, affinity, priority preemption, time slices,
 * load spreading, published per-CPU state, join and exit codes.
 */
#include <stdint.h>
#include <cpu.h>
#include <ktest.h>
#include <sched.h>
#include <smp.h>
#include <thread.h>
#include <time.h>
#include <arch/arch.h>

static volatile int arrived;
static volatile int ran_on[MAX_CPUS];

/* Each pinned thread waits until all have arrived: they must run at once. */
static void rendezvous(void *arg)
{
	int me = (int)(uint64_t)arg;
	ran_on[me] = cpu_id();
	__atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
	uint64_t deadline = arch_tsc() + ns_to_tsc(500000000);
	while (arrived < ncpus && arch_tsc() < deadline)
		arch_spin_hint();
	thread_exit(arrived == ncpus ? 0 : 1);
}

TEST(threads_run_concurrently_on_all_cpus)
{
	struct thread *t[MAX_CPUS];
	arrived = 0;
	for (int c = 0; c < ncpus; c++) {
		ran_on[c] = -1;
		t[c] = thread_create("rendezvous", rendezvous, (void *)(uint64_t)c, PRIO_DEFAULT + 1, 1ull << c);
		CHECK(t[c], "thread_create");
		thread_start(t[c]);
	}
	int bad = 0;
	for (int c = 0; c < ncpus; c++)
		bad += thread_join(t[c]);
	CHECK(bad == 0, "%d threads never saw all %d together", bad, ncpus);
	for (int c = 0; c < ncpus; c++)
		CHECK(ran_on[c] == c, "thread pinned to %d ran on %d", c, ran_on[c]);
	return 0;
}

static void walk_cpus(void *arg)
{
	for (int round = 0; round < 3; round++)
		for (int k = ncpus - 1; k >= 0; k--) {
			if (sched_migrate(k) != 0 || cpu_id() != k)
				thread_exit(100 + k);
		}
	thread_exit(sched_migrate(ncpus) == 0 ? 1 : 0);   /* bad target must fail */
}

TEST(migration_moves_running_thread)
{
	struct thread *t = thread_spawn("walker", walk_cpus, NULL, PRIO_DEFAULT);
	CHECK(t, "spawn");
	int code = thread_join(t);
	CHECK(code == 0, "walker exit %d (100+k: not on cpu k after migrate)", code);
	return 0;
}

static void stay_put(void *arg)
{
	int want = (int)(uint64_t)arg;
	for (int i = 0; i < 20; i++) {
		if (cpu_id() != want)
			thread_exit(1);
		if (i & 1)
			sched_yield();
		else
			thread_sleep_ns(1000000);
	}
	thread_exit(0);
}

TEST(affinity_pins_thread)
{
	int last = ncpus - 1;
	struct thread *t = thread_create("pinned", stay_put, (void *)(uint64_t)last, PRIO_DEFAULT, 1ull << last);
	CHECK(t, "create");
	thread_start(t);
	CHECK(thread_join(t) == 0, "pinned thread ran off cpu %d", last);
	CHECK(sched_set_affinity(thread_current(), 0) < 0, "empty affinity accepted");
	return 0;
}

static volatile int hi_ran;
static volatile uint64_t lo_loops_at_hi;
static volatile uint64_t lo_loops;

static void low_spinner(void *unused)
{
	uint64_t deadline = arch_tsc() + ns_to_tsc(200000000);
	while (!hi_ran && arch_tsc() < deadline)
		lo_loops++;
}

static void high_marker(void *unused)
{
	lo_loops_at_hi = lo_loops;
	hi_ran = 1;
}

/* A higher-priority thread made runnable on a busy CPU runs before its slice ends. */
TEST(priority_preempts)
{
	int cpu = ncpus - 1;
	hi_ran = 0;
	lo_loops = 0;
	struct thread *lo = thread_create("low", low_spinner, NULL, 2, 1ull << cpu);
	struct thread *hi = thread_create("high", high_marker, NULL, 20, 1ull << cpu);
	CHECK(lo && hi, "create");
	thread_start(lo);
	while (lo_loops < 1000)
		thread_sleep_ns(100000);
	uint64_t t0 = arch_tsc();
	thread_start(hi);
	thread_join(hi);
	uint64_t waited = tsc_to_ns(arch_tsc() - t0);
	thread_join(lo);
	CHECK(hi_ran, "high-priority thread never ran");
	CHECK(waited < tick_ns, "high-priority thread waited %lu ns (tick %lu)", waited, tick_ns);
	return 0;
}

static volatile uint64_t rr_count[2];
static volatile int rr_stop;

static void rr_spinner(void *arg)
{
	int me = (int)(uint64_t)arg;
	while (!rr_stop)
		rr_count[me]++;
}

/* Two equal-priority CPU hogs on one CPU both progress: time slices. */
TEST(time_slices_share_cpu)
{
	int cpu = ncpus - 1;
	rr_stop = 0;
	rr_count[0] = rr_count[1] = 0;
	struct thread *a = thread_create("rr-a", rr_spinner, (void *)0, PRIO_DEFAULT, 1ull << cpu);
	struct thread *b = thread_create("rr-b", rr_spinner, (void *)1, PRIO_DEFAULT, 1ull << cpu);
	CHECK(a && b, "create");
	thread_start(a);
	thread_start(b);
	thread_sleep_ns(8 * tick_ns);
	rr_stop = 1;
	thread_join(a);
	thread_join(b);
	CHECK(rr_count[0] > 0 && rr_count[1] > 0, "counts %lu and %lu", rr_count[0], rr_count[1]);
	return 0;
}

static volatile uint64_t spread_mask;

/*
 * The pause matters under QEMU 7.2 icount: its round-robin vCPU loop lets
 * a vCPU in a pure compute loop run to the next timer deadline again and
 * again, and a vCPU later in the order can get no instructions at all for
 * tens of milliseconds (see docs/design/qemu.md).  This test is about the
 * kernel's balancing, so its workers give the emulator a chance to switch.
 */
static void spread_worker(void *unused)
{
	uint64_t end = arch_tsc() + ns_to_tsc(3 * tick_ns);
	while (arch_tsc() < end) {
		__atomic_fetch_or(&spread_mask, 1ull << cpu_id(), __ATOMIC_RELAXED);
		arch_spin_hint();
	}
}

/* More CPU hogs than CPUs, all unpinned: every CPU ends up running some. */
TEST(load_spreads_over_cpus)
{
	struct thread *t[2 * MAX_CPUS];
	int n = 2 * ncpus;
	spread_mask = 0;
	for (int i = 0; i < n; i++) {
		t[i] = thread_spawn("spread", spread_worker, NULL, PRIO_DEFAULT);
		CHECK(t[i], "spawn");
	}
	for (int i = 0; i < n; i++)
		thread_join(t[i]);
	uint64_t want = smp_online_mask();
	CHECK(spread_mask == want, "work ran on cpus %lx of %lx", spread_mask, want);
	return 0;
}

static volatile int busy_stop;

static void busy_pinned(void *unused)
{
	while (!busy_stop)
		arch_spin_hint();
}

/* The cheap per-CPU view other CPUs read: idle flag and running priority. */
TEST(percpu_state_published)
{
	if (ncpus < 2)
		SKIP("needs 2 CPUs");
	struct thread *self = thread_current();
	sched_set_affinity(self, 1ull << 0);  /* stay off the CPU we watch */
	int cpu = ncpus - 1;
	thread_sleep_ns(2 * tick_ns);
	bool rest_idle = cpus[cpu].idle && cpus[cpu].cur_prio == PRIO_IDLE;
	if (!rest_idle)
		sched_set_affinity(self, ~0ull);
	CHECK(rest_idle, "cpu %d not idle at rest", cpu);
	busy_stop = 0;
	struct thread *t = thread_create("busy", busy_pinned, NULL, 13, 1ull << cpu);
	CHECK(t, "create");
	thread_start(t);
	thread_sleep_ns(tick_ns);
	bool idle = cpus[cpu].idle;
	int prio = cpus[cpu].cur_prio;
	busy_stop = 1;
	thread_join(t);
	sched_set_affinity(self, ~0ull);
	CHECK(!idle && prio == 13, "cpu %d shows idle %d prio %d while running prio 13", cpu, idle, prio);
	return 0;
}

static void exit_with(void *arg)
{
	thread_exit((int)(uint64_t)arg);
}

TEST(join_returns_exit_code)
{
	for (int i = 0; i < 50; i++) {
		struct thread *t = thread_spawn("exiter", exit_with, (void *)(uint64_t)i, PRIO_DEFAULT);
		CHECK(t, "spawn %d", i);
		CHECK(thread_join(t) == i, "exit code mismatch at %d", i);
	}
	return 0;
}

/* ---- switch counting (sched.h's switch_count) ----------------------------- */

#define PARTY_YIELDS 100

static volatile int party_arrived;

/* Wait (yielding) until both threads are there, then yield PARTY_YIELDS times. */
static void party_yielder(void *arg)
{
	__atomic_fetch_add(&party_arrived, 1, __ATOMIC_SEQ_CST);
	uint64_t deadline = arch_tsc() + ns_to_tsc(500000000);
	while (party_arrived < 2 && arch_tsc() < deadline)
		sched_yield();
	for (int i = 0; i < PARTY_YIELDS; i++)
		sched_yield();
	thread_exit(party_arrived == 2 ? 0 : 1);
}

/* Two threads of the given parties yield to each other on one CPU; 0 when both saw the other. */
static int yield_pair(struct switch_count *a, struct switch_count *b, int cpu)
{
	struct thread *t[2];
	struct switch_count *party[2] = { a, b };
	party_arrived = 0;
	for (int i = 0; i < 2; i++) {
		t[i] = thread_create("party", party_yielder, NULL, PRIO_DEFAULT + 1, 1ull << cpu);
		if (!t[i])
			return -1;
		t[i]->switches = party[i];
	}
	thread_start(t[0]);
	thread_start(t[1]);
	return thread_join(t[0]) + thread_join(t[1]);
}

TEST(switches_counted_between_parties_not_within_one)
{
	if (ncpus < 2)
		SKIP("needs a second CPU for the two threads");
	int cpu = (cpu_id() + 1) % ncpus;
	struct switch_count a = { 0 }, b = { 0 };
	CHECK_EQ(yield_pair(&a, &a, cpu), 0);
	/* ~2 * PARTY_YIELDS switches, all between a's own threads: only entering
	 * and leaving the party count (a stray interrupt thread may add a few). */
	CHECK(a.in <= 4 && a.out <= 4, "one party's threads: %lu in, %lu out", a.in, a.out);
	CHECK(a.in == a.out, "one party: %lu in, %lu out", a.in, a.out);
	a = (struct switch_count){ 0 };
	CHECK_EQ(yield_pair(&a, &b, cpu), 0);
	CHECK(a.out >= PARTY_YIELDS && b.in >= PARTY_YIELDS, "a out %lu, b in %lu", a.out, b.in);
	CHECK(a.in + b.in == a.out + b.out, "in %lu + %lu, out %lu + %lu", a.in, b.in, a.out, b.out);
	CHECK(a.as == 0 && b.as == 0, "kernel threads change no address space: %lu, %lu", a.as, b.as);
	return 0;
}
