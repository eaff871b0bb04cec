/*
 * test_writeback.c — stores, dirty lines and write-backs (cache.h,
 * model.h): a store dirties its line, a dirty L1 victim goes down to the
 * L2 (taken back in if the L2 had lost it), one pushed out of the last
 * level is a write-back priced mem.writeback_cycles, serial or overlapped
 * with the fill by mem.writeback_buffer; wbinvd writes each dirty line
 * once and invd none; a machine whose stores do not allocate (the
 * Pentium) fills nothing on a store miss, which keeps the bus
 * mem.store_miss_cycles and waits only while the bus is busy.
 * Counted by hand on a tiny machine.
 */
#include "check.h"
#include "cache.h"
#include "model.h"

static struct cm_page page_4k(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_4K, false }; }

/*
 * 1 KiB 2-way L1d of 32-byte lines (16 sets: lines 512 bytes apart share
 * one), latency 1; 4 KiB 4-way L2 (32 sets: 1024 apart), latency 10;
 * memory 101, so a trip to memory costs 100 above L1.  No stream overlap.
 * A write-back costs 40, a store miss that does not allocate 9.
 */
static struct cm_profile machine(bool allocate, bool buffer)
{
	struct cm_profile p = { .name = "t", .base_cpi_milli = 1000 };
	p.itlb = p.dtlb = (struct cm_tlb_geom){ 64, 4 };
	p.l1i = p.l1d = (struct cm_cache_geom){ 1024, 2, 32, 1 };
	p.l2 = (struct cm_cache_geom){ 4096, 4, 32, 10 };
	p.mem_latency = 101;
	p.stream = (struct cm_stream_geom){ .fills = 1 };
	p.write = (struct cm_write_geom){ .allocate = allocate, .store_miss_cycles = 9,
					  .writeback_cycles = 40, .writeback_buffer = buffer };
	return p;
}

#define A 0x10000ull

static void load(struct cm_core *c, uint64_t pa) { cm_core_data(c, pa, pa, false); }
static void store(struct cm_core *c, uint64_t pa) { cm_core_store(c, pa, pa); }

TEST(a_store_dirties_its_line_and_an_l1_victim_goes_to_the_l2)
{
	struct cm_profile p = machine(true, false);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	store(&c, A);                            /* a miss: filled as a load, then dirty */
	CHECK(cm_cache_holds_dirty(&c.l1d, A));
	CHECK(cm_cache_holds(&c.l2, A) && !cm_cache_holds_dirty(&c.l2, A));
	load(&c, A + 512);
	load(&c, A + 1024);                      /* L1 set 0 again: A goes, down to the L2 */
	CHECK(!cm_cache_holds(&c.l1d, A));
	CHECK(cm_cache_holds_dirty(&c.l2, A));
	CHECK_EQ(c.n.v[CM_WB], 0);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 3 * 100);
	cm_core_free(&c);
}

/*
 * A dirty in the L2 only, then four more lines of its L2 set (1024 apart):
 * the fourth pushes A, the least recent, out of the last level.
 */
TEST(a_dirty_line_out_of_the_last_level_is_a_write_back)
{
	for (int buffer = 0; buffer < 2; buffer++) {
		struct cm_profile p = machine(true, buffer);
		struct cm_core c;
		CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
		store(&c, A);
		load(&c, A + 512);
		load(&c, A + 1024);
		load(&c, A + 2048);
		load(&c, A + 3072);
		CHECK_EQ(c.n.v[CM_WB], 0);
		load(&c, A + 4096);
		CHECK(!cm_cache_holds(&c.l2, A));
		CHECK_EQ(c.n.v[CM_WB], 1);
		/* Six trips to memory; the write-back after the last one's fill, or
		 * within it (max(100, 40)) with a write-back buffer. */
		CHECK_EQ(c.n.v[CM_MEM_CYCLES], buffer ? 6 * 100 : 6 * 100 + 40);
		cm_core_free(&c);
	}
}

TEST(without_an_l2_a_dirty_l1_victim_goes_to_memory)
{
	for (int off = 0; off < 2; off++) {
		struct cm_profile p = machine(true, false);
		if (off)
			CHECK_EQ(cm_profile_disable_l2(&p), 0);
		else
			p.l2 = (struct cm_cache_geom){ 0 };
		struct cm_core c;
		CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
		store(&c, A);
		load(&c, A + 512);
		load(&c, A + 1024);
		CHECK_EQ(c.n.v[CM_WB], 1);
		CHECK_EQ(c.n.v[CM_MEM_CYCLES], 3 * 100 + 40);
		cm_core_free(&c);
	}
}

/*
 * A direct-mapped 2 KiB L1 (64 sets: 2048 apart) over the 4-way L2 (32
 * sets): lines 1024 apart share an L2 set but not an L1 set, so the L2
 * can lose A while the L1 keeps it dirty.
 */
TEST(an_l1_victim_the_l2_had_lost_is_taken_back_in)
{
	struct cm_profile p = machine(true, false);
	p.l1d = (struct cm_cache_geom){ 2048, 1, 32, 1 };
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	store(&c, A);
	for (uint64_t k = 1; k <= 7; k += 2)
		load(&c, A + k * 1024);              /* L2 set 0 four times: A (clean there) goes */
	CHECK(!cm_cache_holds(&c.l2, A));
	CHECK(cm_cache_holds_dirty(&c.l1d, A));
	load(&c, A + 2048);                      /* L1 set 0: A goes down, the L2 takes it */
	CHECK(cm_cache_holds_dirty(&c.l2, A));
	CHECK_EQ(c.n.v[CM_WB], 0);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 6 * 100);
	cm_core_free(&c);
}

