/*
 * test_frame_map.c — kernel/frame_map.c, the bitmap of physical frames.
 *
 * Proves: init marks every frame used and writes exactly the bitmap words
 * it needs; release and reserve count each frame once however often they
 * are repeated or overlapped, and stop at nframes; is_free is false out of
 * range; single takes return the lowest free frame from the hint, wrap
 * around (also across a summary of more than one word), and never return
 * a frame past nframes in a partial last word; the summary bit of every
 * word says whether it has a free frame after every operation;
 * contiguous takes are first fit, aligned, may cross a word boundary and
 * end exactly at nframes; takes return -1 on exhaustion, on count 0, or
 * when free frames are too fragmented, without changing anything.  A long
 * random run checks every result and nfree against a simple model.
 */
#include "check.h"
#include <frame_map.h>

#define WORDS(n) (((n) + 63) / 64)

/* A map over nframes in a bitmap of exactly the size init may write. */
static uint64_t *new_map(struct frame_map *m, uint64_t nframes)
{
	uint64_t *bits = check_alloc(FRAME_MAP_WORDS(nframes) * 8);
	frame_map_init(m, bits, nframes);
	return bits;
}

TEST(init_marks_everything_used)
{
	struct frame_map m;
	uint64_t *bits = new_map(&m, 200);
	CHECK_EQ(m.nframes, 200);
	CHECK_EQ(m.nfree, 0);
	for (int w = 0; w < 4; w++)
		CHECK_EQ(bits[w], ~0ull);
	for (uint64_t f = 0; f < 200; f++)
		CHECK(!frame_map_is_free(&m, f));
	CHECK_EQ(frame_map_take(&m, 1, 1), -1);
}

TEST(release_marks_free_and_counts)
{
	struct frame_map m;
	new_map(&m, 128);
	frame_map_release(&m, 10, 5);
	CHECK_EQ(m.nfree, 5);
	CHECK(!frame_map_is_free(&m, 9));
	for (uint64_t f = 10; f < 15; f++)
		CHECK(frame_map_is_free(&m, f));
	CHECK(!frame_map_is_free(&m, 15));
	frame_map_release(&m, 0, 0);            /* empty range: no change */
	CHECK_EQ(m.nfree, 5);
}

TEST(double_release_not_double_counted)
{
	struct frame_map m;
	new_map(&m, 128);
	frame_map_release(&m, 10, 5);
	frame_map_release(&m, 10, 5);
	CHECK_EQ(m.nfree, 5);
	frame_map_release(&m, 12, 6);           /* overlaps 12..14 */
	CHECK_EQ(m.nfree, 8);
	CHECK(frame_map_is_free(&m, 17));
}

TEST(release_stops_at_nframes)
{
	struct frame_map m;
	uint64_t *bits = new_map(&m, 100);
	frame_map_release(&m, 90, 50);
	CHECK_EQ(m.nfree, 10);
	CHECK(frame_map_is_free(&m, 99));
	CHECK(!frame_map_is_free(&m, 100));
	/* Bits for frames 100..127 of the last word stay set. */
	CHECK_EQ(bits[1] >> 36, (~0ull) >> 36);
	frame_map_release(&m, 500, 10);         /* wholly past the end */
	CHECK_EQ(m.nfree, 10);
}

TEST(reserve_counts_once)
{
	struct frame_map m;
	new_map(&m, 64);
	frame_map_release(&m, 0, 64);
	CHECK_EQ(m.nfree, 64);
	frame_map_reserve(&m, 5, 3);
	CHECK_EQ(m.nfree, 61);
	frame_map_reserve(&m, 5, 3);
	CHECK_EQ(m.nfree, 61);
	frame_map_reserve(&m, 6, 4);            /* 6,7 already used */
	CHECK_EQ(m.nfree, 59);
	CHECK(!frame_map_is_free(&m, 9));
	CHECK(frame_map_is_free(&m, 10));
	frame_map_reserve(&m, 60, 100);         /* clamped at nframes */
	CHECK_EQ(m.nfree, 55);
}

TEST(is_free_out_of_range)
{
	struct frame_map m;
	new_map(&m, 64);
	frame_map_release(&m, 0, 64);
	CHECK(frame_map_is_free(&m, 63));
	CHECK(!frame_map_is_free(&m, 64));
	CHECK(!frame_map_is_free(&m, UINT64_MAX));
}

TEST(take_single_lowest_first_until_empty)
{
	struct frame_map m;
	new_map(&m, 128);
	frame_map_release(&m, 3, 4);
	for (int64_t want = 3; want < 7; want++) {
		CHECK_EQ(frame_map_take(&m, 1, 1), want);
		CHECK(!frame_map_is_free(&m, (uint64_t)want));
	}
	CHECK_EQ(m.nfree, 0);
	CHECK_EQ(frame_map_take(&m, 1, 1), -1);
	CHECK_EQ(frame_map_take(&m, 1, 0), -1);
}

