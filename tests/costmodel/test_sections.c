/*
 * test_sections.c — the longest preemption-off section per context
 * (sections.h): own-vCPU spans, nesting, epochs, and ordinary markers
 * left to the regions.
 */
#include "check.h"
#include "model.h"
#include "sections.h"
#include "../../kernel/uapi/hako_region.h"
#include "../../kernel/uapi/hako_region_ids.h"

#define SEC_BEGIN HAKO_REGION_DISP(HAKO_REGION_BEGIN, REGION_PREEMPT_SECTION)
#define SEC_END   HAKO_REGION_DISP(HAKO_REGION_END, REGION_PREEMPT_SECTION)
#define IRQ_BEGIN HAKO_REGION_DISP(HAKO_REGION_BEGIN, REGION_PREEMPT_IRQ)
#define IRQ_END   HAKO_REGION_DISP(HAKO_REGION_END, REGION_PREEMPT_IRQ)
#define RESET     HAKO_REGION_DISP(HAKO_REGION_BEGIN, REGION_PREEMPT_RESET)

static struct cm_counts now[2];

static void at(unsigned vcpu, uint64_t insns) { now[vcpu].v[CM_INSNS] = insns; }

struct found {
	int n;
	struct cm_section_row rows[8];
};

static void collect(const struct cm_section_row *row, void *arg)
{
	struct found *f = arg;
	if (f->n < 8)
		f->rows[f->n++] = *row;
}

TEST(longest_span_per_context_counts_only_its_own_vcpu)
{
	struct cm_sections *s = cm_sections_new(2);
	CHECK(s);
	at(0, 100);
	CHECK(cm_sections_marker(s, SEC_BEGIN, 0, now, 0xffffffff80101234ull));
	at(1, 5000);                                  /* the other vCPU runs a long turn */
	at(0, 130);
	CHECK(cm_sections_marker(s, SEC_END, 0, now, 13));      /* 30 own instructions */
	at(0, 200);
	cm_sections_marker(s, SEC_BEGIN, 0, now, 0xffffffff80105678ull);
	at(0, 210);
	cm_sections_marker(s, SEC_END, 0, now, 13);              /* 10: shorter, kept 30 */
	struct found f = { 0 };
	cm_sections_each(s, collect, &f);
	CHECK_EQ(f.n, 1);
	CHECK_EQ(f.rows[0].ctx, 13);
	CHECK_EQ(f.rows[0].spans, 2);
	CHECK_EQ(f.rows[0].longest.v[CM_INSNS], 30);
	CHECK_EQ(f.rows[0].site, 0xffffffff80101234ull);          /* the longest one's */
	CHECK_EQ(f.rows[0].region, REGION_PREEMPT_SECTION);
	cm_sections_free(s);
}

TEST(nested_interrupts_fold_into_the_outermost_and_epochs_split)
{
	struct cm_sections *s = cm_sections_new(2);
	CHECK(s);
	at(1, 0);
	cm_sections_marker(s, IRQ_BEGIN, 1, now, 0);
	at(1, 10);
	cm_sections_marker(s, IRQ_BEGIN, 1, now, 0);             /* nested */
	at(1, 20);
	cm_sections_marker(s, IRQ_END, 1, now, 300);
	at(1, 50);
	cm_sections_marker(s, IRQ_END, 1, now, 290);             /* outermost: 50 */
	CHECK(cm_sections_marker(s, RESET, 1, now, 1));
	at(1, 60);
	cm_sections_marker(s, SEC_BEGIN, 1, now, 0);
	at(1, 64);
	cm_sections_marker(s, SEC_END, 1, now, 7);
	struct found f = { 0 };
	cm_sections_each(s, collect, &f);
	CHECK_EQ(f.n, 2);
	CHECK_EQ(f.rows[0].epoch, 0);
	CHECK_EQ(f.rows[0].ctx, 290);
	CHECK_EQ(f.rows[0].region, REGION_PREEMPT_IRQ);
	CHECK_EQ(f.rows[0].longest.v[CM_INSNS], 50);
	CHECK_EQ(f.rows[0].site, 0);
	CHECK_EQ(f.rows[1].epoch, 1);
	CHECK_EQ(f.rows[1].ctx, 7);
	CHECK_EQ(f.rows[1].vcpu, 1);
	CHECK_EQ(f.rows[1].longest.v[CM_INSNS], 4);
	cm_sections_free(s);
}

TEST(ordinary_region_markers_are_not_sections)
{
	struct cm_sections *s = cm_sections_new(1);
	CHECK(s);
	CHECK(!cm_sections_marker(s, HAKO_REGION_DISP(HAKO_REGION_BEGIN, 5), 0, now, 0));
	CHECK(!cm_sections_marker(s, HAKO_REGION_DISP(HAKO_REGION_END, REGION_KPERF), 0, now, 0));
	cm_sections_free(s);
}

