/*
 * test_cache.c — the cache model (cache.h): set mapping, LRU, the
 * L1 -> L2 -> L3 walk and emptying, on streams counted by hand.
 */
#include "check.h"
#include "cache.h"
#include "model.h"

static struct cm_page page_4k(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_4K, false }; }

TEST(set_index_is_line_number_modulo_sets)
{
	struct cm_cache c;
	/* 1 KiB, 2-way, 64-byte lines: 8 sets. */
	CHECK(cm_cache_init(&c, &(struct cm_cache_geom){ 1024, 2, 64, 1 }));
	CHECK_EQ(c.sets, 8);
	CHECK_EQ(cm_cache_set(&c, 0), 0);
	CHECK_EQ(cm_cache_set(&c, 63), 0);
	CHECK_EQ(cm_cache_set(&c, 64), 1);
	CHECK_EQ(cm_cache_set(&c, 7 * 64 + 5), 7);
	CHECK_EQ(cm_cache_set(&c, 8 * 64), 0);
	cm_cache_free(&c);
	/* Sets need not be a power of two: 3 sets of 4 ways of 128 bytes. */
	CHECK(cm_cache_init(&c, &(struct cm_cache_geom){ 1536, 4, 128, 1 }));
	CHECK_EQ(c.sets, 3);
	CHECK_EQ(cm_cache_set(&c, 4 * 128), 1);
	cm_cache_free(&c);
}

TEST(lru_in_a_two_way_set)
{
	struct cm_cache c;
	CHECK(cm_cache_init(&c, &(struct cm_cache_geom){ 1024, 2, 64, 1 }));
	uint64_t a = 0, b = 512, d = 1024;   /* all in set 0 */
	CHECK(!cm_cache_access(&c, a));
	CHECK(!cm_cache_access(&c, b));
	CHECK(cm_cache_access(&c, a + 8));   /* same line as a */
	CHECK(!cm_cache_access(&c, d));      /* evicts b, the least recent */
	CHECK(cm_cache_holds(&c, a));
	CHECK(!cm_cache_holds(&c, b));
	CHECK(cm_cache_access(&c, d));
	CHECK_EQ(c.hits, 2);
	CHECK_EQ(c.misses, 3);
	cm_cache_free(&c);
}

TEST(capacity_lines_then_one_more)
{
	struct cm_cache c;
	CHECK(cm_cache_init(&c, &(struct cm_cache_geom){ 1024, 2, 64, 1 }));
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t a = 0; a < 1024; a += 64)
			cm_cache_access(&c, a);
	CHECK_EQ(c.misses, 16);
	CHECK_EQ(c.hits, 16);
	cm_cache_access(&c, 1024);           /* set 0 again: line 0 goes */
	CHECK(!cm_cache_holds(&c, 0));
	CHECK(cm_cache_holds(&c, 512));
	cm_cache_free(&c);
}

TEST(hierarchy_fills_every_level_on_a_miss)
{
	struct cm_cache l1, l2, l3;
	CHECK(cm_cache_init(&l1, &(struct cm_cache_geom){ 1024, 2, 64, 1 }));
	CHECK(cm_cache_init(&l2, &(struct cm_cache_geom){ 4096, 4, 64, 10 }));
	CHECK(cm_cache_init(&l3, &(struct cm_cache_geom){ 16384, 4, 64, 40 }));
	CHECK_EQ(cm_hier_access(&l1, &l2, &l3, 0x1000, NULL), CM_MEM);
	CHECK_EQ(cm_hier_access(&l1, &l2, &l3, 0x1000, NULL), CM_L1);
	/* Push 0x1000 out of L1 (set 0: two more lines), keep it in L2. */
	cm_hier_access(&l1, &l2, &l3, 0x1000 + 512, NULL);
	cm_hier_access(&l1, &l2, &l3, 0x1000 + 1024, NULL);
	CHECK_EQ(cm_hier_access(&l1, &l2, &l3, 0x1000, NULL), CM_L2);
	CHECK_EQ(cm_hier_access(&l1, &l2, NULL, 0x9000, NULL), CM_MEM);
	CHECK_EQ(l3.misses, 3);
	cm_cache_free(&l1);
	cm_cache_free(&l2);
	cm_cache_free(&l3);
}

