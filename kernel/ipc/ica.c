/*
 * ica.c — inter-core communication areas (paper 002): the region they
 * come from, the table of live ones, pasting them into and peeling them
 * out of address spaces, and the switch between the two ISPC modes.
 *
 * The region is one physically contiguous, 2 MiB aligned run of frames
 * taken at boot; page i of it appears at HAKO_ICA_AREA + i pages in any
 * process holding the ICA that owns page i.  What a process may touch is
 * decided by the table alone (holder == the process); its page tables
 * only follow, outside ica_lock, in one of two modes (ica_mode):
 *   baseline  ica_baseline.c: paste maps nothing; each first touch
 *             faults into ica_fault (proc_on_ica_fault), which maps
 *             that page;
 *   fast      ica_fast.c: paste fills every PTE at once, named servers
 *             keep the whole region mapped, a lone synchronous requester
 *             keeps its mappings.
 * A peel clears the PTEs with one TLB shootdown, in either mode (here).
 * The mode also sets the arch's TLB (arch_tlb_partition): on SH-4 fast
 * mode reserves UTLB entries for ICAs, paper 002's partition.
 * A fill racing with a peel is undone by its own re-check of the holder,
 * so after a peel has returned the old holder has no mapping left.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <errno.h>
#include <frame_map.h>
#include <ica.h>
#include <kprintf.h>
#include <panic.h>
#include <pmm.h>
#include <proc.h>
#include <serialiser.h>
#include <vm.h>
#include <arch/arch.h>
#include <arch/mmu.h>
#include "ica_internal.h"

#define REGION_MAX_PAGES 1024        /* 4 MiB */
#define REGION_MIN_PAGES 512         /* 2 MiB, one large page */
#define ICA_GEN_MASK     0x3fffff    /* ids stay positive */

struct spinlock ica_lock = SPINLOCK_INIT("ica", LOCK_ICA);
int ica_mode = HAKO_ISPC_BASELINE;

uint64_t ica_region_pa;
uint32_t ica_region_pages;
static struct frame_map region_map;
static uint64_t region_bits[FRAME_MAP_WORDS(REGION_MAX_PAGES)];
int16_t page_slot[REGION_MAX_PAGES];             /* the ICA on each page, or -1 */
struct ica icas[ICA_MAX];
static uint32_t gens[ICA_MAX];
static int nlive;
struct ica_counters ica_counts;

static void read_options(void)
{
	const char *mode = cmdline_get(&kcmdline, "ispc");     /* baseline or fast: options.c */
	if (mode && strcmp(mode, "fast") == 0)
		ica_mode = HAKO_ISPC_FAST;
}

void ica_init(void)
{
	read_options();
	const char *servers = ica_fast_options();
	uint64_t want = pmm_total_count() / 8 / REGION_MIN_PAGES * REGION_MIN_PAGES;
	want = want > REGION_MAX_PAGES ? REGION_MAX_PAGES : want < REGION_MIN_PAGES ? REGION_MIN_PAGES : want;
	ica_region_pa = pmm_alloc_contig(want, REGION_MIN_PAGES);
	ica_region_pages = ica_region_pa ? (uint32_t)want : 0;
	frame_map_init(&region_map, region_bits, REGION_MAX_PAGES);
	frame_map_release(&region_map, 0, ica_region_pages);
	for (int i = 0; i < REGION_MAX_PAGES; i++)
		page_slot[i] = -1;
	for (int i = 0; i < ICA_MAX; i++)
		gens[i] = 1;
	proc_on_ica_fault(ica_fault);            /* its pages are pasted on first touch */
	arch_tlb_partition(ica_mode == HAKO_ISPC_FAST);
	if (!ica_region_pages)
		kprintf("ica: no room for the ICA region: every ica_alloc will fail\n");
	else
		kprintf("ica: %u KiB region at %lx, ispc mode %s, servers %s\n", ica_region_pages * 4,
			ica_region_pa, ica_mode == HAKO_ISPC_FAST ? "fast" : "baseline", servers);
}

/* ---- the table (caller holds ica_lock) -------------------------------- */

