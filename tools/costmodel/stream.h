/*
 * stream.h — which data-cache misses overlap: a small table of the
 * sequential miss streams a core is running, and the price of a miss
 * that continues one.
 *
 * A lone miss costs its level's full latency (model.h).  A miss to the
 * line next to (above or below) the last miss of a tracked stream, at
 * most stream.window instructions after it, continues that stream: the
 * core already had it in flight beside the earlier ones (fill buffers,
 * an out-of-order window, a hardware prefetcher), so it is charged
 *
 *     min(lat, max(ceil(lat / stream.fills), floor))
 *
 * where lat is the level's latency above L1's and floor is
 * mem.line_cycles for a line served by memory (the bus's rate), 0 for
 * one served by a cache.  The first miss of a stream pays the full
 * latency; a stream never costs more than lone misses.  stream.fills of
 * 0 or 1 means no overlap: every miss is a lone miss.
 *
 * Streams follow physical line numbers, so one ends at a page boundary
 * unless the next frame is the next physical page (as hardware
 * prefetchers stop at 4 KiB).  CM_STREAMS streams are tracked, the least
 * recently continued one replaced first.  Everything is a function of
 * the sequence of misses and the instruction count: deterministic.
 */
#ifndef COSTMODEL_STREAM_H
#define COSTMODEL_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

/* Streams tracked per core: a copy needs two, zeroing one. */
#define CM_STREAMS 8

struct cm_stream {
	uint64_t line;               /* the last line missed */
	uint64_t at;                 /* the instruction count at that miss */
	uint64_t stamp;              /* last use, for replacement; 0: empty */
	int dir;                     /* +1 ascending, -1 descending, 0 not known yet */
};

struct cm_streams {
	struct cm_stream s[CM_STREAMS];
	uint64_t clock;
};

/*
 * A miss to line (physical address >> line shift) at instruction count
 * insns: true if it continues a stream (and the stream moves on to it),
 * false if it starts one.  Always false when g->fills <= 1.
 */
bool cm_stream_miss(struct cm_streams *t, const struct cm_stream_geom *g, uint64_t line,
		    uint64_t insns);

/*
 * The cycles a miss costs whose lone latency above L1 is lat: lat for a
 * lone miss, the overlapped price above for one that continues a stream
 * (from_mem: served by memory, so mem.line_cycles is its floor).
 */
uint32_t cm_stream_cost(const struct cm_stream_geom *g, uint32_t lat, bool continues, bool from_mem);

/* Forget every stream (the caches were emptied). */
void cm_streams_reset(struct cm_streams *t);

#endif
