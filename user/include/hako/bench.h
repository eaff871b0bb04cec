/*
 * hako/bench.h — what the benchmark programs (sysbench, ispcbench) share:
 * sample sets, their min / median / mean / max as result lines, and the
 * closing summary table with a program's targets.
 *
 * Figures are TSC ticks, which under QEMU icount are guest instructions.
 * The result line has the kernel's own bench format (kernel/stats.c), so
 * `./hako bench` renders all of them the same way; the median is the
 * middle sample after sorting.
 */
#ifndef _HAKO_BENCH_H
#define _HAKO_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* The samples of one figure, kept to find the median. */
struct samples {
	uint64_t *v;
	unsigned n, cap;
};

/* 0, or -ENOMEM (and a message naming PROG). */
int samples_init(struct samples *s, unsigned cap);
void samples_add(struct samples *s, uint64_t v);
void samples_append(struct samples *dst, const struct samples *src);
void samples_free(struct samples *s);

#define BENCH_NAME_MAX 48

struct bench_stats {
	char name[BENCH_NAME_MAX];       /* a copy: callers may reuse their buffer */
	uint64_t min, median, mean, max;
	unsigned n;
};

/* A figure the issue sets a limit on (median, guest instructions). */
struct bench_target {
	const char *name;
	uint64_t limit;
	const char *what;
};

/* The name printed before every line ("sysbench"); set it first. */
void bench_set_program(const char *name);
/* Sort S, print its result line and a readable line (WHAT: per what),
 * keep it for the summary; returns its statistics. */
struct bench_stats bench_report(const char *name, struct samples *s, const char *what);
/* The same, and the result line names the cost-model region that timed
 * it ("region":REGION) and how many operations of the figure that region
 * covered ("iters":ITERS): see hako/region.h. */
struct bench_stats bench_report_region(const char *name, struct samples *s, const char *what,
				       unsigned region, unsigned long iters);
/* A figure already reported, or NULL. */
const struct bench_stats *bench_find(const char *name);
/* The table of everything reported, then TARGETS with within/over. */
void bench_summary(const struct bench_target *targets, size_t n);

#endif
