/*
 * cache.c — set-associative LRU caches and the L1 -> L2 -> L3 lookup
 * (cache.h).
 *
 * A line's set is its line number modulo the number of sets (sets need
 * not be a power of two); true LRU keeps a use stamp per line and evicts
 * the smallest, an empty line (stamp 0) first.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

bool cm_cache_init(struct cm_cache *c, const struct cm_cache_geom *g)
{
	memset(c, 0, sizeof *c);
	c->ways = g->ways;
	c->sets = (uint32_t)(g->size / ((uint64_t)g->ways * g->line));
	while ((1u << c->line_shift) < g->line)
		c->line_shift++;
	c->lines = calloc((size_t)c->sets * c->ways, sizeof *c->lines);
	return c->lines != NULL;
}

void cm_cache_free(struct cm_cache *c)
{
	free(c->lines);
	c->lines = NULL;
}

uint32_t cm_cache_set(const struct cm_cache *c, uint64_t paddr)
{
	return (uint32_t)((paddr >> c->line_shift) % c->sets);
}

static struct cm_line *set_of(const struct cm_cache *c, uint64_t paddr)
{
	return c->lines + (size_t)cm_cache_set(c, paddr) * c->ways;
}

bool cm_cache_holds(const struct cm_cache *c, uint64_t paddr)
{
	const struct cm_line *set = set_of(c, paddr);
	uint64_t tag = paddr >> c->line_shift;
	for (uint32_t w = 0; w < c->ways; w++)
		if (set[w].stamp && set[w].tag == tag)
			return true;
	return false;
}

bool cm_cache_access(struct cm_cache *c, uint64_t paddr)
{
	struct cm_line *set = set_of(c, paddr), *victim = set;
	uint64_t tag = paddr >> c->line_shift;
	c->clock++;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (set[w].stamp && set[w].tag == tag) {
			set[w].stamp = c->clock;
			c->hits++;
			return true;
		}
		if (set[w].stamp < victim->stamp)
			victim = &set[w];
	}
	victim->tag = tag;
	victim->stamp = c->clock;
	c->misses++;
	return false;
}

void cm_cache_empty(struct cm_cache *c)
{
	memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
}

enum cm_level cm_hier_access(struct cm_cache *l1, struct cm_cache *l2, struct cm_cache *l3,
			     uint64_t paddr)
{
	if (cm_cache_access(l1, paddr))
		return CM_L1;
	if (l2 && cm_cache_access(l2, paddr))
		return CM_L2;
	if (!l3)
		return CM_MEM;
	return cm_cache_access(l3, paddr) ? CM_L3 : CM_MEM;
}
