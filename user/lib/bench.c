/*
 * user/lib/bench.c — sample sets and their report for the benchmark
 * programs (hako/bench.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/bench.h>
#include <hako/result.h>

#define MAX_RESULTS 96

static struct bench_stats results[MAX_RESULTS];
static int nresults;
static const char *program = "bench";

void bench_set_program(const char *name)
{
	program = name;
}

int samples_init(struct samples *s, unsigned cap)
{
	s->n = 0;
	s->cap = cap;
	s->v = malloc((size_t)cap * sizeof s->v[0]);
	if (s->v == NULL) {
		printf("%s: no memory for %u samples\n", program, cap);
		return -ENOMEM;
	}
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

static struct bench_stats summarize(const char *name, struct samples *s)
{
	struct bench_stats r = { .n = s->n };
	uint64_t sum = 0;

	strlcpy(r.name, name, sizeof r.name);
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

/* The result line; REGION < 0: no region. */
static struct bench_stats report(const char *name, struct samples *s, const char *what,
				 int region, unsigned long iters)
{
	struct bench_stats r = summarize(name, s);
	char model[48] = "";

	if (region >= 0)
		snprintf(model, sizeof model, ",\"region\":%d,\"iters\":%lu", region, iters);
	result_line("{\"kind\":\"bench\",\"name\":\"%s\",\"unit\":\"%s\",\"min\":%" PRIu64 ",\"median\":%" PRIu64 ","
		    "\"mean\":%" PRIu64 ",\"max\":%" PRIu64 ",\"n\":%u%s}", name, "tsc", r.min, r.median, r.mean, r.max,
		    r.n, model);
	printf("%s: %-28s min %7" PRIu64 "  median %7" PRIu64 "  mean %7" PRIu64 "  max %9" PRIu64 "  n %5u  (ticks %s)\n",
	       program, name, r.min, r.median, r.mean, r.max, r.n, what);
	if (nresults < MAX_RESULTS)
		results[nresults++] = r;
	return r;
}

struct bench_stats bench_report(const char *name, struct samples *s, const char *what)
{
	return report(name, s, what, -1, 0);
}

struct bench_stats bench_report_region(const char *name, struct samples *s, const char *what,
				       unsigned region, unsigned long iters)
{
	return report(name, s, what, (int)region, iters);
}

const struct bench_stats *bench_find(const char *name)
{
	for (int i = 0; i < nresults; i++)
		if (strcmp(results[i].name, name) == 0 && results[i].n > 0)
			return &results[i];
	return NULL;
}

static void print_table(void)
{
	printf("\n%s: summary, TSC ticks (= guest instructions under icount)\n", program);
	printf("  %-28s %9s %9s %9s %10s %6s\n", "name", "min", "median", "mean", "max", "n");
	for (int i = 0; i < nresults; i++) {
		const struct bench_stats *r = &results[i];
		printf("  %-28s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %10" PRIu64 " %6u\n",
		       r->name, r->min, r->median, r->mean, r->max, r->n);
	}
}

static void print_targets(const struct bench_target *targets, size_t n)
{
	const struct bench_stats *r;
	int shown = 0;

	for (size_t i = 0; i < n; i++)
		if ((r = bench_find(targets[i].name)) != NULL) {
			if (!shown++)
				printf("\n%s: issue targets (median, guest instructions under icount)\n", program);
			printf("  %-28s median %7" PRIu64 "  target %7" PRIu64 "  %-6s  (%s)\n", r->name, r->median,
			       targets[i].limit, r->median <= targets[i].limit ? "within" : "over",
			       targets[i].what);
		}
	for (size_t i = 0; i < n; i++)
		if ((r = bench_find(targets[i].name)) != NULL)
			result_line("{\"kind\":\"bench-target\",\"name\":\"%s\",\"stat\":\"median\","
				    "\"value\":%" PRIu64 ",\"target\":%" PRIu64 ",\"within\":%s}", r->name, r->median,
				    targets[i].limit, r->median <= targets[i].limit ? "true" : "false");
}

void bench_summary(const struct bench_target *targets, size_t n)
{
	if (nresults == 0)
		return;
	print_table();
	print_targets(targets, n);
}
