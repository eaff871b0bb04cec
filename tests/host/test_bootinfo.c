/*
 * test_bootinfo.c — kernel/bootinfo.c, reading multiboot 1 and 2 boot
 * information into struct bootinfo.
 *
 * The tests build synthetic information blocks in a host buffer that
 * stands for physical memory: p2v maps a "physical" address to an offset
 * in it, and fails the case (instead of reading wild memory) for any
 * address outside it.  Multiboot 2 blocks sit in an allocation of exactly
 * their total_size, so AddressSanitizer fails any read past the block.
 *
 * Proves: a wrong magic gives -EINVAL and an empty result; multiboot 1
 * flags select the fields read (cmdline, mmap, or mem_lower/mem_upper when
 * there is no mmap, modules); mmap entries advance by their own size field;
 * region types outside 1..5 become reserved and empty regions are dropped;
 * cmdline, module names, regions and modules are cut to their limits (a
 * cut cmdline marked cmdline_cut, for the boot to refuse);
 * multiboot 2 tags (cmdline 1, module 3, mmap 6 with entry_size, RSDP 14
 * and 15, unknown ones skipped, 8-byte alignment, end tag 0) are all read,
 * RSDP v2 wins over v1 in either order; a total under 16 is -EINVAL; a tag
 * smaller than 8 bytes, a tag running past total_size, or a missing end tag
 * stops the parse cleanly with what came before kept; random tag soup
 * never crashes the parser.
 */
#include "fake_phys.h"
#include <bootinfo.h>
#include "../../kernel/lib/errno.h"

/* ---- "physical memory" ---------------------------------------------- */

/* Move the first size bytes to an allocation of exactly that size. */
static void mem_shrink(size_t size)
{
	uint8_t *exact = check_alloc(size);
	memcpy(exact, mem, size);
	mem = exact;
	mem_size = size;
}

static void put(uint64_t pa, const void *p, size_t n) { memcpy(mem + (pa - mem_base), p, n); }
static void put32(uint64_t pa, uint32_t v) { put(pa, &v, 4); }
static void put64(uint64_t pa, uint64_t v) { put(pa, &v, 8); }
static void put_str(uint64_t pa, const char *s) { put(pa, s, strlen(s) + 1); }

static struct bootinfo bi;

/* bootinfo_parse through p2v; a p2v failure ends up here with -9999. */
static int parse(uint32_t magic, uint64_t info_pa)
{
	p2v_calls = 0;
	if (setjmp(p2v_escape))
		return -9999;
	return bootinfo_parse(magic, info_pa, p2v, &bi);
}

/* ---- multiboot 1 -------------------------------------------------------- */

#define BASE1 0x10000ull        /* where the test memory starts */
#define INFO1 BASE1             /* the info block */
#define CMD1 (BASE1 + 0x100)
#define MMAP1 (BASE1 + 0x400)
#define MODS1 (BASE1 + 0xc00)
#define STR1 (BASE1 + 0xe00)

enum {  /* byte offsets in the multiboot 1 info block */
	MB1_FLAGS = 0, MB1_MEM_LOWER = 4, MB1_MEM_UPPER = 8, MB1_CMDLINE = 16,
	MB1_MODS_COUNT = 20, MB1_MODS_ADDR = 24, MB1_MMAP_LENGTH = 44,
	MB1_MMAP_ADDR = 48, MB1_INFO_SIZE = 52,
};
#define F_MEM (1u << 0)
#define F_CMDLINE (1u << 2)
#define F_MODS (1u << 3)
#define F_MMAP (1u << 6)

/* One mmap entry whose size field is size (20 normally); returns the next. */
static uint64_t mb1_entry(uint64_t pa, uint32_t size, uint64_t base, uint64_t len, uint32_t type)
{
	put32(pa, size);
	put64(pa + 4, base);
	put64(pa + 12, len);
	put32(pa + 20, type);
	return pa + 4 + size;
}

static void mb1_module(int i, uint32_t start, uint32_t end, uint32_t string)
{
	uint64_t pa = MODS1 + 16 * (uint64_t)i;
	put32(pa, start);
	put32(pa + 4, end);
	put32(pa + 8, string);
	put32(pa + 12, 0);
}

