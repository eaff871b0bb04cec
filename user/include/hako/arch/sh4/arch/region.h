/*
 * arch/region.h — the region marker on SH-4 (hako_region.h): the
 * cost-model plugin decodes x86 only, so the marker is a compiler barrier
 * and nothing else.  Programs use <hako/region.h>, not this.
 */
#ifndef _HAKO_ARCH_REGION_H
#define _HAKO_ARCH_REGION_H

#include <hako_region.h>

#define arch_region_mark(op, id) __asm__ volatile("" : : "r"((unsigned long)(id)) : "memory")

#endif
