/*
 * intr_pack_ctl.c — interrupt packaging under control: the settings of a
 * source (check, then act), the adaptive policy, the counters' snapshot
 * and reset, the batches' statistics and the grouping switch, and the
 * phase probe.  The intr_ctl system call, which
 * checks and copies for these, is in syscall/sys_intr.c.
 *
 * Adaptive mode keeps a moving average g of the time between a source's
 * interrupts.  With interrupts g apart and a batch every N, the paper's
 * average delay is about (N-1)/2 * g (plus the handling itself), so for a
 * bound B the policy takes N = 1 + 2 * (7/8 B) / g (an eighth of B kept
 * for the handling), at most 32, and T = 2 * 7/8 B so a rate that drops
 * cannot strand entries for long.  N = 1 means the interrupts are handled
 * sequentially.  The choice is revisited after every batch.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <cpu.h>
#include <errno.h>
#include <intr_pack.h>
#include <smp.h>
#include <spinlock.h>
#include <thread.h>
#include <time.h>
#include "intr_pack_internal.h"

void intr_pack_adapt(struct intr_src *s)
{
	uint64_t b = s->bound_tsc - s->bound_tsc / 8, g = s->gap_ewma, n = 1;
	if (g)
		n = 1 + 2 * b / g;
	s->n_now = n > PACK_N_MAX ? PACK_N_MAX : (uint32_t)n;
	s->t_now = 2 * b;
}

int intr_pack_check(const struct hako_intr_set *set)
{
	if (set->reserved || (set->flags & ~(uint32_t)HAKO_INTR_TICK))
		return -EINVAL;
	switch (set->mode) {
	case HAKO_INTR_SEQUENTIAL:
		return 0;
	case HAKO_INTR_PACKED:
		return set->n < 1 || set->n > PACK_N_MAX || set->t_ns > HAKO_INTR_T_MAX_NS ? -EINVAL : 0;
	case HAKO_INTR_ADAPTIVE:
		return set->bound_ns >= HAKO_INTR_BOUND_MIN_NS && set->bound_ns <= HAKO_INTR_T_MAX_NS
		       ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* New settings in force, then what is pending handled: the rest starts clean. */
int intr_pack_configure(struct intr_src *s, const struct hako_intr_set *set)
{
	int err = intr_pack_check(set);
	if (err < 0)
		return err;
	if (s->forwarded && set->mode != HAKO_INTR_SEQUENTIAL)
		return -EPERM;                   /* a driver process's card: packaging is in-kernel only */
	/* Only what intr_pack_check bounded is converted: a field the mode does
	 * not use may hold anything, and ns_to_tsc of it could overflow. */
	s->bound_tsc = set->mode == HAKO_INTR_ADAPTIVE ? ns_to_tsc(set->bound_ns) : 0;
	s->t_now = set->mode == HAKO_INTR_PACKED ? ns_to_tsc(set->t_ns) : 0;
	s->n_now = set->mode == HAKO_INTR_PACKED ? set->n : 1;
	s->set = *set;
	if (set->mode == HAKO_INTR_ADAPTIVE)
		intr_pack_adapt(s);
	intr_pack_flush(s);                    /* also points the lean stub the new way */
	return 0;
}

void intr_pack_snapshot(struct intr_src *s, struct hako_intr_dev *out)
{
	memset(out, 0, sizeof *out);
	strlcpy(out->name, s->name, sizeof out->name);
	strlcpy(out->type, s->type, sizeof out->type);
	out->vector = s->vector;
	out->cpu = s->vector ? s->cpu : -1;
	out->set = s->set;
	out->n_now = s->n_now;
	out->pending = s->head - s->tail;
	out->t_now_ns = tsc_to_ns(s->t_now);
	out->gap_ns = tsc_to_ns(s->gap_ewma);
	out->c = s->c;
}

struct reset_call {
	struct intr_src *s;
	int err;
};

/* On the source's CPU with interrupts off, so no interrupt of it lands in
 * between; not inside a batch there (its entries are being handled). */
static void reset_here(void *arg)
{
	struct reset_call *r = arg;
	if (intr_pack_batching_here()) {
		r->err = -EBUSY;
		return;
	}
	intr_pack_flush(r->s);
	r->s->c = (struct hako_intr_counters){ 0 };
	r->err = 0;
}

/* -EBUSY if a batch was running on the source's CPU: try again. */
int intr_pack_reset(struct intr_src *s)
{
	struct reset_call r = { s, 0 };
	push_off();
	int cpu = s->vector ? s->cpu : cpu_id();
	if (cpu == cpu_id())
		reset_here(&r);
	else
		smp_call_mask(1ull << cpu, reset_here, &r, true);
	pop_off();
	return r.err;
}

