/*
 * intr_pack.c — interrupt packaging (paper 000): the registration, the
 * full path (sequential handling, and the interrupt that completes a
 * batch), the batch and its triggers.  Settings, the adaptive policy and
 * the counters' snapshot are in intr_pack_ctl.c; intr_pack.h says what
 * the two modes do.
 *
 * Concurrency.  A source's interrupts are delivered to one CPU (its cpu),
 * so registrations of a source run there, with interrupts off; the ring
 * is single-producer (that CPU) and single-consumer: whoever sets
 * `consuming` (the batch on that CPU, or a flush from anywhere) takes
 * entries.  Counters written at arrival (interrupts, registered,
 * not_mine) have the source's CPU as their only writer; those written at
 * handling (handled, delay, batches) the current consumer.  A batch runs
 * with interrupts on but the LAPIC priority raised above every packed
 * vector, and cpu->irq_nest keeps the scheduler from switching away.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <cpu.h>
#include <errno.h>
#include <intr.h>
#include <intr_pack.h>
#include <spinlock.h>

enum reason { BY_NONE, BY_N, BY_T, BY_TICK, BY_URGENT, BY_FULL, BY_FLUSH };

struct pack_line {                   /* the sources on one vector */
	struct intr_src *volatile first;
	int vector;
	int gsi;                         /* level line to mask, -1: LAPIC priority */
};

struct pack_cpu {
	volatile int kick;               /* a timer asked for a batch: its reason */
	bool batching;                   /* a batch runs on this CPU */
};

static struct pack_line lines[VECTOR_DEVICE_LAST - VECTOR_DEVICE_FIRST + 1];
static struct pack_cpu pcpu[MAX_CPUS];
static struct intr_src *by_id[PACK_SRC_MAX];
static struct intr_src *by_type[PACK_SRC_MAX];   /* sorted by type: the batch's order */
static int nsrcs;
static int top_vector = VECTOR_DEVICE_FIRST;     /* a batch holds this class and below */
static struct spinlock pack_lock = SPINLOCK_INIT("intr-pack", LOCK_INTR_PACK);   /* registry, lines */

static struct pack_line *line_of(int vector) { return &lines[vector - VECTOR_DEVICE_FIRST]; }
static uint32_t pending(const struct intr_src *s) { return s->head - s->tail; }

/* Handled at once, not registered: sequential, or adaptive with N = 1. */
static bool direct(const struct intr_src *s)
{
	return s->set.mode == HAKO_INTR_SEQUENTIAL || (s->set.mode == HAKO_INTR_ADAPTIVE && s->n_now <= 1);
}

/* ---- registry ------------------------------------------------------------ */

static void t_expired(struct timer *t, void *arg);

int intr_pack_add(struct intr_src *s)
{
	spin_lock(&pack_lock);
	int id = nsrcs < PACK_SRC_MAX ? nsrcs : -ENOSPC;
	if (id >= 0) {
		s->id = id;
		s->vector = 0;
		s->cpu = -1;
		s->set = (struct hako_intr_set){ .mode = HAKO_INTR_SEQUENTIAL, .n = 8,
						 .flags = HAKO_INTR_TICK };
		s->n_now = 1;
		timer_init(&s->t_timer, t_expired, s);
		by_id[id] = s;
		int i = nsrcs++;
		while (i > 0 && strcmp(by_type[i - 1]->type, s->type) > 0) {
			by_type[i] = by_type[i - 1];
			i--;
		}
		by_type[i] = s;
	}
	spin_unlock(&pack_lock);
	return id;
}

int intr_pack_count(void) { return nsrcs; }

struct intr_src *intr_pack_get(int id) { return id >= 0 && id < nsrcs ? by_id[id] : NULL; }

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

/* An interrupt that was s's, at stamp: count it, follow the arrival rate. */
static void arrived(struct intr_src *s, uint64_t stamp)
{
	s->c.interrupts++;
	if (s->last_stamp) {
		uint64_t gap = stamp - s->last_stamp;
		s->gap_ewma = s->gap_ewma ? s->gap_ewma - (s->gap_ewma >> 3) + (gap >> 3) : gap;
	}
	s->last_stamp = stamp;
}

static void handled(struct intr_src *s, uint64_t stamp)
{
	uint64_t delay = arch_tsc() - stamp;
	s->c.handled++;
	s->c.delay_sum += delay;
	if (delay > s->c.delay_max)
		s->c.delay_max = delay;
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
static void refresh_divert(struct pack_line *l)
{
	bool divert = false;
	for (struct intr_src *s = l->first; s; s = s->line_next)
		divert |= direct(s) || pending(s) + 1 >= s->n_now;
	arch_intr_divert(l->vector, divert);
}

/* ---- registration ---------------------------------------------------------- */

/* The phase probe's record for this interrupt, NULL when it is off.  Its
 * stamps are written straight into the record, the last one just before
 * the return, so the probe adds a few instructions per stamp and nothing
 * after the last one. */
static struct hako_intr_probe_rec *probe(int kind, uint64_t t0)
{
	struct hako_intr_probe_rec *r = intr_pack_probing ? intr_pack_probe_slot() : NULL;
	if (r) {
		r->kind = (uint16_t)kind;
		r->cpu = (uint16_t)cpu_id();
		r->t[0] = t0;
	}
	return r;
}

static void probe_stamp(struct hako_intr_probe_rec *r, int i)
{
	if (r)
		r->t[i] = arch_tsc();
}

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
	if (s->vector)
		refresh_divert(line_of(s->vector));
	pop_off();
}

