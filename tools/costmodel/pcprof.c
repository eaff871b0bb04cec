/*
 * pcprof.c — the (region, vCPU, block address) instruction counters of
 * pcprof.h, in an open-addressing hash table with linear probing that
 * doubles when half full.  Growing moves every row, so a counter pointer
 * is good only until the next lookup that makes a row: the plugin looks
 * its counter up again at every block it enters.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "pcprof.h"

struct row {
	bool used;
	struct cm_pcprof_row r;
};

struct cm_pcprof {
	struct row *rows;
	uint64_t size, used;             /* size is a power of two */
};

struct cm_pcprof *cm_pcprof_new(void)
{
	struct cm_pcprof *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->size = 1u << 12;
	p->rows = calloc(p->size, sizeof *p->rows);
	if (!p->rows) {
		free(p);
		return NULL;
	}
	return p;
}

void cm_pcprof_free(struct cm_pcprof *p)
{
	if (!p)
		return;
	free(p->rows);
	free(p);
}

static uint64_t hash(uint32_t region, uint32_t vcpu, uint64_t pc)
{
	uint64_t h = pc ^ ((uint64_t)region << 40) ^ ((uint64_t)vcpu << 56);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static struct row *find(struct row *rows, uint64_t size, uint32_t region, uint32_t vcpu,
			uint64_t pc)
{
	uint64_t i = hash(region, vcpu, pc) & (size - 1);
	while (rows[i].used &&
	       !(rows[i].r.region == region && rows[i].r.vcpu == vcpu && rows[i].r.pc == pc))
		i = (i + 1) & (size - 1);
	return &rows[i];
}

static bool grow(struct cm_pcprof *p)
{
	uint64_t size = p->size * 2;
	struct row *rows = calloc(size, sizeof *rows);
	if (!rows)
		return false;
	for (uint64_t i = 0; i < p->size; i++)
		if (p->rows[i].used)
			*find(rows, size, p->rows[i].r.region, p->rows[i].r.vcpu, p->rows[i].r.pc) =
				p->rows[i];
	free(p->rows);
	p->rows = rows;
	p->size = size;
	return true;
}

uint64_t *cm_pcprof_counter(struct cm_pcprof *p, uint32_t region, uint32_t vcpu, uint64_t pc)
{
	struct row *r = find(p->rows, p->size, region, vcpu, pc);
	if (r->used)
		return &r->r.insns;
	if (2 * (p->used + 1) > p->size) {
		if (!grow(p))
			return NULL;
		r = find(p->rows, p->size, region, vcpu, pc);
	}
	r->used = true;
	r->r = (struct cm_pcprof_row){ .region = region, .vcpu = vcpu, .pc = pc };
	p->used++;
	return &r->r.insns;
}

void cm_pcprof_each(const struct cm_pcprof *p, void (*fn)(const struct cm_pcprof_row *, void *),
		    void *arg)
{
	for (uint64_t i = 0; i < p->size; i++)
		if (p->rows[i].used && p->rows[i].r.insns)
			fn(&p->rows[i].r, arg);
}
