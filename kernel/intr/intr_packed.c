/*
 * intr_packed.c — packed interrupt handling (paper 000): the
 * registration, the batch, and the triggers that start it.
 *
 * Registration.  With the vector's divert byte clear, the lean stub
 * (vectors.S) saves only the scratch registers and calls
 * intr_pack_register: each source on the vector is asked for its
 * volatile data (ack), which goes with the arrival stamp into the
 * source's ring; then EOI and back — no mask change, no interrupts
 * enabled, no trap().
 *
 * The batch runs one pre-processing, then, for each source type in turn,
 * the entries of that type's sources on this CPU merged by arrival stamp
 * (the main handlers, work), then one post-processing.  With grouping off
 * (intr_pack_set_group) it merges every source's entries by arrival stamp
 * instead, types interleaved: the comparison the paper's grouping needs.
 * Each batch counts, per CPU, how many types it held and in how many
 * stretches of one type it ran their handlers.  It runs with
 * interrupts on but the LAPIC priority raised above every packed vector,
 * so no registration interrupts it; cpu->irq_nest keeps the scheduler
 * from switching away.
 *
 * Triggers: N (the registration that leaves N-1 entries sets the divert
 * byte, so the N-th interrupt takes the full path, intr_sequential.c,
 * which runs the batch — as does an interrupt handled sequentially on
 * the same CPU, "urgent"); T (a per-source timer armed at the first
 * pending entry); the scheduler tick (intr_pack_tick); a full ring
 * (drained at once); a flush (intr_pack_flush: new settings, detach,
 * reset).  Timer-started batches run at the end of the timer's interrupt,
 * after its EOI (intr_pack_irq_exit).
 *
 * Concurrency.  A source's interrupts are delivered to one CPU (its cpu),
 * so registrations of a source run there, with interrupts off; the ring
 * is single-producer (that CPU) and single-consumer: whoever sets
 * `consuming` (the batch on that CPU, or a flush from anywhere) takes
 * entries.  Counters written at arrival (interrupts, registered,
 * not_mine) have the source's CPU as their only writer; those written at
 * handling (handled, delay, batches) the current consumer.
 *
 * The other way, sequential handling, is intr_sequential.c; what a source
 * is and which way it goes is intr_source.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "intr_pack_internal.h"

struct pack_cpu pack_cpus[MAX_CPUS];
volatile bool pack_group = true;

/* ---- the ring and the counters ------------------------------------------- */

static bool ring_put(struct intr_src *s, uint32_t data, uint64_t stamp)
{
	uint32_t h = s->head;
	if (h - s->tail >= PACK_RING)
		return false;
	s->ring[h % PACK_RING] = (struct pack_entry){ .stamp = stamp, .data = data };
	__atomic_store_n(&s->head, h + 1, __ATOMIC_RELEASE);
	return true;
}

static bool claim(struct intr_src *s)
{
	return __atomic_exchange_n(&s->consuming, 1, __ATOMIC_ACQUIRE) == 0;
}

static void release(struct intr_src *s)
{
	__atomic_store_n(&s->consuming, 0, __ATOMIC_RELEASE);
}

static void count_batch(struct intr_src *s, int reason)
{
	s->c.batches++;
	uint64_t *by[] = { NULL, &s->c.by_n, &s->c.by_t, &s->c.by_tick, &s->c.by_urgent,
			   &s->c.by_full, &s->c.by_flush };
	if (reason > BY_NONE && reason <= BY_FLUSH)
		(*by[reason])++;
}

/* The lean stub sends the next interrupt of l down the full path if it
 * must be handled at once or would complete a batch. */
void pack_refresh_divert(struct pack_line *l)
{
	bool divert = false;
	for (struct intr_src *s = l->first; s; s = s->line_next)
		divert |= direct(s) || pending(s) + 1 >= s->n_now;
	arch_intr_divert(l->vector, divert);
}

/* ---- registration ---------------------------------------------------------- */

static void arm_t(struct intr_src *s, uint64_t stamp)
{
	if (s->t_now && s->t_timer.cpu < 0)
		timer_arm(&s->t_timer, stamp + s->t_now);
}

