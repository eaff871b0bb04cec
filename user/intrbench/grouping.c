/*
 * intrbench/grouping.c — part 6, the paper's grouping of main handlers by
 * device type (section 3.3): both cards open with their interrupts on
 * CPU 1, each sending to the other (the kernel's timed senders on CPU 0),
 * so CPU 1 takes interrupts of two source types, the RTL8139's and the
 * e1000's (a card's receptions and its own transmissions).  Three runs of
 * the same traffic: sequential; packed with the batch at the 10 ms tick
 * (the paper's setting: N 32, no T) grouped by type; the same packed
 * but ungrouped (intr_ctl GROUP 0: one batch's main handlers in arrival
 * order across types).
 *
 * Per run: the batches' statistics (intr_ctl STATS, difference of two
 * reads): batches, how many held more than one type, and the stretches
 * of one type's handlers they ran (grouped: one per type in the batch);
 * and the handling cost per interrupt from the phase probe, every
 * record on CPU 1 with its calibrated entry and exit (registration:
 * lean prefix + stamps + lean suffix; full path: full prefix + stamps +
 * full suffix; a batch the tick asked for: its stamps, inside a timer
 * interrupt that comes anyway), divided by the interrupts of both cards.
 * Under icount a count of instructions: what grouping changes in a real
 * machine's caches does not show in it (the cost model's run does).
 */
#include <stdio.h>
#include <inttypes.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "intrbench.h"

#define G_K      8                   /* frames per 10 ms, each way */
#define G_ROUNDS 20                  /* 10 ms periods */
#define E1000_RX_HOLD_MS 1100        /* QEMU's e1000 takes no frame for 1 s after RCTL is written */

static struct hako_intr_probe_rec recs[HAKO_PROBE_MAX];

struct g_out {
	uint64_t interrupts, rtl, e1k, handled, delay_sum, cost;
	struct hako_intr_stats st;       /* this run's batches */
};

static int stats(struct hako_intr_stats *st)
{
	long r = sys_intr_ctl(0, HAKO_INTR_STATS, st);
	return r < 0 ? fail("intr_ctl stats", r) : 0;
}

static int set_group(int on)
{
	long r = sys_intr_ctl(0, HAKO_INTR_GROUP, (void *)(long)on);
	return r < 0 ? fail("intr_ctl group", r) : 0;
}

/* Both cards the same way: sequential, or packed at the tick. */
static int set_both(bool packed)
{
	if (!packed)
		return set_sequential_on(env.dev) || set_sequential_on(env.e1k_dev);
	return set_packed_on(env.dev, 32, 0, true) || set_packed_on(env.e1k_dev, 32, 0, true);
}

/* The instructions of every probe record on RX_CPU, entry and exit included. */
static uint64_t probe_cost(uint32_t nrec, const struct hako_intr_calib *cal)
{
	uint64_t cost = 0;
	for (uint32_t i = 0; i < nrec; i++) {
		const struct hako_intr_probe_rec *r = &recs[i];
		if (r->cpu != RX_CPU)
			continue;
		if (r->kind == HAKO_PROBE_REG)
			cost += cal->lean_prefix + (r->t[1] - r->t[0]) + cal->lean_suffix;
		else if (r->kind == HAKO_PROBE_FULL)
			cost += cal->full_prefix + (r->t[4] - r->t[0]) + cal->full_suffix;
		else if (r->kind == HAKO_PROBE_KICK)
			cost += r->t[4] - r->t[0];
	}
	return cost;
}

static void sub_stats(struct hako_intr_stats *d, const struct hako_intr_stats *a,
		      const struct hako_intr_stats *b)
{
	d->group = b->group;
	d->batches = b->batches - a->batches;
	d->entries = b->entries - a->entries;
	d->runs = b->runs - a->runs;
	for (int t = 0; t < HAKO_INTR_TYPES_HIST; t++)
		d->types[t] = b->types[t] - a->types[t];
}

