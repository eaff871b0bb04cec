/*
 * model.h — one modelled core: its TLBs and caches (tlb.h, cache.h), the
 * control-register state that tags and flushes them, and the event
 * counts from which the cycle formula is computed.
 *
 * The cycle formula, for a vCPU or a region:
 *
 *     cycles = insns x base_cpi
 *            + walk_cycles                 translation: stlb.hit_cycles per
 *                                          L1 TLB miss that hits the STLB,
 *                                          walk.cycles per page walk
 *            + mem_cycles                  the cycles the core waits for
 *                                          accesses served below L1: until
 *                                          the line is there (a lone miss:
 *                                          latency(serving level) - latency(L1);
 *                                          one that continues a sequential
 *                                          stream: stream.h) and the bus has
 *                                          room (below)
 *            + io_cycles                   per device register access: the
 *                                          profile's io.* price of its kind
 *
 * base_cpi is the cost of an instruction when every lookup hits; an
 * instruction the decoder pairs with the one before it (SH-4's dual issue,
 * decode.h: "paired") issues in the same cycle and pays none, so the first
 * term is (insns - paired) x base_cpi.  An
 * instruction fetch pays against l1i.latency, a data access against
 * l1d.latency.  An access to a device register skips the caches and pays
 * its io.* price whole: a port read or write (in, out, and each element
 * of ins, outs), a memory-mapped read or write, or an access to the
 * local APIC's page (CM_LAPIC_BASE).  Data misses to consecutive lines
 * overlap each other and the instructions between them as the profile's
 * stream.* keys say (stream.h); other misses, instruction fetches and
 * device accesses do not overlap.
 *
 * Time: a core's clock is its cycles so far (the formula over its own
 * counts).  Its memory bus carries a line from memory in
 * stream.mem_line_cycles, which bounds a stream's rate (a lone miss's
 * line keeps the bus until it is there), a write-back in
 * mem.writeback_cycles and a store that does not allocate in
 * mem.store_miss_cycles; bus_free is the cycle it is next free.
 *
 * Stores (cache.h): a store marks its line dirty.  With
 * mem.write_allocate 1 it is looked up and filled as a load is and priced
 * the same; with 0 (the Pentium) a store that misses L1 fills nothing and
 * is one write on the bus, wherever the line is: the core waits only
 * until the bus is free to take it (the write buffers).  A dirty line
 * pushed out of the last level (by any fill, or by wbinvd:
 * cm_core_empty_caches) is one write-back (count wb).  Without a
 * write-back buffer (mem.writeback_buffer 0) the bus writes it before
 * the fill that pushed it out is asked; with one, it takes the bus after
 * that fill.  wbinvd's write-backs overlap nothing.
 */
#ifndef COSTMODEL_MODEL_H
#define COSTMODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "cache.h"
#include "profile.h"
#include "stream.h"
#include "tlb.h"

/* The counts, in the order they are printed. */
enum cm_count {
	CM_INSNS,
	CM_ITLB_MISS, CM_DTLB_MISS,  /* L1 TLB misses */
	CM_STLB_MISS,                /* STLB misses (0 without an STLB) */
	CM_WALKS,                    /* page walks: misses in the last TLB level */
	CM_WALK_CYCLES,
	CM_L1I_MISS, CM_L1D_MISS, CM_L2_MISS, CM_L3_MISS,
	CM_STREAM_MISS,              /* L1d misses that continued a stream (stream.h) */
	CM_WB,                       /* dirty lines written back to memory */
	CM_MEM_CYCLES,
	CM_IO_READS, CM_IO_WRITES,   /* device register accesses, by direction */
	CM_IO_CYCLES,
	CM_L1I_CYCLES,               /* the part of mem_cycles that instruction fetches paid */
	CM_PAIRED,                   /* instructions issued beside the one before them */
	/*
	 * The work of the code in the plugin's handler=START:END range (the
	 * SH-4's TLB-miss handler), a part of the counts above: its
	 * instructions and those of them paired, its cycles by the formula,
	 * and of those the memory cycles of its fetches and of all its
	 * accesses (cm_core_in_handler).
	 */
	CM_HANDLER_INSNS, CM_HANDLER_PAIRED, CM_HANDLER_CYCLES, CM_HANDLER_L1I_CYCLES,
	CM_HANDLER_MEM_CYCLES,
	CM_NCOUNTS
};

struct cm_counts {
	uint64_t v[CM_NCOUNTS];
};

extern const char *const cm_count_names[CM_NCOUNTS];

#define CM_CR4_PGE   (1ull << 7)
#define CM_CR4_PCIDE (1ull << 17)
#define CM_CR3_NOFLUSH (1ull << 63)