TEST(take_single_skips_full_words)
{
	struct frame_map m;
	new_map(&m, 256);
	frame_map_release(&m, 130, 1);
	CHECK_EQ(frame_map_take(&m, 1, 0), 130);
	CHECK_EQ(m.nfree, 0);
}

TEST(take_single_never_past_nframes)
{
	struct frame_map m;
	new_map(&m, 70);                        /* last word is partial */
	frame_map_release(&m, 0, 70);
	bool seen[70] = { false };
	for (int i = 0; i < 70; i++) {
		int64_t f = frame_map_take(&m, 1, 1);
		CHECK(f >= 0 && f < 70);
		CHECK(!seen[f]);
		seen[f] = true;
	}
	CHECK_EQ(m.nfree, 0);
	CHECK_EQ(frame_map_take(&m, 1, 1), -1);
}

TEST(take_single_wraps_around_hint)
{
	struct frame_map m;
	new_map(&m, 192);
	frame_map_release(&m, 140, 2);
	CHECK_EQ(frame_map_take(&m, 1, 1), 140);        /* hint now word 2 */
	frame_map_release(&m, 1, 1);
	CHECK_EQ(frame_map_take(&m, 1, 1), 141);        /* same word first */
	CHECK_EQ(frame_map_take(&m, 1, 1), 1);          /* then wraps to word 0 */
	CHECK_EQ(frame_map_take(&m, 1, 1), -1);
}

/* The summary agrees with the map: bit w set exactly when word w has a free frame. */
static bool summary_agrees(const struct frame_map *m)
{
	for (uint64_t w = 0; w < WORDS(m->nframes); w++)
		if (!!(m->summary[w / 64] & (1ull << (w % 64))) != (m->bits[w] != ~0ull))
			return false;
	return true;
}

TEST(take_single_across_a_long_summary)
{
	enum { N = 64 * 64 * 3 + 100 };                 /* a summary of four words */
	struct frame_map m;
	new_map(&m, N);
	CHECK(summary_agrees(&m));
	frame_map_release(&m, 5, 1);
	frame_map_release(&m, N - 1, 1);
	CHECK(summary_agrees(&m));
	CHECK_EQ(frame_map_take(&m, 1, 1), 5);          /* hint now word 0 */
	CHECK_EQ(frame_map_take(&m, 1, 1), N - 1);      /* past three summary words */
	CHECK(summary_agrees(&m));
	frame_map_release(&m, 70, 1);                   /* behind the hint */
	CHECK_EQ(frame_map_take(&m, 1, 1), 70);         /* wraps to the start */
	CHECK_EQ(frame_map_take(&m, 1, 1), -1);
	CHECK(summary_agrees(&m));
}

TEST(take_rejects_zero_and_too_many)
{
	struct frame_map m;
	new_map(&m, 64);
	frame_map_release(&m, 0, 10);
	CHECK_EQ(frame_map_take(&m, 0, 1), -1);
	CHECK_EQ(frame_map_take(&m, 11, 1), -1);
	CHECK_EQ(frame_map_take(&m, UINT64_MAX, 1), -1);
	CHECK_EQ(m.nfree, 10);
	CHECK_EQ(frame_map_take(&m, 10, 1), 0);         /* all of them */
	CHECK_EQ(m.nfree, 0);
}

TEST(take_contiguous_first_fit)
{
	struct frame_map m;
	new_map(&m, 64);
	frame_map_release(&m, 0, 64);
	frame_map_reserve(&m, 5, 1);
	CHECK_EQ(frame_map_take(&m, 8, 1), 6);          /* 0..4 too short */
	CHECK_EQ(m.nfree, 55);
	for (uint64_t f = 6; f < 14; f++)
		CHECK(!frame_map_is_free(&m, f));
	CHECK(frame_map_is_free(&m, 14));
	CHECK_EQ(frame_map_take(&m, 5, 1), 0);          /* now 0..4 fits */
	CHECK_EQ(frame_map_take(&m, 3, 0), 14);         /* align 0 means 1 */
}

TEST(take_contiguous_aligned)
{
	struct frame_map m;
	new_map(&m, 128);
	frame_map_release(&m, 1, 127);                  /* frame 0 used */
	CHECK_EQ(frame_map_take(&m, 4, 4), 4);
	CHECK_EQ(frame_map_take(&m, 16, 16), 16);
	CHECK_EQ(frame_map_take(&m, 1, 8), 8);          /* one frame, aligned */
	CHECK_EQ(frame_map_take(&m, 2, 2), 2);
	CHECK_EQ(frame_map_take(&m, 64, 64), 64);
	CHECK_EQ(frame_map_take(&m, 1, 64), -1);        /* 0 and 64 both used */
	CHECK_EQ(m.nfree, 127 - 4 - 16 - 1 - 2 - 64);
}

