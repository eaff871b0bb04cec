/*
 * isoch_plan.h — the reserved schedule of one CPU's periodic threads, built
 * as a table (kernel/sched/isoch_plan.c; used by isoch_table.c, tested on
 * the host by tests/host/test_isoch_plan.c).
 *
 * Given n tasks (period P_i, budget B_i, in any one time unit), the table
 * covers the hyperperiod H = lcm(P_i) and says who runs when: entries in
 * time order, each a stretch of one job of one task, placed earliest
 * deadline first (ties: the lower task index) from the job's release
 * (k * P_i) to its deadline ((k + 1) * P_i).  Time no entry covers is
 * free.  The builder is pure (no allocation, no locks) and runs in
 * bounded steps, so its caller can build with preemption on.
 */
#ifndef HAKO_ISOCH_PLAN_H
#define HAKO_ISOCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#define IPLAN_MAX_TASKS   8
#define IPLAN_MAX_ENTRIES 2048

struct iplan_task {
	uint64_t period, budget;
};

struct iplan_entry {
	uint64_t start, end;             /* from the hyperperiod's start */
	uint64_t release;                /* its job's release (the period start) */
	uint8_t task;
	bool first;                      /* the job's first entry */
	bool last;                       /* the job's budget is used up at end */
};

struct iplan {
	const struct iplan_task *task;
	int n;
	uint64_t hyper;
	struct iplan_entry *e;
	uint32_t cap, len;
	uint64_t now;
	uint64_t next_release[IPLAN_MAX_TASKS], deadline[IPLAN_MAX_TASKS];
	uint64_t left[IPLAN_MAX_TASKS], job_release[IPLAN_MAX_TASKS];
	bool placed[IPLAN_MAX_TASKS];    /* the current job has an entry */
};

/* H = lcm of the periods into *hyper: 0; -EINVAL (n out of 1..IPLAN_MAX_TASKS,
 * a zero period, a budget over its period); -ENOSPC (H over max). */
int iplan_hyperperiod(const struct iplan_task *t, int n, uint64_t max, uint64_t *hyper);
/* An upper bound on the entries of the table: two per job (a job is split
 * only by a release, of which there is one per job). */
uint64_t iplan_entries_bound(const struct iplan_task *t, int n, uint64_t hyper);
/* Begin a table of t[0..n) over hyper into e[0..cap). */
void iplan_begin(struct iplan *p, const struct iplan_task *t, int n, uint64_t hyper,
		 struct iplan_entry *e, uint32_t cap);
/* At most `steps` more events: 1 more to do, 0 done (p->len entries),
 * -ENOSPC (more than cap entries, or a job would miss its deadline). */
int iplan_step(struct iplan *p, uint32_t steps);

#endif