/* ---- batch statistics and grouping ------------------------------------------- */

/* Every CPU's counts added up.  Each CPU's are written only by its own
 * batches, so a read while one runs may see that batch half counted. */
void intr_pack_stats(struct hako_intr_stats *out)
{
	memset(out, 0, sizeof *out);
	out->group = pack_group;
	for (int i = 0; i < ncpus; i++) {
		const struct hako_intr_stats *c = &pack_cpus[i].stats;
		out->batches += c->batches;
		out->entries += c->entries;
		out->runs += c->runs;
		for (int t = 0; t < HAKO_INTR_TYPES_HIST; t++)
			out->types[t] += c->types[t];
	}
}

/* A batch already running keeps the order it started with. */
int intr_pack_set_group(uint64_t on)
{
	if (on > 1)
		return -EINVAL;
	pack_group = on;
	return 0;
}

/* ---- the phase probe --------------------------------------------------------- */

volatile bool intr_pack_probing;
static struct hako_intr_probe_rec probe_recs[HAKO_PROBE_MAX];
static volatile uint32_t probe_next;
static struct spinlock probe_lock = SPINLOCK_INIT("intr-probe", LOCK_INTR_PROBE);   /* START */

/* Interrupts off, any CPU: the next record, or NULL once the buffer is full. */
struct hako_intr_probe_rec *intr_pack_probe_slot(void)
{
	uint32_t i = __atomic_fetch_add(&probe_next, 1, __ATOMIC_RELAXED);
	return i < HAKO_PROBE_MAX ? &probe_recs[i] : NULL;
}

/* One self-interrupt on s's vector down the lean (or full) path: its record. */
static bool shoot(int vector, bool full, uint64_t out[2], struct hako_intr_probe_rec *rec)
{
	push_off();
	uint32_t i = probe_next;
	arch_intr_divert(vector, full);
	pop_off();                             /* interrupts on: the IPI is taken at once */
	arch_intr_probe_self(vector, true, out);
	if (i >= HAKO_PROBE_MAX || probe_recs[i].kind != (full ? HAKO_PROBE_FULL : HAKO_PROBE_REG))
		return false;
	*rec = probe_recs[i];
	return rec->cpu == cpu_id();
}

/* Recording from the first record again. */
void intr_pack_probe_start(void)
{
	spin_lock(&probe_lock);
	intr_pack_probing = false;
	probe_next = 0;
	intr_pack_probing = true;
	spin_unlock(&probe_lock);
}

void intr_pack_probe_stop(void)
{
	intr_pack_probing = false;
}

/* The records taken so far, *n of them (the rest were lost to a full buffer). */
const struct hako_intr_probe_rec *intr_pack_probe_records(uint32_t *n)
{
	*n = probe_next < HAKO_PROBE_MAX ? probe_next : HAKO_PROBE_MAX;
	return probe_recs;
}

/* The least of 8 shots each way (a tick may land in one). */
int intr_pack_calibrate(struct intr_src *s, struct hako_intr_calib *calib)
{
	int vector = __atomic_load_n(&s->vector, __ATOMIC_RELAXED);
	if (!vector)
		return -ENODEV;
	struct hako_intr_calib c = { .base = ~0ull, .lean_prefix = ~0ull, .lean_suffix = ~0ull,
				     .full_prefix = ~0ull, .full_suffix = ~0ull };
	uint64_t out[2];
	struct hako_intr_probe_rec r;
	for (int k = 0; k < 8; k++) {
		arch_intr_probe_self(vector, false, out);
		c.base = out[1] - out[0] < c.base ? out[1] - out[0] : c.base;
	}
	bool was = intr_pack_probing;          /* the benchmark calibrates before it probes */
	uint32_t next = probe_next;
	intr_pack_probing = true;
	for (int k = 0; k < 16; k++) {
		bool full = k & 1;
		if (!shoot(vector, full, out, &r))
			continue;
		uint64_t pre = r.t[0] - out[0] - c.base, post = out[1] - r.t[full ? 4 : 1];
		uint64_t *p = full ? &c.full_prefix : &c.lean_prefix, *q = full ? &c.full_suffix : &c.lean_suffix;
		*p = pre < *p ? pre : *p;
		*q = post < *q ? post : *q;
	}
	probe_next = next;
	intr_pack_probing = was;
	intr_pack_flush(s);                    /* and the lean stub pointed right again */
	*calib = c;
	return 0;
}
