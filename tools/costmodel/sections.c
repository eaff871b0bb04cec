/*
 * sections.c — longest span per (kind, context, vCPU) (sections.h).
 */
#include <stdlib.h>

#include "sections.h"
#include "../../kernel/uapi/hako_region.h"
#include "../../kernel/uapi/hako_region_ids.h"

#define KINDS 2                          /* 0: interrupts-off section, 1: whole interrupt */

struct open_span {                       /* one kind on one vCPU */
	unsigned depth;
	uint64_t site;
	struct cm_counts start;
};

struct slot {
	uint64_t spans, site;
	struct cm_counts longest;
};

struct cm_sections {
	unsigned nvcpus, epoch;
	struct open_span *open[KINDS];           /* nvcpus each */
	struct slot *slots[CM_SECTION_EPOCHS][KINDS][CM_SECTION_CTX_MAX];   /* nvcpus each, or NULL */
};

struct cm_sections *cm_sections_new(unsigned nvcpus)
{
	struct cm_sections *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nvcpus = nvcpus;
	for (int k = 0; k < KINDS; k++)
		if (!(s->open[k] = calloc(nvcpus, sizeof (struct open_span)))) {
			cm_sections_free(s);
			return NULL;
		}
	return s;
}

void cm_sections_free(struct cm_sections *s)
{
	if (!s)
		return;
	for (int k = 0; k < KINDS; k++) {
		free(s->open[k]);
		for (int e = 0; e < CM_SECTION_EPOCHS; e++)
			for (int c = 0; c < CM_SECTION_CTX_MAX; c++)
				free(s->slots[e][k][c]);
	}
	free(s);
}

static void close_span(struct cm_sections *s, int kind, unsigned vcpu, const struct cm_counts *now,
		       uint64_t ctx)
{
	struct open_span *o = &s->open[kind][vcpu];
	if (o->depth == 0 || --o->depth > 0)
		return;
	if (ctx >= CM_SECTION_CTX_MAX)
		return;
	struct slot **row = &s->slots[s->epoch][kind][ctx];
	if (!*row && !(*row = calloc(s->nvcpus, sizeof (struct slot))))
		return;
	struct slot *slot = &(*row)[vcpu];
	struct cm_counts d = *now;
	cm_counts_sub(&d, &o->start);
	slot->spans++;
	if (d.v[CM_INSNS] > slot->longest.v[CM_INSNS]) {
		slot->longest = d;
		slot->site = o->site;
	}
}

bool cm_sections_marker(struct cm_sections *s, uint32_t disp, unsigned vcpu,
			const struct cm_counts *now, uint64_t arg)
{
	unsigned op = (disp >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK;
	unsigned id = disp & HAKO_REGION_ID_MASK;
	int kind = id == REGION_PREEMPT_SECTION ? 0 : id == REGION_PREEMPT_IRQ ? 1 : -1;
	if (id == REGION_PREEMPT_RESET) {
		if (s)
			s->epoch = arg < CM_SECTION_EPOCHS ? (unsigned)arg : CM_SECTION_EPOCHS - 1;
		return true;
	}
	if (kind < 0)
		return false;
	if (!s || vcpu >= s->nvcpus)
		return true;
	struct open_span *o = &s->open[kind][vcpu];
	if (op == HAKO_REGION_BEGIN) {
		if (o->depth++ == 0) {
			o->start = now[vcpu];
			o->site = kind == 0 ? arg : 0;   /* a whole interrupt has no site */
		}
	} else if (op == HAKO_REGION_END)
		close_span(s, kind, vcpu, &now[vcpu], arg & 0xffff);
	return true;
}

void cm_sections_each(const struct cm_sections *s,
		      void (*fn)(const struct cm_section_row *, void *), void *arg)
{
	for (unsigned e = 0; e < CM_SECTION_EPOCHS; e++)
		for (int k = 0; k < KINDS; k++)
			for (unsigned c = 0; c < CM_SECTION_CTX_MAX; c++)
				for (unsigned v = 0; s->slots[e][k][c] && v < s->nvcpus; v++) {
					const struct slot *slot = &s->slots[e][k][c][v];
					if (!slot->spans)
						continue;
					struct cm_section_row row = {
						.region = k ? REGION_PREEMPT_IRQ : REGION_PREEMPT_SECTION,
						.epoch = e, .ctx = c, .vcpu = v, .spans = slot->spans,
						.site = slot->site, .longest = slot->longest,
					};
					fn(&row, arg);
				}
}
