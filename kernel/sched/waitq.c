/*
 * waitq.c — wait queues: sleeping until woken, waking one or all, handing
 * over what was waited for, and interrupting a sleeper that is killed.
 *
 * A wait queue is a list of sleeping threads and the lock that guards it
 * (its own, or its user's: waitq_init_guarded).  A waiter marks itself
 * (thread_wait_begin, thread.h: the killable waits give up there when the
 * thread is killed); going to sleep is the scheduler's part
 * (sched_sleep_on in sched.c: the switch under the run-queue lock), and
 * waking is sched_wakeup.  Every call
 * here needs wq->guard held, except where it says otherwise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <sched.h>
#include <smp.h>
#include <thread.h>

void waitq_init(struct waitq *wq, const char *name, int rank)
{
	spin_init(&wq->lock, name, rank);
	wq->guard = &wq->lock;
	list_init(&wq->sleepers);
}

/* wq->lock stays unused: the guard is the lock, and it has the guard's rank. */
void waitq_init_guarded(struct waitq *wq, struct spinlock *guard)
{
	waitq_init(wq, guard->name, guard->rank);
	wq->guard = guard;
}

void waitq_wait_killable(struct waitq *wq)
{
	struct thread *t = thread_current();
	if (thread_wait_begin(t, wq))
		sched_sleep_on(wq, t, true);
}

/*
 * The killable wait for a waker that hands over what was waited for
 * (waitq_hand_over): returns without wq->guard, true if it was handed
 * over (so the waiter need not look again), false if woken otherwise.
 */
bool waitq_wait_handed(struct waitq *wq)
{
	struct thread *t = thread_current();
	t->handed = false;
	if (!thread_wait_begin(t, wq)) {
		spin_unlock(wq->guard);
		return false;
	}
	sched_sleep_on(wq, t, false);
	bool got = t->handed;
	t->handed = false;
	return got;
}

void waitq_wait_locked(struct waitq *wq)
{
	struct thread *t = thread_current();
	t->wait_on = wq;
	sched_sleep_on(wq, t, true);
}


/* Wake the first sleeper; `handed`: its wait is over (waitq_wait_handed). */
static int wake_first(struct waitq *wq, bool handed)
{
	struct thread *t = waitq_take_first(wq, handed);
	if (!t)
		return 0;
	sched_wakeup(t);
	return 1;
}

int waitq_hand_over(struct waitq *wq) { return wake_first(wq, true); }
int waitq_wake_one(struct waitq *wq) { return wake_first(wq, false); }

int waitq_hand_over_run(struct waitq *wq)
{
	struct thread *t = waitq_take_handed(wq);
	if (!t)
		return 0;
	struct thread *me = thread_current();
	/* A glance first (the common case is no preemption), asked again there. */
	if (t->prio > me->prio && t->cpu == me->cpu && sched_wake_switch(wq->guard, t))
		return 2;
	sched_wakeup(t);
	return 1;
}

void thread_interrupt(struct thread *t)
{
	t->killed = true;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (;;) {
		struct waitq *wq = t->wait_on;
		if (!wq)
			break;
		spin_lock(wq->guard);
		bool still = t->wait_on == wq;
		if (still) {
			list_remove(&t->rq_link);
			t->wait_on = NULL;
			sched_wakeup(t);
		}
		spin_unlock(wq->guard);
		if (still)
			return;
	}
	sched_wakeup(t);                 /* a timed sleep, or nothing */
	if (t->state == T_RUNNING && t->cpu != cpu_id())
		smp_send_resched(t->cpu);   /* in user mode there: make it enter the kernel */
}

int waitq_wake_all(struct waitq *wq)
{
	int n = 0;
	while (waitq_wake_one(wq))
		n++;
	return n;
}