void ica_release(struct ica *a)
{
	if (a->state == ICA_FREE)
		panic("ica: ICA %d (slot %ld) released twice", a->id, (long)(a - icas));
	frame_map_release(&region_map, a->first, a->npages);
	for (uint32_t i = 0; i < a->npages; i++)
		page_slot[a->first + i] = -1;
	a->state = ICA_FREE;
	a->owner = a->holder = NULL;
	a->req = NULL;
	nlive--;
}

/* ---- peel, in either mode (without ica_lock) -------------------------- */

/* p no longer holds s: its resident translations (fast mode's
 * arch_ica_pin) invalidated, its PTEs cleared, one TLB shootdown.  A
 * server with the window (fast mode, ica_fast.c) keeps the whole region
 * mapped, and its pinned entries. */
void ica_unmap_peeled(struct proc *p, struct ica_span s)
{
	if (p->ica_window)
		return;
	arch_ica_unpin(p->as, page_va(s.first), (uint64_t)s.npages * PAGE_SIZE);
	vm_unmap_range(p->as, page_va(s.first), s.npages);
	__atomic_fetch_add(&ica_counts.peels, 1, __ATOMIC_RELAXED);
}

/* ---- system calls ----------------------------------------------------- */

static int free_slot(void)
{
	for (int i = 0; i < ICA_MAX; i++)
		if (icas[i].state == ICA_FREE)
			return i;
	return -1;
}

/* Take a slot and pages for a new ICA, not yet live (nobody finds it). */
static struct ica *reserve(uint64_t pages, long *err)
{
	spin_lock(&ica_lock);
	int slot = free_slot();
	int64_t first = slot < 0 ? -1 : frame_map_take(&region_map, pages, 1);
	if (first < 0) {
		spin_unlock(&ica_lock);
		*err = slot < 0 ? -EAGAIN : -ENOMEM;
		return NULL;
	}
	struct ica *a = &icas[slot];
	*a = (struct ica){ .state = ICA_DYING, .first = (uint32_t)first, .npages = (uint32_t)pages,
			    .va = page_va((uint32_t)first) };
	uint32_t gen = gens[slot]++ & ICA_GEN_MASK;
	if (gen == 0)                    /* generation 0 is never used: ids are >= 1 << 9 */
		gen = gens[slot]++ & ICA_GEN_MASK;
	a->id = (int)(gen << ICA_SLOT_BITS) | slot;
	for (uint32_t i = 0; i < pages; i++)
		page_slot[first + i] = (int16_t)slot;
	nlive++;
	spin_unlock(&ica_lock);
	return a;
}

static void *bytes_of(uint32_t first) { return phys_to_virt(page_pa(first)); }

/* Eight bytes a step with the string instructions, then the rest. */
static void copy_bytes(uint8_t *to, const uint8_t *from, uint64_t n)
{
	uint64_t words = n & ~7ull;
	arch_copy_words(to, from, words);
	memcpy(to + words, from + words, n - words);
}

long ica_alloc(struct proc *p, uint64_t pages, uint64_t *va)
{
	if (pages == 0 || pages > HAKO_ICA_MAX_PAGES)
		return -EINVAL;
	long err;
	struct ica *a = reserve(pages, &err);
	if (!a)
		return err;
	arch_zero_pages(bytes_of(a->first), pages * PAGE_SIZE);   /* nobody sees it yet */
	spin_lock(&ica_lock);
	a->state = ICA_LIVE;
	a->owner = a->holder = p;
	struct ica_span s = ica_span_of(a);
	spin_unlock(&ica_lock);
	ica_map_pasted(p, s);
	*va = page_va(s.first);
	return s.id;
}

struct ica *ica_copy_of(struct ica_span src, uint64_t bytes, long *err)
{
	uint64_t pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	struct ica *a = reserve(pages, err);
	if (!a)
		return NULL;
	uint8_t *to = bytes_of(a->first);
	copy_bytes(to, bytes_of(src.first), bytes);
	uint64_t aligned = (bytes + 7) & ~7ull;   /* nothing of a former user after them */
	memset(to + bytes, 0, aligned - bytes);
	arch_zero_pages(to + aligned, pages * PAGE_SIZE - aligned);
	spin_lock(&ica_lock);
	a->state = ICA_LIVE;             /* owner and holder NULL: the request's */
	spin_unlock(&ica_lock);
	return a;
}

void ica_copy_back(struct ica_span to, struct ica_span from, uint64_t bytes)
{
	copy_bytes(bytes_of(to.first), bytes_of(from.first), bytes);
}

