/*
 * test_pack.c — self-tests of interrupt packaging (kernel/intr/) with
 * software devices: each fake source has a status "register" that its
 * ack reads and clears, and is raised by a self-IPI on its own vector, so
 * the tests need no hardware and run in every boot.  They check the
 * sequential path, batches at N, at T, at the tick, on an urgent
 * interrupt (also on a line shared with a packed source) and on a mode
 * switch, the batch's order (by type, then by arrival; by arrival alone
 * with grouping off) and the batch statistics, the adaptive choice of N,
 * and that the counters balance.
 */
#include <stdbool.h>
#include <stdint.h>
#include <arch/arch.h>
#include <cpu.h>
#include <errno.h>
#include <intr.h>
#include <intr_pack.h>
#include <ktest.h>
#include <sched.h>
#include <smp.h>
#include <thread.h>
#include <time.h>

#define FAKES   3
#define LOG_MAX 128

struct fake {
	struct intr_src src;
	volatile uint32_t reg;           /* the device's status: what ack returns */
};

static struct fake fakes[FAKES] = {
	{ .src = { .name = "fake-a.0", .type = "fake-a" } },
	{ .src = { .name = "fake-a.1", .type = "fake-a" } },
	{ .src = { .name = "fake-b.0", .type = "fake-b" } },
};
static bool added;
static uint32_t log[LOG_MAX];        /* data of the main handlers, in the order they ran */
static volatile int nlog;

static uint32_t fake_ack(struct intr_src *s)
{
	struct fake *f = s->priv;
	uint32_t v = f->reg;
	f->reg = 0;
	return v;
}

static void fake_work(struct intr_src *s, uint32_t data)
{
	if (nlog < LOG_MAX)
		log[nlog] = data;
	nlog++;
}

/* Every fake attached to a vector of its own on this CPU (the test stays here). */
static int setup(void)
{
	sched_set_affinity(thread_current(), 1ull << cpu_id());
	for (int i = 0; i < FAKES; i++) {
		struct intr_src *s = &fakes[i].src;
		if (!added) {
			s->ack = fake_ack;
			s->work = fake_work;
			s->priv = &fakes[i];
			CHECK(intr_pack_add(s) >= 0, "no room in the registry");
		}
		int v = intr_alloc_vector();
		CHECK(v > 0, "no vector: %d", v);
		intr_register(v, intr_pack_unclaimed, NULL, "fake");
		CHECK(intr_pack_attach(s, v, -1, cpu_id()) == 0, "attach failed");
	}
	added = true;
	nlog = 0;
	return 0;
}

static void teardown(void)
{
	struct hako_intr_set seq = { .mode = HAKO_INTR_SEQUENTIAL };
	for (int i = 0; i < FAKES; i++) {
		int v = fakes[i].src.vector;
		intr_pack_configure(&fakes[i].src, &seq);
		intr_pack_detach(&fakes[i].src);
		intr_release(v);
	}
	sched_set_affinity(thread_current(), ~0ull);
}

/* The device sets its status and interrupts; wait until ack has taken it. */
static void raise_irq(int i, uint32_t data)
{
	fakes[i].reg = data;
	smp_send_ipi(cpu_id(), fakes[i].src.vector);
	while (fakes[i].reg)
		arch_spin_hint();
}

static int set_mode(int i, int mode, uint32_t n, uint64_t t_ns, uint32_t flags)
{
	struct hako_intr_set set = { .mode = mode, .n = n, .t_ns = t_ns, .flags = flags,
				     .bound_ns = 1000000 };
	return intr_pack_configure(&fakes[i].src, &set);
}

static struct hako_intr_dev snap(int i)
{
	struct hako_intr_dev d;
	intr_pack_snapshot(&fakes[i].src, &d);
	return d;
}

static bool balanced(int i)
{
	struct hako_intr_dev d = snap(i);
	return d.c.handled + d.pending == d.c.interrupts;
}

/* Wait (sleeping) until at least want main handlers ran, or 100 ms. */
static void wait_log(int want)
{
	uint64_t deadline = time_ns() + 100000000ull;
	while (nlog < want && time_ns() < deadline)
		thread_sleep_ns(200000);
}

