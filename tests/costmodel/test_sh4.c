/*
 * test_sh4.c — the cost model on SH-4: the decoder's SH-4 instructions and
 * region marker (decode.h, the bytes GCC and GAS emit for
 * kernel/arch/sh4/include/arch/region.h), the SH7751R's address space and
 * the register stores the model follows (sh4.h), and a profile without an
 * L2 (sh7751r.profile; test_profile.c checks that an L2 may be left out).
 */
#include "check.h"
#include "decode.h"
#include "model.h"
#include "profile.h"
#include "sh4.h"

static struct cm_insn sh4_insn(const uint8_t *b, size_t n)
{
	struct cm_insn in;
	cm_decode_sh4(b, n, &in);
	return in;
}

TEST(sh4_sleep_ldtlb_and_cache_line_operations)
{
	CHECK(sh4_insn((const uint8_t[]){ 0x1B, 0x00 }, 2).kind == CM_INSN_HLT);        /* sleep */
	CHECK(sh4_insn((const uint8_t[]){ 0x38, 0x00 }, 2).kind == CM_INSN_LDTLB);      /* ldtlb */
	struct cm_insn in = sh4_insn((const uint8_t[]){ 0x93, 0x03 }, 2);              /* ocbi @r3 */
	CHECK(in.kind == CM_INSN_CACHE_LINE && in.reg == 3 && in.len == 2);
	CHECK(sh4_insn((const uint8_t[]){ 0xA3, 0x04 }, 2).kind == CM_INSN_CACHE_LINE); /* ocbp @r4 */
	CHECK(sh4_insn((const uint8_t[]){ 0xB3, 0x05 }, 2).kind == CM_INSN_CACHE_LINE); /* ocbwb @r5 */
	in = sh4_insn((const uint8_t[]){ 0x83, 0x06 }, 2);                             /* pref @r6 */
	CHECK(in.kind == CM_INSN_PREF && in.reg == 6);
	CHECK(sh4_insn((const uint8_t[]){ 0x09, 0x00 }, 2).kind == CM_INSN_OTHER);      /* nop */
	CHECK(sh4_insn((const uint8_t[]){ 0x0B, 0x00 }, 2).kind == CM_INSN_OTHER);      /* rts */
	CHECK(sh4_insn((const uint8_t[]){ 0xC3, 0x06 }, 2).kind == CM_INSN_OTHER);      /* movca.l */
	CHECK(sh4_insn((const uint8_t[]){ 0x1B }, 1).kind == CM_INSN_OTHER);            /* too short */
}

TEST(sh4_marker_with_a_nop_or_a_store_in_its_delay_slot)
{
	/* bra +2; nop; .short 0x1007, 0x4b48: region_begin(7) */
	struct cm_insn in = sh4_insn((const uint8_t[]){ 0x02, 0xA0, 0x09, 0x00, 0x07, 0x10, 0x48, 0x4B }, 8);
	CHECK(in.kind == CM_INSN_MARKER && in.marker == 0x4B481007u && !in.arg_store && in.len == 8);
	/* bra +2; mov.l r4, @r1; a sync post (op 5, kind 2) */
	in = sh4_insn((const uint8_t[]){ 0x02, 0xA0, 0x42, 0x21, 0x02, 0x50, 0x48, 0x4B }, 8);
	CHECK(in.kind == CM_INSN_MARKER && in.marker == 0x4B485002u && in.arg_store);
	/* the same branch over words that are not a marker, or another slot */
	CHECK(sh4_insn((const uint8_t[]){ 0x02, 0xA0, 0x09, 0x00, 0x07, 0x10, 0x00, 0x00 }, 8).kind ==
	      CM_INSN_OTHER);
	CHECK(sh4_insn((const uint8_t[]){ 0x02, 0xA0, 0x0B, 0x00, 0x07, 0x10, 0x48, 0x4B }, 8).kind ==
	      CM_INSN_OTHER);
	CHECK(sh4_insn((const uint8_t[]){ 0x03, 0xA0, 0x09, 0x00, 0x07, 0x10, 0x48, 0x4B }, 8).kind ==
	      CM_INSN_OTHER);                                                     /* bra +3 */
	CHECK(sh4_insn((const uint8_t[]){ 0x02, 0xA0 }, 2).kind == CM_INSN_OTHER);      /* the bra alone */
}

