/*
 * tlb.h — one core's TLBs: an L1 instruction TLB, an L1 data TLB and an
 * optional unified second level (the STLB), each set-associative with
 * true LRU.
 *
 * An entry maps one page, 4 KiB or 2 MiB, and carries the PCID it was
 * filled under and the page's global bit: it matches an address when the
 * page number matches and it is global or its PCID is the current one.
 * Both page sizes share a structure (real cores often keep 2 MiB entries
 * apart; here a 2 MiB entry takes one slot of the same sets, indexed by
 * its 2 MiB page number).  The page size and global bit of a new entry
 * come from the caller's walk (struct cm_page), so this file knows
 * nothing of page tables.
 *
 * Flushes follow the Intel SDM vol. 3A section 4.10.4: a CR3 load, INVLPG,
 * INVPCID's four types, and the full flush of a CR4.PGE change.
 */
#ifndef COSTMODEL_TLB_H
#define COSTMODEL_TLB_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

#define CM_PAGE_4K 12
#define CM_PAGE_2M 21

/* What a page walk found for an address. */
struct cm_page {
	uint8_t shift;               /* CM_PAGE_4K or CM_PAGE_2M */
	bool global;                 /* the G bit, with CR4.PGE set */
};

struct cm_tlb_entry {
	uint64_t vpn;                /* address >> shift */
	uint64_t stamp;              /* last use; 0: empty */
	uint16_t pcid;
	uint8_t shift;
	bool global;
};

struct cm_tlb {
	uint32_t sets, ways;
	uint64_t clock;
	uint64_t hits, misses;
	struct cm_tlb_entry *e;      /* sets x ways */
};

/* Where a translation was found. */
enum cm_tlb_result { CM_TLB_L1, CM_TLB_STLB, CM_TLB_WALK };

/* The TLBs of one core. */
struct cm_tlbs {
	struct cm_tlb itlb, dtlb, stlb;
	bool has_stlb;
};

bool cm_tlb_init(struct cm_tlb *t, const struct cm_tlb_geom *g);
void cm_tlb_free(struct cm_tlb *t);

/* Look va up under pcid, counting a hit or a miss; true on a hit. */
bool cm_tlb_lookup(struct cm_tlb *t, uint64_t va, uint16_t pcid);

/* Put va's page in (LRU victim), as the walk described it. */
void cm_tlb_fill(struct cm_tlb *t, uint64_t va, uint16_t pcid, struct cm_page page);

bool cm_tlbs_init(struct cm_tlbs *t, const struct cm_profile *p);
void cm_tlbs_free(struct cm_tlbs *t);

/*
 * Translate va for an instruction fetch (fetch) or a data access: L1 TLB,
 * then the STLB, then a walk, which calls walk(va, ctx) for the page's
 * size and global bit.  The levels that missed are filled.
 */
typedef struct cm_page (*cm_walk_fn)(uint64_t va, void *ctx);
enum cm_tlb_result cm_tlbs_translate(struct cm_tlbs *t, bool fetch, uint64_t va, uint16_t pcid,
				     cm_walk_fn walk, void *ctx);

/* Flushes, on every level. */
void cm_tlbs_flush_all(struct cm_tlbs *t);                        /* globals too */
void cm_tlbs_flush_nonglobal(struct cm_tlbs *t);                  /* every PCID */
void cm_tlbs_flush_pcid(struct cm_tlbs *t, uint16_t pcid);        /* its non-global entries */
void cm_tlbs_flush_page(struct cm_tlbs *t, uint64_t va, uint16_t pcid, bool globals_too);

/* How many valid entries a TLB holds (for tests). */
uint32_t cm_tlb_count(const struct cm_tlb *t);

#endif