#define RUN(body) do { if (setup() < 0) return -1; int r_ = (body); teardown(); return r_; } while (0)

static int sequential_each_at_once(void)
{
	struct hako_intr_dev d0 = snap(0);
	uint64_t full0 = intr_count(fakes[0].src.vector);
	for (uint32_t v = 1; v <= 5; v++) {
		raise_irq(0, v);
		CHECK(nlog == (int)v && log[v - 1] == v, "interrupt %u: %d handled", v, nlog);
	}
	struct hako_intr_dev d = snap(0);
	CHECK(d.c.interrupts - d0.c.interrupts == 5 && d.c.registered == d0.c.registered,
		 "counted %lu, registered %lu", d.c.interrupts - d0.c.interrupts,
		 d.c.registered - d0.c.registered);
	CHECK(d.c.delay_max > 0, "no delay measured");
	CHECK(intr_count(fakes[0].src.vector) - full0 == 5, "not all on the full path");
	CHECK(balanced(0), "counters do not balance");
	return 0;
}

TEST(pack_sequential_handles_each_at_once) { RUN(sequential_each_at_once()); }

static int batches_at_n(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 4, 1000000000, 0) == 0, "set packed");
	struct hako_intr_dev d0 = snap(0);
	uint64_t full0 = intr_count(fakes[0].src.vector);
	for (uint32_t v = 1; v <= 12; v++) {
		raise_irq(0, v);
		int want = (int)(v / 4 * 4);
		CHECK(nlog == want, "after %u interrupts %d handled, expected %d", v, nlog, want);
	}
	for (int k = 0; k < 12; k++)
		CHECK(log[k] == (uint32_t)k + 1, "handler %d saw %u", k, log[k]);
	struct hako_intr_dev d = snap(0);
	CHECK(d.c.registered - d0.c.registered == 12, "registered %lu", d.c.registered - d0.c.registered);
	CHECK(d.c.by_n - d0.c.by_n == 3, "%lu batches at N", d.c.by_n - d0.c.by_n);
	uint64_t full = intr_count(fakes[0].src.vector) - full0;
	CHECK(full == 3, "%lu of 12 interrupts took the full path, expected 3 (9 registrations)", full);
	CHECK(balanced(0) && d.pending == 0, "counters do not balance");
	return 0;
}

TEST(pack_packed_batches_every_n) { RUN(batches_at_n()); }

static int batch_at_t(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 32, 2000000, 0) == 0, "set packed");
	struct hako_intr_dev d0 = snap(0);
	raise_irq(0, 7);
	raise_irq(0, 8);
	CHECK(nlog == 0, "handled before T");
	wait_log(2);
	CHECK(nlog == 2 && log[0] == 7 && log[1] == 8, "%d handled after T", nlog);
	struct hako_intr_dev d = snap(0);
	CHECK(d.c.by_t - d0.c.by_t == 1, "%lu batches by T", d.c.by_t - d0.c.by_t);
	uint64_t mean = (d.c.delay_sum - d0.c.delay_sum) / 2;
	CHECK(mean >= ns_to_tsc(1900000), "mean delay %lu ticks, T is 2 ms", mean);
	return 0;
}

TEST(pack_batch_after_t) { RUN(batch_at_t()); }

static int batch_at_tick(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 32, 0, HAKO_INTR_TICK) == 0, "set packed");
	struct hako_intr_dev d0 = snap(0);
	for (uint32_t v = 1; v <= 3; v++)
		raise_irq(0, v);
	wait_log(3);
	struct hako_intr_dev d = snap(0);
	CHECK(nlog == 3, "%d handled", nlog);
	CHECK(d.c.by_tick - d0.c.by_tick == 1, "%lu batches by the tick", d.c.by_tick - d0.c.by_tick);
	return 0;
}

TEST(pack_batch_at_tick) { RUN(batch_at_tick()); }

/* Three entries of fake-a.0 wait (packed, N 32); fake-b.0's interrupt
 * (sequential) runs them after its own main handler. */
