/*
 * sections.h — the longest preemption-off section per context, in the
 * vCPU's own instructions and modelled cycles (paper 004's Table 2).
 *
 * With irqtrace=on the kernel marks every interrupts-off section with
 * REGION_PREEMPT_SECTION and every whole interrupt with REGION_PREEMPT_IRQ
 * (kernel/uapi/hako_region_ids.h); at a section's BEGIN marker
 * %rax holds its site (where the outermost lock was taken), at the END
 * marker the context the section is charged to (uapi/hako_perf.h).  The guest's
 * TSC cannot give this figure under single-threaded icount: a section
 * there also counts every other vCPU's turn that ran before it ended.
 * Here only the instructions of the section's own vCPU count.  Interrupts
 * that nest are folded into the outermost one.  A REGION_PREEMPT_RESET
 * marker (the guest's perf_ctl reset, %rax = its count) starts a new
 * epoch, so the figures cover what the guest's table does.
 */
#ifndef COSTMODEL_SECTIONS_H
#define COSTMODEL_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define CM_SECTION_CTX_MAX 512
#define CM_SECTION_EPOCHS 16     /* REGION_PREEMPT_RESET n starts epoch n (the last takes the rest) */

struct cm_sections;

/* One context's longest span of one kind on one vCPU. */
struct cm_section_row {
	uint32_t region, epoch, ctx, vcpu;
	uint64_t spans;
	uint64_t site;               /* where the longest began (0: a whole interrupt) */
	struct cm_counts longest;    /* the counts of the span with most instructions */
};

struct cm_sections *cm_sections_new(unsigned nvcpus);
void cm_sections_free(struct cm_sections *s);

/* A marker with displacement disp ran on vcpu, %rax = arg; now[v]: every vCPU's counts.
 * False if it is not a section marker (then it is an ordinary region's). */
bool cm_sections_marker(struct cm_sections *s, uint32_t disp, unsigned vcpu,
			const struct cm_counts *now, uint64_t arg);

void cm_sections_each(const struct cm_sections *s,
		      void (*fn)(const struct cm_section_row *, void *), void *arg);

#endif
