/*
 * preempt_trace.h — which context each preemption-off section ran in
 * (paper 004's Table 2).  Active with irqtrace=on only: every caller
 * tests irq_trace first, so the normal kernel pays one test per hook.
 * The rules of what is a section and whom it is charged to are in
 * uapi/hako_perf.h.
 */
#ifndef HAKO_PREEMPT_TRACE_H
#define HAKO_PREEMPT_TRACE_H

#include <stdint.h>
#include <cpu.h>
#include <region.h>
#include <thread.h>
#include <hako_perf.h>

/* One context's longest section on one CPU. */
struct preempt_slot {
	uint64_t max, count, site, wait;     /* longest section, and its spinlock waits */
	uint64_t held, held_site;            /* longest section minus its waits */
};
/* Indexed by CPU id, then context; written only by that CPU, interrupts off. */
extern struct preempt_slot preempt_slots[MAX_CPUS][HAKO_PERF_NCTX];

/*
 * An interrupts-off section begins (ncli 0 -> 1) or ends (1 -> 0) on c;
 * site: the return address of the outermost push_off/spin_lock.  Inline
 * and free of calls: a call on the (untaken) traced branch would make the
 * lock path save registers in every lock, traced or not.
 */
static inline void preempt_trace_begin(struct cpu *c, uint64_t site)
{
	c->irq_off_since = arch_tsc();
	c->irq_off_wait0 = c->spin_wait_ticks;
	c->irq_off_site = site;
	c->irq_off_ctx = c->irq_ctx ? c->irq_ctx : c->current ? c->current->perf_ctx : 0;
	region_begin_arg(REGION_PREEMPT_SECTION, site);   /* --model: its own instructions */
}

static inline void preempt_trace_end(struct cpu *c)
{
	region_end_arg(REGION_PREEMPT_SECTION, c->irq_off_ctx);
	uint64_t ticks = arch_tsc() - c->irq_off_since;
	uint64_t wait = c->spin_wait_ticks - c->irq_off_wait0;
	struct preempt_slot *s = &preempt_slots[c->id][c->irq_off_ctx];
	s->count++;
	if (ticks > s->max) {
		s->max = ticks;
		s->site = c->irq_off_site;
		s->wait = wait;
	}
	if (ticks - wait > s->held) {
		s->held = ticks - wait;
		s->held_site = c->irq_off_site;
	}
	if (ticks > c->irq_off_max)
		c->irq_off_max = ticks;
}

/* An interrupt on vector v, from trap entry to its preemption point;
 * enter fills what exit needs (interrupts nest under irq_nest). */
struct preempt_irq {
	uint64_t t0, wait0;
	unsigned outer;          /* the context of the interrupt it nests in, or 0 */
};
void preempt_trace_irq_enter(struct preempt_irq *pi, int vector);
void preempt_trace_irq_exit(struct preempt_irq *pi);

/* The current thread enters the kernel for system call nr (or, with
 * HAKO_PERF_CTX_TRAP, an exception from user mode). */
static inline void preempt_trace_set_ctx(unsigned ctx)
{
	this_cpu()->current->perf_ctx = (uint16_t)ctx;
}

int preempt_trace_get(struct hako_perf_preempt *out);
void preempt_trace_reset(void);

#endif