static void mb1_new(uint32_t flags)
{
	mem_new(BASE1, 0x4000);
	put32(INFO1 + MB1_FLAGS, flags);
}

static void mb1_mmap(uint64_t end)
{
	put32(INFO1 + MB1_MMAP_ADDR, (uint32_t)MMAP1);
	put32(INFO1 + MB1_MMAP_LENGTH, (uint32_t)(end - MMAP1));
}

#define CHECK_REGION(i, b, l, t)                        \
	do {                                            \
		CHECK_EQ(bi.regions[i].base, (b));      \
		CHECK_EQ(bi.regions[i].len, (l));       \
		CHECK_EQ(bi.regions[i].type, (t));      \
	} while (0)

TEST(bad_magic_is_einval)
{
	mb1_new(F_CMDLINE);
	put32(INFO1 + MB1_CMDLINE, (uint32_t)CMD1);
	put_str(CMD1, "tick=5ms");
	memset(&bi, 0xff, sizeof bi);
	CHECK_EQ(parse(0x12345678, INFO1), -EINVAL);
	CHECK_PTR(bi.loader, NULL);
	CHECK_STR(bi.cmdline, "");
	CHECK_EQ(bi.nregions, 0);
	CHECK_EQ(bi.nmods, 0);
	CHECK_EQ(bi.rsdp_phys, 0);
	CHECK_EQ(parse(MB2_BOOT_MAGIC + 1, INFO1), -EINVAL);
	CHECK_EQ(parse(0, INFO1), -EINVAL);
}

TEST(mb1_full_block)
{
	mb1_new(F_MEM | F_CMDLINE | F_MODS | F_MMAP);
	put32(INFO1 + MB1_MEM_LOWER, 639);      /* ignored: there is an mmap */
	put32(INFO1 + MB1_MEM_UPPER, 130048);
	put32(INFO1 + MB1_CMDLINE, (uint32_t)CMD1);
	put_str(CMD1, "build/hako.elf tick=5ms -- ktest");
	uint64_t e = MMAP1;
	e = mb1_entry(e, 20, 0, 0x9fc00, MEM_USABLE);
	e = mb1_entry(e, 20, 0x9fc00, 0x400, MEM_RESERVED);
	e = mb1_entry(e, 20, 0xf0000, 0, MEM_RESERVED);         /* empty: dropped */
	e = mb1_entry(e, 20, 0x100000, 0x7ee0000, MEM_USABLE);
	e = mb1_entry(e, 20, 0x7fe0000, 0x20000, MEM_ACPI);
	e = mb1_entry(e, 20, 0xfffc0000, 0x40000, 7);           /* unknown type */
	e = mb1_entry(e, 20, 0x100000000ull, 0x180000000ull, MEM_USABLE);
	mb1_mmap(e);
	put32(INFO1 + MB1_MODS_COUNT, 2);
	put32(INFO1 + MB1_MODS_ADDR, (uint32_t)MODS1);
	mb1_module(0, 0x200000, 0x280000, (uint32_t)STR1);
	mb1_module(1, 0x280000, 0x281000, 0);                   /* no name */
	put_str(STR1, "initrd.img");

	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_STR(bi.loader, "multiboot1");
	CHECK_EQ(bi.info_phys, INFO1);
	CHECK_EQ(bi.info_size, MB1_INFO_SIZE);
	CHECK_STR(bi.cmdline, "build/hako.elf tick=5ms -- ktest");
	CHECK(!bi.cmdline_cut);
	CHECK_EQ(bi.nregions, 6);
	CHECK_REGION(0, 0, 0x9fc00, MEM_USABLE);
	CHECK_REGION(1, 0x9fc00, 0x400, MEM_RESERVED);
	CHECK_REGION(2, 0x100000, 0x7ee0000, MEM_USABLE);
	CHECK_REGION(3, 0x7fe0000, 0x20000, MEM_ACPI);
	CHECK_REGION(4, 0xfffc0000, 0x40000, MEM_RESERVED);
	CHECK_REGION(5, 0x100000000ull, 0x180000000ull, MEM_USABLE);
	CHECK_EQ(bi.nmods, 2);
	CHECK_EQ(bi.mods[0].start, 0x200000);
	CHECK_EQ(bi.mods[0].end, 0x280000);
	CHECK_STR(bi.mods[0].name, "initrd.img");
	CHECK_STR(bi.mods[1].name, "");
	CHECK_EQ(bi.rsdp_phys, 0);
}

