/*
 * cache.c — set-associative LRU caches and the L1 -> L2 -> L3 lookup
 * (cache.h).
 *
 * A line's set is its line number modulo the number of sets (sets need
 * not be a power of two); true LRU keeps a use stamp per line and evicts
 * the smallest, an empty line (stamp 0) first.  A dirty line pushed out
 * of a level is handed to the next one down (write_down), so a write-back
 * reaches memory only from the last level.
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

bool cm_cache_holds_dirty(const struct cm_cache *c, uint64_t paddr)
{
	const struct cm_line *set = set_of(c, paddr);
	uint64_t tag = paddr >> c->line_shift;
	for (uint32_t w = 0; w < c->ways; w++)
		if (set[w].stamp && set[w].tag == tag)
			return set[w].dirty;
	return false;
}

bool cm_cache_mark_dirty(struct cm_cache *c, uint64_t paddr)
{
	struct cm_line *set = set_of(c, paddr);
	uint64_t tag = paddr >> c->line_shift;
	for (uint32_t w = 0; w < c->ways; w++)
		if (set[w].stamp && set[w].tag == tag) {
			set[w].dirty = true;
			return true;
		}
	return false;
}

/*
 * Put paddr's line, absent from c, in its set's LRU way; returns the
 * address of the line it replaced if that was dirty, else CM_CLEAN.
 */
static uint64_t place(struct cm_cache *c, uint64_t paddr, bool dirty)
{
	struct cm_line *set = set_of(c, paddr), *victim = set;
	for (uint32_t w = 1; w < c->ways; w++)
		if (set[w].stamp < victim->stamp)
			victim = &set[w];
	uint64_t out = victim->stamp && victim->dirty ? victim->tag << c->line_shift : CM_CLEAN;
	*victim = (struct cm_line){ .tag = paddr >> c->line_shift, .stamp = ++c->clock, .dirty = dirty };
	return out;
}

bool cm_cache_fill(struct cm_cache *c, uint64_t paddr, uint64_t *victim)
{
	struct cm_line *set = set_of(c, paddr);
	uint64_t tag = paddr >> c->line_shift;
	if (victim)
		*victim = CM_CLEAN;
	for (uint32_t w = 0; w < c->ways; w++)
		if (set[w].stamp && set[w].tag == tag) {
			set[w].stamp = ++c->clock;
			c->hits++;
			return true;
		}
	uint64_t out = place(c, paddr, false);
	if (victim)
		*victim = out;
	c->misses++;
	return false;
}

bool cm_cache_access(struct cm_cache *c, uint64_t paddr)
{
	return cm_cache_fill(c, paddr, NULL);
}

void cm_cache_empty(struct cm_cache *c)
{
	memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
}

/*
 * A dirty line at paddr leaves levels[i - 1]: levels[i] takes it, dirty
 * (filling it if absent, which may push a dirty line of its own further
 * down); past the last level it is a write-back to memory.
 */
static void write_down(struct cm_cache *const levels[], int n, int i, uint64_t paddr,
		       uint32_t *writebacks)
{
	for (; i < n; i++) {
		if (cm_cache_mark_dirty(levels[i], paddr))
			return;
		paddr = place(levels[i], paddr, true);   /* not a lookup: no hit or miss counted */
		if (paddr == CM_CLEAN)
			return;
	}
	if (writebacks)
		++*writebacks;
}

/* The levels in use, top down; returns how many. */
static int levels_of(struct cm_cache *levels[3], struct cm_cache *l1, struct cm_cache *l2,
		     struct cm_cache *l3)
{
	int n = 0;
	levels[n++] = l1;
	if (l2)
		levels[n++] = l2;
	if (l3)
		levels[n++] = l3;
	return n;
}

/* The level levels[i] is (L2 may be off, so L3 can sit at index 1). */
static enum cm_level named(struct cm_cache *const levels[], int i, struct cm_cache *l2)
{
	if (i == 0)
		return CM_L1;
	return levels[i] == l2 ? CM_L2 : CM_L3;
}

enum cm_level cm_hier_access(struct cm_cache *l1, struct cm_cache *l2, struct cm_cache *l3,
			     uint64_t paddr, uint32_t *writebacks)
{
	struct cm_cache *levels[3];
	int n = levels_of(levels, l1, l2, l3);
	for (int i = 0; i < n; i++) {
		uint64_t victim;
		bool hit = cm_cache_fill(levels[i], paddr, &victim);
		if (victim != CM_CLEAN)
			write_down(levels, n, i + 1, victim, writebacks);
		if (hit)
			return named(levels, i, l2);
	}
	return CM_MEM;
}

enum cm_level cm_hier_store(struct cm_cache *l1, struct cm_cache *l2, struct cm_cache *l3,
			    uint64_t paddr, bool allocate, uint32_t *writebacks)
{
	if (allocate) {
		enum cm_level level = cm_hier_access(l1, l2, l3, paddr, writebacks);
		cm_cache_mark_dirty(l1, paddr);
		return level;
	}
	struct cm_cache *levels[3];
	int n = levels_of(levels, l1, l2, l3);
	for (int i = 0; i < n; i++) {
		bool held = cm_cache_holds(levels[i], paddr);
		if (i == 0)
			held ? levels[i]->hits++ : levels[i]->misses++;
		if (held) {
			cm_cache_mark_dirty(levels[i], paddr);
			return named(levels, i, l2);
		}
	}
	return CM_MEM;
}

/* Count c's dirty lines that no level of below[] (n of them) holds dirty. */
static uint64_t dirty_not_below(const struct cm_cache *c, const struct cm_cache *const below[], int n)
{
	uint64_t count = 0;
	for (size_t k = 0; k < (size_t)c->sets * c->ways; k++) {
		const struct cm_line *line = &c->lines[k];
		if (!line->stamp || !line->dirty)
			continue;
		uint64_t paddr = line->tag << c->line_shift;
		bool below_dirty = false;
		for (int i = 0; i < n && !below_dirty; i++)
			below_dirty = cm_cache_holds_dirty(below[i], paddr);
		count += !below_dirty;
	}
	return count;
}

uint64_t cm_hier_dirty_lines(const struct cm_cache *l1, const struct cm_cache *l2,
			     const struct cm_cache *l3)
{
	const struct cm_cache *levels[3];
	int n = 0;
	levels[n++] = l1;
	if (l2)
		levels[n++] = l2;
	if (l3)
		levels[n++] = l3;
	uint64_t count = 0;
	for (int i = 0; i < n; i++)
		count += dirty_not_below(levels[i], levels + i + 1, n - i - 1);
	return count;
}
