/*
 * test_isoch_plan.c — kernel/sched/isoch_plan.c, the reserved schedule's
 * builder (paper 004's isochronous scheduler, isoch=table).
 *
 * Proves: the hyperperiod is the lcm of the periods, refused over the
 * limit and for bad tasks; in every table built, entries are in time
 * order and do not overlap, and every job of every task gets exactly its
 * budget between its release and its deadline, its first entry marked
 * first and the one that uses it up marked last; ties of deadline go to
 * the lower task; building one step at a time gives the same table as in
 * one go; a table over its capacity or a load over the CPU is refused.
 */
#include "check.h"
#include <errno.h>
#include <string.h>
#include <isoch_plan.h>

#define MAXE IPLAN_MAX_ENTRIES

static struct iplan_entry ents[MAXE];

/* Build t[0..n) in chunks of `steps`; the result of iplan_step at the end. */
static int build(struct iplan *p, const struct iplan_task *t, int n, uint32_t cap, uint32_t steps)
{
	uint64_t h;
	int r = iplan_hyperperiod(t, n, 10000000000ull, &h);
	if (r < 0)
		return r;
	iplan_begin(p, t, n, h, ents, cap);
	while ((r = iplan_step(p, steps)) == 1)
		;
	return r;
}

/* "" if p's table keeps every reservation, or what is wrong. */
static const char *keeps_reservations(const struct iplan *p)
{
	static char why[128];
	for (uint32_t k = 0; k < p->len; k++) {
		const struct iplan_entry *e = &p->e[k];
		if (e->end <= e->start || e->end > p->hyper)
			return "an empty entry or one past the hyperperiod";
		if (k && p->e[k - 1].end > e->start)
			return "entries overlap or are out of order";
	}
	for (int i = 0; i < p->n; i++) {
		const struct iplan_task *t = &p->task[i];
		for (uint64_t rel = 0; rel < p->hyper; rel += t->period) {
			uint64_t got = 0;
			int firsts = 0, lasts = 0;
			for (uint32_t k = 0; k < p->len; k++) {
				const struct iplan_entry *e = &p->e[k];
				if (e->task != i || e->release != rel)
					continue;
				if (e->start < rel || e->end > rel + t->period)
					return "an entry outside its job's period";
				if (e->first != (got == 0))
					return "first is not the job's first entry";
				got += e->end - e->start;
				firsts += e->first;
				lasts += e->last;
				if (e->last != (got == t->budget))
					return "last is not where the budget is used up";
			}
			if (got != t->budget || firsts != 1 || lasts != 1) {
				snprintf(why, sizeof why, "task %d job at %llu: %llu of %llu", i,
					 (unsigned long long)rel, (unsigned long long)got,
					 (unsigned long long)t->budget);
				return why;
			}
		}
	}
	return "";
}

TEST(hyperperiod_is_the_lcm_of_the_periods)
{
	struct iplan_task t[3] = { { 1000, 100 }, { 1500, 100 }, { 400, 10 } };
	uint64_t h = 0;
	CHECK_EQ(iplan_hyperperiod(t, 3, 1000000, &h), 0);
	CHECK_EQ(h, 6000);
	CHECK_EQ(iplan_hyperperiod(t, 3, 5999, &h), -ENOSPC);
	struct iplan_task big[2] = { { 9999991, 1 }, { 9999973, 1 } };   /* two primes */
	CHECK_EQ(iplan_hyperperiod(big, 2, 10000000000ull, &h), -ENOSPC);
	CHECK_EQ(iplan_hyperperiod(t, 0, 1000000, &h), -EINVAL);
	CHECK_EQ(iplan_hyperperiod(t, IPLAN_MAX_TASKS + 1, 1000000, &h), -EINVAL);
	struct iplan_task bad[1] = { { 100, 101 } };
	CHECK_EQ(iplan_hyperperiod(bad, 1, 1000000, &h), -EINVAL);
	bad[0] = (struct iplan_task){ 0, 0 };
	CHECK_EQ(iplan_hyperperiod(bad, 1, 1000000, &h), -EINVAL);
}

