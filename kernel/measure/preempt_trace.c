/*
 * preempt_trace.c — the longest preemption-off section per context and
 * per CPU (irqtrace=on; paper 004's Table 2).
 *
 * In Hako preemption is off exactly while a CPU holds interrupts off
 * (cpu->ncli > 0: every spinlock holder) or runs an interrupt (trap entry
 * to sched_preempt_if_needed; a handler that turns interrupts back on
 * keeps preemption off with cpu->irq_nest).  There is no separate
 * preemption counter: the kernel is preemptible everywhere else.  So the
 * sections are the outermost push_off..pop_off (spinlock.c calls
 * preempt_trace_begin/end) and whole interrupts (trap.c).
 *
 * The interrupts-off sections are recorded inline (preempt_trace.h).
 * Each CPU writes only its own slots, with interrupts off; readers
 * (perf_ctl) take them unlocked: a figure read mid-update is at worst one
 * section stale.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <kprintf.h>
#include <panic.h>
#include <preempt_trace.h>
#include <region.h>
#include <spinlock.h>
#include <thread.h>
#include <hako_perf.h>

struct preempt_slot preempt_slots[MAX_CPUS][HAKO_PERF_NCTX];
static uint64_t cpu_max[MAX_CPUS];   /* longest whole interrupt per CPU */

void preempt_trace_irq_enter(struct preempt_irq *pi, int vector)
{
	struct cpu *c = this_cpu();
	pi->outer = c->irq_ctx;
	c->irq_ctx = (uint16_t)HAKO_PERF_CTX_IRQ(vector);
	pi->wait0 = c->spin_wait_ticks;
	pi->t0 = arch_tsc();
	region_begin(REGION_PREEMPT_IRQ);
}

void preempt_trace_irq_exit(struct preempt_irq *pi)
{
	struct cpu *c = this_cpu();
	region_end_arg(REGION_PREEMPT_IRQ, c->irq_ctx);
	uint64_t ticks = arch_tsc() - pi->t0;
	uint64_t wait = c->spin_wait_ticks - pi->wait0;
	struct preempt_slot *s = &preempt_slots[c->id][c->irq_ctx];
	s->count++;
	if (ticks > s->max) {
		s->max = ticks;
		s->site = 0;
		s->wait = wait;
	}
	if (ticks - wait > s->held) {
		s->held = ticks - wait;
		s->held_site = 0;
	}
	if (ticks > cpu_max[c->id])
		cpu_max[c->id] = ticks;
	c->irq_ctx = (uint16_t)pi->outer;
}

int preempt_trace_get(struct hako_perf_preempt *out)
{
	memset(out, 0, sizeof *out);
	out->enabled = irq_trace;
	out->ncpus = (uint32_t)ncpus;
	for (int k = 0; k < HAKO_PERF_NCTX; k++)
		out->ctx[k].cpu = out->ctx[k].held_cpu = -1;
	for (int i = 0; i < ncpus && i < HAKO_PERF_MAX_CPUS; i++) {
		out->cpu_max[i] = cpus[i].irq_off_max > cpu_max[i] ? cpus[i].irq_off_max : cpu_max[i];
		for (int k = 0; k < HAKO_PERF_NCTX; k++) {
			struct hako_perf_section *o = &out->ctx[k];
			const struct preempt_slot *s = &preempt_slots[i][k];
			o->count += s->count;
			if (s->count && (o->cpu < 0 || s->max > o->max)) {
				o->max = s->max;
				o->site = s->site;
				o->wait = s->wait;
				o->cpu = i;
			}
			if (s->count && (o->held_cpu < 0 || s->held > o->held)) {
				o->held = s->held;
				o->held_site = s->held_site;
				o->held_cpu = i;
			}
		}
	}
	for (int k = 0; k < HAKO_PERF_NCTX; k++) {
		struct hako_perf_section *o = &out->ctx[k];
		uint64_t off = 0;
		const char *name = o->site ? ksym_lookup(o->site, &off) : NULL;
		if (name)
			ksnprintf(o->sym, sizeof o->sym, "%s+0x%lx", name, off);
		name = o->held_site ? ksym_lookup(o->held_site, &off) : NULL;
		if (name)
			ksnprintf(o->held_sym, sizeof o->held_sym, "%s+0x%lx", name, off);
	}
	return 0;
}

/* Each reset starts an epoch of the plugin's figures (--model), so they
 * cover what the guest's do: preemptstress resets before each case. */
static unsigned long resets;

void preempt_trace_reset(void)
{
	push_off();
	region_begin_arg(REGION_PREEMPT_RESET, ++resets);
	pop_off();
	for (int i = 0; i < ncpus; i++) {
		memset(preempt_slots[i], 0, sizeof preempt_slots[i]);
		cpu_max[i] = 0;
		cpus[i].irq_off_max = 0;
	}
}
