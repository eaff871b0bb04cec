/*
 * sched_direct.h — the direct switch of server calls (ISPC's fastpath,
 * ipc/ispc_dedicated.h), inline in its callers: the call and the reply
 * that switch save the callee-saved registers once, in their own
 * prologues, and pay no call layer for it.  sched_direct.c has the other
 * switches that do not ask the run queue who runs next.  The switch step
 * itself is sched_switch.h's switch_to, shared with sched.c.
 */
#ifndef HAKO_SCHED_DIRECT_H
#define HAKO_SCHED_DIRECT_H

#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <panic.h>
#include <sched.h>
#include <thread.h>
#include <spin_nested.h>
#include "sched_switch.h"

/* Each caller's precondition: it holds the guard and nothing else, so
 * the switch carries no other lock (the one count of the interrupt
 * nesting goes to the run-queue lock).  The debug kernel checks it. */
static inline void only_guard_held(struct cpu *c)
{
	if (LOCK_CHECK && c->ncli != 1)
		panic("sched: direct switch with %d locks held", c->ncli);
}

/* sched_switch_direct's checks and the two threads' changes before the
 * switch (hand: next->direct_wait, read by the caller); false, with
 * nothing changed, if a precondition fails.  Locking as sched_switch_direct
 * (below) says. */
static inline __attribute__((always_inline))
bool direct_park(struct cpu *c, struct thread *t, struct waitq *wq, struct thread *next,
		 struct waitq *next_wq, bool hand)
{
	if (!thread_wait_begin(t, wq))
		return false;
	if (!hand)
		spin_lock_nested(c, &c->rq.lock);   /* the guard keeps interrupts off */
	only_guard_held(c);
	bool ok = !c->need_resched && next->cpu == c->id &&
		  next->state == T_SLEEPING && next->wait_on == next_wq && !next->killed &&
		  !next->isoch && !t->isoch &&
		  (!c->rq.bitmap || 31 - __builtin_clz(c->rq.bitmap) <= next->prio);
	if (!ok) {
		if (!hand)
			spin_unlock_nested(&c->rq.lock);
		t->wait_on = NULL;
		return false;
	}
	list_remove(&next->rq_link);     /* off next_wq: woken by hand */
	next->handed = false;
	t->state = T_SLEEPING;           /* with the rq lock or the guard held: see sched_switch_direct */
	list_push_back(&wq->sleepers, &t->rq_link);
	t->direct_wait = true;
	c->prev_target = -1;
	next->state = T_RUNNING;         /* before wait_on is cleared: see sched_switch_direct */
	return true;
}

/* sched_switch_direct's end, once t has woken: the guard held again. */
static inline __attribute__((always_inline))
void direct_woken(struct thread *t, struct waitq *wq)
{
	t->direct_wait = false;
	if (t->guard_handed)
		t->guard_handed = false;
	else
		spin_lock(wq->guard);
}

/*
 * The direct switch (ISPC's fastpath, ipc/ispc_fastpath.c): the running
 * thread starts a killable wait on wq and next, asleep on next_wq on this
 * CPU, runs in its place at once, with what is left of the running
 * thread's time slice: next is taken off next_wq, but no run queue is
 * touched and no other thread is considered.
 *
 * Locking: caller holds wq->guard, which must also be next_wq's guard, and
 * nothing else (interrupts are off while it is held).  The running
 * thread's state and next's are changed under this CPU's run-queue lock,
 * taken after the guard (its rank is below), and that lock is held across
 * the switch exactly as in switch_away, so a waker on another CPU cannot
 * queue the sleeper before its registers are saved.  Returns with
 * wq->guard held again: true once woken (the caller rechecks its
 * condition, as after any killable wait), false without having slept if
 * a precondition failed (the caller then wakes next and waits the usual
 * way): the running thread is killed, next is not asleep on next_wq here
 * or is killed, a switch is already due here, or a thread of a higher
 * priority than next's is runnable here.
 *
 * The guard goes with the switch when next sleeps in here too
 * (next->direct_wait): next resumes below, where it would take the guard
 * at once, so it is handed over held (guard_handed) instead of released
 * and taken again.  Nothing else can take the guard in between: it is
 * held by whoever runs here, and every other user of it (a waker or
 * thread_interrupt on another CPU) waits for it as it would have waited
 * for next's own acquire.  A thread asleep in here and woken the general
 * way (waitq_wake_*, thread_interrupt) finds guard_handed false and takes
 * the guard itself.
 *
 * That switch is also made without the run-queue lock, because the
 * guard, held across it, already keeps out everyone the lock would:
 *   - the running thread: it is on wq->sleepers, which only holders of
 *     the guard wake, so nobody can queue it before its registers are
 *     saved (the guard is released by next, after the switch).  A kill
 *     (thread_interrupt) sets killed before it reads wait_on, and
 *     wait_begin sets wait_on before it reads killed (both fenced), so
 *     the killer either finds wq and waits for the guard, or we saw the
 *     kill and did not sleep;
 *   - next: asleep on next_wq (guarded) on this CPU, so no run queue,
 *     steal or migration has it, and its `cpu` stays; T_RUNNING is
 *     stored before wait_on is cleared (release), so a killer that finds
 *     wait_on clear and calls sched_wakeup sees next running, not asleep;
 *   - neither is periodic (isoch.c, which stops and wakes its threads
 *     under the run-queue lock), and no timer wakes a waitq sleeper;
 *   - this CPU's queue is not touched; a thread woken onto it meanwhile
 *     is noticed by the kick its waker sends (kick reads cur_prio without
 *     a lock in every case).
 * The switch leaves c->direct_unlocked set, so next's resume in
 * switch_to has no lock to release.  Any other switch into a thread asleep
 * in here (the general wake-up, or this function with the lock) holds the
 * run-queue lock and next's resume releases it as usual.
 */
