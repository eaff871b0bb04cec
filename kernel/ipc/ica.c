/*
 * ica.c — inter-core communication areas (paper 002): the region they
 * come from, the table of live ones, and pasting them into and peeling
 * them out of address spaces.
 *
 * The region is one physically contiguous, 2 MiB aligned run of frames
 * taken at boot; page i of it appears at HAKO_ICA_AREA + i pages in any
 * process holding the ICA that owns page i.  What a process may touch is
 * decided by the table alone (holder == the process); its page tables
 * only follow, outside ica_lock:
 *   baseline  paste maps nothing; each first touch faults into
 *             ica_fault, which maps that page if the process holds it;
 *   fast      paste fills every PTE at once; the servers named by
 *             `servers=` map the whole region once (2 MiB pages) and
 *             pastes to or peels from them change no page table.
 * A peel clears the PTEs with one TLB shootdown.  A fill racing with a
 * peel is undone by its own re-check of the holder, so after a peel has
 * returned the old holder has no mapping left.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <errno.h>
#include <frame_map.h>
#include <ica.h>
#include <kprintf.h>
#include <pmm.h>
#include <proc.h>
#include <vm.h>
#include <arch/arch.h>

#define REGION_MAX_PAGES 1024        /* 4 MiB */
#define REGION_MIN_PAGES 512         /* 2 MiB, one large page */
#define ICA_GEN_MASK     0x3fffff    /* ids stay positive */
#define ICA_PTE_FLAGS    (VM_USER | VM_WRITE)

struct spinlock ica_lock = SPINLOCK_INIT("ica", LOCK_ICA);
int ica_mode = HAKO_ISPC_BASELINE;

static uint64_t region_pa;
static uint32_t region_pages;
static struct frame_map region_map;
static uint64_t region_bits[REGION_MAX_PAGES / 64];
static int16_t page_slot[REGION_MAX_PAGES];      /* the ICA on each page, or -1 */
static struct ica icas[ICA_MAX];
static uint32_t gens[ICA_MAX];
static int nlive, nwindows;
static uint64_t stat_pastes, stat_peels, stat_faults, stat_kept;
static char servers[128] = "nameserver,echo,ramdisk";

static uint64_t page_va(uint32_t page) { return HAKO_ICA_AREA + (uint64_t)page * PAGE_SIZE; }
static uint64_t page_pa(uint32_t page) { return region_pa + (uint64_t)page * PAGE_SIZE; }
uint64_t ica_va(const struct ica *a) { return page_va(a->first); }

static void read_options(void)
{
	const char *mode = cmdline_get(&kcmdline, "ispc");
	if (mode && strcmp(mode, "fast") == 0)
		ica_mode = HAKO_ISPC_FAST;
	else if (mode && strcmp(mode, "baseline") != 0)
		kprintf("ica: unknown ispc=%s, using baseline\n", mode);
	const char *list = cmdline_get(&kcmdline, "servers");
	if (list)
		strlcpy(servers, list, sizeof servers);
}

void ica_init(void)
{
	read_options();
	uint64_t want = pmm_total_count() / 8 / REGION_MIN_PAGES * REGION_MIN_PAGES;
	want = want > REGION_MAX_PAGES ? REGION_MAX_PAGES : want < REGION_MIN_PAGES ? REGION_MIN_PAGES : want;
	region_pa = pmm_alloc_contig(want, REGION_MIN_PAGES);
	region_pages = region_pa ? (uint32_t)want : 0;
	frame_map_init(&region_map, region_bits, REGION_MAX_PAGES);
	frame_map_release(&region_map, 0, region_pages);
	for (int i = 0; i < REGION_MAX_PAGES; i++)
		page_slot[i] = -1;
	for (int i = 0; i < ICA_MAX; i++)
		gens[i] = 1;
	if (!region_pages)
		kprintf("ica: no room for the ICA region: every ica_alloc will fail\n");
	else
		kprintf("ica: %u KiB region at %lx, ispc mode %s, servers %s\n", region_pages * 4,
			region_pa, ica_mode == HAKO_ISPC_FAST ? "fast" : "baseline", servers);
}

/* ---- the table (caller holds ica_lock) -------------------------------- */

struct ica *ica_lookup(int id)
{
	if (id < 0)
		return NULL;
	struct ica *a = &icas[id & (ICA_MAX - 1)];
	return a->state == ICA_LIVE && a->id == id ? a : NULL;
}

void ica_release(struct ica *a)
{
	frame_map_release(&region_map, a->first, a->npages);
	for (uint32_t i = 0; i < a->npages; i++)
		page_slot[a->first + i] = -1;
	a->state = ICA_FREE;
	a->owner = a->holder = NULL;
	a->req = NULL;
	nlive--;
}

struct ica_span ica_span_of(struct ica *a)
{
	return (struct ica_span){ a, a->id, a->first, a->npages };
}

static bool holds(struct proc *p, struct ica_span s)
{
	return s.a->state == ICA_LIVE && s.a->id == s.id && s.a->holder == p;
}

/* ---- page tables (without ica_lock) ----------------------------------- */


