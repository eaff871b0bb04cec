/*
 * vm.c — address spaces: locking, which CPUs hold an address space's
 * translations, and the TLB shootdown, over the arch's page-table hooks
 * (arch/mmu.h).
 *
 * Every hook that walks or changes the tables runs under as->lock; the
 * shootdown runs after it is dropped (smp_call_mask needs interrupts on),
 * and page-table frames the unmap emptied are freed only after it, when
 * no CPU can walk them any more.
 */
#include <stdint.h>
#include <errno.h>
#include <cpu.h>
#include <heap.h>
#include <panic.h>
#include <pmm.h>
#include <smp.h>
#include <vm.h>

struct addrspace kernel_as = { .lock = SPINLOCK_INIT("kernel_as", LOCK_ADDRSPACE) };
/* What each CPU has loaded (vm_switch): kernel_as until its first switch. */
struct addrspace *vm_loaded_as[MAX_CPUS] = { [0 ... MAX_CPUS - 1] = &kernel_as };

/*
 * A page table the map needs is zeroed here, between two holds of
 * as->lock, not inside one: zeroing a frame misses the cache on every
 * line (and writes each back later), the longest part of a map into an
 * empty region, and the lock keeps interrupts off (paper 004's Table 2:
 * spawn's longest section was this).  One frame per missing level; a
 * frame another CPU's map made unnecessary meanwhile is freed.
 */
int vm_map(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags)
{
	if ((va | pa) & (PAGE_SIZE - 1))
		return -EINVAL;
	if (as->supervisor)
		flags &= ~VM_USER;
	uint64_t spare = 0;
	int err;
	for (;;) {
		spin_lock(&as->lock);
		err = arch_pt_map(as, va, pa, flags, &spare);
		spin_unlock(&as->lock);
		if (err != -EAGAIN)
			break;
		if (!(spare = pmm_alloc())) {        /* zeroed, interrupts on */
			err = -ENOMEM;
			break;
		}
	}
	if (spare)
		pmm_free(spare);
	return err;
}

uint64_t vm_unmap(struct addrspace *as, uint64_t va)
{
	uint64_t freed[ARCH_PT_FREED_MAX(1)];
	int nfreed = 0;
	spin_lock(&as->lock);
	uint64_t pa = arch_pt_unmap(as, va, freed, &nfreed);
	spin_unlock(&as->lock);
	if (pa)
		tlb_shootdown(as, va);       /* also drops cached paging-structure entries */
	for (int i = 0; i < nfreed; i++)
		pmm_free(freed[i]);
	return pa;
}

/* vm_lookup; with hold, a reference on the frame found (pmm_get) under as->lock. */
static bool lookup(struct addrspace *as, uint64_t va, uint64_t *pa, unsigned *flags, bool hold)
{
	uint64_t frame;
	spin_lock(&as->lock);
	bool found = arch_pt_lookup(as, va, &frame, flags);
	if (found) {
		if (hold)
			pmm_get(frame);
		if (pa)
			*pa = frame | (va & (PAGE_SIZE - 1));
	}
	spin_unlock(&as->lock);
	return found;
}

bool vm_lookup(struct addrspace *as, uint64_t va, uint64_t *pa, unsigned *flags)
{
	return lookup(as, va, pa, flags, false);
}

bool vm_lookup_get(struct addrspace *as, uint64_t va, uint64_t *pa, unsigned *flags)
{
	return lookup(as, va, pa, flags, true);
}

static void flush_page_ipi(void *va)
{
	arch_tlb_flush_page((uint64_t)va);
}

struct flush_range {
	uint64_t va, npages;
};

static void flush_range_ipi(void *arg)
{
	struct flush_range *r = arg;
	arch_tlb_flush_range(r->va, r->npages);
}

/*
 * The CPUs other than this one that may hold as's translations: those of
 * as->cpus (every CPU for kernel_as) that have as loaded.  The others
 * dropped them when they loaded other tables (no PCID; SH-4 has one CPU),
 * and one that loads as after this read has written vm_loaded_as before
 * (vm_switch_on), so it walks the entries the caller cleared before it
 * read (its fence).
 */
static uint64_t holders(struct addrspace *as)
{
	uint64_t mask = as->cpus & ~(1ull << cpu_id());
	if (as == &kernel_as)
		return mask;
	for (uint64_t m = mask; m; m &= m - 1) {
		int c = __builtin_ctzll(m);
		if (__atomic_load_n(&vm_loaded_as[c], __ATOMIC_RELAXED) != as)
			mask &= ~(1ull << c);
	}
	return mask;
}