long ica_free(struct proc *p, int id)
{
	spin_lock(&ica_lock);
	struct ica *a = ica_lookup(id);
	long err = !a ? -EINVAL : a->owner != p ? -EPERM : (a->req || (a->holder && a->holder != p)) ? -EBUSY : 0;
	if (err) {
		spin_unlock(&ica_lock);
		return err;
	}
	bool held = a->holder == p;
	struct ica_span s = ica_span_of(a);
	a->holder = NULL;
	a->state = ICA_DYING;            /* unmapped before its pages can go to anyone */
	spin_unlock(&ica_lock);
	if (held)
		ica_unmap_peeled(p, s);
	spin_lock(&ica_lock);
	ica_release(a);
	spin_unlock(&ica_lock);
	return 0;
}

/* Give p its parked ICA back (to == p) or park one p holds (to == NULL). */
static long park_or_unpark(struct proc *p, int id, struct proc *to, struct ica_span *s)
{
	spin_lock(&ica_lock);
	struct ica *a = ica_lookup(id);
	long err = !a ? -EINVAL : to ? (a->owner != p ? -EPERM : (a->holder || a->req) ? -EBUSY : 0)
				   : (a->holder != p ? -EPERM : a->req ? -EBUSY : 0);
	if (!err) {
		a->holder = to;
		*s = ica_span_of(a);
	}
	spin_unlock(&ica_lock);
	return err;
}

long ica_paste(struct proc *p, int id)
{
	struct ica_span s;
	long err = park_or_unpark(p, id, p, &s);
	if (err)
		return err;
	ica_map_pasted(p, s);
	return (long)page_va(s.first);
}

long ica_peel(struct proc *p, int id)
{
	struct ica_span s;
	long err = park_or_unpark(p, id, NULL, &s);
	if (err)
		return err;
	ica_unmap_peeled(p, s);
	return 0;
}

void ica_stat(struct hako_ica_stat *out)
{
	spin_lock(&ica_lock);
	out->region_pages = ica_region_pages;
	out->free_pages = region_map.nfree;
	out->icas = nlive;
	out->icas_max = ICA_MAX;
	out->mode = ica_mode;
	out->windows = ica_window_count();
	spin_unlock(&ica_lock);
	out->pastes = ica_counts.pastes;
	out->peels = ica_counts.peels;
	out->faults = ica_counts.faults;
	out->kept = ica_counts.kept;
}

long ica_set_mode(int mode)
{
	if (mode == HAKO_ISPC_QUERY)
		return ica_mode;
	if (mode != HAKO_ISPC_BASELINE && mode != HAKO_ISPC_FAST)
		return -EINVAL;
	spin_lock(&ica_lock);
	long err = (nlive || ica_window_count()) ? -EBUSY : 0;
	if (!err)
		ica_mode = mode;
	spin_unlock(&ica_lock);
	if (!err)
		arch_tlb_partition(mode == HAKO_ISPC_FAST);   /* fast: reserved ICA entries */
	return err ? err : mode;
}

/*
 * After ispc_proc_end: what p owned or held and no request carries goes
 * back.  Only those: a copy (ica_copy_of) is live with no owner, holder
 * or request while the thread that made or took it still uses it.
 */
/*
 * With serialise=on (on the serialising thread) ica_lock is dropped after
 * every SER_ICA_CHUNK releases: each ICA is let go whole under the lock,
 * and one allocated meanwhile is not p's, so resuming the scan is safe.
 */
void ica_proc_end(struct proc *p)
{
	int chunk = serialiser_chunk(SER_ICA_CHUNK, ICA_MAX);
	spin_lock(&ica_lock);
	for (int i = 0, n = 0; i < ICA_MAX; i++) {
		struct ica *a = &icas[i];
		if (a->state != ICA_LIVE || (a->owner != p && a->holder != p))
			continue;
		if (a->owner == p)
			a->owner = NULL;
		if (a->holder == p)
			a->holder = NULL;        /* its address space goes with it */
		if (!a->req && !a->holder && !a->owner) {
			ica_release(a);
			if (++n % chunk == 0) {
				spin_unlock(&ica_lock);
				spin_lock(&ica_lock);
			}
		}
	}
	ica_window_close(p);
	spin_unlock(&ica_lock);
}
