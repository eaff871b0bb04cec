/*
 * bootinfo.c — multiboot 1 and 2 information parsing.
 *
 * Multiboot 1 (QEMU -kernel): a fixed struct with flag bits saying which
 * fields are valid; the memory map is a list of {size, base, len, type}
 * whose size field excludes itself.  Multiboot 2 (GRUB): a list of tags,
 * each 8-byte aligned, ending with tag type 0.  Both are read through p2v
 * so the host tests can feed in plain buffers.
 */
#include <stdint.h>
#include <string.h>
#include <bootinfo.h>
#include <multiboot1.h>
#include <errno.h>


#define MB2_TAG_END     0
#define MB2_TAG_CMDLINE 1
#define MB2_TAG_MODULE  3
#define MB2_TAG_MMAP    6
#define MB2_TAG_RSDP1   14
#define MB2_TAG_RSDP2   15

struct mb2_tag {
	uint32_t type, size;
};

/* Copy src (NULL: nothing); true if it did not fit and was cut. */
static bool copy_string(char *dst, size_t size, const char *src)
{
	if (src)
		return strlcpy(dst, src, size) >= size;
	dst[0] = 0;
	return false;
}

/* A multiboot2 string lies inside its tag: read at most avail bytes. */
static bool copy_bounded(char *dst, size_t size, const char *src, size_t avail)
{
	size_t n = strnlen(src, avail);
	bool cut = n >= size;
	if (cut)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
	return cut;
}

static void add_region(struct bootinfo *bi, uint64_t base, uint64_t len, uint32_t type)
{
	if (bi->nregions >= BOOT_MAX_REGIONS || len == 0)
		return;
	if (type < MEM_USABLE || type > MEM_BAD)
		type = MEM_RESERVED;
	bi->regions[bi->nregions++] = (struct mem_region){ base, len, type };
}

static void add_module(struct bootinfo *bi, uint64_t start, uint64_t end, const char *name)
{
	if (bi->nmods >= BOOT_MAX_MODULES || end < start)
		return;
	struct boot_module *m = &bi->mods[bi->nmods++];
	m->start = start;
	m->end = end;
	copy_string(m->name, sizeof m->name, name);
}

static int parse_mb1(uint64_t info_phys, p2v_fn p2v, struct bootinfo *bi)
{
	const struct mb1_info *mi = p2v(info_phys);
	bi->loader = "multiboot1";
	bi->info_size = sizeof *mi;
	if (mi->flags & MB1_FLAG_CMDLINE)
		bi->cmdline_cut = copy_string(bi->cmdline, sizeof bi->cmdline, p2v(mi->cmdline));
	if (mi->flags & MB1_FLAG_MMAP) {
		uint64_t p = mi->mmap_addr, end = p + mi->mmap_length;
		while (p + sizeof(struct mb1_mmap_entry) <= end) {
			const struct mb1_mmap_entry *e = p2v(p);
			add_region(bi, e->base, e->len, e->type);
			p += (uint64_t)e->size + 4;
		}
	} else if (mi->flags & MB1_FLAG_MEM) {
		add_region(bi, 0, (uint64_t)mi->mem_lower << 10, MEM_USABLE);
		add_region(bi, 0x100000, (uint64_t)mi->mem_upper << 10, MEM_USABLE);
	}
	if (mi->flags & MB1_FLAG_MODS) {
		const struct mb1_module *mods = p2v(mi->mods_addr);
		for (uint32_t i = 0; i < mi->mods_count && bi->nmods < BOOT_MAX_MODULES; i++)
			add_module(bi, mods[i].start, mods[i].end,
				   mods[i].string ? p2v(mods[i].string) : NULL);
	}
	return 0;
}

static void parse_mb2_mmap(const struct mb2_tag *t, struct bootinfo *bi)
{
	const uint8_t *base = (const uint8_t *)t;
	if (t->size < 16)
		return;
	uint32_t entry_size = *(const uint32_t *)(base + 8);
	if (entry_size < 20)
		return;
	for (uint32_t off = 16; off + entry_size <= t->size; off += entry_size) {
		const uint8_t *e = base + off;
		add_region(bi, *(const uint64_t *)e, *(const uint64_t *)(e + 8), *(const uint32_t *)(e + 16));
	}
}

static void add_mb2_module(struct bootinfo *bi, const uint8_t *body, size_t name_avail)
{
	char name[sizeof bi->mods[0].name];
	copy_bounded(name, sizeof name, (const char *)body + 8, name_avail);
	add_module(bi, *(const uint32_t *)body, *(const uint32_t *)(body + 4), name);
}

static int parse_mb2(uint64_t info_phys, p2v_fn p2v, struct bootinfo *bi)
{
	const uint8_t *info = p2v(info_phys);
	uint32_t total = *(const uint32_t *)info;
	bi->loader = "multiboot2";
	bi->info_size = total;
	if (total < 16)
		return -EINVAL;
	for (uint32_t off = 8; off + sizeof(struct mb2_tag) <= total;) {
		const struct mb2_tag *t = (const struct mb2_tag *)(info + off);
		if (t->type == MB2_TAG_END || t->size < 8 || t->size > total - off)
			break;
		const uint8_t *body = (const uint8_t *)t + 8;
		switch (t->type) {
		case MB2_TAG_CMDLINE:
			bi->cmdline_cut = copy_bounded(bi->cmdline, sizeof bi->cmdline, (const char *)body,
						       t->size - 8);
			break;
		case MB2_TAG_MODULE:
			if (t->size >= 16)
				add_mb2_module(bi, body, t->size - 16);
			break;
		case MB2_TAG_MMAP:
			parse_mb2_mmap(t, bi);
			break;
		case MB2_TAG_RSDP1:
		case MB2_TAG_RSDP2:
			if (!bi->rsdp_phys || t->type == MB2_TAG_RSDP2)
				bi->rsdp_phys = info_phys + off + 8;
			break;
		}
		off += (t->size + 7) & ~7u;
	}
	return 0;
}

int bootinfo_parse(uint32_t magic, uint64_t info_phys, p2v_fn p2v, struct bootinfo *bi)
{
	memset(bi, 0, sizeof *bi);
	bi->info_phys = info_phys;
	if (magic == MB1_BOOT_MAGIC)
		return parse_mb1(info_phys, p2v, bi);
	if (magic == MB2_BOOT_MAGIC)
		return parse_mb2(info_phys, p2v, bi);
	return -EINVAL;
}