/* Ask s whether the interrupt is its own: if so, count it and return its volatile data. */
static uint32_t ask(struct intr_src *s, uint64_t stamp, bool *mine)
{
	uint32_t data = s->ack(s);
	if (data) {
		*mine = true;
		arrived(s, stamp);
	}
	return data;
}

/* Into the ring (emptied first if it is full), and the T timer for the first entry. */
static void record(struct intr_src *s, uint32_t data, uint64_t stamp)
{
	if (!ring_put(s, data, stamp)) {
		drain(s, BY_FULL);
		ring_put(s, data, stamp);
	}
	s->c.registered++;
	if (pending(s) == 1)
		arm_t(s, stamp);
}

static void count_unclaimed(struct pack_line *l, bool mine)
{
	if (!mine && l->first)
		l->first->c.not_mine++;
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
	for (struct intr_src *s = l->first; s; s = s->line_next)
		if (pending(s) >= PACK_RING) {
			if (rec)
				rec->kind = 0;         /* not a registration after all */
			return 1;
		}
	bool mine = false;
	for (struct intr_src *s = l->first; s; s = s->line_next) {
		uint32_t data = ask(s, stamp, &mine);
		if (!data)
			continue;
		record(s, data, stamp);        /* there is room: checked above */
		if (pending(s) + 1 >= s->n_now)
			arch_intr_divert(vector, true);   /* the next one completes the batch */
	}
	count_unclaimed(l, mine);
	this_cpu()->irqs++;
	arch_intr_eoi();
	probe_stamp(rec, 1);
	return 0;
}

/* ---- the batch ------------------------------------------------------------- */

/* Index past the sources of by_type[i]'s type. */
static int group_end(int i)
{
	int j = i + 1;
	while (j < nsrcs && strcmp(by_type[j]->type, by_type[i]->type) == 0)
		j++;
	return j;
}

/* The sources of one type on cpu: their entries merged by arrival stamp. */
static int run_group(int i, int j, int cpu, int reason)
{
	struct intr_src *mine[PACK_SRC_MAX];
	uint32_t end[PACK_SRC_MAX];
	int k = 0, done = 0;
	for (int x = i; x < j; x++) {
		struct intr_src *s = by_type[x];
		if (s->cpu != cpu || !pending(s) || !claim(s))
			continue;
		mine[k] = s;
		end[k++] = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
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
		release(mine[m]);
		refresh_divert(line_of(mine[m]->vector));
	}
	return done;
}

/* Every type in turn; a second round for entries a remote flush left. */
static int run_batch(struct pack_cpu *pc, int cpu, int reason)
{
	int total = 0;
	pc->batching = true;
	for (int round = 0; round < 2; round++) {
		int done = 0;
		for (int i = 0; i < nsrcs; i = group_end(i))
			done += run_group(i, group_end(i), cpu, reason);
		total += done;
		if (!done)
			break;
	}
	pc->batching = false;
	return total;
}

bool intr_pack_batching_here(void)
{
	return pcpu[cpu_id()].batching;
}

static bool cpu_has_pending(int cpu)
{
	for (int i = 0; i < nsrcs; i++)
		if (by_id[i]->cpu == cpu && pending(by_id[i]))
			return true;
	return false;
}

/* Whether this full-path interrupt of l runs the batch, and why. */
static int batch_reason(struct pack_line *l, int cpu)
{
	bool urgent = false;
	for (struct intr_src *s = l->first; s; s = s->line_next) {
		if (direct(s))
			urgent = true;
		else if (pending(s) + 1 >= s->n_now)
			return BY_N;
	}
	return urgent && cpu_has_pending(cpu) ? BY_URGENT : BY_NONE;
}

/* Ask each source on l; handle a sequential one now, register a packed one. */
static int own_sources(struct pack_line *l, uint64_t stamp)
{
	int n = 0;
	bool mine = false;
	for (struct intr_src *s = l->first; s; s = s->line_next) {
		uint32_t data = ask(s, stamp, &mine);
		if (!data)
			continue;
		if (!direct(s)) {
			record(s, data, stamp);    /* a full ring (the registration diverted) is emptied */
			continue;
		}
		s->work(s, data);
		handled(s, stamp);
		if (s->set.mode == HAKO_INTR_ADAPTIVE)
			intr_pack_adapt(s);
		n++;
	}
	count_unclaimed(l, mine);
	return n;
}