/* Every entry of s now, in order, interrupts off; waits for a batch elsewhere to let go. */
static void drain(struct intr_src *s, int reason)
{
	push_off();
	while (!claim(s))
		arch_spin_hint();
	int n = 0;
	for (uint32_t end = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE); s->tail != end; n++) {
		struct pack_entry e = s->ring[s->tail % PACK_RING];
		s->work(s, e.data);
		handled(s, e.stamp);
		__atomic_store_n(&s->tail, s->tail + 1, __ATOMIC_RELEASE);
	}
	if (n)
		count_batch(s, reason);
	release(s);
	int vector = __atomic_load_n(&s->vector, __ATOMIC_RELAXED);   /* detach may clear it */
	if (vector)
		pack_refresh_divert(line_of(vector));
	pop_off();
}

/* Into the ring (emptied first if it is full), and the T timer for the first entry. */
void pack_record(struct intr_src *s, uint32_t data, uint64_t stamp)
{
	if (!ring_put(s, data, stamp)) {
		drain(s, BY_FULL);
		ring_put(s, data, stamp);
	}
	s->c.registered++;
	if (pending(s) == 1)
		arm_t(s, stamp);
}

/*
 * Called by the lean stub (vectors.S) with only the scratch registers
 * saved and interrupts off: identify the source, copy its volatile data
 * into its ring, count, acknowledge the LAPIC.  Returns 1 to send the
 * interrupt down the full path instead (a ring is full: nothing is
 * acknowledged yet).
 */
int intr_pack_register(int vector, uint64_t stamp)
{
	struct hako_intr_probe_rec *rec = probe(HAKO_PROBE_REG, stamp);
	struct pack_line *l = line_of(vector);
	struct intr_src *first = line_enter(l);
	for (struct intr_src *s = first; s; s = s->line_next)
		if (pending(s) >= PACK_RING) {
			if (rec)
				rec->kind = 0;         /* not a registration after all */
			line_leave(l);
			return 1;
		}
	bool mine = false;
	for (struct intr_src *s = first; s; s = s->line_next) {
		uint32_t data = ask(s, stamp, &mine);
		if (!data)
			continue;
		pack_record(s, data, stamp);   /* there is room: checked above */
		if (pending(s) + 1 >= s->n_now)
			arch_intr_divert(vector, true);   /* the next one completes the batch */
	}
	count_unclaimed(first, mine);
	line_leave(l);
	this_cpu()->irqs++;
	arch_intr_eoi();
	probe_stamp(rec, 1);
	return 0;
}

/* ---- the batch ------------------------------------------------------------- */

/* Index past the sources of pack_by_type[i]'s type. */
static int group_end(int i)
{
	int j = i + 1;
	while (j < pack_nsrcs && strcmp(pack_by_type[j]->type, pack_by_type[i]->type) == 0)
		j++;
	return j;
}

/* What one batch ran: the types it held, the stretches of one type's
 * handlers (a new one at each change of type), and when it started. */
struct batch_mix {
	uint64_t start;
	uint32_t types;                  /* bit type_id */
	uint32_t ntypes;                 /* bits set in types */
	uint32_t runs;
	int last;                        /* type_id of the handler run last, -1 */
};

/* The sources pack_by_type[i..j) on cpu (one type, or every type when
 * batches are not grouped): their entries merged by arrival stamp. */
static int run_group(int i, int j, int cpu, int reason, struct batch_mix *mix)
{
	struct intr_src *mine[PACK_SRC_MAX];
	uint32_t end[PACK_SRC_MAX];
	int k = 0, done = 0;
	for (int x = i; x < j; x++) {
		struct intr_src *s = pack_by_type[x];
		if (s->cpu != cpu || !pending(s) || !claim(s))
			continue;
		mine[k] = s;
		end[k++] = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
		uint64_t wait = mix->start - s->ring[s->tail % PACK_RING].stamp;   /* its oldest entry's */
		if (wait > s->c.wait_max)
			s->c.wait_max = wait;
	}
	for (;;) {
		int best = -1;
		for (int m = 0; m < k; m++)
			if (mine[m]->tail != end[m] &&
			    (best < 0 || mine[m]->ring[mine[m]->tail % PACK_RING].stamp <
					 mine[best]->ring[mine[best]->tail % PACK_RING].stamp))
				best = m;
		if (best < 0)
			break;
		struct intr_src *s = mine[best];
		struct pack_entry e = s->ring[s->tail % PACK_RING];
		if (s->type_id != mix->last) {
			mix->last = s->type_id;
			mix->runs++;
			if (!(mix->types & 1u << s->type_id)) {
				mix->types |= 1u << s->type_id;
				mix->ntypes++;
			}
		}
		s->work(s, e.data);
		handled(s, e.stamp);
		__atomic_store_n(&s->tail, s->tail + 1, __ATOMIC_RELEASE);
		done++;
	}
	for (int m = 0; m < k; m++) {
		if (!pending(mine[m]) && mine[m]->t_timer.cpu >= 0)
			timer_cancel(&mine[m]->t_timer);   /* cheaper than a timer interrupt for nothing */
		count_batch(mine[m], reason);
		if (mine[m]->set.mode == HAKO_INTR_ADAPTIVE)
			intr_pack_adapt(mine[m]);
		int vector = mine[m]->vector;   /* still attached: detach waits for the claim */
		release(mine[m]);
		if (vector)
			pack_refresh_divert(line_of(vector));
	}
	return done;
}

