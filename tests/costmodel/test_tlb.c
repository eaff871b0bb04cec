/*
 * test_tlb.c — the TLB model (tlb.h, and model.h's CR3/CR4/INVPCID rules)
 * on address streams whose hits and misses are known by hand.
 */
#include "check.h"
#include "model.h"
#include "tlb.h"

static struct cm_page page_4k(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_4K, false }; }

/* Global for the upper half, as Hako maps its kernel with CR4.PGE on. */
static struct cm_page page_kernel_global(uint64_t va, void *ctx)
{
	return (struct cm_page){ CM_PAGE_4K, (va >> 63) != 0 };
}

static struct cm_page page_2m(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_2M, false }; }

#define PAGE(n) ((uint64_t)(n) << 12)
#define KPAGE(n) (0xffff800000000000ull + PAGE(n))

/* A profile with tiny TLBs: L1 2 sets x 2 ways, STLB 8 entries 2-way. */
static struct cm_profile tiny(uint32_t stlb_entries)
{
	struct cm_profile p = { .name = "tiny", .base_cpi_milli = 1000 };
	p.itlb = p.dtlb = (struct cm_tlb_geom){ 4, 2 };
	p.stlb = (struct cm_tlb_geom){ stlb_entries, 2 };
	p.stlb_hit_cycles = 7;
	p.walk_cycles = 50;
	p.l1i = p.l1d = (struct cm_cache_geom){ 1024, 2, 64, 1 };
	p.l2 = (struct cm_cache_geom){ 4096, 4, 64, 10 };
	p.mem_latency = 100;
	return p;
}

TEST(lru_evicts_least_recent_in_a_two_way_set)
{
	struct cm_tlb t;
	CHECK(cm_tlb_init(&t, &(struct cm_tlb_geom){ 4, 2 }));
	/* Pages 0, 2, 4 share set 0 of 2 sets. */
	struct cm_page p4k = { CM_PAGE_4K, false };
	CHECK(!cm_tlb_lookup(&t, PAGE(0), 0));
	cm_tlb_fill(&t, PAGE(0), 0, p4k);
	CHECK(!cm_tlb_lookup(&t, PAGE(2), 0));
	cm_tlb_fill(&t, PAGE(2), 0, p4k);
	CHECK(cm_tlb_lookup(&t, PAGE(0), 0));     /* 0 is now the most recent */
	CHECK(!cm_tlb_lookup(&t, PAGE(4), 0));
	cm_tlb_fill(&t, PAGE(4), 0, p4k);         /* evicts 2, not 0 */
	CHECK(cm_tlb_lookup(&t, PAGE(0), 0));
	CHECK(!cm_tlb_lookup(&t, PAGE(2), 0));
	CHECK(cm_tlb_lookup(&t, PAGE(1), 0) == false);   /* set 1 untouched and empty */
	CHECK_EQ(t.hits, 2);
	CHECK_EQ(t.misses, 5);
	cm_tlb_free(&t);
}

TEST(capacity_pages_then_one_more)
{
	struct cm_profile p = tiny(0);
	struct cm_tlbs t;
	CHECK(cm_tlbs_init(&t, &p));
	/* 4 pages fill the 4-entry dTLB; a second pass hits all of them. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 4; i++)
			cm_tlbs_translate(&t, false, PAGE(i), 0, page_4k, NULL);
	CHECK_EQ(t.dtlb.misses, 4);
	CHECK_EQ(t.dtlb.hits, 4);
	/* Page 4 evicts the least recent of its set (page 0); page 0 then misses. */
	CHECK_EQ(cm_tlbs_translate(&t, false, PAGE(4), 0, page_4k, NULL), CM_TLB_WALK);
	CHECK_EQ(cm_tlbs_translate(&t, false, PAGE(0), 0, page_4k, NULL), CM_TLB_WALK);
	CHECK_EQ(cm_tlbs_translate(&t, false, PAGE(3), 0, page_4k, NULL), CM_TLB_L1);
	CHECK_EQ(t.itlb.misses + t.itlb.hits, 0);
	cm_tlbs_free(&t);
}

TEST(stlb_catches_an_l1_eviction)
{
	struct cm_profile p = tiny(8);
	struct cm_tlbs t;
	CHECK(cm_tlbs_init(&t, &p));
	for (int i = 0; i < 5; i++)
		CHECK_EQ(cm_tlbs_translate(&t, false, PAGE(i), 0, page_4k, NULL), CM_TLB_WALK);
	/* Page 0 left the L1 dTLB but not the 8-entry STLB. */
	CHECK_EQ(cm_tlbs_translate(&t, false, PAGE(0), 0, page_4k, NULL), CM_TLB_STLB);
	/* The iTLB is separate: a fetch of page 1 misses it but hits the STLB. */
	CHECK_EQ(cm_tlbs_translate(&t, true, PAGE(1), 0, page_4k, NULL), CM_TLB_STLB);
	cm_tlbs_free(&t);
}

TEST(cr3_load_drops_nonglobal_entries_and_keeps_global_ones)
{
	struct cm_profile p = tiny(8);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_kernel_global, NULL));
	cm_core_write_cr4(&c, CM_CR4_PGE);
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	cm_core_data(&c, KPAGE(2), PAGE(2), false);
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 2);
	cm_core_write_cr3(&c, 0x5000);
	cm_core_data(&c, KPAGE(2), PAGE(2), false);     /* global: survives */
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 2);
	cm_core_data(&c, PAGE(1), PAGE(1), false);      /* user: gone from every level */
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 3);
	CHECK_EQ(c.n.v[CM_WALKS], 3);
	CHECK_EQ(c.n.v[CM_WALK_CYCLES], 3 * 50);
	cm_core_free(&c);
}

