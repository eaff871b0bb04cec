/*
 * regions.c — region begin/end bookkeeping by snapshots (regions.h).
 *
 * A region's per-vCPU state is allocated on its first marker, so the
 * 4096 possible ids cost one pointer each until used.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "regions.h"
#include "../../kernel/uapi/hako_region.h"

struct slot {                    /* one region on one vCPU */
	bool active;
	uint64_t spans;
	struct cm_counts start, total;
};

struct cm_regions {
	unsigned nvcpus;
	uint64_t ignored;
	struct slot *ids[HAKO_REGION_IDS];   /* nvcpus slots each, or NULL */
};

struct cm_regions *cm_regions_new(unsigned nvcpus)
{
	struct cm_regions *r = calloc(1, sizeof *r);
	if (r)
		r->nvcpus = nvcpus;
	return r;
}

void cm_regions_free(struct cm_regions *r)
{
	if (!r)
		return;
	for (unsigned id = 0; id < HAKO_REGION_IDS; id++)
		free(r->ids[id]);
	free(r);
}

static bool begin(struct slot *s, const struct cm_counts *now)
{
	if (s->active)
		return false;
	s->active = true;
	s->spans++;
	s->start = *now;
	return true;
}

static bool end(struct slot *s, const struct cm_counts *now)
{
	if (!s->active)
		return false;
	struct cm_counts d = *now;
	cm_counts_sub(&d, &s->start);
	cm_counts_add(&s->total, &d);
	s->active = false;
	return true;
}

void cm_regions_marker(struct cm_regions *r, uint32_t disp, unsigned vcpu,
		       const struct cm_counts *now)
{
	unsigned op = (disp >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK;
	unsigned id = disp & HAKO_REGION_ID_MASK;
	if (vcpu >= r->nvcpus || op < HAKO_REGION_BEGIN || op > HAKO_REGION_GLOBAL_END) {
		r->ignored++;
		return;
	}
	if (!r->ids[id] && !(r->ids[id] = calloc(r->nvcpus, sizeof (struct slot)))) {
		r->ignored++;
		return;
	}
	struct slot *s = r->ids[id];
	bool ok = false;
	switch (op) {
	case HAKO_REGION_BEGIN:
		ok = begin(&s[vcpu], &now[vcpu]);
		break;
	case HAKO_REGION_END:
		ok = end(&s[vcpu], &now[vcpu]);
		break;
	case HAKO_REGION_GLOBAL_BEGIN:
		for (unsigned v = 0; v < r->nvcpus; v++)
			ok |= begin(&s[v], &now[v]);
		break;
	case HAKO_REGION_GLOBAL_END:
		for (unsigned v = 0; v < r->nvcpus; v++)
			ok |= end(&s[v], &now[v]);
		break;
	}
	r->ignored += !ok;
}

void cm_regions_close(struct cm_regions *r, const struct cm_counts *now)
{
	for (unsigned id = 0; id < HAKO_REGION_IDS; id++)
		for (unsigned v = 0; r->ids[id] && v < r->nvcpus; v++)
			end(&r->ids[id][v], &now[v]);
}

void cm_regions_each(const struct cm_regions *r, void (*fn)(const struct cm_region_row *, void *),
		     void *arg)
{
	for (unsigned id = 0; id < HAKO_REGION_IDS; id++)
		for (unsigned v = 0; r->ids[id] && v < r->nvcpus; v++) {
			const struct slot *s = &r->ids[id][v];
			if (!s->spans)
				continue;
			struct cm_region_row row = { .region = id, .vcpu = v, .spans = s->spans, .n = s->total };
			fn(&row, arg);
		}
}

uint64_t cm_regions_ignored(const struct cm_regions *r)
{
	return r->ignored;
}