/* One run: both ways G_K frames per 10 ms for G_ROUNDS periods, read on CPU 1. */
__attribute__((noinline)) static int g_run(const struct hako_intr_calib *cal, struct g_out *o)
{
	struct hako_intr_dev ra, rb, ea, eb;
	struct hako_intr_stats sa, sb;
	struct reader rr = { .want = G_K * G_ROUNDS, .cpu = RX_CPU, .prio = 9 };
	struct reader re = { .want = G_K * G_ROUNDS, .cpu = RX_CPU, .prio = 9, .e1k = true };
	drain_queue();
	if (reader_start(&rr) || reader_start(&re))
		return 1;
	sleep_ms(1);
	if (get_dev_of(env.dev, &ra) || get_dev_of(env.e1k_dev, &ea) || stats(&sa))
		return 1;
	probe(HAKO_PROBE_START, 0, 0);
	if (traffic_from(env.e1k, env.rtl, G_K, PERIOD_NS, G_K * G_ROUNDS) ||
	    traffic_from(env.rtl, env.e1k, G_K, PERIOD_NS, G_K * G_ROUNDS))
		return 1;
	int err = reader_join(&rr) | reader_join(&re);
	traffic_wait();
	sleep_ms(12);                      /* the TX interrupts of the last frames, a tick's batch */
	probe(HAKO_PROBE_STOP, 0, 0);
	long nrec = probe(HAKO_PROBE_READ, (uint64_t)recs, HAKO_PROBE_MAX);
	if (err || nrec < 0 || get_dev_of(env.dev, &rb) || get_dev_of(env.e1k_dev, &eb) || stats(&sb))
		return fail("grouping run", nrec < 0 ? nrec : 0);
	if (nrec >= HAKO_PROBE_MAX)
		return fail("grouping run: probe records overflowed", 0);
	o->rtl = rb.c.interrupts - ra.c.interrupts;
	o->e1k = eb.c.interrupts - ea.c.interrupts;
	o->interrupts = o->rtl + o->e1k;
	o->handled = rb.c.handled - ra.c.handled + eb.c.handled - ea.c.handled;
	o->delay_sum = rb.c.delay_sum - ra.c.delay_sum + eb.c.delay_sum - ea.c.delay_sum;
	o->cost = probe_cost((uint32_t)nrec, cal);
	sub_stats(&o->st, &sa, &sb);
	return 0;
}

/* The types each batch held, added up: what one stretch per type would take. */
static uint64_t type_slots(const struct hako_intr_stats *st)
{
	uint64_t n = 0;
	for (int t = 0; t < HAKO_INTR_TYPES_HIST; t++)
		n += (uint64_t)(t + 1) * st->types[t];
	return n;
}

int part_grouping(void)
{
	static const char *const modes[] = { "sequential", "grouped", "ungrouped" };
	struct hako_intr_calib cal;
	printf("\nintrbench: part 6, grouping by device type: both cards on CPU %d, %d frames per"
	       " 10 ms each way, %d periods\n", RX_CPU, G_K, G_ROUNDS);
	if (calibrate_rx(&cal) || open_card(env.e1k, RX_CPU))
		return 1;
	sleep_ms(E1000_RX_HOLD_MS);        /* QEMU's e1000 holds frames back after bring-up */
	printf("  mode        interrupts (rtl+e1000)  batches  mixed  stretches  per type  "
	       "insns/interrupt  mean delay\n");
	int failed = 0;
	for (int m = 0; m < 3 && !failed; m++) {
		struct g_out o = { 0 };
		failed = set_both(m > 0) || set_group(m != 2) || g_run(&cal, &o);
		if (failed)
			break;
		uint64_t mixed = o.st.batches - o.st.types[0];
		uint64_t per_int = o.interrupts ? o.cost / o.interrupts : 0;
		uint64_t delay = o.handled ? o.delay_sum / o.handled : 0;
		printf("  %-10s  %5" PRIu64 " (%" PRIu64 "+%" PRIu64 ")  %13" PRIu64 "  %5" PRIu64
		       "  %9" PRIu64 "  %8" PRIu64 "  %15" PRIu64 "  %10" PRIu64 "\n", modes[m],
		       o.interrupts, o.rtl, o.e1k, o.st.batches, mixed, o.st.runs, type_slots(&o.st),
		       per_int, delay);
		result_line("{\"kind\":\"intr-grouping\",\"unit\":\"tsc\",\"mode\":\"%s\",\"k\":%d,"
			    "\"rounds\":%d,\"interrupts\":%" PRIu64 ",\"rtl8139\":%" PRIu64
			    ",\"e1000\":%" PRIu64 ","
			    "\"batches\":%" PRIu64 ",\"mixed\":%" PRIu64 ",\"entries\":%" PRIu64
			    ",\"runs\":%" PRIu64 ",\"type_slots\":%" PRIu64 ","
			    "\"types1\":%" PRIu64 ",\"types2\":%" PRIu64 ",\"cost\":%" PRIu64
			    ",\"per_interrupt\":%" PRIu64 ","
			    "\"delay\":%" PRIu64
			    "}", modes[m], G_K, G_ROUNDS, o.interrupts, o.rtl, o.e1k,
			    o.st.batches, mixed, o.st.entries, o.st.runs, type_slots(&o.st), o.st.types[0],
			    o.st.types[1], o.cost, per_int, delay);
	}
	failed |= set_group(1) || set_both(false);
	sys_nic_ctl(env.e1k, HAKO_NIC_CLOSE, NULL);
	return failed;
}