TEST(sh4_segments_translate_as_the_manual_says)
{
	CHECK(cm_sh4_translated(0x400000));                  /* U0: a user program */
	CHECK(cm_sh4_translated(0x7ff00000));
	CHECK(!cm_sh4_translated(0x8c800000));               /* P1: the kernel */
	CHECK(!cm_sh4_translated(0xa4000030));               /* P2: the r2d's power-off register */
	CHECK(cm_sh4_translated(0xc0008000));                /* P3: kernel stacks */
	CHECK(!cm_sh4_translated(0xff000000));               /* P4: PTEH */
	CHECK_EQ(cm_sh4_phys(0x8c800000), 0x0c800000);
	CHECK_EQ(cm_sh4_phys(0xac800000), 0x0c800000);
	CHECK_EQ(cm_sh4_phys(0x400000), 0x400000);
	CHECK_EQ(cm_sh4_phys(0xff000010), 0xff000010);
	CHECK(cm_sh4_register(0xff000010) && cm_sh4_register(0xffd80004));
	CHECK(!cm_sh4_register(0xe0000000));                 /* a store queue */
	CHECK(!cm_sh4_register(0x8c000000));
}

static struct cm_page page_4k(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_4K, false }; }

/* The shipped profile, or a failed check. */
static bool sh7751r(struct cm_profile *p)
{
	char err[256] = "";
	if (cm_profile_load("tools/costmodel/profiles/sh7751r.profile", p, err, sizeof err) == 0)
		return true;
	check_fail(__FILE__, __LINE__, "%s", err);
	return false;
}

/* A core on the shipped profile, or a failed check. */
static bool sh7751r_core(struct cm_profile *p, struct cm_core *c)
{
	if (!sh7751r(p))
		return false;
	if (cm_core_init(c, p, NULL, page_4k, NULL))
		return true;
	check_fail(__FILE__, __LINE__, "cm_core_init failed");
	return false;
}

TEST(sh4_itlb_follows_the_asid_and_mmucr_ti)
{
	struct cm_profile p;
	struct cm_core c;
	CHECK(sh7751r_core(&p, &c));
	cm_core_fetch(&c, 0x400000, 0x0d000000);
	cm_core_fetch(&c, 0x400040, 0x0d000040);
	CHECK_EQ(c.n.v[CM_ITLB_MISS], 1);                    /* one page, then a hit */
	CHECK_EQ(c.n.v[CM_WALK_CYCLES], p.walk_cycles);      /* the refill from the UTLB */
	CHECK(!cm_sh4_register_store(&c, CM_SH4_PTEH, CM_SH4_PTEH, 0x400005));   /* ASID 5 */
	cm_core_fetch(&c, 0x400000, 0x0d100000);
	CHECK_EQ(c.n.v[CM_ITLB_MISS], 2);                    /* another address space's page */
	cm_sh4_register_store(&c, CM_SH4_PTEH, CM_SH4_PTEH, 0);
	cm_core_fetch(&c, 0x400000, 0x0d000000);
	CHECK_EQ(c.n.v[CM_ITLB_MISS], 2);                    /* ASID 0's entry stayed */
	cm_sh4_register_store(&c, CM_SH4_MMUCR, CM_SH4_MMUCR, 0x101);        /* no TI: kept */
	cm_core_fetch(&c, 0x400000, 0x0d000000);
	CHECK_EQ(c.n.v[CM_ITLB_MISS], 2);
	cm_sh4_register_store(&c, CM_SH4_MMUCR, CM_SH4_MMUCR, 0x105);        /* TI */
	cm_core_fetch(&c, 0x400000, 0x0d000000);
	CHECK_EQ(c.n.v[CM_ITLB_MISS], 3);
	cm_core_free(&c);
}

TEST(sh4_power_off_store_ends_the_run)
{
	struct cm_profile p;
	struct cm_core c;
	CHECK(sh7751r_core(&p, &c));
	CHECK(cm_sh4_register_store(&c, 0xa4000030, 0x04000030, 1));
	CHECK(!cm_sh4_register_store(&c, 0xffd80004, 0x1fd80004, 1));       /* TMU TSTR */
	cm_core_free(&c);
}

