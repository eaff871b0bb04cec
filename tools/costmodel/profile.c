/*
 * profile.c — reading a machine profile (profile.h).
 *
 * The file is lines of `key = value`; `#` starts a comment, blank lines
 * are skipped.  The keys are the table below, each stored at an offset
 * in struct cm_profile; after parsing, every key must have been seen once
 * and the geometry must make sense (whole sets, power-of-two lines).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

enum kind { K_NAME, K_U32, K_U64, K_CPI };

struct key {
	const char *name;
	enum kind kind;
	size_t offset;
};

#define U32(k, field) { k, K_U32, offsetof(struct cm_profile, field) }
#define U64(k, field) { k, K_U64, offsetof(struct cm_profile, field) }

/* In output order (cm_profile_json). */
static const struct key keys[] = {
	{ "name", K_NAME, offsetof(struct cm_profile, name) },
	{ "base_cpi", K_CPI, offsetof(struct cm_profile, base_cpi_milli) },
	U32("itlb.entries", itlb.entries), U32("itlb.ways", itlb.ways),
	U32("dtlb.entries", dtlb.entries), U32("dtlb.ways", dtlb.ways),
	U32("stlb.entries", stlb.entries), U32("stlb.ways", stlb.ways),
	U32("stlb.hit_cycles", stlb_hit_cycles), U32("walk.cycles", walk_cycles),
	U64("l1i.size", l1i.size), U32("l1i.ways", l1i.ways),
	U32("l1i.line", l1i.line), U32("l1i.latency", l1i.latency),
	U64("l1d.size", l1d.size), U32("l1d.ways", l1d.ways),
	U32("l1d.line", l1d.line), U32("l1d.latency", l1d.latency),
	U64("l2.size", l2.size), U32("l2.ways", l2.ways),
	U32("l2.line", l2.line), U32("l2.latency", l2.latency),
	U64("l3.size", l3.size), U32("l3.ways", l3.ways),
	U32("l3.line", l3.line), U32("l3.latency", l3.latency),
	U32("mem.latency", mem_latency),
	U32("stream.fills", stream.fills), U32("stream.window", stream.window),
	U32("stream.mem_line_cycles", stream.mem_line_cycles),
	U32("mem.write_allocate", write.allocate), U32("mem.store_miss_cycles", write.store_miss_cycles),
	U32("mem.writeback_cycles", write.writeback_cycles),
	U32("mem.writeback_buffer", write.writeback_buffer),
	U32("mem.fast_strings", write.fast_strings),
	U32("io.port_read_cycles", io.port_read), U32("io.port_write_cycles", io.port_write),
	U32("io.mmio_read_cycles", io.mmio_read), U32("io.mmio_write_cycles", io.mmio_write),
	U32("io.lapic_cycles", io.lapic),
};
#define NKEYS (sizeof keys / sizeof keys[0])

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An unsigned integer with an optional K or M suffix; false if malformed. */
static bool parse_uint(const char *s, uint64_t *out)
{
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	*out = v;
	return *end == 0;
}

/* A decimal like 1, 0.75 or 2.125, in thousandths. */
static bool parse_milli(const char *s, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, scale = 1000;
	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++)
		whole = whole * 10 + (uint64_t)(*s - '0');
	if (*s == '.') {
		s++;
		for (; isdigit((unsigned char)*s) && scale > 1; s++) {
			scale /= 10;
			frac += (uint64_t)(*s - '0') * scale;
		}
	}
	*out = whole * 1000 + frac;
	return *s == 0 && whole < 1000000;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int store(const struct key *k, const char *value, struct cm_profile *p)
{
	char *at = (char *)p + k->offset;
	uint64_t v;
	switch (k->kind) {
	case K_NAME:
		if (!*value || strlen(value) >= CM_NAME_MAX || strpbrk(value, "\"\\"))
			return -1;
		strcpy(at, value);
		return 0;
	case K_CPI:
		if (!parse_milli(value, &v) || v == 0)
			return -1;
		*(uint32_t *)at = (uint32_t)v;
		return 0;
	case K_U32:
		if (!parse_uint(value, &v) || v > UINT32_MAX)
			return -1;
		*(uint32_t *)at = (uint32_t)v;
		return 0;
	case K_U64:
		if (!parse_uint(value, &v))
			return -1;
		*(uint64_t *)at = v;
		return 0;
	}
	return -1;
}

static const char *check_tlb(const struct cm_tlb_geom *t, bool optional)
{
	if (t->entries == 0)
		return optional ? NULL : "needs entries";
	if (t->ways == 0 || t->ways > t->entries || t->entries % t->ways)
		return "ways must divide entries";
	return NULL;
}

static const char *check_cache(const struct cm_cache_geom *c, bool optional)
{
	if (c->size == 0)
		return optional ? NULL : "needs a size";
	if (c->line == 0 || (c->line & (c->line - 1)))
		return "line must be a power of two";
	if (c->ways == 0 || c->size % ((uint64_t)c->ways * c->line))
		return "size must be whole sets of ways x line";
	return NULL;
}

