/*
 * mmu.c — Hako's page tables on SH-4 (format in arch/mmu.h) and the TLB
 * operations around them.
 *
 * A directory entry holds the P1 address of its page table (0: none), so
 * the miss handler (vectors.S) follows it without arithmetic; an entry
 * holds the PTEL word the handler loads, with VM_OWNED, VM_EXEC and "part
 * of a large page" in bits 29-31, which PTEL does not have.  Writable
 * pages are loaded dirty (no initial-write exception).  ASIDs: kernel_as
 * has 0, every other address space its own of 1-255 while there are
 * free ones; one made when none is free shares 0 and its load flushes
 * the TLB.  Kernel entries (VM_GLOBAL, P3) are shared and match every ASID.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <pmm.h>
#include <vm.h>
#include <arch/arch.h>
#include <arch/mmu.h>
#include <arch/trapframe.h>
#include "sh4.h"

#define P1(pa)       ((uint32_t)(pa) + 0x80000000u)
#define PA_OF_P1(v)  ((uint32_t)(v) - 0x80000000u)

#define PTE_WT       (1u << 0)
#define PTE_SH       (1u << 1)
#define PTE_D        (1u << 2)
#define PTE_C        (1u << 3)
#define PTE_SZ0      (1u << 4)
#define PTE_PR_W     (1u << 5)      /* PR bit 0: writable */
#define PTE_PR_U     (1u << 6)      /* PR bit 1: user mode may access */
#define PTE_SZ1      (1u << 7)
#define PTE_V        (1u << 8)
#define PTE_PPN      0x1ffffc00u
#define PTE_OWNED    (1u << 29)
#define PTE_EXEC     (1u << 30)
#define PTE_LARGE    (1u << 31)
#define SZ_4K        PTE_SZ0
#define SZ_1M        (PTE_SZ1 | PTE_SZ0)

#define ENTRIES      1024
#define LARGE_PAGES  (ARCH_PT_LARGE_SIZE / PAGE_SIZE)

static uint32_t asid_used[256 / 32];

static uint32_t encode(uint64_t pa, unsigned flags, uint32_t size)
{
	uint32_t e = ((uint32_t)pa & PTE_PPN) | PTE_V | size;
	if (flags & VM_WRITE)
		e |= PTE_PR_W | PTE_D;
	if (flags & VM_USER)
		e |= PTE_PR_U;
	if (flags & VM_GLOBAL)
		e |= PTE_SH;
	if (!(flags & VM_NOCACHE))
		e |= PTE_C;
	if (flags & VM_OWNED)
		e |= PTE_OWNED;
	if (flags & VM_EXEC)
		e |= PTE_EXEC;
	return e;
}

static unsigned decode(uint32_t e)
{
	return ((e & PTE_PR_W) ? VM_WRITE : 0) | ((e & PTE_PR_U) ? VM_USER : 0) |
	       ((e & PTE_SH) ? VM_GLOBAL : 0) | ((e & PTE_C) ? 0 : VM_NOCACHE) |
	       ((e & PTE_OWNED) ? VM_OWNED : 0) | ((e & PTE_EXEC) ? VM_EXEC : 0);
}

static uint32_t *dir_of(const struct addrspace *as) { return (uint32_t *)P1(as->arch.root); }

/* The entry for va, making its table if create (its frame from
 * vm_table_frame); NULL if none (or no frame, *need set if spare was used up). */
static uint32_t *slot(struct addrspace *as, uint64_t va, bool create, uint64_t *spare, bool *need)
{
	uint32_t v = (uint32_t)va, *dir = dir_of(as);
	uint32_t *t = (uint32_t *)dir[v >> 22];
	if (!t) {
		if (!create)
			return NULL;
		uint64_t pa = vm_table_frame(spare, need);
		if (!pa)
			return NULL;
		as->table_frames++;
		t = (uint32_t *)P1(pa);
		dir[v >> 22] = (uint32_t)t;
	}
	return &t[(v >> 12) & (ENTRIES - 1)];
}