TEST(mb1_mmap_steps_by_size_field)
{
	mb1_new(F_MMAP);
	uint64_t e = MMAP1;
	e = mb1_entry(e, 24, 0x1000, 0x1000, MEM_USABLE);      /* 4 spare bytes */
	put32(e - 4, 0xdeadbeef);
	e = mb1_entry(e, 20, 0x3000, 0x2000, MEM_NVS);
	e = mb1_entry(e, 28, 0x8000, 0x1000, MEM_BAD);
	mb1_mmap(e);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(bi.nregions, 3);
	CHECK_REGION(0, 0x1000, 0x1000, MEM_USABLE);
	CHECK_REGION(1, 0x3000, 0x2000, MEM_NVS);
	CHECK_REGION(2, 0x8000, 0x1000, MEM_BAD);
}

TEST(mb1_partial_mmap_entry_ignored)
{
	mb1_new(F_MMAP);
	uint64_t e = MMAP1;
	e = mb1_entry(e, 20, 0x1000, 0x1000, MEM_USABLE);
	e = mb1_entry(e, 20, 0x2000, 0x1000, MEM_USABLE);
	mb1_entry(e, 20, 0x3000, 0x1000, MEM_USABLE);
	mb1_mmap(e + 23);                       /* third entry one byte short */
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(bi.nregions, 2);
	CHECK_REGION(1, 0x2000, 0x1000, MEM_USABLE);
}

TEST(mb1_mem_fields_without_mmap)
{
	mb1_new(F_MEM);
	put32(INFO1 + MB1_MEM_LOWER, 639);
	put32(INFO1 + MB1_MEM_UPPER, 130048);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(bi.nregions, 2);
	CHECK_REGION(0, 0, 639 * 1024, MEM_USABLE);
	CHECK_REGION(1, 0x100000, 130048ull * 1024, MEM_USABLE);
}

TEST(mb1_no_flags_reads_nothing)
{
	mb1_new(0);
	/* Garbage in every field the flags do not vouch for. */
	memset(mem + 4, 0xee, MB1_INFO_SIZE - 4);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_STR(bi.loader, "multiboot1");
	CHECK_STR(bi.cmdline, "");
	CHECK_EQ(bi.nregions, 0);
	CHECK_EQ(bi.nmods, 0);
}

TEST(mb1_long_cmdline_cut)
{
	mb1_new(F_CMDLINE);
	put32(INFO1 + MB1_CMDLINE, (uint32_t)CMD1);
	/* Longer than the buffer whatever its size (it grew from 512 to 1024). */
	memset(mem + (CMD1 - BASE1), 'x', BOOT_CMDLINE_MAX + 100);
	mem[CMD1 - BASE1 + BOOT_CMDLINE_MAX + 100] = 0;
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
	CHECK_EQ(bi.cmdline[BOOT_CMDLINE_MAX - 2], 'x');
	CHECK(bi.cmdline_cut);                   /* marked, so the boot refuses it */
}

TEST(mb1_regions_capped)
{
	mb1_new(F_MMAP);
	uint64_t e = MMAP1;
	for (int i = 0; i < BOOT_MAX_REGIONS + 6; i++)
		e = mb1_entry(e, 20, 0x1000ull * (uint64_t)i, 0x1000, MEM_USABLE);
	mb1_mmap(e);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(bi.nregions, BOOT_MAX_REGIONS);
	CHECK_REGION(BOOT_MAX_REGIONS - 1, 0x1000ull * (BOOT_MAX_REGIONS - 1), 0x1000, MEM_USABLE);
}