TEST(sh7751r_has_no_l2_and_misses_go_to_memory)
{
	struct cm_profile p;
	struct cm_core c;
	CHECK(sh7751r(&p));
	CHECK_EQ(p.l2.size, 0);
	CHECK_EQ(p.l1i.size, 8 * 1024);
	CHECK_EQ(p.l1d.size, 16 * 1024);
	CHECK_EQ(p.l1d.ways, 1);
	CHECK_EQ(p.itlb.entries, 4);
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	cm_core_data_untranslated(&c, 0x0c800000);
	cm_core_data_untranslated(&c, 0x0c800004);                          /* the same line */
	cm_core_data_untranslated(&c, 0x0c800000 + 16 * 1024);              /* direct mapped: evicts it */
	cm_core_data_untranslated(&c, 0x0c800000);
	CHECK_EQ(c.n.v[CM_L1D_MISS], 3);
	CHECK_EQ(c.n.v[CM_DTLB_MISS], 0);                                   /* no data TLB on SH-4 */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 3 * (p.mem_latency - p.l1d.latency));
	cm_core_fetch_untranslated(&c, 0x0c800100);
	CHECK_EQ(c.n.v[CM_L1I_MISS], 1);
	CHECK_EQ(c.n.v[CM_ITLB_MISS], 0);                                   /* P1 code: no ITLB */
	cm_core_mmio_untranslated(&c, true);
	CHECK_EQ(c.n.v[CM_IO_CYCLES], p.io.mmio_write);
	cm_core_empty_caches(&c, true);
	cm_core_free(&c);
}

/* The issue group of one 16-bit instruction. */
static enum cm_sh4_group group(uint16_t op)
{
	return cm_sh4_group(op);
}

TEST(sh4_instructions_fall_in_the_manuals_issue_groups)
{
	CHECK_EQ(group(0x6213), CM_SH4_MT);      /* mov r1, r2 */
	CHECK_EQ(group(0x0009), CM_SH4_MT);      /* nop */
	CHECK_EQ(group(0x2228), CM_SH4_MT);      /* tst r2, r2 */
	CHECK_EQ(group(0x4111), CM_SH4_MT);      /* cmp/pz r1 */
	CHECK_EQ(group(0x8801), CM_SH4_MT);      /* cmp/eq #1, r0 */
	CHECK_EQ(group(0x312C), CM_SH4_EX);      /* add r2, r1 */
	CHECK_EQ(group(0x7001), CM_SH4_EX);      /* add #1, r0 */
	CHECK_EQ(group(0x4029), CM_SH4_EX);      /* shlr16 r0 */
	CHECK_EQ(group(0x203A), CM_SH4_EX);      /* xor r3, r0 */
	CHECK_EQ(group(0x0129), CM_SH4_EX);      /* movt r1 */
	CHECK_EQ(group(0xE201), CM_SH4_EX);      /* mov #1, r2 */
	CHECK_EQ(group(0xC701), CM_SH4_EX);      /* mova @(4, pc), r0 */
	CHECK_EQ(group(0x4052), CM_SH4_CO);      /* sts.l fpul, @-r0 */
	CHECK_EQ(group(0xFBFD), CM_SH4_FE);      /* frchg */
	CHECK_EQ(group(0x6012), CM_SH4_LS);      /* mov.l @r1, r0 */
	CHECK_EQ(group(0x2102), CM_SH4_LS);      /* mov.l r0, @r1 */
	CHECK_EQ(group(0xD001), CM_SH4_LS);      /* mov.l @(4, pc), r0 */
	CHECK_EQ(group(0x022E), CM_SH4_LS);      /* mov.l @(r0, r2), r2 */
	CHECK_EQ(group(0x0693), CM_SH4_LS);      /* ocbi @r6 */
	CHECK_EQ(group(0xA002), CM_SH4_BR);      /* bra */
	CHECK_EQ(group(0x8901), CM_SH4_BR);      /* bt */
	CHECK_EQ(group(0x8F01), CM_SH4_BR);      /* bf/s */
	CHECK_EQ(group(0x000B), CM_SH4_CO);      /* rts */
	CHECK_EQ(group(0x002B), CM_SH4_CO);      /* rte */
	CHECK_EQ(group(0x0038), CM_SH4_CO);      /* ldtlb */
	CHECK_EQ(group(0x420B), CM_SH4_CO);      /* jsr @r2 */
	CHECK_EQ(group(0x0202), CM_SH4_CO);      /* stc sr, r2 */
	CHECK_EQ(group(0x410E), CM_SH4_CO);      /* ldc r1, sr */
	CHECK_EQ(group(0xC300), CM_SH4_CO);      /* trapa #0 */
	CHECK_EQ(group(0x0217), CM_SH4_CO);      /* mul.l r1, r2 */
	CHECK_EQ(group(0xF12C), CM_SH4_LS);      /* fmov fr2, fr1 */
	CHECK_EQ(group(0xF120), CM_SH4_FE);      /* fadd fr2, fr1 */
}

