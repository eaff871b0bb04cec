/*
 * intrbench/phases.c — part 1, the paper's Table 2 and its totals: the
 * registration s, pre-processing t1, main handler t2 and post-processing
 * t3, sequential and packed, and the total handling cost of N interrupts
 * (N = 1..10) measured against the model N(t1+t2+t3) for sequential and
 * (N-1)s + t1 + N*t2 + t3 for packed, with the break-even N.
 *
 * Method.  The kernel's phase probe (intr_ctl PROBE) stamps each
 * interrupt of the receiving card inside: a registration at its entry
 * (t0) and end (t1); the full path at its entry (t0), after the
 * pre-processing (t1), after its own main handlers (t2), after the batch
 * (t3) and after the post-processing (t4).  What no stamp can see — from
 * the interrupt to the first stamp, from the last stamp back to the
 * interrupted code — is measured once by CALIBRATE: the CPU raises the
 * card's vector on itself with a self-IPI between two TSC reads.  So
 *   s  = lean prefix + (t1 - t0) + lean suffix
 *   t1 = full prefix + (t1 - t0)            register save, mask, EOI, sti
 *   t2 = sequential: t2 - t1 (ack + work of one frame);
 *        packed: (t3 - t2) / N, the batch's work per entry
 *   t3 = (t4 - t3) + full suffix            cli, unmask, restore, return
 * and the N-th packed interrupt's own volatile copy c = t2 - t1, which the
 * model's packed t1 includes.  All exact instruction counts.
 *
 * Why not time it from outside: under icount all vCPUs share one
 * instruction clock, and the interrupt is caused by the sender on CPU 0,
 * whose instructions before the send would be counted in CPU 1's gap.
 * So CPU 1 runs nothing but the card's interrupts and the reader thread
 * that takes the frames (woken locally, after the interrupt).
 *
 * Traffic: for each N, 20 rounds of N frames evenly spaced in 10 ms; the
 * card packed with that N and no time trigger (no T, no tick: only N starts
 * a batch); N = 10 once more with a T timer armed at each batch's first
 * registration and cancelled by the batch (what the T trigger costs); then
 * sequential with 10 frames per 10 ms.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "intrbench.h"

#define ROUNDS 20
#define N_MAX  10

struct phases phases;
static struct hako_intr_calib cal;
static struct hako_intr_probe_rec recs[HAKO_PROBE_MAX];

/* Sequential phases, packed phases, packed totals per N. */
static struct samples s_reg, s_t1, s_t2, s_t3, s_tot;
static struct samples p_t1, p_copy, p_t2, p_t3, p_cycle[N_MAX + 1];
static struct samples p_cycle_t;     /* N_MAX with a T trigger armed: its cost */

/* One configuration's records (time order) into the samples; packed: cycles
 * of n into `cycles` (with_t: only those, the phases are kept from without). */
static void analyse(bool packed, uint32_t n, uint32_t nrec, struct samples *cycles, bool with_t)
{
	uint32_t regs = 0;
	uint64_t cycle = 0;
	for (uint32_t i = 0; i < nrec; i++) {
		const struct hako_intr_probe_rec *r = &recs[i];
		if (r->cpu != RX_CPU)
			continue;
		if (r->kind == HAKO_PROBE_REG) {
			uint64_t s = cal.lean_prefix + (r->t[1] - r->t[0]) + cal.lean_suffix;
			samples_add(&s_reg, s);
			cycle += s;
			regs++;
			continue;
		}
		if (r->kind != HAKO_PROBE_FULL)
			continue;
		uint64_t t1 = cal.full_prefix + (r->t[1] - r->t[0]);
		uint64_t t3 = (r->t[4] - r->t[3]) + cal.full_suffix;
		uint64_t total = cal.full_prefix + (r->t[4] - r->t[0]) + cal.full_suffix;
		if (!packed && r->direct == 1) {
			samples_add(&s_t1, t1);
			samples_add(&s_t2, r->t[2] - r->t[1]);
			samples_add(&s_t3, t3);
			samples_add(&s_tot, total);
		} else if (packed && r->batched == n) {
			if (!with_t) {
				samples_add(&p_t1, t1);
				samples_add(&p_copy, r->t[2] - r->t[1]);
				samples_add(&p_t2, (r->t[3] - r->t[2]) / n);
				samples_add(&p_t3, t3);
			}
			if (regs == n - 1)
				samples_add(cycles, cycle + total);
		}
		regs = 0;
		cycle = 0;
	}
}

