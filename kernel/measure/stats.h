/*
 * stats.h — timing samples and their summary, and result lines.
 *
 * A result line is one JSON object on the console, prefixed by "@@ ";
 * the host harness collects exactly those lines.
 */
#ifndef HAKO_STATS_H
#define HAKO_STATS_H

#include <stdint.h>

struct stats {
	uint64_t *samples;
	uint32_t n, cap;
	uint64_t min, max, sum;
};

struct stats_summary {
	uint64_t min, median, mean, max;
	uint32_t n;
};

void stats_init(struct stats *s, uint64_t *buf, uint32_t cap);
void stats_add(struct stats *s, uint64_t v);
struct stats_summary stats_summarize(struct stats *s);   /* sorts the samples */

void result_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void result_bench(const char *name, const char *unit, struct stats *s);

#endif