/*
 * The full path: registered with intr_register_own_eoi, so trap() leaves
 * the EOI to us.  Pre-processing (registers already saved by the entry):
 * mask the line (or raise the LAPIC priority to our class), EOI, and if a
 * batch follows hold every packed vector back; interrupts on.  Then the
 * sources' main handlers (or registrations), the batch, and the
 * post-processing in reverse.
 */
static void pack_full(void *arg)
{
	struct pack_line *l = arg;
	uint64_t t0 = arch_tsc();
	struct hako_intr_probe_rec *rec = probe(HAKO_PROBE_FULL, t0);
	struct cpu *c = this_cpu();
	struct pack_cpu *pc = &pcpu[c->id];
	int reason = pc->batching ? BY_NONE : batch_reason(l, c->id);
	unsigned own = 0, held = 0;
	if (l->gsi >= 0)
		arch_intr_line_mask(l->gsi, true);
	else
		own = arch_intr_block_upto(l->vector);
	arch_intr_eoi();
	if (reason)
		held = arch_intr_block_upto(top_vector);
	c->irq_nest++;
	arch_irq_enable();
	probe_stamp(rec, 1);
	int direct_n = own_sources(l, t0);
	probe_stamp(rec, 2);
	int batched = reason ? run_batch(pc, c->id, reason) : 0;
	probe_stamp(rec, 3);
	arch_irq_disable();
	c->irq_nest--;
	if (reason)
		arch_intr_unblock(held);
	if (l->gsi >= 0)
		arch_intr_line_mask(l->gsi, false);
	else
		arch_intr_unblock(own);
	refresh_divert(l);
	if (rec) {
		rec->direct = (uint16_t)direct_n;
		rec->batched = (uint16_t)batched;
	}
	probe_stamp(rec, 4);
}

/* ---- timer triggers -------------------------------------------------------- */

static void kick(int reason)
{
	struct pack_cpu *pc = &pcpu[cpu_id()];
	if (!pc->kick)
		pc->kick = reason;
}

/* T after the oldest entry was registered (interrupts off, on s's CPU). */
static void t_expired(struct timer *t, void *arg)
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
	for (int i = 0; i < nsrcs; i++) {
		struct intr_src *s = by_id[i];
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
	struct pack_cpu *pc = &pcpu[c->id];
	if (!pc->kick || pc->batching)
		return;
	int reason = pc->kick;
	pc->kick = BY_NONE;
	struct hako_intr_probe_rec *rec = probe(HAKO_PROBE_KICK, arch_tsc());
	unsigned held = arch_intr_block_upto(top_vector);
	c->irq_nest++;
	arch_irq_enable();
	probe_stamp(rec, 1);
	probe_stamp(rec, 2);
	int batched = run_batch(pc, c->id, reason);
	probe_stamp(rec, 3);
	arch_irq_disable();
	c->irq_nest--;
	arch_intr_unblock(held);
	if (rec)
		rec->batched = (uint16_t)batched;
	probe_stamp(rec, 4);
}

/* ---- flush, attach, detach ------------------------------------------------- */

/* Run s's pending main handlers now, in order, from any context that may spin. */
void intr_pack_flush(struct intr_src *s)
{
	drain(s, BY_FLUSH);
}

/* The handler of a vector between its allocation and intr_pack_attach, and after detach. */
void intr_pack_unclaimed(void *arg) { }

int intr_pack_attach(struct intr_src *s, int vector, int gsi, int cpu)
{
	if (vector < VECTOR_DEVICE_FIRST || vector > VECTOR_DEVICE_LAST || s->vector ||
	    cpu < 0 || cpu >= ncpus)
		return -EINVAL;
	spin_lock(&pack_lock);
	struct pack_line *l = line_of(vector);
	bool first = l->first == NULL;
	s->vector = vector;
	s->cpu = cpu;
	s->gsi = gsi;
	s->line_next = l->first;
	__atomic_store_n(&l->first, s, __ATOMIC_RELEASE);
	if (vector > top_vector)
		top_vector = vector;
	if (first) {
		l->vector = vector;
		l->gsi = gsi;
		intr_register_own_eoi(vector, pack_full, l, s->name);
		arch_intr_lean_entry(vector, true);
	}
	refresh_divert(l);
	spin_unlock(&pack_lock);
	return 0;
}

void intr_pack_detach(struct intr_src *s)
{
	if (!s->vector)
		return;
	timer_cancel_sync(&s->t_timer);
	intr_pack_flush(s);
	spin_lock(&pack_lock);
	struct pack_line *l = line_of(s->vector);
	struct intr_src *volatile *link = &l->first;
	while (*link && *link != s)
		link = &(*link)->line_next;
	if (*link)
		__atomic_store_n(link, s->line_next, __ATOMIC_RELEASE);   /* a registration may still walk s */
	if (!l->first) {
		arch_intr_lean_entry(l->vector, false);
		intr_register(l->vector, intr_pack_unclaimed, NULL, "intr-pack");
	} else {
		refresh_divert(l);
	}
	s->vector = 0;
	s->cpu = -1;
	spin_unlock(&pack_lock);
}