/* ROUNDS rounds of n frames with the probe on; packed: batches at N only
 * (t_ns 0) or also a T timer that never expires first (its cost). */
static int run_config(bool packed, uint32_t n, uint64_t t_ns)
{
	if (packed ? set_packed(n, t_ns, false) : set_sequential())
		return 1;
	drain_queue();
	struct reader rd = { .want = ROUNDS * n, .cpu = RX_CPU, .prio = 9 };
	if (reader_start(&rd))
		return 1;
	sleep_ms(1);                       /* the reader waits on CPU 1 */
	probe(HAKO_PROBE_START, 0, 0);
	if (traffic_start(n, PERIOD_NS, ROUNDS * n))
		return 1;
	int err = reader_join(&rd);
	traffic_wait();
	probe(HAKO_PROBE_STOP, 0, 0);
	long nrec = probe(HAKO_PROBE_READ, (uint64_t)recs, HAKO_PROBE_MAX);
	if (err || nrec < 0)
		return fail("phase run", nrec < 0 ? nrec : 0);
	analyse(packed, n, (uint32_t)nrec, t_ns ? &p_cycle_t : &p_cycle[n], t_ns != 0);
	return 0;
}

static uint64_t median_of(struct samples *s, const char *name, const char *what)
{
	return bench_report(name, s, what).median;
}

static void report_phases(void)
{
	struct phases *ph = &phases;
	ph->s = median_of(&s_reg, "intr_registration_s", "one registration, all of it");
	ph->t1_seq = median_of(&s_t1, "intr_seq_pre_t1", "interrupt to main handler, sequential");
	ph->t2_seq = median_of(&s_t2, "intr_seq_main_t2", "ack + work of one frame");
	ph->t3_seq = median_of(&s_t3, "intr_seq_post_t3", "main handler done to interrupted code");
	median_of(&s_tot, "intr_seq_total", "one sequential interrupt, all of it");
	uint64_t t1 = median_of(&p_t1, "intr_pack_pre_t1", "interrupt to batch, the N-th interrupt");
	uint64_t c = median_of(&p_copy, "intr_pack_copy_c", "the N-th's own volatile copy");
	ph->t2_pack = median_of(&p_t2, "intr_pack_main_t2", "batch work per entry");
	ph->t3_pack = median_of(&p_t3, "intr_pack_post_t3", "batch done to interrupted code");
	ph->t1_pack = t1 + c;
	ph->lean_entry = cal.lean_prefix;
	ph->full_entry = cal.full_prefix;
	ph->valid = s_reg.n && s_t1.n && p_t1.n;
	printf("intrbench: outside the stamps (self-IPI): registration %" PRIu64 " + %" PRIu64 ", full path %" PRIu64 " + %" PRIu64
	       " (entry + exit)\n", cal.lean_prefix, cal.lean_suffix, cal.full_prefix, cal.full_suffix);
	result_line("{\"kind\":\"intr-phases\",\"unit\":\"tsc\",\"s\":%" PRIu64 ",\"t1_seq\":%" PRIu64 ",\"t2_seq\":%" PRIu64 ","
		    "\"t3_seq\":%" PRIu64 ",\"t1_pack\":%" PRIu64 ",\"copy\":%" PRIu64 ",\"t2_pack\":%" PRIu64 ",\"t3_pack\":%" PRIu64 ","
		    "\"lean_entry\":%" PRIu64 ",\"lean_exit\":%" PRIu64 ",\"full_entry\":%" PRIu64 ",\"full_exit\":%" PRIu64 "}",
		    ph->s, ph->t1_seq, ph->t2_seq, ph->t3_seq, t1, c, ph->t2_pack, ph->t3_pack,
		    cal.lean_prefix, cal.lean_suffix, cal.full_prefix, cal.full_suffix);
}

