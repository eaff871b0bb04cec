/*
 * test_profile.c — reading machine profiles (profile.h): the shipped ones
 * parse, and every kind of mistake gives an error that names it.  Also
 * the small decoder (decode.h) and the region bookkeeping (regions.h),
 * which the plugin's profile-driven output depends on.
 */
#include "check.h"
#include "decode.h"
#include "profile.h"
#include "regions.h"
#include "../../kernel/uapi/hako_region.h"

static const char good[] =
	"# a comment\n"
	"name = t\n"
	"base_cpi = 1.25\n"
	"itlb.entries = 64\nitlb.ways = 4\n"
	"dtlb.entries = 64   # trailing comment\ndtlb.ways = 64\n"
	"stlb.entries = 0\nstlb.ways = 0\n"
	"stlb.hit_cycles = 0\nwalk.cycles = 50\n"
	"l1i.size = 16K\nl1i.ways = 8\nl1i.line = 64\nl1i.latency = 0\n"
	"l1d.size = 8K\nl1d.ways = 4\nl1d.line = 64\nl1d.latency = 2\n"
	"l2.size = 512K\nl2.ways = 8\nl2.line = 128\nl2.latency = 7\n"
	"l3.size = 0\nl3.ways = 0\nl3.line = 0\nl3.latency = 0\n"
	"mem.latency = 300\n"
	"stream.fills = 3\nstream.window = 126\nstream.mem_line_cycles = 84\n"
	"mem.write_allocate = 0\nmem.store_miss_cycles = 9\nmem.writeback_cycles = 27\n"
	"mem.writeback_buffer = 1\nmem.fast_strings = 1\n"
	"io.port_read_cycles = 1792\nio.port_write_cycles = 1624\n"
	"io.mmio_read_cycles = 1792\nio.mmio_write_cycles = 84\nio.lapic_cycles = 63\n";

/* good with the first occurrence of from replaced by to. */
static const char *edited(const char *from, const char *to)
{
	char *buf = check_alloc(sizeof good + 256);
	const char *at = strstr(good, from);
	size_t head = (size_t)(at - good);
	memcpy(buf, good, head);
	strcpy(buf + head, to);
	strcat(buf, at + strlen(from));
	return buf;
}

TEST(parses_a_good_profile)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_parse(good, "t.profile", &p, err, sizeof err), 0);
	CHECK_STR(p.name, "t");
	CHECK_EQ(p.base_cpi_milli, 1250);
	CHECK_EQ(p.l1i.size, 16384);
	CHECK_EQ(p.l2.size, 512 * 1024);
	CHECK_EQ(p.l2.line, 128);
	CHECK_EQ(p.dtlb.ways, 64);
	CHECK_EQ(p.stlb.entries, 0);
	CHECK_EQ(p.mem_latency, 300);
	CHECK_EQ(p.stream.fills, 3);
	CHECK_EQ(p.stream.mem_line_cycles, 84);
	CHECK_EQ(p.write.allocate, 0);
	CHECK_EQ(p.write.store_miss_cycles, 9);
	CHECK_EQ(p.write.writeback_cycles, 27);
	CHECK_EQ(p.write.writeback_buffer, 1);
	CHECK_EQ(p.write.fast_strings, 1);
}

TEST(write_switches_are_zero_or_one)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_parse(edited("mem.write_allocate = 0", "mem.write_allocate = 2"), "x", &p,
				  err, sizeof err), -1);
	CHECK(strstr(err, "mem.write_allocate") != NULL);
	CHECK_EQ(cm_profile_parse(edited("mem.writeback_buffer = 1", "mem.writeback_buffer = 3"), "x",
				  &p, err, sizeof err), -1);
	CHECK(strstr(err, "0 or 1") != NULL);
	CHECK_EQ(cm_profile_parse(edited("mem.fast_strings = 1", "mem.fast_strings = 2"), "x",
				  &p, err, sizeof err), -1);
	CHECK(strstr(err, "mem.fast_strings") != NULL);
}

TEST(missing_key_is_named)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_parse(edited("walk.cycles = 50\n", ""), "t.profile", &p, err, sizeof err), -1);
	CHECK_STR(err, "t.profile: missing key 'walk.cycles'");
}

