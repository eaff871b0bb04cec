/*
 * arch/region.h — the x86_64 region marker (uapi/hako_region.h): one
 * `nopl disp32(%rax)` whose displacement names the operation and region.
 * Generic code uses region.h (region_begin and friends), never this.
 *
 * The marker is a compiler barrier too, so memory accesses written
 * between two markers stay between them.
 */
#ifndef HAKO_ARCH_REGION_H
#define HAKO_ARCH_REGION_H

#include <hako_region.h>

#ifdef __ASSEMBLY__
#define ARCH_REGION_MARK(op, id)	nopl HAKO_REGION_DISP(op, id)(%rax)
#else
/* id must be a constant: the "i" constraint refuses anything else. */
#define arch_region_mark(op, id) \
	__asm__ volatile("nopl %c0(%%rax)" : : "i"(HAKO_REGION_DISP(op, id)) : "memory")
/* The same with arg in %rax, which the plugin reads at the marker
 * (tools/costmodel/sections.h: a section's context). */
#define arch_region_mark_arg(op, id, arg) \
	__asm__ volatile("nopl %c0(%%rax)" : : "i"(HAKO_REGION_DISP(op, id)), "a"((unsigned long)(arg)) : "memory")
/* The same with a second argument in %rdx. */
#define arch_region_mark_arg2(op, id, arg, arg2) \
	__asm__ volatile("nopl %c0(%%rax)" : : "i"(HAKO_REGION_DISP(op, id)), "a"((unsigned long)(arg)), \
			 "d"((unsigned long)(arg2)) : "memory")
#endif

#endif
