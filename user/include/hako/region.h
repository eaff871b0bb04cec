/*
 * hako/region.h — marking measured regions for the cost-model plugin
 * (`./hako bench NAME --model PROFILE`; README "Modelled cycles").
 *
 * region_begin(ID) ... region_end(ID) counts what the calling CPU runs in
 * between (pin the thread); the global pair counts every CPU, for a figure
 * that crosses CPUs.  ID is a constant from hako_region_ids.h.  A result
 * line that names the region ("region":ID, "iters":N) gets the region's
 * modelled cycles and misses per iteration in the harness's table.
 */
#ifndef _HAKO_REGION_H
#define _HAKO_REGION_H

#include <arch/region.h>
#include <hako_region_ids.h>

#define region_begin(id)        arch_region_mark(HAKO_REGION_BEGIN, id)
#define region_end(id)          arch_region_mark(HAKO_REGION_END, id)
#define region_global_begin(id) arch_region_mark(HAKO_REGION_GLOBAL_BEGIN, id)
#define region_global_end(id)   arch_region_mark(HAKO_REGION_GLOBAL_END, id)

#endif