/* Unhook va's table if it holds nothing; its frame to freed[]. */
static void drop_table_if_empty(struct addrspace *as, uint64_t va, uint64_t *freed, int *nfreed)
{
	uint32_t v = (uint32_t)va, *dir = dir_of(as);
	uint32_t *t = (uint32_t *)dir[v >> 22];
	if (!t)
		return;
	for (int i = 0; i < ENTRIES; i++)
		if (t[i])
			return;
	dir[v >> 22] = 0;
	as->table_frames--;
	if (freed)
		freed[(*nfreed)++] = PA_OF_P1(t);
	else
		pmm_free(PA_OF_P1(t));
}

int arch_pt_map(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags, uint64_t *spare)
{
	bool need = false;
	uint32_t *e = slot(as, va, true, spare, &need);
	if (!e)
		return need ? -EAGAIN : -ENOMEM;
	if (*e & PTE_V)
		return -EEXIST;
	*e = encode(pa, flags, SZ_4K);
	return 0;
}

int arch_pt_set(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags)
{
	uint32_t *e = slot(as, va, true, NULL, NULL);
	if (!e)
		return -ENOMEM;
	if (*e & PTE_LARGE) {                        /* split: the rest keep 4 KiB pages of it */
		uint32_t *first = e - (((uint32_t)va >> 12) & (LARGE_PAGES - 1));
		uint32_t base = first[0] & PTE_PPN;
		for (uint32_t i = 0; i < LARGE_PAGES; i++)
			first[i] = (first[i] & ~(PTE_PPN | PTE_LARGE | PTE_SZ1)) | SZ_4K | (base + i * PAGE_SIZE);
	}
	*e = encode(pa, flags, SZ_4K);
	return 0;
}

uint64_t arch_pt_unmap(struct addrspace *as, uint64_t va, uint64_t *freed, int *nfreed)
{
	uint32_t *e = slot(as, va, false, NULL, NULL);
	if (!e || !(*e & PTE_V) || (*e & PTE_LARGE))
		return 0;
	uint64_t pa = *e & PTE_PPN;
	*e = 0;
	drop_table_if_empty(as, va, freed, nfreed);
	return pa;
}

bool arch_pt_lookup(struct addrspace *as, uint64_t va, uint64_t *frame, unsigned *flags)
{
	uint32_t v = (uint32_t)va;
	if (v >= 0x80000000u && v < 0xc0000000u) {     /* P1/P2: fixed, in every address space */
		if (frame)
			*frame = v & 0x1ffff000u;
		if (flags)
			*flags = VM_WRITE | VM_EXEC | VM_GLOBAL | (v >= 0xa0000000u ? VM_NOCACHE : 0);
		return true;
	}
	uint32_t *e = slot(as, va, false, NULL, NULL);
	if (!e || !(*e & PTE_V))
		return false;
	if (frame)
		*frame = (*e & PTE_PPN) & ~(uint32_t)(PAGE_SIZE - 1);
	if (flags)
		*flags = decode(*e);
	return true;
}

uint64_t arch_pt_clear_range(struct addrspace *as, uint64_t va, uint64_t npages)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < npages; i++) {
		uint32_t *e = slot(as, va + i * PAGE_SIZE, false, NULL, NULL);
		if (e && (*e & PTE_V) && !(*e & PTE_LARGE)) {
			*e = 0;
			n++;
		}
	}
	return n;
}

uint64_t arch_pt_unmap_pages(struct addrspace *as, uint64_t va, uint64_t npages,
			     uint64_t *frames, uint64_t *freed, int *nfreed)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t pa = arch_pt_unmap(as, va + i * PAGE_SIZE, freed, nfreed);
		if (pa)
			frames[n++] = pa;
	}
	return n;
}

int arch_pt_map_large(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags)
{
	uint32_t *e = slot(as, va, true, NULL, NULL);
	if (!e)
		return -ENOMEM;
	for (uint32_t i = 0; i < LARGE_PAGES; i++)
		if (e[i])
			return -EEXIST;
	uint32_t w = encode(pa, flags, SZ_1M) | PTE_LARGE;
	for (uint32_t i = 0; i < LARGE_PAGES; i++)
		e[i] = w;
	return 0;
}

