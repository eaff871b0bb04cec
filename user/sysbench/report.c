/*
 * sysbench/report.c — sample sets, their min / median / mean / max, the
 * result lines the harness collects and the closing summary with the
 * issue's targets.
 *
 * The result line has the kernel's own bench format (kernel/stats.c), so
 * `./hako bench` renders both the same way; the median is the middle
 * sample after sorting, as there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/result.h>
#include "sysbench.h"

#define MAX_RESULTS 16

struct result {
	const char *name;
	uint64_t min, median, mean, max;
	unsigned n;
};

/* The targets, in guest instructions under icount (median). */
struct target {
	const char *name;
	uint64_t limit;
	const char *what;
};

static const struct target targets[] = {
	{ "null_syscall", 150, "null syscall round trip" },
	{ "process_switch_oneway", 800, "process switch, one way" },
	{ "page_fault_first_touch", 1500, "first-touch page fault" },
	{ "spawn_exit_wait", 200000, "spawn + exit + wait" },
};

static struct result results[MAX_RESULTS];
static int nresults;

int samples_init(struct samples *s, unsigned cap)
{
	s->n = 0;
	s->cap = cap;
	s->v = malloc((size_t)cap * sizeof s->v[0]);
	if (s->v == NULL)
		return fail("no memory for samples", -ENOMEM);
	/* Fault every page in now, not between two timed runs. */
	memset(s->v, 0, (size_t)cap * sizeof s->v[0]);
	return 0;
}

void samples_add(struct samples *s, uint64_t v)
{
	if (s->n < s->cap)
		s->v[s->n++] = v;
}

void samples_append(struct samples *dst, const struct samples *src)
{
	for (unsigned i = 0; i < src->n; i++)
		samples_add(dst, src->v[i]);
}

void samples_free(struct samples *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* Shell sort: no recursion, fine for ten thousand samples. */
static void sort(uint64_t *a, unsigned n)
{
	for (unsigned gap = n / 2; gap > 0; gap /= 2)
		for (unsigned i = gap; i < n; i++)
			for (unsigned j = i; j >= gap && a[j - gap] > a[j]; j -= gap) {
				uint64_t t = a[j];
				a[j] = a[j - gap];
				a[j - gap] = t;
			}
}

static struct result summarize(const char *name, struct samples *s)
{
	struct result r = { .name = name, .n = s->n };
	uint64_t sum = 0;

	if (s->n == 0)
		return r;
	sort(s->v, s->n);
	for (unsigned i = 0; i < s->n; i++)
		sum += s->v[i];
	r.min = s->v[0];
	r.max = s->v[s->n - 1];
	r.median = s->v[s->n / 2];
	r.mean = sum / s->n;
	return r;
}

void report(const char *name, struct samples *s, const char *what)
{
	struct result r = summarize(name, s);

	result_line("{\"kind\":\"bench\",\"name\":\"%s\",\"unit\":\"%s\",\"min\":%lu,\"median\":%lu,"
		    "\"mean\":%lu,\"max\":%lu,\"n\":%u}", name, "tsc", r.min, r.median, r.mean, r.max, r.n);
	printf("sysbench: %-24s min %7lu  median %7lu  mean %7lu  max %9lu  n %5u  (ticks %s)\n",
	       name, r.min, r.median, r.mean, r.max, r.n, what);
	if (nresults < MAX_RESULTS)
		results[nresults++] = r;
}

static const struct result *find_result(const char *name)
{
	for (int i = 0; i < nresults; i++)
		if (strcmp(results[i].name, name) == 0)
			return &results[i];
	return NULL;
}

static void print_table(void)
{
	printf("\nsysbench: summary, TSC ticks (= guest instructions under icount)\n");
	printf("  %-24s %9s %9s %9s %10s %6s\n", "name", "min", "median", "mean", "max", "n");
	for (int i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		printf("  %-24s %9lu %9lu %9lu %10lu %6u\n",
		       r->name, r->min, r->median, r->mean, r->max, r->n);
	}
}

/* A target, with the result it is about (NULL if that did not run). */
static const struct result *target_result(const struct target *t)
{
	const struct result *r = find_result(t->name);

	return r != NULL && r->n > 0 ? r : NULL;
}

static void print_targets(void)
{
	const size_t n = sizeof targets / sizeof targets[0];
	const struct result *r;
	int shown = 0;

	for (size_t i = 0; i < n; i++)
		if ((r = target_result(&targets[i])) != NULL) {
			if (!shown++)
				printf("\nsysbench: issue targets (median, guest instructions under icount)\n");
			printf("  %-24s median %7lu  target %7lu  %-6s  (%s)\n", r->name, r->median,
			       targets[i].limit, r->median <= targets[i].limit ? "within" : "over",
			       targets[i].what);
		}
	for (size_t i = 0; i < n; i++)
		if ((r = target_result(&targets[i])) != NULL)
			result_line("{\"kind\":\"bench-target\",\"name\":\"%s\",\"stat\":\"median\","
				    "\"value\":%lu,\"target\":%lu,\"within\":%s}", r->name, r->median,
				    targets[i].limit, r->median <= targets[i].limit ? "true" : "false");
}

void report_summary(void)
{
	if (nresults == 0)
		return;
	print_table();
	print_targets();
}
