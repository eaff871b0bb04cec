/*
 * isoch_int.h — what kernel/sched/isoch.c (periodic threads, both modes)
 * shares with kernel/sched/isoch_table.c (the reserved schedule,
 * isoch=table): a periodic thread's state and the calls between them.
 */
#ifndef HAKO_ISOCH_INT_H
#define HAKO_ISOCH_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <hako_isoch.h>
#include <isoch_plan.h>
#include <list.h>
#include <time.h>

struct thread;
struct proc;

struct isoch {
	struct thread *t;
	struct proc *proc;               /* ops by tid look only in the caller's process */
	int tid, cpu;
	uint64_t period, budget;         /* TSC ticks */
	uint64_t period_ns, budget_ns;   /* as asked: the table is built of these */
	uint32_t util_ppm;
	int normal_prio;                 /* its priority when not started */
	uint64_t normal_affinity;
	int users;                       /* ops and waits under way outside isoch_lock */
	bool retiring;                   /* unlisted; t->isoch stays set until it is freed */
	struct list_node link;           /* icpu[cpu].list, by period */
	/* Under cpus[cpu].rq.lock, on that CPU: */
	bool started;
	bool job_open;                   /* released, isoch_wait not yet called */
	bool waiting;                    /* in isoch_wait, not yet run again */
	bool throttled;                  /* budget used up: stopped until the release */
	uint64_t release;                /* TSC: this period's start */
	uint64_t ran_at_release;         /* its runtime_tsc then */
	struct timer release_timer, budget_timer;
	struct hako_isoch st;            /* counters and histogram */
};

/* Booted with isoch=table (read once, before the first periodic thread). */
extern bool isoch_table_mode;

/* Run fn(arg) on cpu with interrupts off; the caller has them on. */
void isoch_on_cpu(int cpu, void (*fn)(void *), void *arg);
/* The started periodic threads of cpu, by period, into who[] and t[] (ns),
 * and a new generation number for the table made of them: their count. */
int isoch_started_on(int cpu, struct isoch **who, struct iplan_task *t, uint64_t *gen);

/* isoch_table.c.  Caller holds nothing unless said. */
/* Build cpu's reserved schedule of its started threads and hand it over
 * (in force at once if there is none, else at the end of the current
 * hyperperiod): 0, -ENOSPC (too big), -ENOMEM. */
long itable_rebuild(int cpu);
/* is (stopped) is going: no table of its CPU names it from now on. */
void itable_forget(struct isoch *is);
/* is (the caller, on its CPU) ends its job: the rest of its reservation
 * goes to the next one if that follows without a gap and is released. */
void itable_job_done(struct isoch *is);
/* Its CPU's table in force into out; caller holds isoch_lock. */
void itable_info(int cpu, struct hako_isoch *out);

#endif