bool arch_pt_unmap_large(struct addrspace *as, uint64_t va)
{
	uint32_t *e = slot(as, va, false, NULL, NULL);
	if (!e || !(*e & PTE_LARGE))
		return false;
	for (uint32_t i = 0; i < LARGE_PAGES; i++)
		e[i] = 0;
	drop_table_if_empty(as, va, NULL, NULL);
	return true;
}

static uint32_t asid_take(void)
{
	for (uint32_t a = 1; a < 256; a++)
		if (!(asid_used[a / 32] & (1u << (a % 32)))) {
			asid_used[a / 32] |= 1u << (a % 32);
			return a;
		}
	return 0;
}

int arch_pt_create(struct addrspace *as)
{
	uint64_t pa = pmm_alloc();
	if (!pa)
		return -ENOMEM;
	as->arch.root = pa;
	uint64_t flags = arch_irq_save();
	as->arch.asid = asid_take();
	arch_irq_restore(flags);
	return 0;
}

void arch_pt_destroy(struct addrspace *as)
{
	uint32_t *dir = dir_of(as);
	for (int d = 0; d < ENTRIES / 2; d++) {          /* U0: the lower 2 GiB */
		uint32_t *t = (uint32_t *)dir[d];
		if (!t)
			continue;
		for (int i = 0; i < ENTRIES; i++)
			if ((t[i] & PTE_V) && (t[i] & PTE_OWNED) && !(t[i] & PTE_LARGE))
				pmm_free(t[i] & PTE_PPN);
		pmm_free(PA_OF_P1(t));
	}
	pmm_free(as->arch.root);
	uint64_t flags = arch_irq_save();
	if (as->arch.asid)
		asid_used[as->arch.asid / 32] &= ~(1u << (as->arch.asid % 32));
	sh4_utlb_invalidate_all();       /* its ASID's entries go */
	arch_irq_restore(flags);
}

bool arch_pt_load(const struct arch_addrspace *a)
{
	uint32_t dir = P1(a->root);
	if (sh4_user_dir == dir)
		return false;
	sh4_user_dir = dir;
	if (a->asid == 0)
		sh4_utlb_invalidate_all();
	mmio_write32(SH4_PTEH, a->asid);
	return true;
}

/* An associative write of the UTLB's address array with V clear drops
 * the entry for the page in the current ASID (or a shared one), and the
 * ITLB's.  One write per 1 KB quarter of the page: the miss handler loads
 * an entry with PTEH as the miss left it, whose VPN keeps bits 10-11 of
 * the address that missed, and QEMU's associative write compares the
 * whole VPN (a write for the page's first quarter alone leaves an entry
 * loaded by a miss in another quarter valid, mapping the old frame). */
void arch_tlb_flush_page(uint64_t va)
{
	uint64_t flags = arch_irq_save();
	uint32_t asid = mmio_read32(SH4_PTEH) & 0xff;
	uint32_t page = (uint32_t)va & ~(uint32_t)(PAGE_SIZE - 1);
	for (uint32_t q = 0; q < PAGE_SIZE; q += 1024)
		mmio_write32(SH4_UTLB_ADDR | SH4_UTLB_ASSOC, (page + q) | asid);
	arch_irq_restore(flags);
}

#define TLB_FLUSH_PAGES_MAX 16
void arch_tlb_flush_range(uint64_t va, uint64_t npages)
{
	if (npages > TLB_FLUSH_PAGES_MAX) {
		sh4_utlb_invalidate_all();
		return;
	}
	for (uint64_t i = 0; i < npages; i++)
		arch_tlb_flush_page(va + i * PAGE_SIZE);
}

/* kernel_as: a directory for P3 (kernel stacks); P1 and P2 need none. */
void arch_vm_init(void)
{
	uint64_t pa = pmm_alloc();
	if (!pa)
		return;
	kernel_as.arch.root = pa;
	kernel_as.arch.asid = 0;
	kernel_as.table_frames = 1;
	sh4_kernel_dir = P1(pa);
}

/* Translation on, the TLB empty, ASID 0 with kernel_as's directory loaded. */
void arch_vm_init_cpu(void)
{
	sh4_user_dir = P1(kernel_as.arch.root);
	mmio_write32(SH4_PTEH, 0);
	mmio_write32(SH4_MMUCR, MMUCR_AT | MMUCR_TI);
}
