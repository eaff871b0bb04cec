/*
 * frame_map.c — bitmap bookkeeping for physical frames.
 *
 * Single frames: scan 64-bit words from a rotating hint for one that is
 * not all ones.  Runs of frames (DMA buffers, ICAs, large kmallocs): a
 * first-fit scan of aligned start positions that, when a candidate run
 * holds a taken frame, starts again at the first aligned position after
 * it, and steps over all-ones words whole; so a scan costs about one step
 * per word of taken memory, not one per frame times the run's length.
 */
#include <stdint.h>
#include <string.h>
#include <frame_map.h>

#define WORD(f) ((f) / 64)
#define BIT(f)  (1ull << ((f) % 64))

void frame_map_init(struct frame_map *m, uint64_t *bits, uint64_t nframes)
{
	m->bits = bits;
	m->nframes = nframes;
	m->nfree = 0;
	m->hint = 0;
	memset(bits, 0xff, ((nframes + 63) / 64) * 8);
}

bool frame_map_is_free(const struct frame_map *m, uint64_t f)
{
	return f < m->nframes && !(m->bits[WORD(f)] & BIT(f));
}

void frame_map_release(struct frame_map *m, uint64_t first, uint64_t count)
{
	for (uint64_t f = first; f < first + count && f < m->nframes; f++) {
		if (m->bits[WORD(f)] & BIT(f)) {
			m->bits[WORD(f)] &= ~BIT(f);
			m->nfree++;
		}
	}
}

void frame_map_reserve(struct frame_map *m, uint64_t first, uint64_t count)
{
	for (uint64_t f = first; f < first + count && f < m->nframes; f++) {
		if (!(m->bits[WORD(f)] & BIT(f))) {
			m->bits[WORD(f)] |= BIT(f);
			m->nfree--;
		}
	}
}

static int64_t take_one(struct frame_map *m)
{
	uint64_t words = (m->nframes + 63) / 64;
	for (uint64_t i = 0; i < words; i++) {
		uint64_t w = (m->hint + i) % words;
		if (m->bits[w] == ~0ull)
			continue;
		uint64_t f = w * 64 + (uint64_t)__builtin_ctzll(~m->bits[w]);
		if (f >= m->nframes)
			continue;
		m->bits[w] |= BIT(f);
		m->nfree--;
		m->hint = w;
		return (int64_t)f;
	}
	return -1;
}

/* The last taken frame in [start, start + count), or -1 if the run is free. */
static int64_t last_taken(const struct frame_map *m, uint64_t start, uint64_t count)
{
	for (uint64_t f = start + count; f > start; f--)
		if (m->bits[WORD(f - 1)] & BIT(f - 1))
			return (int64_t)(f - 1);
	return -1;
}

/* The first aligned position at or after f whose frame is free, or nframes. */
static uint64_t next_start(const struct frame_map *m, uint64_t f, uint64_t align)
{
	f = (f + align - 1) / align * align;
	while (f < m->nframes && (m->bits[WORD(f)] & BIT(f))) {
		if (f % 64 == 0 && m->bits[WORD(f)] == ~0ull)
			f += 64;                 /* a whole word taken */
		else
			f++;
		f = (f + align - 1) / align * align;
	}
	return f;
}

int64_t frame_map_take(struct frame_map *m, uint64_t count, uint64_t align)
{
	if (count == 0 || count > m->nfree)
		return -1;
	if (count == 1 && align <= 1)
		return take_one(m);
	if (align == 0)
		align = 1;
	for (uint64_t start = next_start(m, 0, align); start + count <= m->nframes;) {
		int64_t taken = last_taken(m, start, count);
		if (taken < 0) {
			frame_map_reserve(m, start, count);
			return (int64_t)start;
		}
		start = next_start(m, (uint64_t)taken + 1, align);
	}
	return -1;
}
