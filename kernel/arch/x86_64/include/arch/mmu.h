/*
 * arch/mmu.h — the page-table hooks behind the generic address spaces
 * (kernel/mm/vm.c, vm.h), implemented in arch/x86_64/mmu.c.
 *
 * The generic side owns struct addrspace, its lock, the CPUs that may
 * hold its translations and the TLB shootdown; the arch owns the tables'
 * format.  Every arch_pt_* hook that takes an address space is called
 * with as->lock held, except arch_pt_create and arch_pt_destroy (the
 * address space is not shared yet, or any more).  Page-table frames the hooks allocate or free are counted
 * in as->table_frames.
 */
#ifndef HAKO_ARCH_MMU_H
#define HAKO_ARCH_MMU_H

#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <arch/layout.h>

struct addrspace;

/* The arch's part of an address space: the physical address of its PML4. */
struct arch_addrspace {
	uint64_t root;
};

/* Levels of tables: PML4, PDPT, PD, PT. */
#define ARCH_PT_LEVELS 4

/* Page-table frames that unmapping npages pages can empty at most: the
 * size of the freed[] array the unmap hooks fill. */
#define ARCH_PT_FREED_MAX(npages) (3 * ((npages) / 512 + 2))

/* Map one 4 KiB page; -ENOMEM (no frame for a table), -EEXIST (a page
 * is there, or a large page that cannot be split), -EAGAIN: a table is
 * missing and *spare is 0.  A table made is the zeroed frame *spare (then
 * 0): the caller zeroes frames outside as->lock, one per -EAGAIN (vm_map). */
int arch_pt_map(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags, uint64_t *spare);
/* Map one 4 KiB page over whatever is there (splitting a large page);
 * -ENOMEM.  The caller flushes the old translation. */
int arch_pt_set(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags);
/* Unmap one page; its frame (0 if none).  Tables emptied on the way up
 * are unhooked and go to freed[] (*nfreed of them) for the caller to
 * free after the shootdown. */
uint64_t arch_pt_unmap(struct addrspace *as, uint64_t va, uint64_t *freed, int *nfreed);
/* The page at va: its frame and VM_* flags (either may be NULL). */
bool arch_pt_lookup(struct addrspace *as, uint64_t va, uint64_t *frame, unsigned *flags);
/* Clear npages entries from va, tables kept; how many were mapped. */
uint64_t arch_pt_clear_range(struct addrspace *as, uint64_t va, uint64_t npages);
/* Clear npages entries from va, their frames to frames[], emptied tables
 * to freed[] (*nfreed); how many were mapped. */
uint64_t arch_pt_unmap_pages(struct addrspace *as, uint64_t va, uint64_t npages,
			     uint64_t *frames, uint64_t *freed, int *nfreed);
/* One large page (ARCH_PT_LARGE_SIZE, aligned: a PDE with PS); -ENOMEM, -EEXIST. */
#define ARCH_PT_LARGE_SIZE (2ull << 20)
int arch_pt_map_large(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags);
/* Remove the large page at va; whether there was one. */
bool arch_pt_unmap_large(struct addrspace *as, uint64_t va);
/* A new address space's top table, sharing the kernel half; -ENOMEM. */
int arch_pt_create(struct addrspace *as);
/* Free every table of the user half and the VM_OWNED frames, then the top. */
void arch_pt_destroy(struct addrspace *as);

/*
 * On every address-space switch and TLB shootdown, so inline: load the
 * tables of a on this CPU unless they are loaded (whether it loaded
 * them; a CR3 write drops the old space's non-global entries, no PCID,
 * and, serialising, comes after every store before it: vm_switch_on);
 * flush this CPU's TLB for one page, or for npages from va (reloading
 * CR3 instead beyond ARCH_TLB_FLUSH_PAGES_MAX).
 */
static inline bool arch_pt_load(const struct arch_addrspace *a)
{
	uint64_t cr3;
	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	if (cr3 == a->root)
		return false;
	__asm__ volatile("mov %0, %%cr3" : : "r"(a->root) : "memory");
	return true;
}

static inline void arch_tlb_flush_page(uint64_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

#define ARCH_TLB_FLUSH_PAGES_MAX 32
static inline void arch_tlb_flush_range(uint64_t va, uint64_t npages)
{
	if (npages > ARCH_TLB_FLUSH_PAGES_MAX) {
		uint64_t cr3;
		__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
		__asm__ volatile("mov %0, %%cr3" : : "r"(cr3) : "memory");
		return;
	}
	for (uint64_t i = 0; i < npages; i++)
		arch_tlb_flush_page(va + i * PAGE_SIZE);
}

/* Boot: the kernel tables (direct map, image) in kernel_as; per CPU:
 * paging features on and the kernel tables loaded. */
void arch_vm_init(void);
void arch_vm_init_cpu(void);

/*
 * Paper 002's resident ICA translations: the SH-4 reserves TLB entries
 * for ICAs and loads them at paste (arch/sh4/utlb.c).  The x86 TLB is
 * loaded by the page walker and holds no reserved entries, so these do
 * nothing; what fast mode does here instead is fill the PTEs at paste and
 * map the servers' window (ipc/ica_fast.c).  No miss is counted: -ENOSYS,
 * and arch_ica_pinned finds none.  arch_ica_pins: false, so callers skip
 * the work of pinning a window's ICAs.
 */
static inline bool arch_ica_pins(void) { return false; }
static inline void arch_tlb_partition(bool on) { (void)on; }
static inline void arch_ica_pin(struct addrspace *as, uint64_t va, uint64_t size, bool server)
{
	(void)as; (void)va; (void)size; (void)server;
}
static inline void arch_ica_unpin(struct addrspace *as, uint64_t va, uint64_t size)
{
	(void)as; (void)va; (void)size;
}
static inline int arch_ica_pinned(struct addrspace *as, uint64_t va)
{
	(void)as; (void)va;
	return -ENOSYS;
}
static inline int arch_tlb_misses(uint64_t *count)
{
	*count = 0;
	return -ENOSYS;
}
static inline int arch_tlb_miss_classes(uint64_t *counts, int n)
{
	(void)counts; (void)n;
	return -ENOSYS;
}

#endif