static int urgent_after_three(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 32, 1000000000, 0) == 0, "set packed");
	struct hako_intr_dev d0 = snap(0);
	raise_irq(0, 1);
	raise_irq(0, 2);
	raise_irq(0, 3);
	CHECK(nlog == 0, "%d handled before fake-b.0's interrupt", nlog);
	CHECK(snap(0).c.by_urgent == d0.c.by_urgent, "a packed source's interrupt counted urgent");
	raise_irq(2, 100);                 /* fake-b.0 is sequential: urgent */
	CHECK(nlog == 4, "%d handled", nlog);
	CHECK(log[0] == 100 && log[1] == 1 && log[2] == 2 && log[3] == 3,
		 "order %u %u %u %u", log[0], log[1], log[2], log[3]);
	CHECK(snap(0).c.by_urgent - d0.c.by_urgent == 1, "not counted as urgent");
	return 0;
}

TEST(pack_urgent_interrupt_runs_batch) { RUN(urgent_after_three()); }

/* The same with fake-b.0 on fake-a.0's vector, as two cards on one INTx
 * line: fake-a.0's interrupts come the full way but are registered and
 * end no batch; the one fake-b.0 claims is urgent. */
static int urgent_on_shared_line(void)
{
	struct intr_src *b = &fakes[2].src;
	int own = b->vector;
	intr_pack_detach(b);
	int err = intr_pack_attach(b, fakes[0].src.vector, -1, cpu_id());
	int r = err == 0 ? urgent_after_three() : -1;
	intr_pack_flush(&fakes[0].src);
	intr_pack_detach(b);
	CHECK(intr_pack_attach(b, own, -1, cpu_id()) == 0, "re-attach failed");
	CHECK(err == 0, "attach to the shared vector: %d", err);
	return r;
}

TEST(pack_urgent_only_when_sequential_source_claims) { RUN(urgent_on_shared_line()); }

/* Arrivals b:1 a1:2 a0:3 b:4 a0:5 a0:6 (the N-th of a0): fake-a runs first,
 * merged by arrival, then fake-b. */
static int groups_by_type(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 3, 1000000000, 0) == 0, "set a0");
	CHECK(set_mode(1, HAKO_INTR_PACKED, 32, 1000000000, 0) == 0, "set a1");
	CHECK(set_mode(2, HAKO_INTR_PACKED, 32, 1000000000, 0) == 0, "set b");
	const int who[6] = { 2, 1, 0, 2, 0, 0 };
	for (uint32_t v = 1; v <= 6; v++)
		raise_irq(who[v - 1], v);
	const uint32_t want[6] = { 2, 3, 5, 6, 1, 4 };
	CHECK(nlog == 6, "%d handled", nlog);
	for (int k = 0; k < 6; k++)
		CHECK(log[k] == want[k], "handler %d saw %u, expected %u", k, log[k], want[k]);
	return 0;
}

TEST(pack_batch_groups_by_type_then_arrival) { RUN(groups_by_type()); }

/* The same arrivals with grouping on and off: the handlers' order, and the
 * statistics' types and stretches (grouped 2, ungrouped b a b a = 4). */
static int grouping_switch_body(void)
{
	const int who[6] = { 2, 1, 0, 2, 0, 0 };
	for (int group = 1; group >= 0; group--) {
		CHECK(intr_pack_set_group((uint64_t)group) == 0, "set group %d", group);
		struct hako_intr_stats a, b;
		intr_pack_stats(&a);
		nlog = 0;
		for (uint32_t v = 1; v <= 6; v++)
			raise_irq(who[v - 1], v);
		intr_pack_stats(&b);
		CHECK(nlog == 6, "group %d: %d handled", group, nlog);
		for (int k = 0; k < 6; k++)
			CHECK(group || log[k] == (uint32_t)k + 1, "ungrouped: handler %d saw %u", k, log[k]);
		CHECK(b.batches - a.batches == 1 && b.entries - a.entries == 6, "group %d: batches %lu",
		      group, b.batches - a.batches);
		CHECK(b.types[1] - a.types[1] == 1, "group %d: not counted as two types", group);
		CHECK(b.runs - a.runs == (group ? 2u : 4u), "group %d: %lu stretches", group,
		      b.runs - a.runs);
	}
	CHECK(intr_pack_set_group(2) == -EINVAL, "group 2 accepted");
	return 0;
}