TEST(wbinvd_empties_every_level)
{
	struct cm_profile p = { .name = "t", .base_cpi_milli = 1000 };
	p.itlb = p.dtlb = (struct cm_tlb_geom){ 4, 2 };
	p.l1i = p.l1d = (struct cm_cache_geom){ 1024, 2, 64, 1 };
	p.l2 = (struct cm_cache_geom){ 4096, 4, 64, 10 };
	p.l3 = (struct cm_cache_geom){ 16384, 4, 64, 40 };
	p.mem_latency = 100;
	struct cm_cache l3;
	struct cm_core c;
	CHECK(cm_cache_init(&l3, &p.l3));
	CHECK(cm_core_init(&c, &p, &l3, page_4k, NULL));
	cm_core_data(&c, 0x1000, 0x1000, false);
	cm_core_fetch(&c, 0x2000, 0x2000);
	cm_core_data(&c, 0x1000, 0x1000, false);
	CHECK_EQ(c.n.v[CM_L1D_MISS], 1);
	CHECK_EQ(c.n.v[CM_L3_MISS], 2);
	cm_core_empty_caches(&c, true);
	CHECK(!cm_cache_holds(&c.l1d, 0x1000) && !cm_cache_holds(&c.l2, 0x1000) && !cm_cache_holds(&l3, 0x1000));
	CHECK(!cm_cache_holds(&c.l1i, 0x2000));
	cm_core_data(&c, 0x1000, 0x1000, false);
	CHECK_EQ(c.n.v[CM_L1D_MISS], 2);
	CHECK_EQ(c.n.v[CM_L3_MISS], 3);
	/* Three trips to memory: 99 each (100 - L1d's 1); the fetch pays 100 - L1i's 1. */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 3 * 99);
	cm_core_free(&c);
	cm_cache_free(&l3);
}

/*
 * The same data line pushed out of L1 and read again: with the L2 on it
 * comes from the L2; with l2=off (cm_profile_disable_l2) from memory, and
 * a page walk pays memory's latency for its two table reads.
 */
TEST(l2_off_sends_l1_misses_to_memory)
{
	for (int off = 0; off < 2; off++) {
		struct cm_profile p = { .name = "t", .base_cpi_milli = 1000 };
		p.itlb = p.dtlb = (struct cm_tlb_geom){ 4, 2 };
		p.l1i = p.l1d = (struct cm_cache_geom){ 1024, 2, 64, 1 };
		p.l2 = (struct cm_cache_geom){ 4096, 4, 64, 10 };
		p.mem_latency = 100;
		p.walk_cycles = 25;
		if (off)
			CHECK_EQ(cm_profile_disable_l2(&p), 0);
		struct cm_core c;
		CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
		cm_core_data(&c, 0x1000, 0x1000, false);
		cm_core_data(&c, 0x1000 + 512, 0x1000 + 512, false);
		cm_core_data(&c, 0x1000 + 1024, 0x1000 + 1024, false);
		cm_core_data(&c, 0x1000, 0x1000, false);   /* out of L1 by now */
		CHECK_EQ(c.n.v[CM_L1D_MISS], 4);
		CHECK_EQ(c.n.v[CM_L2_MISS], off ? 4 : 3);
		/* 99 per trip to memory (100 - L1d's 1), 9 for the L2 hit. */
		CHECK_EQ(c.n.v[CM_MEM_CYCLES], off ? 4 * 99 : 3 * 99 + 9);
		/* One walk (one page): 25, or 25 + 2 x (100 - 10) with the L2 off. */
		CHECK_EQ(c.n.v[CM_WALKS], 1);
		CHECK_EQ(c.n.v[CM_WALK_CYCLES], off ? 25 + 2 * 90 : 25);
		CHECK_EQ(strcmp(p.name, off ? "t:l2off" : "t"), 0);
		cm_core_free(&c);
	}
}