TEST(equal_deadlines_go_to_the_lower_task_then_the_cpu_is_free)
{
	struct iplan_task t[2] = { { 200, 40 }, { 200, 100 } };
	struct iplan p;
	CHECK_EQ(build(&p, t, 2, MAXE, 1000), 0);
	CHECK_EQ(p.len, 2);
	CHECK(ents[0].task == 0 && ents[0].start == 0 && ents[0].end == 40 && ents[0].first && ents[0].last);
	CHECK(ents[1].task == 1 && ents[1].start == 40 && ents[1].end == 140 && ents[1].first && ents[1].last);
	CHECK_STR(keeps_reservations(&p), "");
}

TEST(a_shorter_deadline_splits_a_longer_job)
{
	/* B (3 ms, 1.5 ms) is split by A's (1 ms, 0.4 ms) releases. */
	struct iplan_task t[2] = { { 1000, 400 }, { 3000, 1500 } };
	struct iplan p;
	CHECK_EQ(build(&p, t, 2, MAXE, 1000), 0);
	CHECK_STR(keeps_reservations(&p), "");
	CHECK(p.len >= 5, "%u entries", p.len);
	CHECK(ents[1].task == 1 && ents[1].first && !ents[1].last);
}

TEST(continuous_media_sets_keep_every_reservation)
{
	/* The bench's set (user/isochbench): audio, video and a control loop. */
	struct iplan_task media[3] = { { 2000000, 300000 }, { 5000000, 1000000 }, { 10000000, 1500000 } };
	/* Eight tasks at the rate-monotonic bound's edge, coprime-ish periods. */
	struct iplan_task eight[8] = { { 1000, 90 }, { 1200, 100 }, { 1500, 110 }, { 2000, 150 },
				       { 2400, 170 }, { 3000, 200 }, { 4000, 250 }, { 6000, 300 } };
	struct iplan p;
	CHECK_EQ(build(&p, media, 3, MAXE, 1000), 0);
	CHECK_STR(keeps_reservations(&p), "");
	CHECK_EQ(p.hyper, 10000000);
	CHECK_EQ(build(&p, eight, 8, MAXE, 1000), 0);
	CHECK_STR(keeps_reservations(&p), "");
	CHECK(p.len <= iplan_entries_bound(eight, 8, p.hyper), "%u entries", p.len);
}

TEST(building_in_single_steps_gives_the_same_table)
{
	struct iplan_task t[3] = { { 1000, 250 }, { 1500, 300 }, { 2500, 400 } };
	static struct iplan_entry whole[MAXE];
	struct iplan p;
	CHECK_EQ(build(&p, t, 3, MAXE, 100000), 0);
	uint32_t n = p.len;
	memcpy(whole, ents, n * sizeof ents[0]);
	memset(ents, 0, sizeof ents);
	CHECK_EQ(build(&p, t, 3, MAXE, 1), 0);
	CHECK_EQ(p.len, n);
	CHECK(memcmp(whole, ents, n * sizeof ents[0]) == 0);
	CHECK_STR(keeps_reservations(&p), "");
}

TEST(no_room_or_too_much_load_is_refused)
{
	struct iplan_task t[2] = { { 1000, 400 }, { 3000, 1500 } };
	struct iplan p;
	CHECK_EQ(build(&p, t, 2, 2, 1000), -ENOSPC);
	struct iplan_task over[2] = { { 1000, 600 }, { 2000, 900 } };   /* 105 % */
	CHECK_EQ(build(&p, over, 2, MAXE, 1000), -ENOSPC);
	struct iplan_task full[2] = { { 1000, 500 }, { 2000, 1000 } };  /* 100 %: fits */
	CHECK_EQ(build(&p, full, 2, MAXE, 1000), 0);
	CHECK_STR(keeps_reservations(&p), "");
}
