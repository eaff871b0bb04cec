/*
 * intrbench/triggers.c — parts 7 and 8, the paper's batch triggers (3)
 * and (2) (section 2.1): an interrupt that must be handled sequentially
 * starts the batch, and so does time T since a registered interrupt was
 * left unprocessed.
 *
 * Part 7, urgent.  The RTL8139 receives 10 frames per 10 ms from the
 * e1000's kernel sender, packed with N = 10 (the 10 ms tick as backstop)
 * on CPU 1.  The e1000's own interrupts (one per frame it sends) are:
 *   closed     not taken (the card closed, its interrupts masked);
 *   packed     packed (N = 10, tick) on CPU 1 — as many interrupts there,
 *              but registered, so they end no batch (the control);
 *   urgent     sequential on CPU 1 — each runs the pending batch.
 * On pc the two cards share one INTx line, so with the e1000 sequential
 * every interrupt of the line comes the full way; only those the e1000
 * claims are urgent (intr_sequential.c).
 * Per case the RTL8139's batches by trigger and the mean and largest
 * delay of its entries (from its interrupt's entry stamp to the end of
 * its main handler).
 *
 * Part 8, time.  The e1000 closed; the RTL8139 receives 7 frames per ms
 * (one every 142,857 ns) packed with N = 32, which these runs never reach,
 * no tick, and T swept over 250 us .. 2 ms; a sequential run for the
 * delay without packing.  Per T: batches by trigger, the mean and largest
 * delay, and the largest wait (the oldest entry's arrival to the start of
 * its batch: what T bounds), against the model for evenly spaced
 * arrivals g apart — a batch every T holds m = floor(T/g) + 1 entries
 * that waited T - j g (j = 0..m-1), on average T - (m-1) g / 2.
 */
#include <stdio.h>
#include <inttypes.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "intrbench.h"

#define U_K       10                 /* part 7: frames per 10 ms */
#define U_ROUNDS  20
#define T_PER_MS  7                  /* part 8: frames per ms */
#define T_MS      30                 /* part 8: ms of traffic per case */

struct trig_out {
	uint64_t batches, by_n, by_t, by_tick, by_urgent, other, handled, delay, delay_max, wait_max;
	uint64_t e1k_interrupts;
};

/* The RTL8139's counters since its reset (and the e1000's interrupts). */
static int trig_read(struct trig_out *o)
{
	struct hako_intr_dev r, e;
	if (get_dev(&r) || get_dev_of(env.e1k_dev, &e))
		return 1;
	const struct hako_intr_counters *c = &r.c;
	o->batches = c->batches;
	o->by_n = c->by_n;
	o->by_t = c->by_t;
	o->by_tick = c->by_tick;
	o->by_urgent = c->by_urgent;
	o->other = c->batches - c->by_n - c->by_t - c->by_tick - c->by_urgent;
	o->handled = c->handled;
	o->delay = c->handled ? c->delay_sum / c->handled : 0;
	o->delay_max = c->delay_max;
	o->wait_max = c->wait_max;
	o->e1k_interrupts = e.c.interrupts;
	return 0;
}

/* frames frames, per_period every period_ns, e1000 -> RTL8139, read on CPU 1. */
static int trig_run(uint32_t per_period, uint64_t period_ns, uint64_t frames, struct trig_out *o)
{
	struct reader rd = { .want = frames, .cpu = RX_CPU, .prio = 9 };
	drain_queue();
	if (reset_dev(env.dev) || reset_dev(env.e1k_dev) || reader_start(&rd))
		return 1;
	sleep_ms(1);
	if (traffic_start(per_period, period_ns, frames))
		return 1;
	int err = reader_join(&rd);
	traffic_wait();
	return err || trig_read(o);
}

static void trig_print(const char *label, const struct trig_out *o)
{
	printf("  %-10s %7" PRIu64 " %5" PRIu64 " %5" PRIu64 " %5" PRIu64 " %6" PRIu64 " %5" PRIu64
	       " %11" PRIu64 " %11" PRIu64 " %11" PRIu64 "\n", label, o->batches, o->by_n,
	       o->by_t, o->by_tick, o->by_urgent, o->other, o->delay, o->delay_max, o->wait_max);
}

static const char *const trig_head =
	"  case       batches  by_n  by_t  tick urgent other  mean delay   max delay    max wait\n";

