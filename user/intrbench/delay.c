/*
 * intrbench/delay.c — part 2, the paper's Table 3: the average delay from
 * an interrupt to the end of its main handler, sequential and packed for
 * several N and T, against the model (sequential t1 + t2; packed, N
 * interrupts evenly spaced in T and a batch at the N-th:
 * 1/2 (N-1)/N T + t1 + 1/2 (N+1) t2); and part 5, the adaptive mode
 * against fixed settings over a range of arrival rates.
 *
 * The kernel adds up each interrupt's delay (intr_ctl counters) from its
 * entry stamp to the end of its main handler; the entry's own cost before
 * that stamp (calibrated in part 1) is added, so a delay here runs from
 * the interrupt itself.  The models take t1 and t2 from part 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "intrbench.h"

#define ROUNDS    10
#define WINDOW_NS 200000000ull       /* part 5: each case counts for 200 ms */

/* Delay and handled count between two snapshots. */
static void delay_between(const struct hako_intr_dev *a, const struct hako_intr_dev *b,
			  uint64_t *sum, uint64_t *handled, uint64_t *registered)
{
	*sum = b->c.delay_sum - a->c.delay_sum;
	*handled = b->c.handled - a->c.handled;
	*registered = b->c.registered - a->c.registered;
}

/* n frames per t_ns, ROUNDS rounds, read on CPU 1; mean delay from the interrupt. */
static int measure(uint32_t n, uint64_t t_ns, uint64_t *mean)
{
	struct hako_intr_dev a, b;
	struct reader rd = { .want = ROUNDS * n, .cpu = RX_CPU, .prio = 9 };
	drain_queue();
	if (get_dev(&a) || reader_start(&rd))
		return 1;
	sleep_ms(1);
	if (traffic_start(n, t_ns, ROUNDS * n))
		return 1;
	int err = reader_join(&rd);
	traffic_wait();
	if (err || get_dev(&b))
		return 1;
	uint64_t sum, handled, reg;
	delay_between(&a, &b, &sum, &handled, &reg);
	if (!handled)
		return fail("no interrupt handled", 0);
	uint64_t entry = (reg * phases.lean_entry + (handled - reg) * phases.full_entry) / handled;
	*mean = sum / handled + entry;
	return 0;
}

static void row(const char *mode, uint32_t n, uint64_t t_ns, uint64_t measured, uint64_t model)
{
	printf("  %-10s %2u  %5" PRIu64 " us  %10" PRIu64 "  %10" PRIu64 "\n", mode, n, t_ns / 1000, measured, model);
	result_line("{\"kind\":\"intr-delay\",\"unit\":\"tsc\",\"mode\":\"%s\",\"n\":%u,\"t_ns\":%" PRIu64 ","
		    "\"measured\":%" PRIu64 ",\"model\":%" PRIu64 "}", mode, n, t_ns, measured, model);
}

int part_delay(void)
{
	static const uint32_t ns[] = { 1, 2, 5, 10 };
	static const uint64_t ts[] = { 1000000, 10000000 };
	if (!phases.valid && part_phases())
		return 1;
	printf("\nintrbench: part 2, average delay, interrupt to end of its main handler (Table 3)\n");
	printf("  mode        N  T (period)    measured       model\n");
	uint64_t mean;
	for (unsigned j = 0; j < 2; j++) {
		if (set_sequential() || measure(10, ts[j], &mean))
			return 1;
		row("sequential", 10, ts[j], mean, phases.t1_seq + phases.t2_seq);
		for (unsigned i = 0; i < sizeof ns / sizeof ns[0]; i++) {
			uint32_t n = ns[i];
			uint64_t t = ts[j];
			if (set_packed(n, 2 * t, false) || measure(n, t, &mean))
				return 1;
			uint64_t model = (n - 1) * t / (2 * n) + phases.t1_pack + (n + 1) * phases.t2_pack / 2;
			row("packed", n, t, mean, model);
		}
	}
	/* The paper's own setting: the batch at the 10 ms tick, 10 interrupts per tick. */
	if (set_packed(32, 0, true) || measure(10, PERIOD_NS, &mean))
		return 1;
	row("tick", 10, PERIOD_NS, mean, 9 * PERIOD_NS / 20 + phases.t1_pack + 11 * phases.t2_pack / 2);
	set_sequential();
	return 0;
}

/* ---- part 5: adaptive ------------------------------------------------------ */

struct outcome {
	uint64_t loops, delay, n_now, t_now;
};

/* k frames per 10 ms for WINDOW_NS to a receiving process; the loop on CPU 1 meanwhile. */
static int adaptive_case(uint32_t k, struct outcome *o)
{
	uint64_t frames = k * (WINDOW_NS / PERIOD_NS + 2);
	struct hako_intr_dev a, b;
	int pid = receiver_spawn(frames);
	if (pid < 0 || get_dev(&a) || traffic_start(k, PERIOD_NS, frames))
		return 1;
	pin(RX_CPU, 7);
	o->loops = count_loops(WINDOW_NS);
	pin(SEND_CPU, 8);
	if (receiver_wait(pid))
		return 1;
	traffic_wait();
	if (get_dev(&b))
		return 1;
	uint64_t sum, handled, reg;
	delay_between(&a, &b, &sum, &handled, &reg);
	uint64_t entry = handled ? (reg * phases.lean_entry + (handled - reg) * phases.full_entry) / handled : 0;
	o->delay = handled ? sum / handled + entry : 0;
	o->n_now = b.n_now;
	o->t_now = b.t_now_ns;
	return 0;
}

int part_adaptive(void)
{
	static const uint32_t ks[] = { 1, 10, 50, 200 };
	const uint64_t bound = 1000000;
	static const char *const names[] = { "sequential", "packed", "adaptive" };
	if (!phases.valid && part_phases())
		return 1;
	printf("\nintrbench: part 5, adaptive (delay bound 1 ms) against fixed settings;"
	       " loops in 200 ms on CPU 1\n");
	sys_nic_ctl(env.rtl, HAKO_NIC_CLOSE, NULL);
	if (set_sequential())
		return 1;
	pin(RX_CPU, 7);
	uint64_t quiet = count_loops(WINDOW_NS);   /* no I/O */
	pin(SEND_CPU, 8);
	printf("  rate/s  mode        loops lost   mean delay   N now  T now (us)\n");
	for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		for (int m = 0; m < 3; m++) {
			int err = m == 0 ? set_sequential() : m == 1 ? set_packed(10, PERIOD_NS, true)
						       : set_adaptive(bound);
			struct outcome o;
			if (err || adaptive_case(ks[i], &o))
				return 1;
			uint64_t lost = quiet - o.loops;
			printf("  %6u  %-10s  %10" PRIu64 "   %10" PRIu64 "   %5" PRIu64 "  %9" PRIu64 "\n", ks[i] * 100, names[m], lost,
			       o.delay, o.n_now, o.t_now / 1000);
			result_line("{\"kind\":\"intr-adaptive\",\"unit\":\"tsc\",\"rate\":%u,\"mode\":\"%s\","
				    "\"loops_lost\":%" PRIu64 ",\"delay\":%" PRIu64 ",\"bound\":%" PRIu64 ",\"n_now\":%" PRIu64 ",\"t_now_ns\":%" PRIu64 "}",
				    ks[i] * 100, names[m], lost, o.delay, bound, o.n_now, o.t_now);
		}
	}
	set_sequential();
	return open_card(env.rtl, RX_CPU);
}
