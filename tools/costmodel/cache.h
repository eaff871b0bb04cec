/*
 * cache.h — set-associative caches with true LRU, over physical
 * addresses, and the hierarchy a core sees: L1i and L1d, then L2, then an
 * optional L3, then memory.
 *
 * A lookup goes L1 -> L2 -> L3 -> memory and stops at the first level that
 * holds the line; every level above it is then filled (so the hierarchy is
 * "inclusive-ish": nothing is evicted from a lower level when an upper one
 * fills, and an eviction below does not reach up).
 *
 * Write-back caches: a store marks its line dirty in the level it writes
 * (L1 when the line is there or the store allocates).  A dirty line that a
 * fill pushes out is written to the next level down, which takes it (dirty,
 * filling it if it had lost the line, which may push out a dirty line of
 * its own); one pushed out of the last level is a write-back to memory, the
 * count the model prices (model.h).  A store that misses L1 on a machine
 * whose stores do not allocate (the Pentium) fills nothing: it writes the
 * line where a lower level holds it (dirty there) or else memory.  No
 * prefetching, no coherence between cores.
 */
#ifndef COSTMODEL_CACHE_H
#define COSTMODEL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

struct cm_line {
	uint64_t tag;                /* the line number: address >> line_shift */
	uint64_t stamp;              /* last use; 0: empty */
	bool dirty;                  /* written since it was filled: memory is stale */
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

/*
 * cm_cache_access that says what the fill pushed out: *victim is the
 * address of the line it replaced if that line was dirty, CM_CLEAN if it
 * was clean, empty, or nothing was filled (a hit).
 */
#define CM_CLEAN UINT64_MAX
bool cm_cache_fill(struct cm_cache *c, uint64_t paddr, uint64_t *victim);

/* Is paddr's line present?  Counts nothing, changes nothing. */
bool cm_cache_holds(const struct cm_cache *c, uint64_t paddr);

/* Is paddr's line present and dirty?  Counts nothing, changes nothing. */
bool cm_cache_holds_dirty(const struct cm_cache *c, uint64_t paddr);

/* Mark paddr's line dirty if present (no LRU change); false if absent. */
bool cm_cache_mark_dirty(struct cm_cache *c, uint64_t paddr);

/* Drop every line, dirty ones without writing them (wbinvd, invd). */
void cm_cache_empty(struct cm_cache *c);

/* Where an access was served. */
enum cm_level { CM_L1 = 1, CM_L2, CM_L3, CM_MEM };

/*
 * Look paddr up through l1, l2 (NULL: switched off), then l3 (NULL: none),
 * filling the levels that missed.  Returns the level that held the line.
 * Dirty lines the fills push out go down a level; *writebacks (NULL: not
 * wanted) gains the number that left the last level for memory.
 */
enum cm_level cm_hier_access(struct cm_cache *l1, struct cm_cache *l2, struct cm_cache *l3,
			     uint64_t paddr, uint32_t *writebacks);

/*
 * A store to paddr.  allocate: as cm_hier_access, then the L1 line is
 * dirty.  Not allocate: an L1 hit marks the L1 line dirty; a miss fills
 * nothing and marks the line dirty in the first lower level that holds it
 * (CM_MEM: none does, the write went to memory).  Returns the level that
 * held the line; *writebacks as cm_hier_access.
 */
enum cm_level cm_hier_store(struct cm_cache *l1, struct cm_cache *l2, struct cm_cache *l3,
			    uint64_t paddr, bool allocate, uint32_t *writebacks);

/*
 * wbinvd's write-backs: the lines dirty in any of the levels, each counted
 * once (a line dirty in L1 and in L2 is one write of its newest data).
 * Changes nothing; the caller then empties the levels.
 */
uint64_t cm_hier_dirty_lines(const struct cm_cache *l1, const struct cm_cache *l2,
			     const struct cm_cache *l3);

#endif