/* A batch's types and stretches into this CPU's statistics. */
static void count_mix(struct pack_cpu *pc, const struct batch_mix *mix, int total)
{
	if (!total)
		return;
	uint32_t types = mix->ntypes;
	pc->stats.batches++;
	pc->stats.entries += (uint64_t)total;
	pc->stats.runs += mix->runs;
	pc->stats.types[(types < HAKO_INTR_TYPES_HIST ? types : HAKO_INTR_TYPES_HIST) - 1]++;
}

/* Every type in turn (or every source at once, ungrouped); a second round
 * for entries a remote flush left. */
int pack_run_batch(struct pack_cpu *pc, int cpu, int reason)
{
	int total = 0;
	bool group = pack_group;
	struct batch_mix mix = { .start = arch_tsc(), .last = -1 };
	pc->batching = true;
	for (int round = 0; round < 2; round++) {
		int done = 0;
		if (group)
			for (int i = 0; i < pack_nsrcs; i = group_end(i))
				done += run_group(i, group_end(i), cpu, reason, &mix);
		else
			done = run_group(0, pack_nsrcs, cpu, reason, &mix);
		total += done;
		if (!done)
			break;
	}
	count_mix(pc, &mix, total);
	pc->batching = false;
	return total;
}

bool intr_pack_batching_here(void)
{
	return pack_cpus[cpu_id()].batching;
}

/* ---- timer triggers -------------------------------------------------------- */

static void kick(int reason)
{
	struct pack_cpu *pc = &pack_cpus[cpu_id()];
	if (!pc->kick)
		pc->kick = reason;
}

/* T after the oldest entry was registered (interrupts off, on s's CPU). */
void pack_t_expired(struct timer *t, void *arg)
{
	struct intr_src *s = arg;
	if (!pending(s))
		return;
	uint64_t due = s->ring[s->tail % PACK_RING].stamp + s->t_now;
	if (s->t_now && arch_tsc() < due)
		timer_arm(t, due);             /* the oldest is younger than T: later */
	else
		kick(BY_T);
}

/* Sources that wait for the tick, and leftovers of a mode switch. */
void intr_pack_tick(void)
{
	int cpu = cpu_id();
	for (int i = 0; i < pack_nsrcs; i++) {
		struct intr_src *s = pack_by_id[i];
		if (s->cpu == cpu && pending(s) && ((s->set.flags & HAKO_INTR_TICK) || direct(s))) {
			kick(BY_TICK);
			return;
		}
	}
}

/* End of an interrupt, after its EOI: a batch a timer asked for.  The
 * interrupt saved the registers and sent the EOI, so the pre-processing
 * left is holding the packed vectors back and enabling interrupts. */
void intr_pack_irq_exit(void)
{
	struct cpu *c = this_cpu();
	struct pack_cpu *pc = &pack_cpus[c->id];
	if (!pc->kick || pc->batching)
		return;
	int reason = pc->kick;
	pc->kick = BY_NONE;
	struct hako_intr_probe_rec *rec = probe(HAKO_PROBE_KICK, arch_tsc());
	unsigned held = arch_intr_block_upto(pack_top_vector);
	c->irq_nest++;
	arch_irq_enable();
	probe_stamp(rec, 1);
	probe_stamp(rec, 2);
	int batched = pack_run_batch(pc, c->id, reason);
	probe_stamp(rec, 3);
	arch_irq_disable();
	c->irq_nest--;
	arch_intr_unblock(held);
	if (rec)
		rec->batched = (uint16_t)batched;
	probe_stamp(rec, 4);
}

/* ---- flush ----------------------------------------------------------------- */

/* Run s's pending main handlers now, in order, from any context that may spin. */
void intr_pack_flush(struct intr_src *s)
{
	drain(s, BY_FLUSH);
}