static int grouping_switch(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 3, 1000000000, 0) == 0, "set a0");
	CHECK(set_mode(1, HAKO_INTR_PACKED, 32, 1000000000, 0) == 0, "set a1");
	CHECK(set_mode(2, HAKO_INTR_PACKED, 32, 1000000000, 0) == 0, "set b");
	int r = grouping_switch_body();
	intr_pack_set_group(1);
	return r;
}

TEST(pack_grouping_switch_and_statistics) { RUN(grouping_switch()); }

static int switch_flushes(void)
{
	CHECK(set_mode(0, HAKO_INTR_PACKED, 32, 1000000000, 0) == 0, "set packed");
	for (uint32_t v = 1; v <= 5; v++)
		raise_irq(0, v);
	CHECK(nlog == 0 && snap(0).pending == 5, "%d handled, %u pending", nlog, snap(0).pending);
	CHECK(set_mode(0, HAKO_INTR_SEQUENTIAL, 0, 0, 0) == 0, "set sequential");
	CHECK(nlog == 5 && snap(0).pending == 0, "%d handled after the switch", nlog);
	raise_irq(0, 6);
	CHECK(nlog == 6 && log[5] == 6, "not handled at once after the switch");
	CHECK(balanced(0), "counters do not balance");
	return 0;
}

TEST(pack_mode_switch_handles_pending) { RUN(switch_flushes()); }

/* Interrupts 100 us apart and a 1 ms bound: N about 1 + 2 * 0.875 / 0.1;
 * then 5 ms apart: N falls to 1 (sequential). */
static int adaptive_follows_rate(void)
{
	CHECK(set_mode(0, HAKO_INTR_ADAPTIVE, 0, 0, HAKO_INTR_TICK) == 0, "set adaptive");
	for (uint32_t v = 1; v <= 60; v++) {
		raise_irq(0, v);
		thread_sleep_ns(100000);
	}
	uint32_t fast = snap(0).n_now;
	CHECK(fast >= 8 && fast <= 20, "N %u for interrupts 100 us apart", fast);
	for (uint32_t v = 61; v <= 100; v++) {
		raise_irq(0, v);
		thread_sleep_ns(5000000);
	}
	CHECK(snap(0).n_now == 1, "N %u for interrupts 5 ms apart", snap(0).n_now);
	CHECK(nlog == 100, "%d of 100 handled", nlog);
	for (int k = 0; k < 100; k++)
		CHECK(log[k] == (uint32_t)k + 1, "handler %d saw %u", k, log[k]);
	return 0;
}

TEST(pack_adaptive_follows_arrival_rate) { RUN(adaptive_follows_rate()); }

TEST(pack_settings_checked)
{
	const struct hako_intr_set bad[] = {
		{ .mode = 3 },
		{ .mode = -1 },
		{ .mode = HAKO_INTR_PACKED, .n = 0, .flags = HAKO_INTR_TICK },
		{ .mode = HAKO_INTR_PACKED, .n = PACK_N_MAX + 1, .flags = HAKO_INTR_TICK },
		{ .mode = HAKO_INTR_PACKED, .n = 4, .t_ns = HAKO_INTR_T_MAX_NS + 1 },
		{ .mode = HAKO_INTR_PACKED, .n = 4, .flags = 2 | HAKO_INTR_TICK },
		{ .mode = HAKO_INTR_ADAPTIVE, .bound_ns = 0 },
		{ .mode = HAKO_INTR_SEQUENTIAL, .reserved = 1 },
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(intr_pack_check(&bad[i]) == -EINVAL, "bad setting %u accepted", i);
	struct hako_intr_set ok = { .mode = HAKO_INTR_PACKED, .n = 1, .t_ns = 1000 };
	CHECK(intr_pack_check(&ok) == 0, "a good setting refused");
	ok = (struct hako_intr_set){ .mode = HAKO_INTR_PACKED, .n = 4 };     /* N alone */
	CHECK(intr_pack_check(&ok) == 0, "packed with N alone refused");
	return 0;
}
