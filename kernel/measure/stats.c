/*
 * stats.c — min / median / mean / max over samples, and result lines.
 */
#include <stdarg.h>
#include <stdint.h>
#include <kprintf.h>
#include <stats.h>
#include <console.h>

void stats_init(struct stats *s, uint64_t *buf, uint32_t cap)
{
	s->samples = buf;
	s->cap = cap;
	s->n = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	s->sum = 0;
}

void stats_add(struct stats *s, uint64_t v)
{
	if (s->n < s->cap)
		s->samples[s->n] = v;
	s->n++;
	s->sum += v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
}

static void sort(uint64_t *a, uint32_t n)
{
	for (uint32_t gap = n / 2; gap > 0; gap /= 2)       /* shell sort */
		for (uint32_t i = gap; i < n; i++)
			for (uint32_t j = i; j >= gap && a[j - gap] > a[j]; j -= gap) {
				uint64_t t = a[j];
				a[j] = a[j - gap];
				a[j - gap] = t;
			}
}

struct stats_summary stats_summarize(struct stats *s)
{
	struct stats_summary r = { 0 };
	if (s->n == 0)
		return r;
	uint32_t kept = s->n < s->cap ? s->n : s->cap;
	sort(s->samples, kept);
	r.min = s->min;
	r.max = s->max;
	r.n = s->n;
	r.mean = s->sum / s->n;
	r.median = kept ? s->samples[kept / 2] : 0;
	return r;
}

void result_line(const char *fmt, ...)
{
	char buf[480];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	kprintf("@@ %s\n", buf);
}

void result_bench(const char *name, const char *unit, struct stats *s)
{
	struct stats_summary r = stats_summarize(s);
	result_line("{\"kind\":\"bench\",\"name\":\"%s\",\"unit\":\"%s\",\"min\":%lu,\"median\":%lu,"
		    "\"mean\":%lu,\"max\":%lu,\"n\":%u}", name, unit, r.min, r.median, r.mean, r.max, r.n);
}