int part_urgent(void)
{
	static const char *const cases[] = { "closed", "packed", "urgent" };
	printf("\nintrbench: part 7, the urgent trigger: RTL8139 packed (N 10) on CPU %d, the e1000's"
	       " interrupts masked, packed beside it, or sequential beside it\n", RX_CPU);
	printf("%s", trig_head);
	int failed = set_packed(U_K, 0, true);
	for (int c = 0; c < 3 && !failed; c++) {
		struct trig_out o = { 0 };
		failed = (c > 0 && open_card(env.e1k, RX_CPU)) ||
			 (c == 1 ? set_packed_on(env.e1k_dev, U_K, 0, true) : set_sequential_on(env.e1k_dev)) ||
			 trig_run(U_K, PERIOD_NS, U_K * U_ROUNDS, &o);
		if (c > 0)
			sys_nic_ctl(env.e1k, HAKO_NIC_CLOSE, NULL);
		if (failed)
			break;
		trig_print(cases[c], &o);
		result_line("{\"kind\":\"intr-urgent\",\"unit\":\"tsc\",\"case\":\"%s\",\"e1000_cpu\":%d,"
			    "\"e1000_mode\":\"%s\",\"n\":%d,\"k\":%d,\"e1000_interrupts\":%" PRIu64
			    ",\"batches\":%" PRIu64 ","
			    "\"by_n\":%" PRIu64 ",\"by_tick\":%" PRIu64 ",\"by_urgent\":%" PRIu64
			    ",\"by_other\":%" PRIu64 ",\"handled\":%" PRIu64 ","
			    "\"delay\":%" PRIu64 ",\"delay_max\":%" PRIu64
			    "}", cases[c], c == 0 ? -1 : RX_CPU,
			    c == 0 ? "closed" : c == 1 ? "packed" : "sequential", U_K, U_K, o.e1k_interrupts, o.batches, o.by_n,
			    o.by_tick, o.by_urgent, o.other, o.handled, o.delay, o.delay_max);
	}
	failed |= set_sequential_on(env.e1k_dev) || set_sequential();
	return failed;
}

int part_time(void)
{
	static const uint64_t ts[] = { 250000, 500000, 1000000, 2000000 };
	const uint64_t period = 1000000, gap = period / T_PER_MS, frames = T_PER_MS * T_MS;
	printf("\nintrbench: part 8, the time trigger T: RTL8139 packed (N 32, no tick) on CPU %d,"
	       " one frame every %" PRIu64 " ns\n", RX_CPU, gap);
	printf("%s", trig_head);
	struct trig_out o = { 0 };
	if (set_sequential() || trig_run(T_PER_MS, period, frames, &o))
		return 1;
	trig_print("sequential", &o);
	result_line("{\"kind\":\"intr-time\",\"unit\":\"tsc\",\"mode\":\"sequential\",\"t_ns\":0,"
		    "\"gap_ns\":%" PRIu64 ",\"handled\":%" PRIu64 ",\"delay\":%" PRIu64
		    ",\"delay_max\":%" PRIu64 "}", gap, o.handled,
		    o.delay, o.delay_max);
	for (unsigned i = 0; i < sizeof ts / sizeof ts[0]; i++) {
		if (set_packed(32, ts[i], false) || trig_run(T_PER_MS, period, frames, &o))
			return 1;
		char label[16];
		snprintf(label, sizeof label, "T %" PRIu64 " us", ts[i] / 1000);
		trig_print(label, &o);
		uint64_t m = ts[i] / gap + 1, model = ts[i] - (m - 1) * gap / 2;
		result_line("{\"kind\":\"intr-time\",\"unit\":\"tsc\",\"mode\":\"packed\",\"t_ns\":%" PRIu64 ","
			    "\"n\":32,\"gap_ns\":%" PRIu64 ",\"batches\":%" PRIu64
			    ",\"by_n\":%" PRIu64 ",\"by_t\":%" PRIu64 ","
			    "\"by_tick\":%" PRIu64 ",\"by_other\":%" PRIu64 ",\"handled\":%" PRIu64
			    ",\"delay\":%" PRIu64 ","
			    "\"delay_max\":%" PRIu64 ",\"wait_max\":%" PRIu64
			    ",\"per_batch_model\":%" PRIu64 ","
			    "\"wait_model\":%" PRIu64
			    "}", ts[i], gap, o.batches, o.by_n, o.by_t, o.by_tick,
			    o.other + o.by_urgent, o.handled, o.delay, o.delay_max, o.wait_max, m, model);
	}
	return set_sequential();
}
