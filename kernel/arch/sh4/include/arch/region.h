/*
 * arch/region.h — the cost-model region marker (uapi/hako_region.h) on
 * SH-4.  The cost-model plugin decodes x86 only, so the marker is a
 * compiler barrier and nothing else; generic code uses region.h
 * (region_begin and friends), never this.
 */
#ifndef HAKO_ARCH_REGION_H
#define HAKO_ARCH_REGION_H

#include <hako_region.h>

#ifdef __ASSEMBLY__
#define ARCH_REGION_MARK(op, id)
#else
#define arch_region_mark(op, id) __asm__ volatile("" : : : "memory")
#define arch_region_mark_arg(op, id, arg) __asm__ volatile("" : : "r"((unsigned long)(arg)) : "memory")
#define arch_region_mark_arg2(op, id, arg, arg2) \
	__asm__ volatile("" : : "r"((unsigned long)(arg)), "r"((unsigned long)(arg2)) : "memory")
#endif

#endif
