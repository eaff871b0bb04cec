/*
 * arch/region.h — the x86_64 region marker (hako_region.h): one `nopl disp32(%rax)` whose displacement names the operation and the
 * region.  Programs use <hako/region.h>, not this.
 */
#ifndef _HAKO_ARCH_REGION_H
#define _HAKO_ARCH_REGION_H

#include <hako_region.h>

/* id must be a constant: the "i" constraint refuses anything else.  The
 * marker is a compiler barrier, so the accesses it brackets stay inside. */
#define arch_region_mark(op, id) \
	__asm__ volatile("nopl %c0(%%rax)" : : "i"(HAKO_REGION_DISP(op, id)) : "memory")

#endif
