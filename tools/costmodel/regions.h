/*
 * regions.h — measured regions: what the region markers of
 * uapi/hako_region.h add up.
 *
 * A region is active on a vCPU from a BEGIN to an END run on that vCPU,
 * or on every vCPU from a GLOBAL_BEGIN to a GLOBAL_END run anywhere.
 * Nothing is counted per event: a begin keeps a snapshot of the vCPU's
 * counts and the matching end adds the difference to the region's total
 * for that vCPU, so an active region costs nothing between its markers.
 * A BEGIN of a region already active on that vCPU, and an END of one
 * that is not, are ignored (counted in "ignored").  Regions still active
 * when the run ends are closed then.
 */
#ifndef COSTMODEL_REGIONS_H
#define COSTMODEL_REGIONS_H

#include <stdint.h>

#include "model.h"

struct cm_regions;

/* One region's totals on one vCPU. */
struct cm_region_row {
	uint32_t region, vcpu;
	uint64_t spans;              /* begins on this vCPU */
	struct cm_counts n;
};

struct cm_regions *cm_regions_new(unsigned nvcpus);
void cm_regions_free(struct cm_regions *r);

/*
 * Apply the marker displacement disp (HAKO_REGION_DISP) run on vcpu;
 * now[v] are every vCPU's counts at this moment.
 */
void cm_regions_marker(struct cm_regions *r, uint32_t disp, unsigned vcpu,
		       const struct cm_counts *now);

/* End every active region with the counts now[]. */
void cm_regions_close(struct cm_regions *r, const struct cm_counts *now);

/* Call fn for each (region, vcpu) with spans, in region then vcpu order. */
void cm_regions_each(const struct cm_regions *r, void (*fn)(const struct cm_region_row *, void *),
		     void *arg);

/* Markers that were ignored (see above). */
uint64_t cm_regions_ignored(const struct cm_regions *r);

#endif
