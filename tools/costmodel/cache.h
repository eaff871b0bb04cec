/*
 * cache.h — set-associative caches with true LRU, over physical
 * addresses, and the hierarchy a core sees: L1i and L1d, then L2, then an
 * optional L3, then memory.
 *
 * A lookup goes L1 -> L2 -> L3 -> memory and stops at the first level that
 * holds the line; every level above it is then filled (so the hierarchy is
 * "inclusive-ish": nothing is evicted from a lower level when an upper one
 * fills, and an eviction below does not reach up).  No dirty state, no
 * write-back traffic, no prefetching, no coherence between cores.
 */
#ifndef COSTMODEL_CACHE_H
#define COSTMODEL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

struct cm_line {
	uint64_t tag;                /* the line number: address >> line_shift */
	uint64_t stamp;              /* last use; 0: empty */
};

struct cm_cache {
	uint32_t sets, ways, line_shift;
	uint64_t clock;              /* stamps of uses, counting up */
	uint64_t hits, misses;
	struct cm_line *lines;       /* sets x ways */
};

/* Build an empty cache of geometry g (g->size != 0); false if out of memory. */
bool cm_cache_init(struct cm_cache *c, const struct cm_cache_geom *g);
void cm_cache_free(struct cm_cache *c);

/* The set paddr falls in. */
uint32_t cm_cache_set(const struct cm_cache *c, uint64_t paddr);

/* Look paddr up, counting a hit or a miss; a miss fills the line (LRU victim). */
bool cm_cache_access(struct cm_cache *c, uint64_t paddr);

/* Is paddr's line present?  Counts nothing, changes nothing. */
bool cm_cache_holds(const struct cm_cache *c, uint64_t paddr);

/* Drop every line (wbinvd, invd). */
void cm_cache_empty(struct cm_cache *c);

/* Where an access was served. */
enum cm_level { CM_L1 = 1, CM_L2, CM_L3, CM_MEM };

/*
 * Look paddr up through l1, l2 (NULL: switched off), then l3 (NULL: none),
 * filling the levels that missed.  Returns the level that held the line.
 */
enum cm_level cm_hier_access(struct cm_cache *l1, struct cm_cache *l2, struct cm_cache *l3,
			     uint64_t paddr);

#endif