TEST(mb1_modules_capped_names_cut_bad_skipped)
{
	mb1_new(F_MODS);
	put32(INFO1 + MB1_MODS_COUNT, BOOT_MAX_MODULES + 2);
	put32(INFO1 + MB1_MODS_ADDR, (uint32_t)MODS1);
	char name[101];
	memset(name, 'n', 100);
	name[100] = 0;
	put_str(STR1, name);
	mb1_module(0, 0x5000, 0x4000, (uint32_t)STR1);         /* end < start */
	for (int i = 1; i < BOOT_MAX_MODULES + 2; i++)
		mb1_module(i, 0x100000u * (uint32_t)i, 0x100000u * (uint32_t)i + 0x1000, (uint32_t)STR1);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(bi.nmods, BOOT_MAX_MODULES);
	CHECK_EQ(bi.mods[0].start, 0x100000);  /* the bad one was skipped */
	CHECK_EQ(bi.mods[BOOT_MAX_MODULES - 1].start, 0x100000ull * BOOT_MAX_MODULES);
	CHECK_EQ(strlen(bi.mods[0].name), sizeof bi.mods[0].name - 1);
}

/* ---- multiboot 2 -------------------------------------------------------- */

#define BASE2 0x200000ull
static uint32_t mb2_off;

static void mb2_new(void)
{
	mem_new(BASE2, 0x4000);
	mb2_off = 8;
}

/* A tag with len body bytes; the next one starts 8-aligned.  Returns its offset. */
static uint32_t mb2_tag(uint32_t type, const void *body, uint32_t len)
{
	uint32_t at = mb2_off;
	put32(BASE2 + at, type);
	put32(BASE2 + at + 4, 8 + len);
	if (len)
		put(BASE2 + at + 8, body, len);
	mb2_off = (at + 8 + len + 7) & ~7u;
	return at;
}

static uint32_t mb2_string_tag(uint32_t type, const char *s)
{
	return mb2_tag(type, s, (uint32_t)strlen(s) + 1);
}

static uint32_t mb2_module(uint32_t start, uint32_t end, const char *name)
{
	uint8_t body[128];
	memcpy(body, &start, 4);
	memcpy(body + 4, &end, 4);
	size_t n = strlen(name) + 1;
	memcpy(body + 8, name, n);
	return mb2_tag(3, body, (uint32_t)(8 + n));
}

struct mmap_entry { uint64_t base, len; uint32_t type, reserved; };

static uint32_t mb2_mmap(uint32_t entry_size, const struct mmap_entry *e, int n)
{
	uint8_t body[16 + 40 * 80] = { 0 };
	uint32_t version = 0;
	memcpy(body, &entry_size, 4);
	memcpy(body + 4, &version, 4);
	for (int i = 0; i < n; i++)
		memcpy(body + 8 + (size_t)i * entry_size, &e[i], sizeof e[i] < entry_size ? sizeof e[i] : entry_size);
	return mb2_tag(6, body, 8 + entry_size * (uint32_t)n);
}

/* End tag, total_size; the block moves to an allocation of exactly that size. */
static uint32_t mb2_finish(bool end_tag)
{
	if (end_tag)
		mb2_tag(0, NULL, 0);
	put32(BASE2, mb2_off);
	put32(BASE2 + 4, 0);
	mem_shrink(mb2_off);
	return mb2_off;
}

