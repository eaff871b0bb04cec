/*
 * isoch_plan.c — the reserved schedule's builder (isoch_plan.h): earliest
 * deadline first over one hyperperiod, event by event.  An event is a job
 * finishing or a release; between two events the job with the earliest
 * deadline runs, and consecutive stretches of one job are one entry.
 */
#include <errno.h>
#include <isoch_plan.h>

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

int iplan_hyperperiod(const struct iplan_task *t, int n, uint64_t max, uint64_t *hyper)
{
	if (n < 1 || n > IPLAN_MAX_TASKS)
		return -EINVAL;
	uint64_t h = 1;
	for (int i = 0; i < n; i++) {
		if (!t[i].period || t[i].budget > t[i].period)
			return -EINVAL;
		uint64_t step = t[i].period / gcd(h, t[i].period);
		if (h > max / step)
			return -ENOSPC;
		h *= step;
	}
	if (h > max)
		return -ENOSPC;
	*hyper = h;
	return 0;
}

uint64_t iplan_entries_bound(const struct iplan_task *t, int n, uint64_t hyper)
{
	uint64_t jobs = 0;
	for (int i = 0; i < n; i++)
		jobs += hyper / t[i].period;
	return 2 * jobs;
}

static void release(struct iplan *p, int i, uint64_t at)
{
	p->left[i] = p->task[i].budget;
	p->job_release[i] = at;
	p->deadline[i] = at + p->task[i].period;
	p->next_release[i] = at + p->task[i].period;
	p->placed[i] = false;
}

void iplan_begin(struct iplan *p, const struct iplan_task *t, int n, uint64_t hyper,
		 struct iplan_entry *e, uint32_t cap)
{
	p->task = t;
	p->n = n;
	p->hyper = hyper;
	p->e = e;
	p->cap = cap;
	p->len = 0;
	p->now = 0;
	for (int i = 0; i < n; i++)
		release(p, i, 0);
}

/* Run job i from p->now for len; 0 or -ENOSPC (no room). */
static int place(struct iplan *p, int i, uint64_t len)
{
	struct iplan_entry *last = p->len ? &p->e[p->len - 1] : 0;
	if (last && last->task == i && last->end == p->now && !last->last &&
	    last->release == p->job_release[i]) {
		last->end += len;
	} else {
		if (p->len == p->cap)
			return -ENOSPC;
		last = &p->e[p->len++];
		*last = (struct iplan_entry){ .start = p->now, .end = p->now + len,
					      .release = p->job_release[i], .task = (uint8_t)i,
					      .first = !p->placed[i] };
	}
	p->placed[i] = true;
	p->left[i] -= len;
	last->last = p->left[i] == 0;
	return 0;
}

int iplan_step(struct iplan *p, uint32_t steps)
{
	for (; steps; steps--) {
		if (p->now >= p->hyper) {
			for (int i = 0; i < p->n; i++)
				if (p->left[i])
					return -ENOSPC;
			return 0;
		}
		uint64_t next = p->hyper;
		int run = -1;
		for (int i = 0; i < p->n; i++) {
			if (p->next_release[i] < next)
				next = p->next_release[i];
			if (p->left[i] && (run < 0 || p->deadline[i] < p->deadline[run]))
				run = i;
		}
		if (run >= 0) {
			uint64_t len = p->left[run] < next - p->now ? p->left[run] : next - p->now;
			if (place(p, run, len) < 0)
				return -ENOSPC;
			p->now += len;
		} else {
			p->now = next;
		}
		if (p->now < p->hyper)
			for (int i = 0; i < p->n; i++)
				if (p->next_release[i] == p->now) {
					if (p->left[i])
						return -ENOSPC;   /* missed its deadline */
					release(p, i, p->now);
				}
	}
	return 1;
}
