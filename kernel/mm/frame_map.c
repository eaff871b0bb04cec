/*
 * frame_map.c — bitmap bookkeeping for physical frames.
 *
 * Single frames: scan 64-bit words from a rotating hint for one that is
 * not all ones.  Runs of frames (DMA buffers, ICAs, kernel stacks): a
 * first-fit scan of aligned start positions.
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

static bool run_is_free(const struct frame_map *m, uint64_t start, uint64_t count)
{
	for (uint64_t f = start; f < start + count; f++)
		if (m->bits[WORD(f)] & BIT(f))
			return false;
	return true;
}

int64_t frame_map_take(struct frame_map *m, uint64_t count, uint64_t align)
{
	if (count == 0 || count > m->nfree)
		return -1;
	if (count == 1 && align <= 1)
		return take_one(m);
	if (align == 0)
		align = 1;
	for (uint64_t start = 0; start + count <= m->nframes; start += align) {
		if (run_is_free(m, start, count)) {
			frame_map_reserve(m, start, count);
			return (int64_t)start;
		}
	}
	return -1;
}