/* A dirty in L1 and L2, B = A + 32 dirty in L1: wbinvd writes two lines, invd none. */
TEST(wbinvd_writes_each_dirty_line_once_invd_none)
{
	for (int wbinvd = 0; wbinvd < 2; wbinvd++) {
		struct cm_profile p = machine(true, false);
		struct cm_core c;
		CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
		store(&c, A);
		load(&c, A + 512);
		load(&c, A + 1024);                  /* A dirty in the L2 only */
		store(&c, A);                        /* and in L1 again: an L2 hit, 9 */
		store(&c, A + 32);
		CHECK(cm_cache_holds_dirty(&c.l1d, A) && cm_cache_holds_dirty(&c.l2, A));
		CHECK_EQ(cm_hier_dirty_lines(&c.l1d, &c.l2, NULL), 2);
		uint64_t before = c.n.v[CM_MEM_CYCLES];
		CHECK_EQ(before, 4 * 100 + 9);
		cm_core_empty_caches(&c, wbinvd);
		CHECK_EQ(c.n.v[CM_WB], wbinvd ? 2 : 0);
		CHECK_EQ(c.n.v[CM_MEM_CYCLES], before + (wbinvd ? 2 * 40 : 0));
		CHECK_EQ(cm_hier_dirty_lines(&c.l1d, &c.l2, NULL), 0);
		cm_core_free(&c);
	}
}

TEST(a_store_miss_that_does_not_allocate_fills_nothing)
{
	struct cm_profile p = machine(false, false);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	store(&c, A);                            /* one write on the bus, which was free */
	CHECK(!cm_cache_holds(&c.l1d, A) && !cm_cache_holds(&c.l2, A));
	CHECK_EQ(c.n.v[CM_L1D_MISS], 1);
	CHECK_EQ(c.n.v[CM_L2_MISS], 1);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 0);
	store(&c, A + 32);                       /* right after it: waits out its 9 */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 9);
	c.n.v[CM_INSNS] += 20;                   /* the bus is free again */
	load(&c, A);                             /* a load still fills */
	store(&c, A);                            /* an L1 hit: dirty, free */
	CHECK(cm_cache_holds_dirty(&c.l1d, A));
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 9 + 100);
	/* C in the L2 only: the store writes it there, dirty, for the same bus write. */
	uint64_t C = A + 64;
	load(&c, C);
	load(&c, C + 512);
	load(&c, C + 1024);
	CHECK(!cm_cache_holds(&c.l1d, C));
	store(&c, C);
	CHECK(!cm_cache_holds(&c.l1d, C));
	CHECK(cm_cache_holds_dirty(&c.l2, C));
	CHECK_EQ(c.n.v[CM_L2_MISS], 6);          /* A's two stores and load, C's three loads */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 9 + 100 + 3 * 100);
	cm_core_free(&c);
}

/* Store misses that do not allocate take no part in a stream, whatever stream.fills says. */
TEST(store_misses_that_do_not_allocate_do_not_stream)
{
	struct cm_profile p = machine(false, false);
	p.stream = (struct cm_stream_geom){ .fills = 4, .window = 40, .mem_line_cycles = 30 };
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	for (uint64_t line = 0; line < 8; line++) {
		c.n.v[CM_INSNS] += 4;
		store(&c, A + line * 32);
	}
	/* The first goes to the free bus; each next waits 9 - 4 for the one before. */
	CHECK_EQ(c.n.v[CM_STREAM_MISS], 0);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 7 * 5);
	/* With allocation the same stores stream: 100, then the bus's 30 less 4 each. */
	p.write.allocate = 1;
	struct cm_core d;
	CHECK(cm_core_init(&d, &p, NULL, page_4k, NULL));
	for (uint64_t line = 0; line < 8; line++) {
		d.n.v[CM_INSNS] += 4;
		store(&d, A + line * 32);
	}
	CHECK_EQ(d.n.v[CM_STREAM_MISS], 7);
	CHECK_EQ(d.n.v[CM_MEM_CYCLES], 100 + 7 * 26);
	cm_core_free(&c);
	cm_core_free(&d);
}

/* The count is printed with the others, after stream_miss. */
TEST(wb_is_in_the_output)
{
	struct cm_profile p = machine(true, false);
	struct cm_counts n = { 0 };
	n.v[CM_WB] = 3;
	char buf[2048];
	cm_counts_json(&n, &p, buf, sizeof buf);
	CHECK(strstr(buf, ",\"stream_miss\":0,\"wb\":3,\"mem_cycles\":0,") != NULL);
}

/*
 * A rep stos or movs that fills a line whole owns it unread where the
 * profile has fast strings: no fill latency, the line dirty in L1; a
 * string that stops short of the line's end, an element past the line's
 * start, or a machine without fast strings reads it as any store would.
 */
TEST(a_string_store_that_fills_a_line_whole_owns_it_unread)
{
	struct cm_profile p = machine(true, false);
	p.write.fast_strings = 1;
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	cm_core_store_string(&c, A, A, 4096);              /* the line's first byte, a page to go */
	CHECK(cm_cache_holds_dirty(&c.l1d, A));
	CHECK_EQ(c.n.v[CM_L1D_MISS], 1);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 0);
	cm_core_store_string(&c, A + 8, A + 8, 4088);      /* the same line: a hit */
	CHECK_EQ(c.n.v[CM_L1D_MISS], 1);
	cm_core_store_string(&c, A + 64, A + 64, 16);      /* stops short of the line's end */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 100);
	cm_core_store_string(&c, A + 128 + 8, A + 128 + 8, 4096);   /* not at a line's start */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 200);
	cm_core_free(&c);

	p.write.fast_strings = 0;                          /* the same string, read for ownership */
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	cm_core_store_string(&c, A, A, 4096);
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 100);
	cm_core_free(&c);
}
