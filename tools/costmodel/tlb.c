/*
 * tlb.c — set-associative LRU TLBs with PCID tags and global entries
 * (tlb.h).
 *
 * An entry of page size 2^shift lives in set (va >> shift) % sets, so a
 * lookup probes two sets, one per page size.  LRU is a use stamp per
 * entry, as in cache.c.
 */
#include <stdlib.h>
#include <string.h>

#include "tlb.h"

static const uint8_t page_shifts[] = { CM_PAGE_4K, CM_PAGE_2M };

bool cm_tlb_init(struct cm_tlb *t, const struct cm_tlb_geom *g)
{
	memset(t, 0, sizeof *t);
	t->ways = g->ways;
	t->sets = g->entries / g->ways;
	t->e = calloc(g->entries, sizeof *t->e);
	return t->e != NULL;
}

void cm_tlb_free(struct cm_tlb *t)
{
	free(t->e);
	t->e = NULL;
}

static struct cm_tlb_entry *set_of(const struct cm_tlb *t, uint64_t va, uint8_t shift)
{
	return t->e + (size_t)((va >> shift) % t->sets) * t->ways;
}

static bool matches(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid)
{
	return e->stamp && e->vpn == va >> e->shift && (e->global || e->pcid == pcid);
}

/* The entry for va under pcid, counting a hit or a miss; NULL on a miss. */
static const struct cm_tlb_entry *find(struct cm_tlb *t, uint64_t va, uint16_t pcid)
{
	t->clock++;
	for (size_t s = 0; s < sizeof page_shifts; s++) {
		struct cm_tlb_entry *set = set_of(t, va, page_shifts[s]);
		for (uint32_t w = 0; w < t->ways; w++)
			if (set[w].shift == page_shifts[s] && matches(&set[w], va, pcid)) {
				set[w].stamp = t->clock;
				t->hits++;
				return &set[w];
			}
	}
	t->misses++;
	return NULL;
}

bool cm_tlb_lookup(struct cm_tlb *t, uint64_t va, uint16_t pcid)
{
	return find(t, va, pcid) != NULL;
}

void cm_tlb_fill(struct cm_tlb *t, uint64_t va, uint16_t pcid, struct cm_page page)
{
	struct cm_tlb_entry *set = set_of(t, va, page.shift), *victim = set;
	for (uint32_t w = 1; w < t->ways && victim->stamp; w++)
		if (set[w].stamp < victim->stamp)
			victim = &set[w];
	t->clock++;
	*victim = (struct cm_tlb_entry){
		.vpn = va >> page.shift, .stamp = t->clock, .pcid = pcid,
		.shift = page.shift, .global = page.global,
	};
}

uint32_t cm_tlb_count(const struct cm_tlb *t)
{
	uint32_t n = 0;
	for (size_t i = 0; i < (size_t)t->sets * t->ways; i++)
		n += t->e[i].stamp != 0;
	return n;
}

bool cm_tlbs_init(struct cm_tlbs *t, const struct cm_profile *p)
{
	memset(t, 0, sizeof *t);
	t->has_stlb = p->stlb.entries != 0;
	return cm_tlb_init(&t->itlb, &p->itlb) && cm_tlb_init(&t->dtlb, &p->dtlb) &&
	       (!t->has_stlb || cm_tlb_init(&t->stlb, &p->stlb));
}

void cm_tlbs_free(struct cm_tlbs *t)
{
	cm_tlb_free(&t->itlb);
	cm_tlb_free(&t->dtlb);
	cm_tlb_free(&t->stlb);
}

enum cm_tlb_result cm_tlbs_translate(struct cm_tlbs *t, bool fetch, uint64_t va, uint16_t pcid,
				     cm_walk_fn walk, void *ctx)
{
	struct cm_tlb *l1 = fetch ? &t->itlb : &t->dtlb;
	if (cm_tlb_lookup(l1, va, pcid))
		return CM_TLB_L1;
	const struct cm_tlb_entry *hit = t->has_stlb ? find(&t->stlb, va, pcid) : NULL;
	struct cm_page page;
	if (hit) {
		page = (struct cm_page){ .shift = hit->shift, .global = hit->global };
	} else {
		page = walk(va, ctx);
		if (t->has_stlb)
			cm_tlb_fill(&t->stlb, va, pcid, page);
	}
	cm_tlb_fill(l1, va, pcid, page);
	return hit ? CM_TLB_STLB : CM_TLB_WALK;
}

/* Drop the entries of every level for which drop(entry, ...) says so. */
typedef bool (*drop_fn)(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid);

static void flush_where(struct cm_tlbs *t, drop_fn drop, uint64_t va, uint16_t pcid)
{
	struct cm_tlb *levels[] = { &t->itlb, &t->dtlb, t->has_stlb ? &t->stlb : NULL };
	for (size_t l = 0; l < 3; l++) {
		struct cm_tlb *tl = levels[l];
		for (size_t i = 0; tl && i < (size_t)tl->sets * tl->ways; i++)
			if (tl->e[i].stamp && drop(&tl->e[i], va, pcid))
				tl->e[i].stamp = 0;
	}
}

static bool any(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid)
{
	return true;
}

static bool nonglobal(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid)
{
	return !e->global;
}

static bool nonglobal_of_pcid(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid)
{
	return !e->global && e->pcid == pcid;
}

static bool page_of_pcid(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid)
{
	return e->vpn == va >> e->shift && !e->global && e->pcid == pcid;
}

static bool page_any(const struct cm_tlb_entry *e, uint64_t va, uint16_t pcid)
{
	return e->vpn == va >> e->shift && (e->global || e->pcid == pcid);
}

void cm_tlbs_flush_all(struct cm_tlbs *t)
{
	flush_where(t, any, 0, 0);
}

void cm_tlbs_flush_nonglobal(struct cm_tlbs *t)
{
	flush_where(t, nonglobal, 0, 0);
}

void cm_tlbs_flush_pcid(struct cm_tlbs *t, uint16_t pcid)
{
	flush_where(t, nonglobal_of_pcid, 0, pcid);
}

/*
 * INVLPG (globals_too): the page's entries of this PCID and its global
 * entries, whatever their PCID.  INVPCID type 0 (!globals_too): only the
 * non-global entries of the given PCID.
 */
void cm_tlbs_flush_page(struct cm_tlbs *t, uint64_t va, uint16_t pcid, bool globals_too)
{
	flush_where(t, globals_too ? page_any : page_of_pcid, va, pcid);
}
