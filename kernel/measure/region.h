/*
 * region.h — marking measured regions for the cost-model plugin
 * (uapi/hako_region.h has the encoding, uapi/hako_region_ids.h the ids).
 *
 * region_begin/region_end bracket code on the running CPU: stay on one
 * CPU in between (interrupts off, or a pinned thread).  The global pair
 * counts every CPU's work in between, for figures that span CPUs.  Each
 * marker is one instruction that does nothing.
 */
#ifndef HAKO_REGION_H
#define HAKO_REGION_H

#include <arch/region.h>
#include <hako_region_ids.h>

#define region_begin(id)        arch_region_mark(HAKO_REGION_BEGIN, id)
#define region_end(id)          arch_region_mark(HAKO_REGION_END, id)
#define region_global_begin(id) arch_region_mark(HAKO_REGION_GLOBAL_BEGIN, id)
#define region_global_end(id)   arch_region_mark(HAKO_REGION_GLOBAL_END, id)
#define region_begin_arg(id, arg) arch_region_mark_arg(HAKO_REGION_BEGIN, id, arg)
#define region_end_arg(id, arg)   arch_region_mark_arg(HAKO_REGION_END, id, arg)

#endif
