/*
 * test_io.c — device register accesses in the cost model: the decoder
 * finds the port I/O instructions (decode.h), every shipped profile
 * prices them (profile.h), and the core charges each access its kind's
 * price and counts it (model.h).
 */
#include "check.h"
#include "decode.h"
#include "model.h"
#include "profile.h"

static enum cm_insn_kind kind_of(const uint8_t *b, size_t n)
{
	struct cm_insn in;
	cm_decode(b, n, &in);
	return in.kind;
}

TEST(in_and_out_in_every_form)
{
	CHECK(kind_of((const uint8_t[]){ 0xEC }, 1) == CM_INSN_PORT_IN);           /* in (%dx), %al */
	CHECK(kind_of((const uint8_t[]){ 0xED }, 1) == CM_INSN_PORT_IN);           /* in (%dx), %eax */
	CHECK(kind_of((const uint8_t[]){ 0x66, 0xED }, 2) == CM_INSN_PORT_IN);     /* in (%dx), %ax */
	CHECK(kind_of((const uint8_t[]){ 0xE4, 0x60 }, 2) == CM_INSN_PORT_IN);     /* in $0x60, %al */
	CHECK(kind_of((const uint8_t[]){ 0xE5, 0x71 }, 2) == CM_INSN_PORT_IN);
	CHECK(kind_of((const uint8_t[]){ 0xEE }, 1) == CM_INSN_PORT_OUT);          /* out %al, (%dx) */
	CHECK(kind_of((const uint8_t[]){ 0xEF }, 1) == CM_INSN_PORT_OUT);
	CHECK(kind_of((const uint8_t[]){ 0xE6, 0x80 }, 2) == CM_INSN_PORT_OUT);    /* out %al, $0x80 */
	CHECK(kind_of((const uint8_t[]){ 0xE7, 0x80 }, 2) == CM_INSN_PORT_OUT);
}

TEST(string_port_io_with_and_without_rep)
{
	CHECK(kind_of((const uint8_t[]){ 0x6C }, 1) == CM_INSN_PORT_INS);
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0x6D }, 2) == CM_INSN_PORT_INS);    /* rep insl */
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0x66, 0x6D }, 3) == CM_INSN_PORT_INS);
	CHECK(kind_of((const uint8_t[]){ 0x6E }, 1) == CM_INSN_PORT_OUTS);
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0x48, 0x6F }, 3) == CM_INSN_PORT_OUTS);   /* REX.W ignored */
}

TEST(port_io_look_alikes_are_left_alone)
{
	CHECK(kind_of((const uint8_t[]){ 0xE4 }, 1) == CM_INSN_OTHER);             /* port byte missing */
	CHECK(kind_of((const uint8_t[]){ 0xEC, 0x90 }, 2) == CM_INSN_OTHER);       /* not one instruction */
	CHECK(kind_of((const uint8_t[]){ 0xE8, 0, 0, 0, 0 }, 5) == CM_INSN_OTHER); /* call */
	CHECK(kind_of((const uint8_t[]){ 0x0F, 0xEC, 0xC1 }, 3) == CM_INSN_OTHER); /* paddsb: 0F map */
	CHECK(kind_of((const uint8_t[]){ 0xE3, 0x10 }, 2) == CM_INSN_OTHER);       /* jrcxz */
	CHECK(kind_of((const uint8_t[]){ 0x6B, 0xC0, 0x03 }, 3) == CM_INSN_OTHER); /* imul */
}

/* The shipped profile NAME into *p; false (and the case failed) if it does not load. */
static bool shipped(const char *name, struct cm_profile *p)
{
	char path[128], err[256] = "";
	snprintf(path, sizeof path, "tools/costmodel/profiles/%s.profile", name);
	if (cm_profile_load(path, p, err, sizeof err) == 0 && strcmp(p->name, name) == 0)
		return true;
	check_fail(__FILE__, __LINE__, "%s: %s", name, err);
	return false;
}

TEST(every_shipped_profile_prices_device_access)
{
	static const char *const names[] = { "modern", "p4", "pentium166", "pentium200-fpm",
					     "pentium200-edo", "pentiumpro200", "pentium2-450" };
	struct cm_profile p;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && shipped(names[i], &p); i++) {
		/* A bus transaction costs more than a memory access served by DRAM... */
		CHECK(p.io.port_read > p.mem_latency && p.io.mmio_read > p.mem_latency);
		/* ...a non-posted port write about as much as a read, a posted MMIO write far less. */
		CHECK(p.io.port_write > p.io.port_read / 2 && p.io.port_write <= p.io.port_read);
		CHECK(p.io.mmio_write > 0 && p.io.mmio_write < p.io.mmio_read / 4);
		CHECK(p.io.lapic > 0 && p.io.lapic < p.io.mmio_read);
	}
}

