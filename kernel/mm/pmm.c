/*
 * pmm.c — physical frames for the whole kernel, from the boot memory map.
 *
 * Usable RAM from the loader's map becomes free frames, minus what is
 * already in use: the first MiB (BIOS data, the AP trampoline page), the
 * kernel image, boot modules, the multiboot information, and the bitmap
 * itself.  ACPI tables live in non-usable regions and are never touched.
 *
 * Beside the bitmap, a 16-bit word per frame counts the references
 * pmm_get holds (pmm.h); a frame freed while held is marked and goes back
 * to the bitmap at its last pmm_put.  pmm_lock guards both.
 */
#include <stdint.h>
#include <string.h>
#include <frame_map.h>
#include <kprintf.h>
#include <panic.h>
#include <pmm.h>
#include <spinlock.h>
#include <arch/arch.h>

#define PMM_MAX_PHYS (64ull << 30)      /* frames above 64 GiB are ignored */
#define LOW_MEMORY   0x100000

extern char _kernel_start[], _end[];

#define REF_FREED 0x8000u       /* its owner freed it while it was held */
#define REF_COUNT 0x7fffu       /* pmm_get's references */

static struct frame_map map;
static uint16_t *refs;          /* a word per frame */
static uint64_t held;           /* frames with references (0: pmm_free needs no look) */
static struct spinlock pmm_lock = SPINLOCK_INIT("pmm", LOCK_PMM);
static uint64_t total_frames, max_phys;

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static uint64_t find_max_phys(const struct bootinfo *bi)
{
	uint64_t top = 0;
	for (int i = 0; i < bi->nregions; i++) {
		const struct mem_region *r = &bi->regions[i];
		if (r->type == MEM_USABLE && r->base + r->len > top)
			top = r->base + r->len;
	}
	return top < PMM_MAX_PHYS ? top : PMM_MAX_PHYS;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* First usable spot for the bitmap that avoids everything already in use. */
static uint64_t place_bitmap(const struct bootinfo *bi, uint64_t bytes)
{
	uint64_t kstart = virt_to_phys(_kernel_start), kend = virt_to_phys(_end);
	for (int i = 0; i < bi->nregions; i++) {
		const struct mem_region *r = &bi->regions[i];
		if (r->type != MEM_USABLE)
			continue;
		for (uint64_t p = align_up(r->base < LOW_MEMORY ? LOW_MEMORY : r->base, PAGE_SIZE);
		     p + bytes <= r->base + r->len && p + bytes <= (4ull << 30); p += PAGE_SIZE) {
			bool clash = overlaps(p, bytes, kstart, kend - kstart) ||
				     overlaps(p, bytes, bi->info_phys, bi->info_size);
			for (int m = 0; m < bi->nmods && !clash; m++)
				clash = overlaps(p, bytes, bi->mods[m].start, bi->mods[m].end - bi->mods[m].start);
			if (!clash)
				return p;
		}
	}
	panic("pmm: no room for the frame bitmap");
}

static void reserve_range(uint64_t start, uint64_t end)
{
	uint64_t first = start / PAGE_SIZE, last = align_up(end, PAGE_SIZE) / PAGE_SIZE;
	frame_map_reserve(&map, first, last - first);
}

void pmm_init(const struct bootinfo *bi)
{
	max_phys = find_max_phys(bi);
	uint64_t nframes = max_phys / PAGE_SIZE;
	uint64_t map_bytes = FRAME_MAP_WORDS(nframes) * 8;
	uint64_t bytes = align_up(map_bytes + nframes * sizeof *refs, PAGE_SIZE);
	uint64_t bitmap_pa = place_bitmap(bi, bytes);
	frame_map_init(&map, phys_to_virt(bitmap_pa), nframes);
	refs = (uint16_t *)((uint8_t *)phys_to_virt(bitmap_pa) + map_bytes);
	memset(refs, 0, nframes * sizeof *refs);

	for (int i = 0; i < bi->nregions; i++) {
		const struct mem_region *r = &bi->regions[i];
		if (r->type != MEM_USABLE)
			continue;
		uint64_t first = align_up(r->base, PAGE_SIZE) / PAGE_SIZE;
		uint64_t last = (r->base + r->len) / PAGE_SIZE;
		if (last > first)
			frame_map_release(&map, first, last - first);
	}
	reserve_range(0, LOW_MEMORY);
	reserve_range(virt_to_phys(_kernel_start), virt_to_phys(_end));
	reserve_range(bitmap_pa, bitmap_pa + bytes);
	reserve_range(bi->info_phys, bi->info_phys + bi->info_size);
	for (int m = 0; m < bi->nmods; m++)
		reserve_range(bi->mods[m].start, bi->mods[m].end);
	total_frames = map.nfree;
}

uint64_t pmm_alloc_contig(uint64_t n, uint64_t align_frames)
{
	spin_lock(&pmm_lock);
	int64_t f = frame_map_take(&map, n, align_frames);
	spin_unlock(&pmm_lock);
	if (f < 0)
		return 0;
	uint64_t pa = (uint64_t)f * PAGE_SIZE;
	arch_zero_pages(phys_to_virt(pa), n * PAGE_SIZE);
	return pa;
}

uint64_t pmm_alloc(void)
{
	return pmm_alloc_contig(1, 1);
}

/* Caller holds pmm_lock.  A frame in use that is not freed already. */
static void check_free(uint64_t f)
{
	if (frame_map_is_free(&map, f) || f < LOW_MEMORY / PAGE_SIZE || (refs[f] & REF_FREED))
		panic("pmm: double or bad free of frame %lx", f * PAGE_SIZE);
}

void pmm_free_contig(uint64_t pa, uint64_t n)
{
	uint64_t f = pa / PAGE_SIZE;
	spin_lock(&pmm_lock);
	for (uint64_t i = 0; i < n; i++)
		check_free(f + i);
	if (!held) {
		frame_map_release(&map, f, n);
	} else {
		for (uint64_t i = 0; i < n; i++) {
			if (refs[f + i])
				refs[f + i] |= REF_FREED;     /* the last pmm_put frees it */
			else
				frame_map_release(&map, f + i, 1);
		}
	}
	spin_unlock(&pmm_lock);
}

void pmm_get(uint64_t pa)
{
	uint64_t f = pa / PAGE_SIZE;
	if (f >= map.nframes)
		return;                      /* not RAM (MMIO): never freed, nothing to hold */
	spin_lock(&pmm_lock);
	if ((refs[f] & REF_COUNT) == REF_COUNT)      /* one per thread at most: cannot happen */
		panic("pmm: frame %lx held too often", pa);
	if (!refs[f])
		held++;
	refs[f]++;
	spin_unlock(&pmm_lock);
}

void pmm_put(uint64_t pa)
{
	uint64_t f = pa / PAGE_SIZE;
	if (f >= map.nframes)
		return;
	spin_lock(&pmm_lock);
	if (!(refs[f] & REF_COUNT))
		panic("pmm: put of frame %lx without a reference", pa);
	refs[f]--;
	if (!(refs[f] & REF_COUNT)) {
		if (refs[f] & REF_FREED)
			frame_map_release(&map, f, 1);
		refs[f] = 0;
		held--;
	}
	spin_unlock(&pmm_lock);
}

void pmm_free(uint64_t pa)
{
	pmm_free_contig(pa, 1);
}

uint64_t pmm_free_count(void) { return map.nfree; }
uint64_t pmm_total_count(void) { return total_frames; }
uint64_t pmm_max_phys(void) { return max_phys; }
