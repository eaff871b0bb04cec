/*
 * sched.h — the preemptive priority scheduler.
 *
 * Each CPU has a run queue with one FIFO per priority (0 lowest .. 31
 * highest) and a bitmap of non-empty levels.  A thread runs until it
 * blocks, yields, uses up its time slice (round robin within a level) or
 * a higher-priority thread becomes runnable on its CPU.  Idle CPUs steal
 * work from the busiest one; threads may be pinned to a set of CPUs
 * (affinity) and may move themselves to a given CPU (migration).
 */
#ifndef HAKO_SCHED_H
#define HAKO_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include "list.h"
#include "spinlock.h"

#define NPRIO 32
#define PRIO_IDLE (-1)
#define PRIO_DEFAULT 8

struct thread;
struct cpu;

struct runqueue {
	struct spinlock lock;
	uint32_t bitmap;                 /* bit p set: queue[p] not empty */
	struct list_node queue[NPRIO];
	int count;
};

/*
 * Sleepers and the lock that guards them: its own lock, or (initialised
 * with waitq_init_guarded) a lock its user already holds around the
 * condition, so waiting and waking take one lock instead of two.  Every
 * waitq call needs wq->guard held.
 */
struct waitq {
	struct spinlock lock;
	struct spinlock *guard;
	struct list_node sleepers;
};

/*
 * Switches counted for one party of threads: the threads that point to
 * the same switch_count (thread.h's `switches`: a service process's,
 * proc.h) are one party, and every switch from a thread outside it to one
 * of them, or back, is counted here by the CPU switching (sched.c, with
 * its run-queue lock held).  A switch between two parties counts out of
 * the one and into the other, and its address-space change once, in the
 * party switched to.  Atomic adds: one party's threads switch on several
 * CPUs at once.
 */
struct switch_count {
	uint64_t in;                     /* switches to one of its threads from outside */
	uint64_t out;                    /* switches from one of its threads to outside */
	uint64_t as;                     /* of those, the ones that change address space */
};

extern uint64_t sched_slice_ticks;

void sched_init(void);                  /* boot CPU, before smp_boot_aps */
void sched_init_cpu(void);              /* each CPU: the running context becomes its idle thread */
void sched_idle_loop(void) __attribute__((noreturn));
void sched_yield(void);
void sched_tick(void);                  /* from the timer interrupt */
void sched_request_resched(void);       /* this CPU: switch at the next chance */
void sched_preempt_if_needed(void);     /* end of an interrupt */
void sched_wakeup(struct thread *t);
void sched_enqueue_new(struct thread *t);
int sched_set_affinity(struct thread *t, uint64_t mask);   /* -EINVAL: no CPU of the mask schedules */
/* The online CPUs threads may run on: all but the withdrawn ones. */
uint64_t sched_cpu_mask(void);
/* At boot, before any thread exists: cpu runs loop (which never returns)
 * instead of its idle loop, and no thread ever runs there. */
void sched_withdraw_cpu(int cpu, void (*loop)(void));
int sched_migrate(int cpu);             /* move the running thread to cpu and continue there */
void sched_set_priority(struct thread *t, int prio);
void sched_block(void);                 /* current is T_DEAD: leave for good */
struct timer;
void sched_sleep_timed(struct timer *tm, uint64_t deadline);   /* until tm fires or a kill */
/* Sleep until sched_wakeup if go(current, arg) under this CPU's run-queue lock. */
void sched_sleep_if(bool (*go)(struct thread *t, void *arg), void *arg);
/* Caller holds c's run-queue lock, on c: t (pinned to c) stops until sched_wakeup;
 * false if it was not running or queued there. */
bool sched_stop_locked(struct cpu *c, struct thread *t);
void sched_finish_switch(void);         /* first act of a thread switched to */
struct thread *thread_adopt_idle(struct cpu *c);
void thread_reap(struct thread *t);                 /* current->state already set; caller holds nothing */

/* Wait queues: waitq.c. */
void waitq_init(struct waitq *wq, const char *name, int rank);   /* rank: enum lock_rank */
void waitq_init_guarded(struct waitq *wq, struct spinlock *guard);
/* Caller holds wq->lock; it is released while asleep and held again on return. */
void waitq_wait_locked(struct waitq *wq);
/* The same, but a killed thread returns at once (see thread_interrupt). */
void waitq_wait_killable(struct waitq *wq);
/* sched_switch_direct: wait on wq and run next (asleep on next_wq, here) in the
 * caller's place, without the run queue; inline, in sched_direct.h. */
/* Run t (just taken off a wait queue guarded by guard, asleep on this CPU, of a higher
 * priority) here at once, the caller staying runnable; caller holds guard only.  true:
 * switched, returns later without the guard; false: not possible (nothing done, guard
 * held), see sched.c. */
bool sched_wake_switch(struct spinlock *guard, struct thread *t);
/* Caller holds wq->guard only and has begun a wait on wq (thread_wait_begin): it
 * sleeps there and next (asleep, taken off its own queue by the caller) runs here in
 * its place at once.  true: switched, returns once woken, without the guard; false:
 * not possible (nothing done, guard held, the wait still begun), see sched_direct.c. */
bool sched_wait_run(struct waitq *wq, struct thread *next);
/* The scheduler's side of a wait (waitq.c): caller holds wq->guard, t is running and
 * waits on wq (thread_wait_begin); t sleeps there, the guard released while it
 * sleeps, taken again on return if relock. */
void sched_sleep_on(struct waitq *wq, struct thread *t, bool relock);
bool waitq_wait_handed(struct waitq *wq);     /* returns unlocked; true: handed over */
int waitq_hand_over(struct waitq *wq);        /* wake one, its wait fulfilled */
/* waitq_hand_over, running the sleeper here at once if the scheduler allows
 * (sched_wake_switch): 0 none, 1 woken (guard held), 2 run here (returns later,
 * guard released). */
int waitq_hand_over_run(struct waitq *wq);
/* waitq_take_handed (thread.h, inline): waitq_hand_over without the wake-up. */
int waitq_wake_one(struct waitq *wq);   /* caller holds wq->lock; returns threads woken */
int waitq_wake_all(struct waitq *wq);

#endif
