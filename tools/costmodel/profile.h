/*
 * profile.h — a machine profile for the cost model: the sizes and
 * latencies of one processor's TLBs and caches, read from a small
 * `key = value` text file (tools/costmodel/profiles/NAME.profile).
 *
 * Every key is required (the io.* keys too: a profile says what its
 * buses cost); an unknown key, a missing key or a value that is
 * not a number is an error that names the file, the line and the key.
 * Integers may end in K or M (times 1024, 1024*1024).  base_cpi is a
 * decimal number with at most three decimals, kept in thousandths so the
 * model does integer arithmetic only and stays deterministic.
 */
#ifndef COSTMODEL_PROFILE_H
#define COSTMODEL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CM_NAME_MAX 64

/* One TLB: entries in total and ways per set (ways == entries: fully associative). */
struct cm_tlb_geom {
	uint32_t entries;            /* 0: the level does not exist (the STLB only) */
	uint32_t ways;
};

/* One cache level over physical addresses. */
struct cm_cache_geom {
	uint64_t size;               /* bytes; 0: the level does not exist (L2, L3 only) */
	uint32_t ways;
	uint32_t line;               /* bytes, a power of two */
	uint32_t latency;            /* load-to-use cycles of a hit at this level */
};

/*
 * An uncached access to a device register, in core cycles, charged on top
 * of the instruction's base_cpi: a port read (in, ins) or write (out,
 * outs); a memory-mapped read or write; an access to the local APIC's
 * registers (physical CM_LAPIC_BASE.., on the processor itself).
 */
struct cm_io_costs {
	uint32_t port_read, port_write;
	uint32_t mmio_read, mmio_write;
	uint32_t lapic;
};

/*
 * How sequential data misses overlap (stream.h): the line fills a
 * stream keeps in flight (1: none overlap), the most instructions
 * between two of its misses for them to overlap (the reorder window or
 * the prefetcher's reach), and the cycles the memory bus needs per line
 * of the last cache level at its sustained burst rate (a stream's lines
 * from memory come no faster: model.h).
 */
struct cm_stream_geom {
	uint32_t fills;
	uint32_t window;
	uint32_t mem_line_cycles;
};

/*
 * Stores and dirty lines (cache.h): whether a store that misses L1 fills
 * the line (write-allocate: P6 and later) or goes to the bus without
 * filling anything (the Pentium); the cycles of one such store miss (a
 * single write on the bus); the cycles the bus needs to write one dirty
 * line back to memory; whether a write-back buffer lets that write
 * overlap the fill whose eviction caused it (model.h); and whether a
 * string store (rep stos, rep movs) that will write a whole line takes
 * it without reading it (the "fast string" operation).
 */
struct cm_write_geom {
	uint32_t allocate;           /* 1: write-allocate, 0: a store miss fills nothing */
	uint32_t store_miss_cycles;  /* a store miss that does not allocate */
	uint32_t writeback_cycles;   /* one dirty line written to memory */
	uint32_t writeback_buffer;   /* 1: overlaps the fill that evicted it, 0: after it */
	uint32_t fast_strings;       /* 1: rep stos/movs own a line they will fill whole unread */
};

struct cm_profile {
	char name[CM_NAME_MAX];
	uint32_t base_cpi_milli;     /* cycles per instruction x 1000, all hits */
	struct cm_tlb_geom itlb, dtlb, stlb;
	uint32_t stlb_hit_cycles;    /* an L1 TLB miss that hits the STLB */
	uint32_t walk_cycles;        /* a page walk (a miss in the last TLB level) */
	struct cm_cache_geom l1i, l1d, l2, l3;
	uint32_t mem_latency;        /* load-to-use cycles from memory */
	struct cm_stream_geom stream;
	struct cm_write_geom write;
	struct cm_io_costs io;
	/*
	 * Not a file key: the plugin's l2=off (cm_profile_disable_l2), the L2
	 * cache switched off as a BIOS setting does.  An L1 miss then goes to
	 * the L3 or to memory, and a page walk's two table reads, priced as L2
	 * hits in walk.cycles, pay memory's latency instead.
	 */
	bool l2_off;
};

/*
 * Parse the text of a profile.  Returns 0 and fills *p, or -1 with a
 * one-line reason in err (at most errlen bytes).  what names the source
 * (a path) in messages.
 */
int cm_profile_parse(const char *text, const char *what, struct cm_profile *p,
		     char *err, size_t errlen);

/* Read and parse the file at path; errors as cm_profile_parse. */
int cm_profile_load(const char *path, struct cm_profile *p, char *err, size_t errlen);

/*
 * Switch the L2 off (l2_off above) and name the profile NAME:l2off, so
 * its output says which machine was modelled.  -1 if the name would not
 * fit.
 */
int cm_profile_disable_l2(struct cm_profile *p);

/* The cycles of one page walk: walk.cycles, with the L2 off its two table
 * reads from memory in place of the L2. */
uint32_t cm_walk_cost(const struct cm_profile *p);

/*
 * The profile as the members of a JSON object, without braces, in a fixed
 * order: "name":"modern","base_cpi_milli":1000,...  Returns the length
 * snprintf would have written.
 */
int cm_profile_json(const struct cm_profile *p, char *buf, size_t len);

#endif
