/*
 * sched_direct.c — the switches that do not ask the run queue who runs
 * next: the thread to run is given.  sched_switch_direct, the fastpath
 * of server calls (ipc/ispc_fastpath.c), puts the running thread to
 * sleep on a wait queue and runs a thread asleep on another in its place
 * (inline in its callers: sched_direct.h); sched_wake_switch, a
 * semaphore post (sync/sem.c), runs a woken thread that would preempt
 * the running one at once; sched_wait_run, a post
 * whose poster then waits (sem_post_wait), puts the poster to sleep and
 * runs the thread it woke.  All keep sched.c's switch protocol (the
 * run-queue lock held across the switch, or the one exception written at
 * sched_switch_direct).
 *
 * The run-queue lock is taken nested (spin_nested.h): each caller holds a
 * wait queue's guard, which keeps interrupts off, and the guard released
 * before the switch hands its count of the interrupt nesting to the
 * run-queue lock, held across the switch and released by the thread
 * switched to as after any switch.
 */
#include <stdint.h>
#include <cpu.h>
#include <sched.h>
#include <thread.h>
#include <region.h>
#include <spin_nested.h>
#include "sched_switch.h"
#include "sched_direct.h"

/*
 * Run t here at once, in place of the running thread: the wake-up of a
 * thread asleep on this CPU that would preempt the running thread at the
 * end of its system call anyway (sem_post, with semdirect=on), made
 * without queueing t and taking it off the queue again.  t has just been
 * taken off a wait queue guarded by `guard` (its wait_on cleared), so
 * nobody but a killer's sched_wakeup can wake it meanwhile, and that one
 * locks this CPU's run queue.
 *
 * The scheduler's rules decide as they would have at the call's end: t
 * last ran here, is still asleep, and has a higher priority than the
 * running thread and than every queued thread, so the switch_away of
 * that preemption would have picked it; the running thread is queued
 * behind its priority's others, as that sched_yield queues it.  Neither
 * is periodic (isoch.c), no switch is already due here, and the running
 * thread stays on this CPU (no migration or affinity change pending:
 * switch_away would move it).  Equal priority is no preemption: the
 * waker runs on (vclockcheck's main thread posts to four workers in a
 * row and must not wait behind the one on its own CPU).
 *
 * Locking: caller holds guard and nothing else.  The states change under
 * this CPU's run-queue lock (taken after the guard, its rank is below),
 * held across the switch as in switch_away; the guard is released just
 * before the switch.  True: switched, returns when the caller runs again,
 * without the guard.  False: nothing done, the guard still held; the
 * caller wakes t the usual way (sched_wakeup).
 */
bool sched_wake_switch(struct spinlock *guard, struct thread *t)
{
	struct cpu *c = this_cpu();      /* interrupts are off: guard is held */
	struct thread *me = c->current;
	spin_lock_nested(c, &c->rq.lock);   /* the guard keeps interrupts off */
	only_guard_held(c);
	bool ok = !c->need_resched && t->cpu == c->id &&
		  t->state == T_SLEEPING && t->prio > me->prio && !t->isoch && !me->isoch &&
		  me->state == T_RUNNING && me != c->idle_thread && me->migrate_to < 0 &&
		  sched_allowed(me, c->id) &&
		  (!c->rq.bitmap || 31 - __builtin_clz(c->rq.bitmap) < t->prio);
	if (!ok) {
		spin_unlock_nested(&c->rq.lock);
		return false;
	}
	me->state = T_RUNNABLE;
	rq_push(c, me);
	c->prev_target = -1;
	sync_post(HAKO_SYNC_THREAD, t);  /* as sched_wakeup: its run comes after this */
	spin_unlock_nested(guard);       /* its count goes to the rq lock */
	switch_to(c, me, t, sched_slice_ticks, SWITCH_BY_HAND);
	return true;
}

/*
 * The running thread sleeps on wq and next, asleep and just taken off
 * another wait queue by the caller with what it waited for (sem_post_wait:
 * the unit of a post whose poster now waits), runs here in its place at
 * once, with what is left of the running thread's time slice: next is not
 * queued, and no other thread is considered.
 *
 * next is off its queue, its wait_on cleared, so only a killer's
 * sched_wakeup can reach it, and that locks this CPU's run queue, under
 * which next's state is checked here.  Taken only when next last ran on
 * this CPU and is still asleep, no queued thread here has a higher
 * priority (the running thread gives its CPU up, so next is what
 * switch_away would run), neither thread is periodic (isoch.c), and no
 * switch is already due here.
 *
 * Locking: caller holds wq->guard and nothing else, and has begun the
 * wait (thread_wait_begin on wq).  The running thread's state changes and
 * it joins wq's sleepers under this CPU's run-queue lock, taken after the
 * guard and held across the switch as in sched_sleep_on; the guard is
 * released before the switch.  True: switched, returns once woken,
 * without the guard (the caller looks at what it was handed).  False:
 * nothing done, the guard still held and the wait still begun; the caller
 * ends the wait, wakes next (sched_wakeup) and waits the usual way.
 */
bool sched_wait_run(struct waitq *wq, struct thread *next)
{
	struct cpu *c = this_cpu();      /* interrupts are off: wq->guard is held */
	struct thread *t = c->current;
	spin_lock_nested(c, &c->rq.lock);   /* the guard keeps interrupts off */
	only_guard_held(c);
	bool ok = !c->need_resched && next->cpu == c->id &&
		  next->state == T_SLEEPING && !next->isoch && !t->isoch &&
		  (!c->rq.bitmap || 31 - __builtin_clz(c->rq.bitmap) <= next->prio);
	if (!ok) {
		spin_unlock_nested(&c->rq.lock);
		return false;
	}
	t->state = T_SLEEPING;           /* under the rq lock: see sched_sleep_on */
	list_push_back(&wq->sleepers, &t->rq_link);
	c->prev_target = -1;
	sync_post(HAKO_SYNC_THREAD, next);   /* as sched_wakeup: its run comes after this */
	spin_unlock_nested(wq->guard);   /* its count goes to the rq lock */
	switch_to(c, t, next, t->slice_left, SWITCH_BY_HAND);
	return true;
}