/* Totals per N against the models; the break-even N. */
static void report_totals(void)
{
	const struct phases *ph = &phases;
	uint64_t seq_one = ph->t1_seq + ph->t2_seq + ph->t3_seq;
	const struct bench_stats *st = bench_find("intr_seq_total");
	uint64_t seq_measured = st ? st->median : 0;
	int first_win = 0;
	printf("\nintrbench: total cost of N interrupts (instructions; sequential measured = N x one)\n");
	printf("   N  sequential measured / model    packed measured / model   saving\n");
	for (uint32_t n = 1; n <= N_MAX; n++) {
		char name[32];
		snprintf(name, sizeof name, "intr_pack_total_n%u", n);
		uint64_t pm = bench_report(name, &p_cycle[n], "N interrupts packed, one batch").median;
		uint64_t sm = n * seq_measured, smod = n * seq_one;
		uint64_t pmod = (n - 1) * ph->s + ph->t1_pack + n * ph->t2_pack + ph->t3_pack;
		long save = sm ? ((long)sm - (long)pm) * 1000 / (long)sm : 0;
		if (!first_win && pm < sm)
			first_win = (int)n;
		printf("  %2u  %9" PRIu64 " / %9" PRIu64 "      %9" PRIu64 " / %9" PRIu64 "   %s%ld.%ld %%\n", n, sm, smod, pm, pmod,
		       save < 0 ? "-" : "", (save < 0 ? -save : save) / 10, (save < 0 ? -save : save) % 10);
		result_line("{\"kind\":\"intr-total\",\"unit\":\"tsc\",\"n\":%u,\"seq_measured\":%" PRIu64 ","
			    "\"seq_model\":%" PRIu64 ",\"packed_measured\":%" PRIu64 ",\"packed_model\":%" PRIu64 ","
			    "\"saving_permille\":%ld}", n, sm, smod, pm, pmod, save);
	}
	/* N* where (N-1)s + t1 + N t2 + t3 = N (t1 + t2 + t3), in hundredths. */
	long num = (long)(ph->t1_pack + ph->t3_pack) - (long)ph->s;
	long den = (long)seq_one - (long)ph->s - (long)ph->t2_pack;
	long model = den > 0 ? num * 100 / den : -1;
	printf("intrbench: break-even N: model %s%ld.%02ld, measured: packed cheaper from N = %d\n",
	       model < 0 ? "-" : "", (model < 0 ? -model : model) / 100,
	       (model < 0 ? -model : model) % 100, first_win);
	result_line("{\"kind\":\"intr-breakeven\",\"model_n_x100\":%ld,\"measured_n\":%d}", model, first_win);
}

int part_phases(void)
{
	printf("\nintrbench: part 1, phases (Table 2) and totals for N = 1..%d\n", N_MAX);
	struct samples *all[] = { &s_reg, &s_t1, &s_t2, &s_t3, &s_tot, &p_t1, &p_copy, &p_t2, &p_t3 };
	for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
		if (samples_init(all[i], 2048))
			return 1;
	for (uint32_t n = 1; n <= N_MAX; n++)
		if (samples_init(&p_cycle[n], ROUNDS))
			return 1;
	if (samples_init(&p_cycle_t, ROUNDS))
		return 1;
	if (calibrate_rx(&cal))
		return 1;
	for (uint32_t n = 1; n <= N_MAX; n++)
		if (run_config(true, n, 0))
			return 1;
	if (run_config(true, N_MAX, 100000000) || run_config(false, N_MAX, 0))
		return 1;
	report_phases();
	report_totals();
	const struct bench_stats *without = bench_find("intr_pack_total_n10");
	uint64_t with = bench_report("intr_pack_total_n10_with_t", &p_cycle_t,
				     "the same with a T timer armed and cancelled").median;
	if (without)
		result_line("{\"kind\":\"intr-t-cost\",\"unit\":\"tsc\",\"n\":%d,\"per_batch\":%ld}", N_MAX,
			    (long)with - (long)without->median);
	set_sequential();
	return 0;
}
