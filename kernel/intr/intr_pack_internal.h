/*
 * intr_pack_internal.h — what the interrupt packaging files share and
 * nobody else needs (the rest of the kernel uses intr_pack.h):
 *   intr_source.c      the source table, the vectors' lines, attach/detach
 *   intr_sequential.c  the full path: sequential handling, and the
 *                      interrupt that completes a batch
 *   intr_packed.c      registration, the batch and its timer triggers
 *   intr_pack_ctl.c    settings, the adaptive policy, the phase probe
 * The small helpers below are inline because the registration and the
 * full path are what paper 000 measures, instruction by instruction.
 */
#ifndef HAKO_INTR_PACK_INTERNAL_H
#define HAKO_INTR_PACK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/arch.h>
#include <cpu.h>
#include <intr_pack.h>

/* What started a batch (the counters by_n, by_t, ...). */
enum reason { BY_NONE, BY_N, BY_T, BY_TICK, BY_URGENT, BY_FULL, BY_FLUSH };

struct pack_line {                   /* the sources on one vector */
	struct intr_src *volatile first;
	int vector;
	int gsi;                         /* level line to mask, -1: LAPIC priority */
	volatile int held;               /* sources holding the line masked (intr_pack_hold) */
	volatile int busy;               /* CPUs inside a registration or full path of this line */
};

struct pack_cpu {
	volatile int kick;               /* a timer asked for a batch: its reason */
	bool batching;                   /* a batch runs on this CPU */
	struct hako_intr_stats stats;    /* its batches; written only by them (group unused) */
};

/* 1: a batch runs the main handlers type by type (the paper's way); 0: in
 * arrival order across every source on the CPU.  Read once per batch. */
extern volatile bool pack_group;

/* The source table and the lines (intr_source.c); changed under its lock. */
extern struct pack_line pack_lines[VECTOR_DEVICE_LAST - VECTOR_DEVICE_FIRST + 1];
extern struct intr_src *pack_by_id[PACK_SRC_MAX];
extern struct intr_src *pack_by_type[PACK_SRC_MAX];   /* sorted by type: the batch's order */
extern int pack_nsrcs;
extern int pack_top_vector;          /* a batch holds this class and below */

/* The packed path (intr_packed.c). */
extern struct pack_cpu pack_cpus[MAX_CPUS];
void pack_refresh_divert(struct pack_line *l);
void pack_record(struct intr_src *s, uint32_t data, uint64_t stamp);
int pack_run_batch(struct pack_cpu *pc, int cpu, int reason);
void pack_t_expired(struct timer *t, void *arg);

/* The full path (intr_sequential.c): the intr.c handler of every vector packaging owns. */
void pack_full(void *arg);

static inline struct pack_line *line_of(int vector)
{
	return &pack_lines[vector - VECTOR_DEVICE_FIRST];
}

static inline uint32_t pending(const struct intr_src *s) { return s->head - s->tail; }

/* Handled at once, not registered: sequential, or adaptive with N = 1. */
static inline bool direct(const struct intr_src *s)
{
	return s->set.mode == HAKO_INTR_SEQUENTIAL || (s->set.mode == HAKO_INTR_ADAPTIVE && s->n_now <= 1);
}

/* An interrupt that was s's, at stamp: count it, follow the arrival rate. */
static inline void arrived(struct intr_src *s, uint64_t stamp)
{
	s->c.interrupts++;
	if (s->last_stamp) {
		uint64_t gap = stamp - s->last_stamp;
		s->gap_ewma = s->gap_ewma ? s->gap_ewma - (s->gap_ewma >> 3) + (gap >> 3) : gap;
	}
	s->last_stamp = stamp;
}

/* A main handler of s has run for the interrupt that arrived at stamp. */
static inline void handled(struct intr_src *s, uint64_t stamp)
{
	uint64_t delay = arch_tsc() - stamp;
	s->c.handled++;
	s->c.delay_sum += delay;
	if (delay > s->c.delay_max)
		s->c.delay_max = delay;
}

/* Ask s whether the interrupt is its own: if so, count it and return its volatile data. */
static inline uint32_t ask(struct intr_src *s, uint64_t stamp, bool *mine)
{
	uint32_t data = s->ack(s);
	if (data) {
		*mine = true;
		arrived(s, stamp);
	}
	return data;
}

/*
 * An interrupt path enters the line before it reads the line's sources, and
 * leaves it after its last use of them: intr_pack_detach unlinks a source,
 * then waits until the line is not busy, so no CPU holds the source after
 * that.  Both sides sequentially consistent: either the path reads the list
 * without the source, or detach sees the path counted.
 */
static inline struct intr_src *line_enter(struct pack_line *l)
{
	__atomic_fetch_add(&l->busy, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&l->first, __ATOMIC_SEQ_CST);
}

static inline void line_leave(struct pack_line *l)
{
	__atomic_fetch_sub(&l->busy, 1, __ATOMIC_RELEASE);
}

/* No source claimed the interrupt: counted to first, the line's head when it was read. */
static inline void count_unclaimed(struct intr_src *first, bool mine)
{
	if (!mine && first)
		first->c.not_mine++;
}

/* The phase probe's record for this interrupt, NULL when it is off.  Its
 * stamps are written straight into the record, the last one just before
 * the return, so the probe adds a few instructions per stamp and nothing
 * after the last one. */
static inline struct hako_intr_probe_rec *probe(int kind, uint64_t t0)
{
	struct hako_intr_probe_rec *r = intr_pack_probing ? intr_pack_probe_slot() : NULL;
	if (r) {
		r->kind = (uint16_t)kind;
		r->cpu = (uint16_t)cpu_id();
		r->t[0] = t0;
	}
	return r;
}

static inline void probe_stamp(struct hako_intr_probe_rec *r, int i)
{
	if (r)
		r->t[i] = arch_tsc();
}

#endif
