/*
 * sched_switch.h — the context-switch step the scheduler's files share
 * (sched.c, sched_direct.c); not for use elsewhere.  Caller holds the
 * CPU's run-queue lock as each function says.
 */
#ifndef HAKO_SCHED_SWITCH_H
#define HAKO_SCHED_SWITCH_H

#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <panic.h>
#include <region.h>
#include <thread.h>
#include <arch/switch.h>

void sched_count_switch(struct thread *from, struct thread *to, bool as_switch);

static inline bool sched_allowed(struct thread *t, int cpu) { return t->affinity & (1ull << cpu); }

/* Inline: every wake-up and every switch away from a running thread. */
static inline __attribute__((always_inline)) void rq_push(struct cpu *c, struct thread *t)
{
	if (t->on_rq)
		panic("sched: thread %d queued twice", t->tid);
	t->on_rq = true;
	list_push_back(&c->rq.queue[t->prio], &t->rq_link);
	c->rq.bitmap |= 1u << t->prio;
	c->rq_len = ++c->rq.count;
}

/*
 * How a switch_to call site finds the thread it runs (a constant):
 *   SWITCH_PICKED: the scheduler picked next off the run queue: it may be
 *     prev itself, or the idle thread;
 *   SWITCH_BY_HAND: next was taken off a wait queue by hand (sched_direct.c):
 *     never prev (asleep until now) nor the idle thread (it never waits);
 *   SWITCH_DIRECT: the same from sched_switch_direct, whose switches may
 *     also be made without the lock (c->direct_unlocked; see there), so its
 *     resume asks whether there is one to release;
 *   SWITCH_TO_USER: sched_switch_direct_user's, whose next goes straight
 *     to user mode: no resume of next's reads c->prev (switch_out only).
 */
enum switch_how { SWITCH_PICKED, SWITCH_BY_HAND, SWITCH_DIRECT, SWITCH_TO_USER };

/*
 * switch_to's half before the arch step: next accounted as running on c
 * in prev's place (prev's run time, next's slice, the CPU's current
 * thread, next's kernel stack and address space).  Returns the CPU's
 * intena, which prev's resume restores (switch_resumed).  Called with
 * next != prev.
 */
static inline __attribute__((always_inline))
bool switch_out(struct cpu *c, struct thread *prev, struct thread *next, uint64_t now,
		enum switch_how how)
{
	prev->runtime_tsc += now - prev->switched_in_tsc;
	next->switched_in_tsc = now;
	c->current = next;
	bool idle = how == SWITCH_PICKED && next == c->idle_thread;
	if (how < SWITCH_DIRECT)         /* else prev, a thread in a system call, was not idle */
		c->idle = idle;
	c->cur_prio = idle ? PRIO_IDLE : next->prio;
	c->prev = how == SWITCH_TO_USER ? NULL : prev;
	c->ctx_switches++;
	bool intena = c->intena;
	if (prev->switches || next->switches)
		sched_count_switch(prev, next, prev->as != next->as);
	arch_thread_switched_in(c, next);
	sync_post(HAKO_SYNC_THREAD, prev);   /* it runs again no earlier than now */
	return intena;
}

/* switch_to's half after the arch step: prev runs again, maybe on
 * another CPU, and finishes the switch that resumed it. */
static inline __attribute__((always_inline))
void switch_resumed(bool intena, enum switch_how how)
{
	struct cpu *c = this_cpu();      /* prev may resume on another CPU */
	c->intena = intena;
	if (how == SWITCH_DIRECT && c->direct_unlocked) {
		c->direct_unlocked = false;  /* prev of that switch sleeps: nothing else to do */
		c->prev = NULL;
		sync_wait(HAKO_SYNC_THREAD, c->current);   /* as sched_finish_switch does */
	} else if (c->prev_target < 0 && c->prev->state != T_DEAD) {
		/* sched_finish_switch's common case, inline: prev stays (asleep
		 * or queued here), so only the lock is left to release. */
		sync_wait(HAKO_SYNC_THREAD, c->current);
		c->prev = NULL;
		spin_unlock(&c->rq.lock);
	} else
		sched_finish_switch();
}

/*
 * Run next in prev's place on c, for `slice` ticks.  Caller holds
 * c->rq.lock (and nothing else); next is on no run queue and may run on
 * c (next->cpu is c->id).  Returns in prev, later, with the lock released.
 * SWITCH_DIRECT: the caller has made next T_RUNNING already.
 */
static inline __attribute__((always_inline))
void switch_to(struct cpu *c, struct thread *prev, struct thread *next, uint64_t slice,
	       enum switch_how how)
{
	uint64_t now = arch_tsc();
	if (how != SWITCH_DIRECT)        /* sched_switch_direct has stored it */
		next->state = T_RUNNING;     /* next->cpu is c->id: it was on c's queue */
	next->no_steal = false;
	next->slice_left = slice;
	if (how == SWITCH_PICKED && next == prev) {
		spin_unlock(&c->rq.lock);
		return;
	}
	bool intena = switch_out(c, prev, next, now, how);
	arch_switch(&prev->saved_rsp, next->saved_rsp);
	switch_resumed(intena, how);
}

#endif
