/*
 * frame_map.c — bitmap bookkeeping for physical frames.
 *
 * Single frames: from a rotating hint, the first word with a free frame,
 * found in a summary bitmap (a bit per word of the map, set while the word
 * has a free frame), so a take costs a step per 4096 frames, not one per
 * 64: a take whose hint lies before a long stretch of taken memory (the
 * kernel image, page tables) steps over it by summary bits, not over every
 * full word of it under the allocator's lock.  Runs of frames
 * (DMA buffers, ICAs, large kmallocs): a first-fit scan of aligned start
 * positions that, when a candidate run holds a taken frame, starts again
 * at the first aligned position after it, and steps over all-ones words
 * whole; so a scan costs about one step
 * per word of taken memory, not one per frame times the run's length.
 */
#include <stdint.h>
#include <string.h>
#include <frame_map.h>

#define WORD(f) ((f) / 64)
#define BIT(f)  (1ull << ((f) % 64))

static uint64_t nwords(const struct frame_map *m) { return (m->nframes + 63) / 64; }

void frame_map_init(struct frame_map *m, uint64_t *bits, uint64_t nframes)
{
	m->bits = bits;
	m->nframes = nframes;
	m->summary = bits + nwords(m);
	m->nfree = 0;
	m->hint = 0;
	memset(bits, 0xff, nwords(m) * 8);
	memset(m->summary, 0, ((nwords(m) + 63) / 64) * 8);
}

/* Word w of the map changed: its summary bit says whether it has a free frame. */
static void summarise(struct frame_map *m, uint64_t w)
{
	if (m->bits[w] == ~0ull)
		m->summary[WORD(w)] &= ~BIT(w);
	else
		m->summary[WORD(w)] |= BIT(w);
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
			summarise(m, WORD(f));
		}
	}
}

void frame_map_reserve(struct frame_map *m, uint64_t first, uint64_t count)
{
	for (uint64_t f = first; f < first + count && f < m->nframes; f++) {
		if (!(m->bits[WORD(f)] & BIT(f))) {
			m->bits[WORD(f)] |= BIT(f);
			m->nfree--;
			summarise(m, WORD(f));
		}
	}
}

/* The first word at or after FROM (wrapping) with a free frame; -1 if none. */
static int64_t first_free_word(const struct frame_map *m, uint64_t from)
{
	uint64_t n = (nwords(m) + 63) / 64;
	for (uint64_t i = 0; i <= n; i++) {
		uint64_t s = (WORD(from) + i) % n;
		uint64_t x = m->summary[s];
		if (i == 0)
			x &= ~0ull << (from % 64);   /* the words before FROM come last */
		if (x)
			return (int64_t)(s * 64 + (uint64_t)__builtin_ctzll(x));
	}
	return -1;
}

static int64_t take_one(struct frame_map *m)
{
	int64_t w = first_free_word(m, m->hint);
	if (w < 0)
		return -1;
	uint64_t f = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(~m->bits[w]);
	m->bits[w] |= BIT(f);
	m->nfree--;
	summarise(m, (uint64_t)w);
	m->hint = (uint64_t)w;
	return (int64_t)f;
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