TEST(sh4_different_groups_pair_and_co_issues_alone)
{
	CHECK(cm_sh4_pairs(CM_SH4_LS, CM_SH4_EX) && cm_sh4_pairs(CM_SH4_EX, CM_SH4_LS));
	CHECK(cm_sh4_pairs(CM_SH4_EX, CM_SH4_BR) && cm_sh4_pairs(CM_SH4_BR, CM_SH4_MT));
	CHECK(cm_sh4_pairs(CM_SH4_MT, CM_SH4_MT));                      /* MT pairs with MT */
	CHECK(!cm_sh4_pairs(CM_SH4_EX, CM_SH4_EX) && !cm_sh4_pairs(CM_SH4_LS, CM_SH4_LS));
	CHECK(!cm_sh4_pairs(CM_SH4_BR, CM_SH4_BR) && !cm_sh4_pairs(CM_SH4_FE, CM_SH4_FE));
	CHECK(!cm_sh4_pairs(CM_SH4_CO, CM_SH4_MT) && !cm_sh4_pairs(CM_SH4_MT, CM_SH4_CO));
}

TEST(sh4_issue_pairs_in_order_and_never_three_in_a_cycle)
{
	/* The miss handler's opening: mov.l @(pc), r0; mov.l @r0, r1; mov.l
	 * @(pc), r0; cmp/pz r1; bt; mov.l @(pc), r0; then three moves. */
	const uint16_t run[] = { 0xD00D, 0x6102, 0xD00F, 0x4111, 0x8900, 0xD00E,
				 0x6213, 0x6323, 0x6433, 0x312C, 0x4029 };
	const bool paired[] = { false, false, false, true, false, true,
				false, true, false, true, false };
	int slot = -1;
	unsigned pairs = 0;
	for (size_t i = 0; i < sizeof run / sizeof run[0]; i++) {
		bool p = cm_sh4_issue(&slot, run[i]);
		CHECK(p == paired[i], "instruction %zu (0x%04x): paired %d", i, run[i], p);
		pairs += p;
	}
	CHECK_EQ(pairs, 4);
	slot = -1;
	CHECK(!cm_sh4_issue(&slot, 0x000B) && !cm_sh4_issue(&slot, 0x0009));  /* rts; nop: alone */
}

TEST(paired_instructions_cost_no_cycle_of_their_own)
{
	struct cm_profile p;
	struct cm_core c;
	CHECK(sh7751r_core(&p, &c));
	c.n.v[CM_INSNS] = 10;
	c.n.v[CM_PAIRED] = 4;
	CHECK_EQ(cm_cycles(&c.n, &p), 6);
	cm_core_free(&c);
}

TEST(handler_range_work_is_counted_apart)
{
	struct cm_profile p;
	struct cm_core c;
	CHECK(sh7751r_core(&p, &c));
	c.n.v[CM_INSNS] = 100;                              /* outside: 100 instructions */
	cm_core_fetch_untranslated(&c, 0x0c800000);        /* an I-cache miss outside */
	cm_core_in_handler(&c, true);
	c.n.v[CM_INSNS] += 20;
	c.n.v[CM_PAIRED] += 5;
	cm_core_fetch_untranslated(&c, 0x0c800400);        /* the handler's code */
	cm_core_data_untranslated(&c, 0x0c900000);         /* and its data */
	cm_core_mmio_untranslated(&c, true);               /* PTEL */
	CHECK_EQ(c.n.v[CM_HANDLER_INSNS], 0);              /* complete only once it leaves */
	cm_core_in_handler(&c, true);                      /* still in: nothing changes */
	cm_core_in_handler(&c, false);
	uint32_t miss = p.mem_latency - p.l1i.latency, dmiss = p.mem_latency - p.l1d.latency;
	CHECK_EQ(c.n.v[CM_HANDLER_INSNS], 20);
	CHECK_EQ(c.n.v[CM_HANDLER_PAIRED], 5);
	CHECK_EQ(c.n.v[CM_HANDLER_L1I_CYCLES], miss);
	CHECK_EQ(c.n.v[CM_HANDLER_MEM_CYCLES], miss + dmiss);
	CHECK_EQ(c.n.v[CM_HANDLER_CYCLES], 15 + miss + dmiss + p.io.mmio_write);
	CHECK_EQ(c.n.v[CM_L1I_CYCLES], 2 * miss);          /* both fetches, in the totals */
	CHECK_EQ(cm_cycles(&c.n, &p), 115 + 2 * miss + dmiss + p.io.mmio_write);
	cm_core_free(&c);
}