TEST(pentium2_450_is_paper_000s_machine)
{
	struct cm_profile p;
	CHECK(shipped("pentium2-450", &p));
	CHECK_EQ(p.l1i.size, 16 * 1024);
	CHECK_EQ(p.l1d.size, 16 * 1024);
	CHECK_EQ(p.l2.size, 512 * 1024);
	CHECK_EQ(p.l3.size, 0);
	CHECK_EQ(p.io.port_read, 243);                 /* 540 ns at 450 MHz */
}

TEST(an_io_key_missing_is_named)
{
	struct cm_profile p;
	char err[256] = "", text[16384];
	FILE *f = fopen("tools/costmodel/profiles/pentium2-450.profile", "r");
	CHECK(f != NULL);
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	char *at = strstr(text, "io.lapic_cycles = ");
	CHECK(at != NULL);
	*at = '#';                                     /* comment the key out */
	CHECK_EQ(cm_profile_parse(text, "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x: missing key 'io.lapic_cycles'");
}

static struct cm_page page_4k(uint64_t va, void *ctx) { return (struct cm_page){ CM_PAGE_4K, false }; }

/* Tiny caches and TLBs, and a distinct price for every kind of access. */
static struct cm_profile priced(void)
{
	struct cm_profile p = { .name = "io", .base_cpi_milli = 1000 };
	p.itlb = p.dtlb = (struct cm_tlb_geom){ 4, 2 };
	p.walk_cycles = 50;
	p.l1i = p.l1d = (struct cm_cache_geom){ 1024, 2, 64, 1 };
	p.l2 = (struct cm_cache_geom){ 4096, 4, 64, 10 };
	p.mem_latency = 100;
	p.io = (struct cm_io_costs){ .port_read = 1000, .port_write = 900, .mmio_read = 800,
				     .mmio_write = 20, .lapic = 7 };
	return p;
}

TEST(each_access_pays_its_kinds_price)
{
	struct cm_profile p = priced();
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	cm_core_io(&c, CM_IO_PORT_READ, 1);
	cm_core_io(&c, CM_IO_PORT_WRITE, 3);           /* rep outs of three elements */
	CHECK_EQ(c.n.v[CM_IO_READS], 1);
	CHECK_EQ(c.n.v[CM_IO_WRITES], 3);
	CHECK_EQ(c.n.v[CM_IO_CYCLES], 1000 + 3 * 900);
	CHECK_EQ(c.n.v[CM_WALKS], 0);                   /* a port has no address to translate */
	cm_core_mmio(&c, 0xffff800000e00000ull, 0xfebc0000ull, false);   /* a NIC register read */
	cm_core_mmio(&c, 0xffff800000e00004ull, 0xfebc0004ull, true);    /* ...and a posted write */
	CHECK_EQ(c.n.v[CM_IO_READS], 2);
	CHECK_EQ(c.n.v[CM_IO_WRITES], 4);
	CHECK_EQ(c.n.v[CM_IO_CYCLES], 3700 + 800 + 20);
	CHECK_EQ(c.n.v[CM_WALKS], 1);                   /* MMIO is translated like any access */
	CHECK_EQ(c.n.v[CM_L1D_MISS], 0);                /* ...but skips the caches */
	CHECK_EQ(c.n.v[CM_MEM_CYCLES], 0);
	cm_core_mmio(&c, 0xffff800000f00000ull, CM_LAPIC_BASE + 0xB0, true);   /* EOI */
	cm_core_mmio(&c, 0xffff800000f00000ull, CM_LAPIC_BASE + 0x20, false);  /* APIC id */
	CHECK_EQ(c.n.v[CM_IO_CYCLES], 4520 + 7 + 7);
	CHECK_EQ(c.n.v[CM_IO_READS], 3);
	CHECK_EQ(c.n.v[CM_IO_WRITES], 5);
	cm_core_mmio(&c, 0, CM_LAPIC_BASE + CM_LAPIC_SIZE, false);   /* the page after: a device */
	CHECK_EQ(c.n.v[CM_IO_CYCLES], 4534 + 800);
	cm_core_free(&c);
}

TEST(io_cycles_are_in_the_formula_and_the_output)
{
	struct cm_profile p = priced();
	struct cm_core c;
	CHECK(cm_core_init(&c, &p, NULL, page_4k, NULL));
	c.n.v[CM_INSNS] = 10;
	cm_core_io(&c, CM_IO_PORT_READ, 2);
	CHECK_EQ(cm_cycles(&c.n, &p), 10 + 2000);
	char json[1024];
	cm_counts_json(&c.n, &p, json, sizeof json);
	CHECK(strstr(json, "\"cycles\":2010,") != NULL);
	CHECK(strstr(json, ",\"io_reads\":2,\"io_writes\":0,\"io_cycles\":2000") != NULL);
	cm_core_free(&c);
}