void ica_map_pasted(struct proc *p, struct ica_span s)
{
	if (p->ica_window || ica_mode != HAKO_ISPC_FAST)
		return;
	for (uint32_t i = 0; i < s.npages; i++)
		if (vm_map(p->as, page_va(s.first + i), page_pa(s.first + i), ICA_PTE_FLAGS) == -ENOMEM)
			break;                   /* the rest will fault in */
	__atomic_fetch_add(&stat_pastes, 1, __ATOMIC_RELAXED);
	if (proc_alone(p))
		return;
	spin_lock(&ica_lock);
	bool still = holds(p, s);
	spin_unlock(&ica_lock);
	if (!still)                      /* peeled meanwhile by another thread */
		vm_unmap_range(p->as, page_va(s.first), s.npages);
}

void ica_count_kept(void)
{
	__atomic_fetch_add(&stat_kept, 1, __ATOMIC_RELAXED);
}

void ica_unmap_peeled(struct proc *p, struct ica_span s)
{
	if (p->ica_window)
		return;
	vm_unmap_range(p->as, page_va(s.first), s.npages);
	__atomic_fetch_add(&stat_peels, 1, __ATOMIC_RELAXED);
}

int ica_fault(struct proc *p, uint64_t va)
{
	uint64_t page = (va - HAKO_ICA_AREA) / PAGE_SIZE;
	if (va < HAKO_ICA_AREA || page >= region_pages)
		return -EFAULT;
	spin_lock(&ica_lock);
	int slot = page_slot[page];
	struct ica_span s = slot >= 0 ? ica_span_of(&icas[slot]) : (struct ica_span){ 0 };
	bool ok = slot >= 0 && holds(p, s);
	spin_unlock(&ica_lock);
	if (!ok)
		return -EFAULT;
	int err = vm_map(p->as, page_va(page), page_pa(page), ICA_PTE_FLAGS);
	if (err < 0 && err != -EEXIST)
		return err;
	__atomic_fetch_add(&stat_faults, 1, __ATOMIC_RELAXED);
	if (proc_alone(p))
		return 0;
	spin_lock(&ica_lock);
	ok = holds(p, s);
	spin_unlock(&ica_lock);
	if (!ok)                         /* peeled while we mapped: not its page any more */
		vm_unmap_range(p->as, page_va(page), 1);
	return ok ? 0 : -EFAULT;
}

/* ---- the servers' window ---------------------------------------------- */

static bool named_server(const struct proc *p)
{
	size_t n = strlen(p->name);
	for (const char *s = servers; *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		if (len == n && strncmp(s, p->name, n) == 0)
			return true;
		s += len + (end ? 1 : 0);
	}
	return false;
}

void ica_window_open(struct proc *p)
{
	if (ica_mode != HAKO_ISPC_FAST || p->ica_window || !region_pages || !named_server(p))
		return;
	uint64_t size = (uint64_t)region_pages * PAGE_SIZE, off;
	for (off = 0; off < size; off += VM_LARGE_SIZE)
		if (vm_map_large(p->as, HAKO_ICA_AREA + off, region_pa + off, ICA_PTE_FLAGS) < 0)
			break;
	if (off < size) {                /* it holds ICAs mapped page by page: stay so */
		while (off > 0) {
			off -= VM_LARGE_SIZE;
			vm_unmap_large(p->as, HAKO_ICA_AREA + off);
		}
		return;
	}
	spin_lock(&ica_lock);
	p->ica_window = true;
	nwindows++;
	spin_unlock(&ica_lock);
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
	*a = (struct ica){ .state = ICA_DYING, .first = (uint32_t)first, .npages = (uint32_t)pages };
	a->id = (int)((gens[slot]++ & ICA_GEN_MASK) << ICA_SLOT_BITS) | slot;
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
	out->region_pages = region_pages;
	out->free_pages = region_map.nfree;
	out->icas = nlive;
	out->icas_max = ICA_MAX;
	out->mode = ica_mode;
	out->windows = nwindows;
	spin_unlock(&ica_lock);
	out->pastes = stat_pastes;
	out->peels = stat_peels;
	out->faults = stat_faults;
	out->kept = stat_kept;
}

long ica_set_mode(int mode)
{
	if (mode == HAKO_ISPC_QUERY)
		return ica_mode;
	if (mode != HAKO_ISPC_BASELINE && mode != HAKO_ISPC_FAST)
		return -EINVAL;
	spin_lock(&ica_lock);
	long err = (nlive || nwindows) ? -EBUSY : 0;
	if (!err)
		ica_mode = mode;
	spin_unlock(&ica_lock);
	return err ? err : mode;
}

/* After ispc_proc_end: what p owned and no request carries goes back. */
void ica_proc_end(struct proc *p)
{
	spin_lock(&ica_lock);
	for (int i = 0; i < ICA_MAX; i++) {
		struct ica *a = &icas[i];
		if (a->state != ICA_LIVE)
			continue;
		if (a->owner == p)
			a->owner = NULL;
		if (a->holder == p)
			a->holder = NULL;        /* its address space goes with it */
		if (!a->req && !a->holder && !a->owner)
			ica_release(a);
	}
	if (p->ica_window) {
		p->ica_window = false;
		nwindows--;
	}
	spin_unlock(&ica_lock);
}