TEST(mb2_full_block)
{
	mb2_new();
	mb2_string_tag(1, "tick=5ms -- ktest sched");
	mb2_string_tag(2, "GRUB 2.06");                    /* unknown: skipped */
	mb2_module(0x300000, 0x340000, "/boot/initrd");
	mb2_module(0x340000, 0x340800, "");
	uint32_t meminfo[2] = { 639, 130048 };
	mb2_tag(4, meminfo, sizeof meminfo);               /* basic meminfo: skipped */
	struct mmap_entry map[] = {
		{ 0, 0x9fc00, MEM_USABLE, 0 },
		{ 0x9fc00, 0x400, MEM_RESERVED, 0 },
		{ 0x100000, 0x7ee0000, MEM_USABLE, 0 },
		{ 0x7fe0000, 0x20000, MEM_ACPI, 0 },
		{ 0xfeffc000, 0x4000, MEM_NVS, 0 },
	};
	mb2_mmap(24, map, 5);
	uint8_t rsdp[20] = "RSD PTR ";
	uint32_t rsdp_off = mb2_tag(14, rsdp, sizeof rsdp);
	uint32_t total = mb2_finish(true);

	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_STR(bi.loader, "multiboot2");
	CHECK_EQ(bi.info_phys, BASE2);
	CHECK_EQ(bi.info_size, total);
	CHECK_STR(bi.cmdline, "tick=5ms -- ktest sched");
	CHECK(!bi.cmdline_cut);
	CHECK_EQ(bi.nmods, 2);
	CHECK_EQ(bi.mods[0].start, 0x300000);
	CHECK_EQ(bi.mods[0].end, 0x340000);
	CHECK_STR(bi.mods[0].name, "/boot/initrd");
	CHECK_STR(bi.mods[1].name, "");
	CHECK_EQ(bi.nregions, 5);
	CHECK_REGION(0, 0, 0x9fc00, MEM_USABLE);
	CHECK_REGION(2, 0x100000, 0x7ee0000, MEM_USABLE);
	CHECK_REGION(3, 0x7fe0000, 0x20000, MEM_ACPI);
	CHECK_REGION(4, 0xfeffc000, 0x4000, MEM_NVS);
	CHECK_EQ(bi.rsdp_phys, BASE2 + rsdp_off + 8);
}

TEST(mb2_rsdp_v2_wins_in_either_order)
{
	uint8_t v1[20] = "RSD PTR ", v2[36] = "RSD PTR ";
	mb2_new();
	uint32_t a = mb2_tag(15, v2, sizeof v2);
	mb2_tag(14, v1, sizeof v1);
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.rsdp_phys, BASE2 + a + 8);

	mb2_new();
	mb2_tag(14, v1, sizeof v1);
	uint32_t b = mb2_tag(15, v2, sizeof v2);
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.rsdp_phys, BASE2 + b + 8);
}

TEST(mb2_total_below_16_is_einval)
{
	for (uint32_t total = 0; total < 16; total++) {
		mem_new(BASE2, 16);
		put32(BASE2, total);
		mem_shrink(16);
		CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), -EINVAL);
		CHECK_STR(bi.loader, "multiboot2");
		CHECK_EQ(bi.nregions, 0);
	}
	/* The smallest valid block: header and end tag. */
	mb2_new();
	mb2_finish(true);
	CHECK_EQ(mb2_off, 16);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
}

TEST(mb2_tag_smaller_than_8_stops)
{
	mb2_new();
	mb2_string_tag(1, "before");
	uint32_t bad = mb2_tag(99, NULL, 0);
	put32(BASE2 + bad + 4, 4);                          /* size 4 < 8 */
	mb2_module(0x1000, 0x2000, "after");
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_STR(bi.cmdline, "before");
	CHECK_EQ(bi.nmods, 0);

	mb2_new();
	bad = mb2_tag(1, NULL, 0);
	put32(BASE2 + bad + 4, 0);                          /* size 0: no endless loop */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_STR(bi.cmdline, "");
}

TEST(mb2_tag_past_total_stops)
{
	mb2_new();
	mb2_module(0x1000, 0x2000, "kept");
	uint32_t t = mb2_string_tag(1, "cut");
	put32(BASE2 + t + 4, 0x1000);                       /* runs past the block */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nmods, 1);
	CHECK_STR(bi.mods[0].name, "kept");
	CHECK_STR(bi.cmdline, "");
}

TEST(mb2_missing_end_tag_stops_at_total)
{
	mb2_new();
	mb2_string_tag(1, "no end");
	struct mmap_entry map[] = { { 0x100000, 0x100000, MEM_USABLE, 0 } };
	mb2_mmap(24, map, 1);
	mb2_finish(false);                                  /* exactly total bytes */
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_STR(bi.cmdline, "no end");
	CHECK_EQ(bi.nregions, 1);
}

TEST(mb2_tags_after_end_ignored)
{
	mb2_new();
	mb2_tag(0, NULL, 0);
	mb2_string_tag(1, "after end");
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_STR(bi.cmdline, "");
}

