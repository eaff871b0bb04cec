/*
 * arch/region.h — the region marker on SH-4 (hako_region.h): a branch over
 * its own word, `bra 1f; nop; .short lo, hi; 1:` (two instructions; the
 * kernel's arch/region.h describes it).  Programs use <hako/region.h>, not this.
 */
#ifndef _HAKO_ARCH_REGION_H
#define _HAKO_ARCH_REGION_H

#include <hako_region.h>

/* id must be a constant: the "i" constraint refuses anything else.  The
 * marker is a compiler barrier, so the accesses it brackets stay inside. */
#define arch_region_mark(op, id) \
	__asm__ volatile("bra 1f\n\tnop\n\t.short %O0 & 0xffff, %O0 >> 16\n1:" \
			 : : "i"(HAKO_REGION_DISP(op, id)) : "memory")

#endif