TEST(unknown_duplicate_and_bad_values_are_named_with_their_line)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_parse(edited("name = t", "nmae = t"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x:2: unknown key 'nmae'");
	CHECK_EQ(cm_profile_parse(edited("l2.latency = 7", "l2.latency = seven"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x:23: bad value 'seven' for 'l2.latency'");
	CHECK_EQ(cm_profile_parse(edited("name = t", "name = t\nname = u"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x:3: key 'name' given twice");
	CHECK_EQ(cm_profile_parse(edited("base_cpi = 1.25", "base_cpi"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x:3: expected key = value");
}

TEST(geometry_is_checked)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_parse(edited("l2.line = 128", "l2.line = 96"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x: l2 line must be a power of two");
	CHECK_EQ(cm_profile_parse(edited("itlb.ways = 4", "itlb.ways = 5"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x: itlb ways must divide entries");
	CHECK_EQ(cm_profile_parse(edited("l1d.size = 8K", "l1d.size = 1000"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x: l1d size must be whole sets of ways x line");
	CHECK_EQ(cm_profile_parse(edited("stream.fills = 3", "stream.fills = 0"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x: stream.fills must be at least 1 (1: no overlap)");
}

TEST(an_l2_may_be_left_out_but_not_an_l1)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_parse(edited("l2.size = 512K", "l2.size = 0"), "x", &p, err, sizeof err), 0);
	CHECK_EQ(p.l2.size, 0);
	CHECK_EQ(cm_profile_parse(edited("l1d.size = 8K", "l1d.size = 0"), "x", &p, err, sizeof err), -1);
	CHECK_STR(err, "x: l1d needs a size");
}

TEST(shipped_profiles_load)
{
	const char *names[] = { "modern", "p4", "pentium166", "pentium200-fpm", "pentium200-edo", "pentiumpro200",
				"pentium2-450", "sh7751r" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[128], err[256] = "";
		struct cm_profile p;
		snprintf(path, sizeof path, "tools/costmodel/profiles/%s.profile", names[i]);
		int r = cm_profile_load(path, &p, err, sizeof err);
		if (r != 0)
			check_fail(__FILE__, __LINE__, "%s", err);
		CHECK_EQ(r, 0);
		CHECK_STR(p.name, names[i]);
	}
}

TEST(missing_file_is_an_error)
{
	struct cm_profile p;
	char err[256] = "";
	CHECK_EQ(cm_profile_load("/nonexistent/x.profile", &p, err, sizeof err), -1);
	CHECK(strstr(err, "/nonexistent/x.profile: ") == err);
}

TEST(profile_json_lists_every_value)
{
	struct cm_profile p;
	char err[256], json[2048];
	CHECK_EQ(cm_profile_parse(good, "t", &p, err, sizeof err), 0);
	cm_profile_json(&p, json, sizeof json);
	CHECK(strncmp(json, "\"name\":\"t\",\"base_cpi_milli\":1250,\"itlb.entries\":64,", 50) == 0);
	CHECK(strstr(json, ",\"mem.latency\":300") != NULL);
}

TEST(decoder_knows_the_flush_instructions_and_the_marker)
{
	struct cm_insn d;
	cm_decode((const uint8_t[]){ 0x0F, 0x22, 0xD8 }, 3, &d);             /* mov %rax,%cr3 */
	CHECK_EQ(d.kind, CM_INSN_MOV_CR3);
	CHECK_EQ(d.reg, 0);
	cm_decode((const uint8_t[]){ 0x41, 0x0F, 0x22, 0xE7 }, 4, &d);       /* mov %r15,%cr4 */
	CHECK_EQ(d.kind, CM_INSN_MOV_CR4);
	CHECK_EQ(d.reg, 15);
	cm_decode((const uint8_t[]){ 0x0F, 0x20, 0xD8 }, 3, &d);             /* mov %cr3,%rax: a read */
	CHECK_EQ(d.kind, CM_INSN_OTHER);
	cm_decode((const uint8_t[]){ 0x0F, 0x01, 0x3F }, 3, &d);             /* invlpg (%rdi) */
	CHECK_EQ(d.kind, CM_INSN_INVLPG);
	CHECK_EQ(d.mem.base, 7);
	cm_decode((const uint8_t[]){ 0x0F, 0x01, 0x7C, 0x24, 0x08 }, 5, &d); /* invlpg 8(%rsp) */
	CHECK_EQ(d.kind, CM_INSN_INVLPG);
	CHECK_EQ(d.mem.base, 4);
	CHECK_EQ(d.mem.disp, 8);
	cm_decode((const uint8_t[]){ 0x0F, 0x01, 0xF8 }, 3, &d);             /* swapgs: mod 3 */
	CHECK_EQ(d.kind, CM_INSN_OTHER);
	cm_decode((const uint8_t[]){ 0x66, 0x0F, 0x38, 0x82, 0x06 }, 5, &d); /* invpcid (%rsi),%rax */
	CHECK_EQ(d.kind, CM_INSN_INVPCID);
	CHECK_EQ(d.reg, 0);
	CHECK_EQ(d.mem.base, 6);
	cm_decode((const uint8_t[]){ 0x0F, 0x09 }, 2, &d);
	CHECK_EQ(d.kind, CM_INSN_WBINVD);
	cm_decode((const uint8_t[]){ 0x0F, 0x08 }, 2, &d);
	CHECK_EQ(d.kind, CM_INSN_INVD);
	uint32_t disp = HAKO_REGION_DISP(HAKO_REGION_END, 4095);
	uint8_t marker[7] = { 0x0F, 0x1F, 0x80, (uint8_t)disp, (uint8_t)(disp >> 8),
			      (uint8_t)(disp >> 16), (uint8_t)(disp >> 24) };
	cm_decode(marker, 7, &d);
	CHECK_EQ(d.kind, CM_INSN_MARKER);
	CHECK_EQ(d.marker, 0x4B482FFF);
	marker[6] = 0x4C;                                                   /* wrong magic */
	cm_decode(marker, 7, &d);
	CHECK_EQ(d.kind, CM_INSN_OTHER);
}

TEST(rip_relative_and_sib_operands_evaluate)
{
	struct cm_insn d;
	uint64_t regs[16] = { 0 };
	regs[3] = 0x1000;                                                   /* rbx */
	regs[9] = 0x10;                                                     /* r9 */
	cm_decode((const uint8_t[]){ 0x42, 0x0F, 0x01, 0x3C, 0xCB }, 5, &d); /* invlpg (%rbx,%r9,8) */
	CHECK_EQ(d.kind, CM_INSN_INVLPG);
	CHECK_EQ(cm_mem_address(&d.mem, regs, 0), 0x1080);
	cm_decode((const uint8_t[]){ 0x0F, 0x01, 0x3D, 0x10, 0, 0, 0 }, 7, &d); /* invlpg 0x10(%rip) */
	CHECK_EQ(d.len, 7);
	CHECK_EQ(cm_mem_address(&d.mem, regs, 0x5007), 0x5017);
}

struct rows {
	struct cm_region_row row[4];
	int n;
};

static void collect(const struct cm_region_row *row, void *arg)
{
	struct rows *rows = arg;
	if (rows->n < 4)
		rows->row[rows->n++] = *row;
}

TEST(regions_add_up_between_markers)
{
	struct cm_regions *r = cm_regions_new(2);
	struct cm_counts now[2] = { 0 };
	cm_regions_marker(r, HAKO_REGION_DISP(HAKO_REGION_BEGIN, 7), 0, now);
	now[0].v[CM_INSNS] = 100;
	now[1].v[CM_INSNS] = 50;                  /* vCPU 1 is not in region 7 */
	cm_regions_marker(r, HAKO_REGION_DISP(HAKO_REGION_END, 7), 0, now);
	cm_regions_marker(r, HAKO_REGION_DISP(HAKO_REGION_END, 7), 0, now);   /* ignored */
	cm_regions_marker(r, HAKO_REGION_DISP(HAKO_REGION_GLOBAL_BEGIN, 9), 1, now);
	now[0].v[CM_INSNS] = 130;
	now[1].v[CM_INSNS] = 60;
	cm_regions_marker(r, HAKO_REGION_DISP(HAKO_REGION_GLOBAL_END, 9), 0, now);
	CHECK_EQ(cm_regions_ignored(r), 1);
	struct rows got = { .n = 0 };
	cm_regions_each(r, collect, &got);
	const struct cm_region_row *rows = got.row;
	CHECK_EQ(got.n, 3);
	CHECK_EQ(rows[0].region, 7);
	CHECK_EQ(rows[0].n.v[CM_INSNS], 100);
	CHECK_EQ(rows[1].region, 9);
	CHECK_EQ(rows[1].vcpu, 0);
	CHECK_EQ(rows[1].n.v[CM_INSNS], 30);
	CHECK_EQ(rows[2].vcpu, 1);
	CHECK_EQ(rows[2].n.v[CM_INSNS], 10);
	cm_regions_free(r);
}
