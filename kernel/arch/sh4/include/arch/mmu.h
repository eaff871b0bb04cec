/*
 * arch/mmu.h — the page-table hooks behind the generic address spaces
 * (kernel/mm/vm.c, vm.h), implemented in arch/sh4/mmu.c.
 *
 * The SH-4 loads its TLB by software: a miss raises an exception whose
 * handler (tlbmiss.S) walks Hako's tables and loads one UTLB entry with
 * LDTLB.  The tables are two levels: a 4 KiB directory of 1024 words, one
 * per 4 MiB, each the physical address of a 4 KiB table of 1024 entries,
 * one per page, in the PTEL register's format (PPN, V, size, protection,
 * C, D, SH) plus software bits the handler masks off.  The user half
 * (U0) is walked in the loaded address space's directory, P3 (kernel
 * stacks) in kernel_as's.  Each address space has an ASID, written to
 * PTEH on a switch, so a switch flushes nothing; kernel entries are
 * shared (SH) and match every ASID.
 *
 * Every arch_pt_* hook that takes an address space is called with
 * as->lock held, except arch_pt_create and arch_pt_destroy.
 */
#ifndef HAKO_ARCH_MMU_H
#define HAKO_ARCH_MMU_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/layout.h>

struct addrspace;

/* The physical address of the directory, and the address space's ASID. */
struct arch_addrspace {
	uint64_t root;
	uint32_t asid;
};

/* Levels of tables: the directory and the page tables. */
#define ARCH_PT_LEVELS 2

#define ARCH_PT_FREED_MAX(npages) ((npages) / 1024 + 2)

int arch_pt_map(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags, uint64_t *spare);
int arch_pt_set(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags);
uint64_t arch_pt_unmap(struct addrspace *as, uint64_t va, uint64_t *freed, int *nfreed);
bool arch_pt_lookup(struct addrspace *as, uint64_t va, uint64_t *frame, unsigned *flags);
uint64_t arch_pt_clear_range(struct addrspace *as, uint64_t va, uint64_t npages);
uint64_t arch_pt_unmap_pages(struct addrspace *as, uint64_t va, uint64_t npages,
			     uint64_t *frames, uint64_t *freed, int *nfreed);
/* One large page: the SH-4's 1 MiB page size, 256 entries of one table
 * with the 1 MiB size bits; -ENOMEM, -EEXIST. */
#define ARCH_PT_LARGE_SIZE (1ull << 20)
int arch_pt_map_large(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags);
bool arch_pt_unmap_large(struct addrspace *as, uint64_t va);
int arch_pt_create(struct addrspace *as);
void arch_pt_destroy(struct addrspace *as);

/* Load a's directory and ASID on this CPU unless they are loaded (whether
 * it loaded them); the TLB keeps every ASID's entries. */
bool arch_pt_load(const struct arch_addrspace *a);
/* Drop this CPU's translation of one page, or of npages from va, in
 * the loaded ASID and the shared kernel entries. */
void arch_tlb_flush_page(uint64_t va);
void arch_tlb_flush_range(uint64_t va, uint64_t npages);

void arch_vm_init(void);
void arch_vm_init_cpu(void);

/*
 * Paper 002's resident ICA translations (arch/sh4/utlb.c; ipc/ica.c and
 * ica_fast.c call them).  arch_tlb_partition(on): fast mode's UTLB, 32
 * general entries for the miss handler, 8 reserved for the servers' ICAs
 * (1 MiB) and 24 for the applications' (4 KiB); off: all 64 for the
 * refill.  It invalidates the whole UTLB.  With the partition on,
 * arch_ica_pin loads the translation of [va, va + size) that as's tables
 * hold into reserved entries (server: the 1 MiB entries of a server's
 * window; else 4 KiB entries, the first 16 KiB), so the first access
 * does not miss and a switch keeps it (ASIDs); arch_ica_unpin invalidates
 * an application's reserved entries in that range.  arch_ica_pinned: the
 * reserved entry translating va in as, or -ENOENT (for the tests).
 * arch_tlb_misses: the misses the handler has served since boot;
 * arch_tlb_miss_classes: the same in n counts by the class of the address
 * (hako_perf.h's HAKO_TLB_MISS_*; classes past n are left out).
 * arch_ica_pins: whether arch_ica_pin does anything (true here).
 */
static inline bool arch_ica_pins(void) { return true; }
void arch_tlb_partition(bool on);
void arch_ica_pin(struct addrspace *as, uint64_t va, uint64_t size, bool server);
void arch_ica_unpin(struct addrspace *as, uint64_t va, uint64_t size);
int arch_ica_pinned(struct addrspace *as, uint64_t va);
int arch_tlb_misses(uint64_t *count);
int arch_tlb_miss_classes(uint64_t *counts, int n);

#endif