/* The local APIC's registers (xAPIC mode, its reset base): SDM vol. 3A 11.4.1. */
#define CM_LAPIC_BASE 0xFEE00000ull
#define CM_LAPIC_SIZE 0x1000ull

/* What a device register access is, for its price (profile.h, struct cm_io_costs). */
enum cm_io {
	CM_IO_PORT_READ, CM_IO_PORT_WRITE,
	CM_IO_MMIO_READ, CM_IO_MMIO_WRITE,
	CM_IO_LAPIC_READ, CM_IO_LAPIC_WRITE,
};

struct cm_core {
	const struct cm_profile *p;
	struct cm_tlbs tlbs;
	struct cm_cache l1i, l1d, l2;
	struct cm_cache *l3;         /* shared by all cores; NULL without one */
	struct cm_streams streams;   /* the data misses' sequential streams */
	struct cm_counts n;
	uint64_t bus_free;           /* the cycle its memory bus is next free */
	uint64_t cr4;
	uint16_t pcid;
	cm_walk_fn walk;             /* the page size and G bit of an address */
	void *walk_ctx;
	bool in_handler;             /* the instruction running is in the handler range */
	struct cm_counts handler_start;   /* the counts when it entered the range */
};

/* Build a core with empty TLBs and caches; false if out of memory. */
bool cm_core_init(struct cm_core *c, const struct cm_profile *p, struct cm_cache *l3,
		  cm_walk_fn walk, void *walk_ctx);
void cm_core_free(struct cm_core *c);

/*
 * An instruction fetch at va (physical pa), a data access at va (pa).  A
 * data access with io set goes to a memory-mapped register and is priced
 * as cm_core_mmio's read.  cm_core_store: a store to memory at va (pa).
 */
void cm_core_fetch(struct cm_core *c, uint64_t va, uint64_t pa);
void cm_core_data(struct cm_core *c, uint64_t va, uint64_t pa, bool io);
void cm_core_store(struct cm_core *c, uint64_t va, uint64_t pa);
/*
 * A store of a rep stos or movs element at va (pa) with left bytes of the
 * string still to store from it upwards (this one's included): with the
 * profile's mem.fast_strings, one that misses at the start of a line the
 * string fills whole owns the line without reading it.
 */
void cm_core_store_string(struct cm_core *c, uint64_t va, uint64_t pa, uint64_t left);

/* A load (write false) or store to a memory-mapped register at va (pa). */
void cm_core_mmio(struct cm_core *c, uint64_t va, uint64_t pa, bool write);

/*
 * The same three for an access the model's TLBs do not see: an address
 * the MMU does not translate (SH-4's P1, P2 and P4), or, on SH-4, any data
 * access (the kernel loads the UTLB and its misses are instructions,
 * sh4.h).  The caches and the io.* prices as above.
 */
void cm_core_fetch_untranslated(struct cm_core *c, uint64_t pa);
void cm_core_data_untranslated(struct cm_core *c, uint64_t pa);
void cm_core_store_untranslated(struct cm_core *c, uint64_t pa);
void cm_core_mmio_untranslated(struct cm_core *c, bool write);

/*
 * The instruction about to be counted is (in) or is not in the handler
 * range: leaving the range adds the stretch's work since entering it to
 * the CM_HANDLER_* counts, so those are complete whenever the core runs
 * outside the range (a region's markers, the end of a run).
 */
void cm_core_in_handler(struct cm_core *c, bool in);

/* count device register accesses of one kind (no translation: ports, or after it). */
void cm_core_io(struct cm_core *c, enum cm_io kind, uint64_t count);

/* Control-register writes and the flush instructions, as the SDM defines them. */
void cm_core_write_cr3(struct cm_core *c, uint64_t cr3);
void cm_core_write_cr4(struct cm_core *c, uint64_t cr4);
void cm_core_invlpg(struct cm_core *c, uint64_t va);
void cm_core_invpcid(struct cm_core *c, uint64_t type, uint16_t pcid, uint64_t va);
/* wbinvd (write_back: every dirty line is a write-back) and invd (dropped). */
void cm_core_empty_caches(struct cm_core *c, bool write_back);

/* The cycle formula above. */
uint64_t cm_cycles(const struct cm_counts *n, const struct cm_profile *p);

/* a += b, a -= b, field by field. */
void cm_counts_add(struct cm_counts *a, const struct cm_counts *b);
void cm_counts_sub(struct cm_counts *a, const struct cm_counts *b);

/*
 * "insns":N,"cycles":N,"itlb_miss":N,... (no braces) into buf; returns
 * what snprintf returns.
 */
int cm_counts_json(const struct cm_counts *n, const struct cm_profile *p, char *buf, size_t len);

#endif