/* The geometry makes sense; else a message naming the part. */
static int check(const struct cm_profile *p, const char *what, char *err, size_t errlen)
{
	const struct { const char *part; const char *why; } parts[] = {
		{ "itlb", check_tlb(&p->itlb, false) },
		{ "dtlb", check_tlb(&p->dtlb, false) },
		{ "stlb", check_tlb(&p->stlb, true) },
		{ "l1i", check_cache(&p->l1i, false) },
		{ "l1d", check_cache(&p->l1d, false) },
		{ "l2", check_cache(&p->l2, true) },
		{ "l3", check_cache(&p->l3, true) },
	};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (parts[i].why)
			return fail(err, errlen, "%s: %s %s", what, parts[i].part, parts[i].why);
	if (p->stream.fills == 0)
		return fail(err, errlen, "%s: stream.fills must be at least 1 (1: no overlap)", what);
	if (p->write.allocate > 1 || p->write.writeback_buffer > 1 || p->write.fast_strings > 1)
		return fail(err, errlen, "%s: mem.write_allocate, mem.writeback_buffer and "
			    "mem.fast_strings are 0 or 1", what);
	return 0;
}

int cm_profile_parse(const char *text, const char *what, struct cm_profile *p,
		     char *err, size_t errlen)
{
	bool seen[NKEYS] = { false };
	memset(p, 0, sizeof *p);
	int lineno = 0;
	for (const char *line = text; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		lineno++;
		if (n >= sizeof buf)
			return fail(err, errlen, "%s:%d: line too long", what, lineno);
		memcpy(buf, line, n);
		buf[n] = 0;
		line = nl ? nl + 1 : NULL;
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		char *s = trim(buf);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq)
			return fail(err, errlen, "%s:%d: expected key = value", what, lineno);
		*eq = 0;
		char *key = trim(s), *value = trim(eq + 1);
		size_t k = 0;
		while (k < NKEYS && strcmp(keys[k].name, key) != 0)
			k++;
		if (k == NKEYS)
			return fail(err, errlen, "%s:%d: unknown key '%s'", what, lineno, key);
		if (seen[k])
			return fail(err, errlen, "%s:%d: key '%s' given twice", what, lineno, key);
		if (store(&keys[k], value, p) < 0)
			return fail(err, errlen, "%s:%d: bad value '%s' for '%s'", what, lineno, value, key);
		seen[k] = true;
	}
	for (size_t k = 0; k < NKEYS; k++)
		if (!seen[k])
			return fail(err, errlen, "%s: missing key '%s'", what, keys[k].name);
	return check(p, what, err, errlen);
}

int cm_profile_load(const char *path, struct cm_profile *p, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	char text[16384];
	size_t n = fread(text, 1, sizeof text - 1, f);
	bool too_big = !feof(f);
	fclose(f);
	if (too_big)
		return fail(err, errlen, "%s: larger than %zu bytes", path, sizeof text - 1);
	text[n] = 0;
	return cm_profile_parse(text, path, p, err, errlen);
}

int cm_profile_disable_l2(struct cm_profile *p)
{
	static const char suffix[] = ":l2off";
	size_t n = strlen(p->name);
	if (p->l2_off)
		return 0;
	if (n + sizeof suffix > CM_NAME_MAX)
		return -1;
	memcpy(p->name + n, suffix, sizeof suffix);
	p->l2_off = true;
	return 0;
}

/* A walk reads two page-table entries (the profiles price 32-bit two-level
 * walks); walk.cycles counts them as L2 hits. */
#define CM_WALK_READS 2

uint32_t cm_walk_cost(const struct cm_profile *p)
{
	if (!p->l2_off || p->mem_latency <= p->l2.latency)
		return p->walk_cycles;
	return p->walk_cycles + CM_WALK_READS * (p->mem_latency - p->l2.latency);
}

int cm_profile_json(const struct cm_profile *p, char *buf, size_t len)
{
	size_t used = 0;
	for (size_t k = 0; k < NKEYS; k++) {
		const char *at = (const char *)p + keys[k].offset;
		const char *sep = k ? "," : "";
		char *dst = buf + (used < len ? used : len);
		size_t room = used < len ? len - used : 0;
		int w;
		if (keys[k].kind == K_NAME)
			w = snprintf(dst, room, "%s\"%s\":\"%s\"", sep, keys[k].name, at);
		else if (keys[k].kind == K_U64)
			w = snprintf(dst, room, "%s\"%s\":%llu", sep, keys[k].name,
				     (unsigned long long)*(const uint64_t *)at);
		else if (keys[k].kind == K_CPI)
			w = snprintf(dst, room, "%s\"base_cpi_milli\":%u", sep, *(const uint32_t *)at);
		else
			w = snprintf(dst, room, "%s\"%s\":%u", sep, keys[k].name, *(const uint32_t *)at);
		used += (size_t)w;
	}
	return (int)used;
}