TEST(pge_toggle_drops_global_entries_too)
{
	struct cm_profile p = tiny(8);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_kernel_global, NULL));
	cm_core_write_cr4(&c, CM_CR4_PGE);
	cm_core_data(&c, KPAGE(2), PAGE(2), false);
	cm_core_write_cr4(&c, CM_CR4_PGE);              /* unchanged: nothing goes */
	CHECK_EQ(cm_tlb_count(&c.tlbs.dtlb), 1);
	cm_core_write_cr4(&c, 0);
	CHECK_EQ(cm_tlb_count(&c.tlbs.dtlb), 0);
	CHECK_EQ(cm_tlb_count(&c.tlbs.stlb), 0);
	cm_core_free(&c);
}

TEST(invlpg_drops_one_page)
{
	struct cm_profile p = tiny(8);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_kernel_global, NULL));
	cm_core_write_cr4(&c, CM_CR4_PGE);
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	cm_core_data(&c, PAGE(2), PAGE(2), false);
	cm_core_data(&c, KPAGE(3), PAGE(3), false);
	cm_core_invlpg(&c, PAGE(1) + 0x123);
	cm_core_invlpg(&c, KPAGE(3));                   /* a global page goes too */
	CHECK_EQ(cm_tlb_count(&c.tlbs.dtlb), 1);
	cm_core_data(&c, PAGE(2), PAGE(2), false);
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 3);
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 4);
	CHECK_EQ(c.n.v[CM_STLB_MISS], 4);               /* not kept in the STLB either */
	cm_core_free(&c);
}

TEST(pcid_entries_survive_a_noflush_cr3_switch)
{
	struct cm_profile p = tiny(8);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	cm_core_write_cr4(&c, CM_CR4_PCIDE);
	cm_core_write_cr3(&c, 0x5000 | 1);              /* PCID 1 */
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	cm_core_write_cr3(&c, 0x6000 | 2 | CM_CR3_NOFLUSH);
	CHECK_EQ(c.pcid, 2);
	cm_core_data(&c, PAGE(1), PAGE(9), false);      /* PCID 2 has no entry for page 1 */
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 2);
	cm_core_write_cr3(&c, 0x5000 | 1 | CM_CR3_NOFLUSH);
	cm_core_data(&c, PAGE(1), PAGE(1), false);      /* PCID 1's entry is still there */
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 2);
	cm_core_write_cr3(&c, 0x5000 | 1);              /* without the bit: PCID 1 is flushed */
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 3);
	cm_core_write_cr3(&c, 0x6000 | 2 | CM_CR3_NOFLUSH);
	cm_core_data(&c, PAGE(1), PAGE(9), false);      /* ...but not PCID 2 */
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 3);
	cm_core_free(&c);
}

TEST(invpcid_types)
{
	struct cm_profile p = tiny(8);
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_kernel_global, NULL));
	cm_core_write_cr4(&c, CM_CR4_PCIDE | CM_CR4_PGE);
	cm_core_write_cr3(&c, 1);
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	cm_core_data(&c, KPAGE(2), PAGE(2), false);
	cm_core_invpcid(&c, 0, 1, PAGE(1));             /* one address of PCID 1 */
	CHECK_EQ(cm_tlb_count(&c.tlbs.stlb), 1);
	cm_core_data(&c, PAGE(1), PAGE(1), false);
	cm_core_invpcid(&c, 3, 0, 0);                   /* all but globals */
	CHECK_EQ(cm_tlb_count(&c.tlbs.stlb), 1);
	cm_core_invpcid(&c, 2, 0, 0);                   /* everything */
	CHECK_EQ(cm_tlb_count(&c.tlbs.stlb), 0);
	cm_core_free(&c);
}

TEST(a_2mib_entry_covers_its_whole_page)
{
	struct cm_profile p = tiny(0);
	struct cm_tlbs t;
	CHECK(cm_tlbs_init(&t, &p));
	CHECK_EQ(cm_tlbs_translate(&t, false, 0x200000, 0, page_2m, NULL), CM_TLB_WALK);
	CHECK_EQ(cm_tlbs_translate(&t, false, 0x3ff000, 0, page_2m, NULL), CM_TLB_L1);
	CHECK_EQ(cm_tlbs_translate(&t, false, 0x400000, 0, page_2m, NULL), CM_TLB_WALK);
	cm_tlbs_flush_page(&t, 0x2ab000, 0, true);     /* one invlpg drops the 2 MiB entry */
	CHECK_EQ(cm_tlbs_translate(&t, false, 0x200000, 0, page_2m, NULL), CM_TLB_WALK);
	cm_tlbs_free(&t);
}

TEST(cycle_formula)
{
	struct cm_profile p = tiny(8);
	p.base_cpi_milli = 1500;
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	c.n.v[CM_INSNS] = 10;
	cm_core_data(&c, PAGE(1), PAGE(1), false);      /* walk 50; memory 100 - 1 */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 99);
	CHECK_EQ(cm_cycles(&c.n, &p), 15 + 50 + 99);
	p.io.mmio_read = 300;
	cm_core_data(&c, PAGE(1) + 64, PAGE(1) + 64, true);   /* MMIO: no cache, the io price */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 99);
	CHECK_EQ(c.n.v[CM_IO_CYCLES], 300);
	CHECK_EQ(c.n.v[CM_L1D_MISS], 1);
	cm_core_free(&c);
}
