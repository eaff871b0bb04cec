/*
 * stream.h — which data-cache misses overlap: a small table of the
 * sequential miss streams a core is running, and when a line of one is
 * there.
 *
 * The model keeps time in each core's modelled cycles (model.h: the
 * cycles so far, instructions included).  A lone miss asked at cycle now
 * is there at now + lat, lat its level's latency above L1's.  A miss to
 * the line next to (above or below) the last miss of a tracked stream,
 * at most stream.window instructions after it, continues that stream:
 * the core had it in flight beside the earlier ones (fill buffers, an
 * out-of-order window, a hardware prefetcher), so it is there
 *
 *     step = ceil(lat / stream.fills)
 *
 * cycles after the stream's previous line was, counted from no earlier
 * than now - lat (a stream runs at most stream.fills lines ahead of its
 * loads).  The core waits only for what is not there yet: the
 * instructions it ran since the previous line overlap this one's fill.
 * A line served by memory also waits for the bus (model.h).
 * stream.fills of 0 or 1 means no overlap: every miss is a lone miss.
 *
 * Streams follow physical line numbers, so one ends at a page boundary
 * unless the next frame is the next physical page (as hardware
 * prefetchers stop at 4 KiB).  CM_STREAMS streams are tracked, the least
 * recently continued one replaced first.  Everything is a function of
 * the sequence of misses and the cycle counts: deterministic.
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
	uint64_t ready;              /* the cycle its last line was there */
};

struct cm_streams {
	struct cm_stream s[CM_STREAMS];
	uint64_t clock;
};

/*
 * A miss to line (physical address >> line shift) at instruction count
 * insns: true if it continues a stream (and the stream moves on to it),
 * false if it starts one.  *sp: the stream it is now the last miss of,
 * whose ready the caller sets; NULL when g->fills <= 1 (always false).
 */
bool cm_stream_miss(struct cm_streams *t, const struct cm_stream_geom *g, uint64_t line,
		    uint64_t insns, struct cm_stream **sp);

/*
 * The cycle a miss that continues stream s is there, asked at cycle now
 * with lone latency lat above L1 (the rule above; memory's bus aside).
 */
uint64_t cm_stream_ready(const struct cm_stream_geom *g, const struct cm_stream *s, uint32_t lat,
			 uint64_t now);

/* Forget every stream (the caches were emptied). */
void cm_streams_reset(struct cm_streams *t);

#endif