TEST(take_contiguous_across_word_boundary)
{
	struct frame_map m;
	new_map(&m, 192);
	frame_map_release(&m, 60, 8);
	CHECK_EQ(frame_map_take(&m, 8, 1), 60);
	CHECK_EQ(m.nfree, 0);
	CHECK(!frame_map_is_free(&m, 63));
	CHECK(!frame_map_is_free(&m, 64));
}

TEST(take_contiguous_fails_when_fragmented)
{
	struct frame_map m;
	new_map(&m, 64);
	for (uint64_t f = 0; f < 64; f += 2)
		frame_map_release(&m, f, 1);
	CHECK_EQ(m.nfree, 32);
	CHECK_EQ(frame_map_take(&m, 2, 1), -1);
	CHECK_EQ(frame_map_take(&m, 1, 2), 0);          /* even frames are free */
	CHECK_EQ(m.nfree, 31);
}

TEST(take_contiguous_ends_at_nframes)
{
	struct frame_map m;
	new_map(&m, 100);
	frame_map_release(&m, 96, 4);
	CHECK_EQ(frame_map_take(&m, 4, 4), 96);
	frame_map_release(&m, 0, 4);
	frame_map_release(&m, 95, 5);
	CHECK_EQ(m.nfree, 9);
	CHECK_EQ(frame_map_take(&m, 6, 1), -1);         /* 95..100 passes the end */
	CHECK_EQ(frame_map_take(&m, 5, 1), 95);         /* 95..99 ends at it */
	CHECK_EQ(m.nfree, 4);
}

TEST(take_release_roundtrip)
{
	struct frame_map m;
	new_map(&m, 512);
	frame_map_release(&m, 0, 512);
	int64_t a = frame_map_take(&m, 32, 32);
	CHECK_EQ(a, 0);
	CHECK_EQ(m.nfree, 480);
	frame_map_release(&m, (uint64_t)a, 32);
	CHECK_EQ(m.nfree, 512);
	CHECK_EQ(frame_map_take(&m, 32, 32), 0);
}

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

TEST(take_contiguous_skips_taken_words)
{
	struct frame_map m;
	new_map(&m, 640);
	frame_map_release(&m, 0, 640);
	frame_map_reserve(&m, 0, 515);                  /* eight whole words and three frames */
	frame_map_reserve(&m, 530, 1);                  /* a hole of 15 before it */
	CHECK_EQ(frame_map_take(&m, 16, 1), 531);
	CHECK_EQ(frame_map_take(&m, 8, 8), 520);        /* 515..519 free but not aligned */
	CHECK_EQ(frame_map_take(&m, 93, 1), 547);
	CHECK_EQ(frame_map_take(&m, 1, 64), -1);        /* 512 and 576 both taken */
}

TEST(random_operations_match_model)
{
	enum { N = 300 };
	struct frame_map m;
	new_map(&m, N);
	bool used[N];
	for (int i = 0; i < N; i++)
		used[i] = true;
	for (int step = 0; step < 20000; step++) {
		uint64_t op = rng() % 4, a = rng() % N, n = 1 + rng() % 12;
		if (op == 0) {
			frame_map_release(&m, a, n);
			for (uint64_t f = a; f < a + n && f < N; f++)
				used[f] = false;
		} else if (op == 1) {
			frame_map_reserve(&m, a, n);
			for (uint64_t f = a; f < a + n && f < N; f++)
				used[f] = true;
		} else {
			uint64_t align = op == 2 ? 1 : 1ull << (rng() % 4);
			uint64_t count = op == 2 ? 1 : n;
			int64_t got = frame_map_take(&m, count, align);
			/* The model's first fit (single takes may start anywhere). */
			int64_t first = -1;
			for (uint64_t s = 0; s + count <= N && first < 0; s += align) {
				uint64_t k = 0;
				while (k < count && !used[s + k])
					k++;
				if (k == count)
					first = (int64_t)s;
			}
			if (first < 0) {
				CHECK_EQ(got, -1);
			} else {
				CHECK(got >= 0);
				CHECK_EQ((uint64_t)got % align, 0);
				if (count > 1 || align > 1)
					CHECK_EQ(got, first);
				for (uint64_t k = 0; k < count; k++) {
					CHECK(!used[got + k]);
					used[got + k] = true;
				}
			}
		}
		uint64_t nfree = 0;
		for (int f = 0; f < N; f++) {
			nfree += !used[f];
			if (frame_map_is_free(&m, (uint64_t)f) != !used[f]) {
				check_fail(__FILE__, __LINE__, "step %d: frame %d is_free %d, model %d",
					   step, f, frame_map_is_free(&m, (uint64_t)f), !used[f]);
				return;
			}
		}
		CHECK_EQ(m.nfree, nfree);
		CHECK(summary_agrees(&m));
	}
}
