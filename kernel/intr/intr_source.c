/*
 * intr_source.c — the interrupt sources of packaging (paper 000): the
 * table of sources, the lines (the sources sharing one vector), and
 * attaching a source to its vector and detaching it.
 *
 * Each source is handled in one of two ways, chosen per source at run
 * time (intr_ctl → intr_pack_configure, intr_pack_ctl.c):
 *   sequential  intr_sequential.c — every interrupt takes the full path;
 *   packed      intr_packed.c — a lean registration now, the main
 *               handlers later in a batch.
 * Adaptive (intr_pack_ctl.c) is packed with N and T following the
 * arrival rate; while N = 1 its interrupts go the sequential way.  A
 * source starts sequential (direct() says which way it goes now).  Once
 * attached, packaging owns the source's vector: the IDT gate points at
 * the lean stub, which diverts to the full path (pack_full) when the
 * line asks for it (pack_refresh_divert).
 *
 * Sources are added at probe time and live for ever; pack_lock guards
 * the table and the lines against each other's changes.  The registration
 * and the full path walk a line without the lock (interrupts off at the
 * registration), counted in the line's busy count (line_enter): a source
 * leaves a line with one atomic store, stays readable, and detach waits
 * until no CPU is inside the line any more before it handles what is
 * pending and returns.  The vector's handler and the lean path are
 * switched by single stores as well (intr.c, arch_intr_lean_entry), so a
 * CPU taking the interrupt meanwhile sees the old way or the new one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <intr.h>
#include <spinlock.h>
#include "intr_pack_internal.h"

struct pack_line pack_lines[VECTOR_DEVICE_LAST - VECTOR_DEVICE_FIRST + 1];
struct intr_src *pack_by_id[PACK_SRC_MAX];
struct intr_src *pack_by_type[PACK_SRC_MAX];
int pack_nsrcs;
int pack_top_vector = VECTOR_DEVICE_FIRST;
static struct spinlock pack_lock = SPINLOCK_INIT("intr-pack", LOCK_INTR_PACK);   /* registry, lines */

/* ---- registry ------------------------------------------------------------ */

/* The type's number: an earlier source's of the same type, else the next
 * unused one.  Caller holds pack_lock. */
static int type_id_of(const char *type)
{
	int next = 0;
	for (int i = 0; i < pack_nsrcs; i++) {
		if (strcmp(pack_by_id[i]->type, type) == 0)
			return pack_by_id[i]->type_id;
		if (pack_by_id[i]->type_id >= next)
			next = pack_by_id[i]->type_id + 1;
	}
	return next;
}

int intr_pack_add(struct intr_src *s)
{
	spin_lock(&pack_lock);
	int id = pack_nsrcs < PACK_SRC_MAX ? pack_nsrcs : -ENOSPC;
	if (id >= 0) {
		s->id = id;
		s->vector = 0;
		s->cpu = -1;
		s->set = (struct hako_intr_set){ .mode = HAKO_INTR_SEQUENTIAL, .n = 8,
						 .flags = HAKO_INTR_TICK };
		s->n_now = 1;
		s->type_id = type_id_of(s->type);
		timer_init(&s->t_timer, pack_t_expired, s);
		pack_by_id[id] = s;
		int i = pack_nsrcs++;
		while (i > 0 && strcmp(pack_by_type[i - 1]->type, s->type) > 0) {
			pack_by_type[i] = pack_by_type[i - 1];
			i--;
		}
		pack_by_type[i] = s;
	}
	spin_unlock(&pack_lock);
	return id;
}

int intr_pack_count(void) { return pack_nsrcs; }

struct intr_src *intr_pack_get(int id)
{
	return id >= 0 && id < pack_nsrcs ? pack_by_id[id] : NULL;
}

/* ---- attach, detach -------------------------------------------------------- */

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
	if (vector > pack_top_vector)
		pack_top_vector = vector;
	if (first) {
		l->vector = vector;
		l->gsi = gsi;
		l->held = 0;
		intr_register_own_eoi(vector, pack_full, l, s->name);
		arch_intr_lean_entry(vector, true);
	}
	pack_refresh_divert(l);
	spin_unlock(&pack_lock);
	return 0;
}

/* Until no CPU is inside a registration or full path of l (line_enter). */
static void wait_line_idle(struct pack_line *l)
{
	while (__atomic_load_n(&l->busy, __ATOMIC_SEQ_CST))
		arch_spin_hint();
}

/*
 * Out of the line first (the last source: the vector back to the ordinary
 * path and the do-nothing handler), then wait until no CPU still walks
 * the line, so nothing is added to s's ring any more; then its T timer
 * and what is pending.  The paths that may still run meanwhile take no
 * pack_lock, so waiting under it cannot deadlock.
 */
void intr_pack_detach(struct intr_src *s)
{
	if (!s->vector)
		return;
	spin_lock(&pack_lock);
	struct pack_line *l = line_of(s->vector);
	struct intr_src *volatile *link = &l->first;
	while (*link && *link != s)
		link = &(*link)->line_next;
	if (*link)
		__atomic_store_n(link, s->line_next, __ATOMIC_SEQ_CST);   /* a registration may still walk s */
	if (s->holding) {
		s->holding = false;
		__atomic_fetch_sub(&l->held, 1, __ATOMIC_ACQ_REL);   /* the line is unrouted or unmasked by its owner */
	}
	if (!l->first) {
		arch_intr_lean_entry(l->vector, false);
		intr_register(l->vector, intr_pack_unclaimed, NULL, "intr-pack");   /* waits out pack_full */
	} else {
		pack_refresh_divert(l);
	}
	wait_line_idle(l);
	spin_unlock(&pack_lock);
	timer_cancel_sync(&s->t_timer);
	intr_pack_flush(s);
	spin_lock(&pack_lock);
	s->vector = 0;
	s->cpu = -1;
	spin_unlock(&pack_lock);
}

/* Interrupt context, inside the full path of s's line (which masked it). */
void intr_pack_hold(struct intr_src *s)
{
	if (s->gsi < 0 || s->holding)
		return;
	s->holding = true;
	__atomic_fetch_add(&line_of(s->vector)->held, 1, __ATOMIC_ACQ_REL);
}

void intr_pack_release(struct intr_src *s)
{
	spin_lock(&pack_lock);
	if (s->vector && s->holding) {
		struct pack_line *l = line_of(s->vector);
		s->holding = false;
		if (__atomic_sub_fetch(&l->held, 1, __ATOMIC_ACQ_REL) == 0)
			arch_intr_line_mask(l->gsi, false);
	}
	spin_unlock(&pack_lock);
}