static inline __attribute__((always_inline))
bool sched_switch_direct(struct waitq *wq, struct thread *next, struct waitq *next_wq)
{
	struct cpu *c = this_cpu();      /* interrupts are off: wq->guard is held */
	struct thread *t = c->current;
	bool hand = next->direct_wait;   /* the guard goes with the switch, no rq lock */
	if (!direct_park(c, t, wq, next, next_wq, hand))
		return false;
	if (hand) {
		__atomic_store_n(&next->wait_on, NULL, __ATOMIC_RELEASE);
		next->guard_handed = true;   /* held on: next resumes below */
		c->direct_unlocked = true;
	} else {
		next->wait_on = NULL;
		spin_unlock_nested(wq->guard);   /* its count goes to the rq lock */
	}
	switch_to(c, t, next, t->slice_left, SWITCH_DIRECT);
	direct_woken(t, wq);
	return true;
}

/*
 * sched_switch_direct to a next that sleeps in here with the guard handed
 * to it (next->direct_wait) and whose own end of the wait — and of the
 * system call it sleeps in — the caller has done for it: its words and
 * result are in its system-call frame (arch_thread_words), and nothing
 * is left for it to do in the kernel but give the guard back.  next is
 * resumed straight into its return to user mode with `result`
 * (arch_switch_to_user), its kernel frames above the system-call frame
 * dropped, and the guard is released for it once the running thread's
 * registers are saved, so no waker can run the running thread before
 * (see above).  Same preconditions and locking as sched_switch_direct,
 * plus: next->direct_wait, next sleeps in a words call of the caller's
 * (ipc/ispc_call.c), and the guard is the one lock held, taken with
 * interrupts off (ncli 1); irqtrace off (the guard's section is not
 * closed the traced way).  The caller does next's end only once the
 * checks have said yes, so the switch comes in two calls:
 * sched_direct_park_user (false, with nothing changed, if a precondition
 * fails), then sched_switch_direct_user, which returns once the running
 * thread is woken, with the guard held again, as sched_switch_direct's
 * true does.
 */
static inline __attribute__((always_inline))
bool sched_direct_park_user(struct waitq *wq, struct thread *next, struct waitq *next_wq)
{
	struct cpu *c = this_cpu();
	return next->direct_wait && direct_park(c, c->current, wq, next, next_wq, true);
}

static inline __attribute__((always_inline))
void sched_switch_direct_user(struct waitq *wq, struct thread *next, long result)
{
	struct cpu *c = this_cpu();
	struct thread *t = c->current;
	struct spinlock *g = wq->guard;
	__atomic_store_n(&next->wait_on, NULL, __ATOMIC_RELEASE);
	next->direct_wait = false;       /* its end of the wait, done here */
	uint64_t now = arch_tsc();
	next->slice_left = t->slice_left;   /* no_steal is false: next has run since
					       its last switch-in, which cleared it */
	bool intena = switch_out(c, t, next, now, SWITCH_TO_USER);
	sync_wait(HAKO_SYNC_THREAD, next);
	if (LOCK_CHECK)
		spin_nested_check(g, SPIN_NESTED_UNLOCK);
	g->cpu = -1;                     /* the guard given back, but for its ticket: */
	sync_release(g);
	c->ncli--;                       /* 0: interrupts stay off into the return */
	arch_switch_to_user(&t->saved_rsp, next, result, &g->owner, g->owner + 1);
	switch_resumed(intena, SWITCH_DIRECT);
	direct_woken(t, wq);
}

#endif
