/*
 * sh4.h — the SH7751R's address space and control registers as the cost
 * model sees them on qemu-system-sh4 (QEMU's r2d board), apart from the
 * plugin so the host tests can check them (tests/costmodel/test_sh4.c).
 *
 * Address space (SH7751R hardware manual, "Memory Management Unit",
 * address space): U0 0-0x7fffffff and P3 0xc0000000-0xdfffffff are
 * translated by the MMU; P1 0x80000000 (cached) and P2 0xa0000000
 * (uncached) map physical memory without it, at va & 0x1fffffff; P4
 * 0xe0000000 and up holds the on-chip registers, the store queues and the
 * memory-mapped TLB and cache arrays.
 *
 * Translation: the kernel loads the 64-entry UTLB itself and counts every
 * miss, whose handler runs as instructions the model counts, so the model
 * keeps no data TLB.  What it keeps is the 4-entry ITLB, which the
 * hardware refills from the UTLB on a miss (the profile's itlb.* and
 * walk.cycles), tagged by the ASID the kernel writes to PTEH.
 */
#ifndef COSTMODEL_SH4_H
#define COSTMODEL_SH4_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define CM_SH4_P1       0x80000000ull
#define CM_SH4_P2       0xa0000000ull
#define CM_SH4_P3       0xc0000000ull
#define CM_SH4_P4       0xe0000000ull
#define CM_SH4_PHYS     0x1fffffffull
#define CM_SH4_SQ_END   0xe4000000ull     /* the store queues: P4 0xe0000000-0xe3ffffff */

/* The registers whose stores change what the model keeps. */
#define CM_SH4_PTEH     0xff000000ull     /* VPN, ASID (bits 7-0) */
#define CM_SH4_MMUCR    0xff000010ull
#define CM_SH4_MMUCR_TI 0x4u              /* invalidate every TLB entry */
#define CM_SH4_ITLB_ADDR_ARRAY 0xf2000000ull   /* P4 0xf2000000-0xf2ffffff */
#define CM_SH4_UTLB_ADDR_ARRAY 0xf6000000ull   /* P4 0xf6000000-0xf6ffffff */
#define CM_SH4_ARRAY_SIZE      0x01000000ull
#define CM_SH4_UTLB_ASSOC      0x80u      /* an associative write to the UTLB address array */
/* QEMU's r2d: the FPGA's power-off register (physical; r2d.c). */
#define CM_SH4_R2D_POWER_OFF   0x04000030ull

/* va goes through the MMU (U0, P3). */
bool cm_sh4_translated(uint64_t va);

/* The physical address of an untranslated va (P1, P2); va itself otherwise. */
uint64_t cm_sh4_phys(uint64_t va);

/* va is an on-chip register or array in P4 (not a store queue). */
bool cm_sh4_register(uint64_t va);

/*
 * A store of value to a device register at va (physical pa): its effect on
 * the core's ITLB (an ASID written to PTEH, MMUCR.TI, the ITLB's address
 * array, an associative write to the UTLB's).  True when it powers the
 * board off: the run's counts end there.
 */
bool cm_sh4_register_store(struct cm_core *c, uint64_t va, uint64_t pa, uint64_t value);

#endif
