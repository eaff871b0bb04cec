/*
 * arch/region.h — the cost-model region marker (uapi/hako_region.h) on
 * SH-4.  Generic code uses region.h (region_begin and friends), never this.
 *
 * SH-4 has no NOP with a 32-bit field, so the marker is a branch over its
 * own word (HAKO_REGION_SH4_BRA, bytes in tools/costmodel/README.md):
 *
 *     bra 1f             0xA002: to the end of the marker
 *     <delay slot>       nop, or the store of the marker's argument
 *     .short lo, hi      HAKO_REGION_DISP(op, id), never executed
 *  1:
 *
 * two instructions.  QEMU gives SH-4 plugins no registers, so a marker's
 * argument travels through memory: the delay slot stores it into
 * sh4_region_args[0] (`mov.l arg, @slot`), and the plugin takes the value
 * from that store; a second argument is stored into sh4_region_args[1]
 * just before the branch, and the plugin reads it from memory.  An
 * interrupt cannot come between a delayed branch and its slot, so the
 * first argument is always the marker's own.  The marker is a compiler
 * barrier, so memory accesses written between two markers stay between them.
 */
#ifndef HAKO_ARCH_REGION_H
#define HAKO_ARCH_REGION_H

#include <hako_region.h>

#ifdef __ASSEMBLY__
#define ARCH_REGION_MARK(op, id) \
	bra 1f; nop; .short HAKO_REGION_DISP(op, id) & 0xffff, HAKO_REGION_DISP(op, id) >> 16; 1:
#else
#include <stdint.h>

/* The arguments of the marker running now (one CPU; see above). */
extern volatile uint32_t sh4_region_args[2];

/* id must be a constant: the "i" constraint refuses anything else (%O: without the #). */
#define ARCH_REGION_WORD_ "\n\t.short %O0 & 0xffff, %O0 >> 16\n1:"
#define arch_region_mark(op, id) \
	__asm__ volatile("bra 1f\n\tnop" ARCH_REGION_WORD_ : : "i"(HAKO_REGION_DISP(op, id)) : "memory")
/* The same with arg stored by the branch's delay slot (tools/costmodel/sections.h: a
 * section's context; vclock.h: the object of a sync marker). */
#define arch_region_mark_arg(op, id, arg) \
	__asm__ volatile("bra 1f\n\tmov.l %1, @%2" ARCH_REGION_WORD_ : : "i"(HAKO_REGION_DISP(op, id)), \
			 "r"((uint32_t)(unsigned long)(arg)), "r"(&sh4_region_args[0]) : "memory")
/* The same with a second argument, stored before the branch. */
#define arch_region_mark_arg2(op, id, arg, arg2) \
	__asm__ volatile("mov.l %3, @(4, %2)\n\tbra 1f\n\tmov.l %1, @%2" ARCH_REGION_WORD_ : \
			 : "i"(HAKO_REGION_DISP(op, id)), "r"((uint32_t)(unsigned long)(arg)), \
			 "r"(&sh4_region_args[0]), "r"((uint32_t)(unsigned long)(arg2)) : "memory")
#endif

#endif
