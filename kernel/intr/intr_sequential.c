/*
 * intr_sequential.c — sequential interrupt handling (paper 000), the
 * classic way: the full path, which every interrupt of a sequential
 * source takes.
 *
 * The gate's lean stub sees the vector's divert byte set and jumps to the
 * ordinary entry: all registers saved in a trapframe, trap(), and
 * intr_dispatch calls pack_full, registered "own EOI".  Pre-processing:
 * mask the level line at the I/O APIC (or, for a message-signalled
 * source, raise the LAPIC task priority to the vector's class), EOI,
 * irq_nest++, interrupts on.  Main: ask each source on the vector (ack)
 * and run its main handler (work).  Post-processing: interrupts off,
 * unmask (or restore the priority), back through trap().  cpu->irq_nest
 * keeps the scheduler from switching away inside the handler.
 *
 * Packed sources (intr_packed.c) come this way too, for the interrupt
 * that completes a batch: the N-th, which the registration diverts here,
 * or one that found a ring full.  Such an interrupt is registered like
 * the others and then runs the batch between the main handlers and the
 * post-processing, with every packed vector held back.  An interrupt
 * that a sequential source claims runs the batch pending on its CPU as
 * well, after its own main handler (the "urgent" trigger); on a line
 * shared with packed sources, an interrupt only they claim is registered
 * and ends no batch, though it came the full way.
 */
#include <stdbool.h>
#include <stdint.h>
#include "intr_pack_internal.h"

static bool cpu_has_pending(int cpu)
{
	for (int i = 0; i < pack_nsrcs; i++)
		if (pack_by_id[i]->cpu == cpu && pending(pack_by_id[i]))
			return true;
	return false;
}

/* Whether this full-path interrupt of l is the N-th of a packed source on it. */
static bool completes_n(struct intr_src *first)
{
	for (struct intr_src *s = first; s; s = s->line_next)
		if (!direct(s) && pending(s) + 1 >= s->n_now)
			return true;
	return false;
}

/* Ask each source on l; handle a sequential one now, register a packed one. */
static int own_sources(struct intr_src *first, uint64_t stamp)
{
	int n = 0;
	bool mine = false;
	for (struct intr_src *s = first; s; s = s->line_next) {
		uint32_t data = ask(s, stamp, &mine);
		if (!data)
			continue;
		if (!direct(s)) {
			pack_record(s, data, stamp);   /* a full ring (the registration diverted) is emptied */
			continue;
		}
		s->work(s, data);
		handled(s, stamp);
		if (s->set.mode == HAKO_INTR_ADAPTIVE)
			intr_pack_adapt(s);
		n++;
	}
	count_unclaimed(first, mine);
	return n;
}

/*
 * The full path: registered with intr_register_own_eoi, so trap() leaves
 * the EOI to us.  Pre-processing (registers already saved by the entry):
 * mask the line (or raise the LAPIC priority to our class), EOI, and if a
 * batch follows hold every packed vector back; interrupts on.  Then the
 * sources' main handlers (or registrations), the batch, and the
 * post-processing in reverse.  An urgent batch is known only once a
 * sequential source has claimed the interrupt: the packed vectors are
 * held back from then on.
 */
void pack_full(void *arg)
{
	struct pack_line *l = arg;
	uint64_t t0 = arch_tsc();
	struct hako_intr_probe_rec *rec = probe(HAKO_PROBE_FULL, t0);
	struct cpu *c = this_cpu();
	struct pack_cpu *pc = &pack_cpus[c->id];
	struct intr_src *first = line_enter(l);
	int reason = !pc->batching && completes_n(first) ? BY_N : BY_NONE;
	unsigned own = 0, held = 0;
	if (l->gsi >= 0)
		arch_intr_line_mask(l->gsi, true);
	else
		own = arch_intr_block_upto(l->vector);
	arch_intr_eoi();
	if (reason)
		held = arch_intr_block_upto(pack_top_vector);
	c->irq_nest++;
	arch_irq_enable();
	probe_stamp(rec, 1);
	int direct_n = own_sources(first, t0);
	if (!reason && direct_n && !pc->batching && cpu_has_pending(c->id)) {
		reason = BY_URGENT;            /* a source handled sequentially claimed it */
		held = arch_intr_block_upto(pack_top_vector);
	}
	probe_stamp(rec, 2);
	int batched = reason ? pack_run_batch(pc, c->id, reason) : 0;
	probe_stamp(rec, 3);
	arch_irq_disable();
	c->irq_nest--;
	if (reason)
		arch_intr_unblock(held);
	if (l->gsi >= 0 && !__atomic_load_n(&l->held, __ATOMIC_ACQUIRE))
		arch_intr_line_mask(l->gsi, false);   /* unless a driver process holds it (paper 003) */
	else if (l->gsi < 0)
		arch_intr_unblock(own);
	pack_refresh_divert(l);
	line_leave(l);
	if (rec) {
		rec->direct = (uint16_t)direct_n;
		rec->batched = (uint16_t)batched;
	}
	probe_stamp(rec, 4);
}
