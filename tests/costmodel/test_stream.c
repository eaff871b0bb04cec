/*
 * test_stream.c — misses that overlap (stream.h): a run of misses to
 * scattered lines pays the full latency each; a sequential stream (up or
 * down, or two interleaved as in a copy) waits after its first miss only
 * for what its instructions did not cover of the stream's step and the
 * bus's line time; no overlap happens with one fill, past the window or
 * after the caches are emptied.  Counted by hand on a tiny machine.
 */
#include "check.h"
#include "model.h"
#include "stream.h"

static struct cm_page page_4k(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_4K, false }; }

/*
 * 1 KiB L1d of 32-byte lines (latency 1), 4 KiB L2 (latency 10), memory
 * 101: a lone miss to memory costs 100 above L1.  Streams: four fills,
 * a window of 40 instructions, memory's floor 30 cycles a line.
 */
static struct cm_profile machine(uint32_t fills)
{
	struct cm_profile p = { .name = "t", .base_cpi_milli = 1000 };
	p.itlb = p.dtlb = (struct cm_tlb_geom){ 64, 4 };
	p.l1i = p.l1d = (struct cm_cache_geom){ 1024, 2, 32, 1 };
	p.l2 = (struct cm_cache_geom){ 4096, 4, 32, 10 };
	p.mem_latency = 101;
	p.stream = (struct cm_stream_geom){ .fills = fills, .window = 40, .mem_line_cycles = 30 };
	return p;
}

/* A data access to line `line` (32-byte lines from 0x10000) after `gap` instructions. */
static void touch(struct cm_core *c, uint64_t line, uint64_t gap)
{
	c->n.v[CM_INSNS] += gap;
	cm_core_data(c, 0x10000 + line * 32, 0x10000 + line * 32, false);
}

TEST(scattered_misses_each_pay_the_full_latency)
{
	struct cm_profile p = machine(4);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	static const uint64_t lines[] = { 0, 2, 4, 9, 7, 20, 15, 30 };   /* no two adjacent in turn */
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		touch(&c, lines[i], 10);
	CHECK_EQ(c.n.v[CM_L1D_MISS], 8);
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 0);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 8 * 100);
	cm_core_free(&c);
}

TEST(a_sequential_stream_waits_for_the_bus_less_its_instructions)
{
	/*
	 * Up and down: the first miss 100; each next line is there one bus
	 * line time (30, more than the step ceil(100 / 4) = 25) after the
	 * one before, and the 11 instructions between them ran meanwhile:
	 * 19 each.
	 */
	for (int down = 0; down < 2; down++) {
		struct cm_profile p = machine(4);
		struct cm_core c;
		CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
		for (uint64_t i = 0; i < 16; i++) {
			touch(&c, down ? 100 - i : 100 + i, 10);
			touch(&c, down ? 100 - i : 100 + i, 1);   /* the same line again: a hit */
		}
		CHECK_EQ(c.n.v[CM_L1D_MISS], 16);
		CHECK_EQ(c.n.v[CM_STREAM_MISS], 15);
		CHECK_EQ(c.n.v[CM_MEM_CYCLES], 100 + 15 * 19);
		cm_core_free(&c);
	}
}

TEST(a_loop_slower_than_its_stream_hides_the_misses)
{
	/* 40 instructions a line, more than the 30 the bus needs: only the first miss waits. */
	struct cm_profile p = machine(4);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	for (uint64_t i = 0; i < 16; i++)
		touch(&c, 100 + i, 40);
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 15);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 100);
	cm_core_free(&c);
}

TEST(a_copy_runs_two_streams_at_once)
{
	struct cm_profile p = machine(4);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	for (uint64_t i = 0; i < 8; i++) {
		touch(&c, i, 5);            /* source */
		touch(&c, 64 + i, 5);       /* destination */
	}
	/*
	 * The bus carries both streams' lines: after the two first misses
	 * (100 each, the second asked once the first is there, at 110) a
	 * line every 30 cycles, the pairs' 10 instructions hidden: the
	 * last line is there at 210 + 14 x 30.
	 */
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 14);
	CHECK_EQ(c.n.v[CM_INSNS] + c.n.v[CM_MEM_CYCLES], 210 + 14 * 30);
	cm_core_free(&c);
}

TEST(a_stream_served_by_a_cache_waits_only_its_step)
{
	/* Fill the L2 with 16 lines, push them out of the L1, read them again in order. */
	struct cm_profile p = machine(4);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	for (uint64_t i = 0; i < 16; i++)
		touch(&c, i, 100);                    /* out of the window: lone misses */
	for (uint64_t i = 0; i < 64; i++)
		touch(&c, 32 + i, 100);               /* every L1 set four times over */
	uint64_t before = c.n.v[CM_MEM_CYCLES];
	for (uint64_t i = 0; i < 16; i++)
		touch(&c, i, 1);
	/* From the L2: 9 for the first, then a step of ceil(9 / 4) = 3 less the 1 instruction. */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES] - before, 9 + 15 * 2);
	cm_core_free(&c);
}

TEST(no_overlap_with_one_fill_or_past_the_window)
{
	struct cm_profile one = machine(1);
	struct cm_core c;
	CHECK(cm_core_init(&c, &one, NULL, page_4k, NULL));
	for (uint64_t i = 0; i < 16; i++)
		touch(&c, i, 10);
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 0);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 16 * 100);
	cm_core_free(&c);

	struct cm_profile four = machine(4);
	CHECK(cm_core_init(&c, &four, NULL, page_4k, NULL));
	for (uint64_t i = 0; i < 16; i++)
		touch(&c, i, 41);                      /* one more than the window */
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 0);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 16 * 100);
	cm_core_free(&c);
}

TEST(emptying_the_caches_forgets_the_streams)
{
	struct cm_profile p = machine(4);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	touch(&c, 0, 1);
	touch(&c, 1, 1);
	cm_core_empty_caches(&c, true);
	touch(&c, 2, 1);
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 1);
	/* 100, then 30 less the 1 instruction, then a lone miss again. */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 100 + 29 + 100);
	cm_core_free(&c);
}

TEST(a_stream_runs_at_most_its_fills_ahead)
{
	/*
	 * A stream whose last line was there long ago: the next is not
	 * there before now - lat + step, lat 100 and step 25.
	 */
	struct cm_stream_geom g = { .fills = 4, .window = 40, .mem_line_cycles = 30 };
	struct cm_stream s = { .ready = 1000 };
	CHECK_EQ(cm_stream_ready(&g, &s, 100, 1010), 1025);     /* its previous line's + step */
	CHECK_EQ(cm_stream_ready(&g, &s, 100, 5000), 4925);     /* no credit beyond lat */
	CHECK_EQ(cm_stream_ready(&g, &s, 9, 1000), 1003);       /* rounded up: ceil(9 / 4) */
}

TEST(more_streams_than_the_table_holds_evict_the_oldest)
{
	struct cm_profile p = machine(4);
	struct cm_streams t = { 0 };
	/* CM_STREAMS + 1 streams started; the first one is gone, the second still there. */
	struct cm_stream *s;
	for (uint64_t i = 0; i <= CM_STREAMS; i++)
		CHECK(!cm_stream_miss(&t, &p.stream, i * 1000, 0, &s));
	CHECK(!cm_stream_miss(&t, &p.stream, 1, 0, &s));
	CHECK(cm_stream_miss(&t, &p.stream, 2 * 1000 + 1, 0, &s));
}

