/*
 * frame_map.h — a bitmap of physical frames: set = in use.
 *
 * Pure data structure (no locks, no hardware), shared by the kernel's
 * frame allocator and its host unit tests.
 */
#ifndef HAKO_FRAME_MAP_H
#define HAKO_FRAME_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct frame_map {
	uint64_t *bits;
	uint64_t *summary;      /* bit w set: word w of bits has a free frame */
	uint64_t nframes;       /* frames covered, from frame 0 */
	uint64_t nfree;
	uint64_t hint;          /* word index where the next search starts */
};

/* The 64-bit words a map over n frames needs: the bitmap, then its summary. */
#define FRAME_MAP_WORDS(n) ((((n) + 63) / 64) + ((((n) + 63) / 64 + 63) / 64))

/* All frames start in use; frame_map_release marks usable ones free.
 * bits holds FRAME_MAP_WORDS(nframes) words. */
void frame_map_init(struct frame_map *m, uint64_t *bits, uint64_t nframes);
void frame_map_release(struct frame_map *m, uint64_t first, uint64_t count);
void frame_map_reserve(struct frame_map *m, uint64_t first, uint64_t count);
bool frame_map_is_free(const struct frame_map *m, uint64_t frame);
/* Find and take count contiguous free frames aligned to align frames; -1 if none. */
int64_t frame_map_take(struct frame_map *m, uint64_t count, uint64_t align);

#endif