TEST(mb2_mmap_entry_size)
{
	struct mmap_entry map[] = {
		{ 0x1000, 0x1000, MEM_USABLE, 0 },
		{ 0x5000, 0x3000, MEM_RESERVED, 0 },
	};
	mb2_new();
	mb2_mmap(16, map, 2);                               /* < 20: unusable */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nregions, 0);

	mb2_new();
	mb2_mmap(40, map, 2);                               /* newer, larger entries */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nregions, 2);
	CHECK_REGION(1, 0x5000, 0x3000, MEM_RESERVED);

	mb2_new();
	mb2_mmap(20, map, 2);                               /* the minimum */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nregions, 2);
	CHECK_REGION(1, 0x5000, 0x3000, MEM_RESERVED);
}

TEST(mb2_region_types_normalised)
{
	struct mmap_entry map[] = {
		{ 0x1000, 0x1000, 0, 0 },
		{ 0x2000, 0x1000, 6, 0 },
		{ 0x3000, 0x1000, 0xffffffff, 0 },
		{ 0x4000, 0x1000, MEM_BAD, 0 },
		{ 0x5000, 0, MEM_USABLE, 0 },
		{ 0x6000, 0x1000, MEM_USABLE, 0 },
	};
	mb2_new();
	mb2_mmap(24, map, 6);
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nregions, 5);
	CHECK_EQ(bi.regions[0].type, MEM_RESERVED);
	CHECK_EQ(bi.regions[1].type, MEM_RESERVED);
	CHECK_EQ(bi.regions[2].type, MEM_RESERVED);
	CHECK_EQ(bi.regions[3].type, MEM_BAD);
	CHECK_REGION(4, 0x6000, 0x1000, MEM_USABLE);
}

TEST(mb2_regions_and_modules_capped)
{
	static struct mmap_entry map[BOOT_MAX_REGIONS + 10];
	for (int i = 0; i < BOOT_MAX_REGIONS + 10; i++)
		map[i] = (struct mmap_entry){ 0x1000ull * (uint64_t)i, 0x1000, MEM_USABLE, 0 };
	mb2_new();
	mb2_mmap(24, map, BOOT_MAX_REGIONS + 10);
	for (uint32_t i = 0; i < BOOT_MAX_MODULES + 3; i++)
		mb2_module(0x1000 * i, 0x1000 * i + 0x800, "m");
	mb2_module(0x9000, 0x8000, "backwards");           /* end < start */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nregions, BOOT_MAX_REGIONS);
	CHECK_EQ(bi.nmods, BOOT_MAX_MODULES);
	CHECK_EQ(bi.mods[BOOT_MAX_MODULES - 1].start, 0x1000 * (BOOT_MAX_MODULES - 1));
}

TEST(mb2_module_end_before_start_skipped)
{
	mb2_new();
	mb2_module(0x9000, 0x8000, "backwards");
	mb2_module(0x9000, 0x9000, "empty");                /* end == start is fine */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nmods, 1);
	CHECK_STR(bi.mods[0].name, "empty");
}

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/*
 * Random tags: random types (the known ones often), sizes from 0 to past
 * the end, random bodies.  Strings are not bounded by their tag, so 256
 * zero bytes follow the block; everything else must stay inside it.
 */
TEST(mb2_random_tags_never_crash)
{
	static const uint32_t types[] = { 0, 1, 2, 3, 4, 6, 14, 15, 21, 99 };
	for (int round = 0; round < 3000; round++) {
		uint32_t total = 16 + (uint32_t)(rng() % 480);
		mem_new(BASE2, total + 256);
		for (uint32_t i = 8; i < total; i++)
			mem[i] = (uint8_t)rng();
		for (uint32_t off = 8; off + 8 <= total;) {
			uint32_t type = rng() % 4 ? types[1 + rng() % 9] : (uint32_t)rng();
			uint32_t size = (uint32_t)(rng() % 96);
			put32(BASE2 + off, type);
			put32(BASE2 + off + 4, size);
			if (type == 6 && off + 16 <= total)
				put32(BASE2 + off + 8, (uint32_t)(rng() % 48));
			off += (size + 7) & ~7u;
			if (size == 0)
				break;
		}
		put32(BASE2, total);
		int r = parse(MB2_BOOT_MAGIC, BASE2);
		if (check_failed)
			return;
		CHECK_EQ(r, 0);
		CHECK(bi.nregions >= 0 && bi.nregions <= BOOT_MAX_REGIONS);
		CHECK(bi.nmods >= 0 && bi.nmods <= BOOT_MAX_MODULES);
		CHECK(strlen(bi.cmdline) < BOOT_CMDLINE_MAX);
		CHECK(bi.rsdp_phys == 0 || (bi.rsdp_phys >= BASE2 + 16 && bi.rsdp_phys <= BASE2 + total));
		check_free_all();
	}
}