/* The range's entries are cleared: flush it here and on every other CPU
 * that may hold them, and wait for them. */
static void shootdown_range(struct addrspace *as, uint64_t va, uint64_t npages)
{
	arch_tlb_flush_range(va, npages);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);     /* entries cleared before reading the CPU mask */
	uint64_t mask = holders(as);
	if (mask) {
		struct flush_range r = { va, npages };
		smp_call_mask(mask, flush_range_ipi, &r, true);
	}
}

uint64_t vm_unmap_range(struct addrspace *as, uint64_t va, uint64_t npages)
{
	spin_lock(&as->lock);
	uint64_t unmapped = arch_pt_clear_range(as, va, npages);
	spin_unlock(&as->lock);
	if (unmapped)
		shootdown_range(as, va, npages);
	return unmapped;
}

uint64_t vm_unmap_pages(struct addrspace *as, uint64_t va, uint64_t npages, uint64_t *frames)
{
	uint64_t freed[ARCH_PT_FREED_MAX(VM_UNMAP_PAGES_MAX)];
	int nfreed = 0;
	if (npages > VM_UNMAP_PAGES_MAX)
		panic("vm_unmap_pages: %lu pages, at most %d", npages, VM_UNMAP_PAGES_MAX);
	spin_lock(&as->lock);
	uint64_t n = arch_pt_unmap_pages(as, va, npages, frames, freed, &nfreed);
	spin_unlock(&as->lock);
	if (n)
		shootdown_range(as, va, npages);
	for (int i = 0; i < nfreed; i++)
		pmm_free(freed[i]);
	return n;
}

int vm_map_large(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags)
{
	if (as->supervisor)
		flags &= ~VM_USER;
	if ((va | pa) & (VM_LARGE_SIZE - 1))
		return -EINVAL;
	spin_lock(&as->lock);
	int err = arch_pt_map_large(as, va, pa, flags);
	spin_unlock(&as->lock);
	return err;
}

void vm_unmap_large(struct addrspace *as, uint64_t va)
{
	spin_lock(&as->lock);
	bool was = arch_pt_unmap_large(as, va);
	spin_unlock(&as->lock);
	if (was)
		tlb_shootdown(as, va);       /* one flush drops the whole large entry */
}

/* Invalidate va here and on every other CPU that may cache it. */
void tlb_shootdown(struct addrspace *as, uint64_t va)
{
	arch_tlb_flush_page(va);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);     /* pairs with vm_switch_on's vm_loaded_as */
	uint64_t mask = holders(as);
	if (mask)
		smp_call_mask(mask, flush_page_ipi, (void *)va, true);
}

void vm_init(void)
{
	arch_vm_init();
	vm_init_cpu();
}

void vm_init_cpu(void)
{
	arch_vm_init_cpu();
	__atomic_fetch_or(&kernel_as.cpus, 1ull << cpu_id(), __ATOMIC_RELAXED);
}

/* Map device registers uncached at their direct-map address. */
void *vm_map_mmio(uint64_t pa, uint64_t size)
{
	uint64_t first = pa & ~(uint64_t)(PAGE_SIZE - 1);
	for (uint64_t p = first; p < pa + size; p += PAGE_SIZE) {
		uint64_t va = (uint64_t)phys_to_virt(p);
		spin_lock(&kernel_as.lock);
		int err = arch_pt_set(&kernel_as, va, p, VM_WRITE | VM_NOCACHE | VM_GLOBAL);
		spin_unlock(&kernel_as.lock);
		if (err)
			return NULL;
		arch_tlb_flush_page(va);
	}
	return phys_to_virt(pa);
}

struct addrspace *vm_create(void)
{
	struct addrspace *as = kzalloc(sizeof *as);
	if (!as)
		return NULL;
	if (arch_pt_create(as) < 0) {
		kfree(as);
		return NULL;
	}
	spin_init(&as->lock, "addrspace", LOCK_ADDRSPACE);
	as->table_frames = 1;
	return as;
}

void vm_destroy(struct addrspace *as)
{
	arch_pt_destroy(as);
	kfree(as);
}

struct addrspace *vm_loaded(void)
{
	return vm_loaded_as[cpu_id()];
}