/*
 * Strings in multiboot2 tags are read within the tag: a command line or
 * module name without its NUL at the very end of the block must not be
 * read past (the block is allocated to its exact size, so ASan would see).
 */
TEST(mb2_unterminated_strings_stay_in_their_tag)
{
	mb2_new();
	mb2_tag(1, "tick=5ms", 8);                         /* no NUL */
	mb2_finish(false);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_STR(bi.cmdline, "tick=5ms");
	check_free_all();

	mb2_new();
	uint8_t body[16] = { 0 };
	uint32_t start = 0x300000, end = 0x301000;
	memcpy(body, &start, 4);
	memcpy(body + 4, &end, 4);
	memcpy(body + 8, "initrdXY", 8);                   /* no NUL */
	mb2_tag(3, body, 16);
	mb2_finish(false);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nmods, 1);
	CHECK_STR(bi.mods[0].name, "initrdXY");
	check_free_all();
}

/* A module tag too short for its start and end fields is ignored. */
TEST(mb2_short_module_tag_ignored)
{
	mb2_new();
	uint8_t body[4] = { 0 };
	mb2_tag(3, body, 4);
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nmods, 0);
	check_free_all();
}

/* ---- known bugs ----------------------------------------------------------- */

/*
 * parse_mb1: `p += e->size + 4` adds in 32 bits, so an entry whose size
 * field is 0xfffffffc advances p by 0 and the loop never ends.
 */
TEST(mb1_huge_mmap_entry_size_does_not_hang)
{
	mb1_new(F_MMAP);
	mb1_entry(MMAP1, 0xfffffffc, 0x1000, 0x1000, MEM_USABLE);
	mb1_mmap(MMAP1 + 48);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
}

/*
 * parse_mb2: `off + t->size > total` is computed in 32 bits; a tag size
 * near 4 GiB wraps it, the tag is believed, and the mmap walk reads
 * gigabytes past the block.
 */
TEST(mb2_huge_tag_size_rejected)
{
	mb2_new();
	uint8_t body[24] = { 24 };                         /* entry_size 24 */
	uint32_t t = mb2_tag(6, body, sizeof body);
	put32(BASE2 + t + 4, 0xfffffff8);                   /* 8 + this wraps to 0 */
	mb2_finish(true);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(bi.nregions, 0);
}

/*
 * parse_mb1: the module loop reads mods[i] for every i < mods_count even
 * once BOOT_MAX_MODULES are stored, so a wild mods_count reads far past
 * the module array.
 */
TEST(mb1_module_loop_stops_when_full)
{
	mb1_new(F_MODS);
	put32(INFO1 + MB1_MODS_COUNT, 100000000);
	put32(INFO1 + MB1_MODS_ADDR, (uint32_t)MODS1);
	for (int i = 0; i < BOOT_MAX_MODULES; i++)
		mb1_module(i, 0x1000, 0x2000, 0);
	CHECK_EQ(parse(MB1_BOOT_MAGIC, INFO1), 0);
	CHECK_EQ(bi.nmods, BOOT_MAX_MODULES);
}

TEST(mb2_long_cmdline_marked_cut)
{
	static char text[BOOT_CMDLINE_MAX + 50];
	memset(text, 'y', sizeof text - 1);
	mb2_new();
	mb2_tag(1, text, sizeof text);                     /* with its NUL */
	mb2_finish(false);
	CHECK_EQ(parse(MB2_BOOT_MAGIC, BASE2), 0);
	CHECK_EQ(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
	CHECK(bi.cmdline_cut);
	check_free_all();
}
