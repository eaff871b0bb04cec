/*
 * vm.h — address spaces and page mappings (vm.c, over the arch's
 * page-table hooks in arch/mmu.h).
 *
 * Every address space shares the kernel half (the direct map of RAM and
 * MMIO at DIRECT_MAP_BASE, the kernel image at KERNEL_VBASE); the lower
 * half is its own.  Unmapping invalidates the translation on every CPU
 * that may hold it (TLB shootdown by IPI).
 */
#ifndef HAKO_VM_H
#define HAKO_VM_H

#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <pmm.h>
#include <spinlock.h>
#include <arch/mmu.h>

#define VM_WRITE   (1u << 0)
#define VM_EXEC    (1u << 1)
#define VM_USER    (1u << 2)
#define VM_GLOBAL  (1u << 3)
#define VM_NOCACHE (1u << 4)
#define VM_OWNED   (1u << 5)   /* the frame belongs to the mapping: vm_destroy frees it */

struct addrspace {
	struct arch_addrspace arch;     /* the arch's handle on its tables (arch/mmu.h) */
	volatile uint64_t cpus;         /* CPUs that have loaded it (vm_switch_on) */
	struct spinlock lock;           /* guards the page tables */
	uint64_t table_frames;          /* page-table frames it owns */
	bool supervisor;                /* a supervisor-mode process's (paper 003): every page
	                                 * is a supervisor page, vm_map drops VM_USER; set
	                                 * before anything is mapped */
};

extern struct addrspace kernel_as;

/*
 * The frame for a page table an arch_pt_* walk makes, zeroed.  With spare
 * (arch_pt_map's, which vm_map zeroes outside as->lock): *spare, then 0;
 * when it is used up, 0 with *need set (arch_pt_map answers -EAGAIN).
 * Without: a frame of pmm_alloc's, 0 when memory is exhausted.
 */
static inline uint64_t vm_table_frame(uint64_t *spare, bool *need)
{
	if (!spare)
		return pmm_alloc();
	uint64_t pa = *spare;
	*spare = 0;
	if (!pa)
		*need = true;
	return pa;
}

void vm_init(void);                          /* build and load the kernel tables */
void vm_init_cpu(void);                      /* per-CPU: load kernel tables, NX/SMEP/SMAP */
int vm_map(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags);
uint64_t vm_unmap(struct addrspace *as, uint64_t va);   /* returns the frame, 0 if none */
bool vm_lookup(struct addrspace *as, uint64_t va, uint64_t *pa, unsigned *flags);
/* vm_lookup that also holds the frame found (pmm_get, taken before the
 * lock is dropped): an unmap meanwhile cannot give it to anyone else until
 * the caller's pmm_put of *pa.  For copies through the direct map into or
 * out of another address space. */
bool vm_lookup_get(struct addrspace *as, uint64_t va, uint64_t *pa, unsigned *flags);
struct addrspace *vm_create(void);
void vm_destroy(struct addrspace *as);       /* frees its page tables and its VM_OWNED frames */

/* What each CPU has loaded (vm_switch), indexed by cpu->id: kernel_as
 * before its first switch, never a destroyed one (a CPU switches away
 * before the last thread of a process is reaped).  Written only by its
 * own CPU, interrupts off, just before it loads the tables; read by the
 * shootdowns of other CPUs. */
extern struct addrspace *vm_loaded_as[MAX_CPUS];

/*
 * Load as on CPU c, the one running.  as->cpus says which CPUs have loaded
 * it, a superset of those that hold its translations: a CPU's bit stays
 * when it leaves, and a shootdown interrupts only the CPUs of the mask
 * that have the space loaded (vm_loaded_as; vm.c's holders).  So a switch
 * back (a server call and its reply) finds its bit set and writes nothing
 * shared.  vm_loaded_as is written before the tables are loaded
 * (arch_pt_load orders them): a shootdown that does not see as here yet
 * has cleared its entries before this CPU can walk them.  Interrupts off
 * (every thread switch holds a lock).  Inline: every thread switch between
 * processes calls it.
 */
static inline __attribute__((always_inline)) void vm_switch_on(struct cpu *c, struct addrspace *as)
{
	uint64_t bit = 1ull << c->id;
	if (!(as->cpus & bit))
		__atomic_fetch_or(&as->cpus, bit, __ATOMIC_SEQ_CST);
	__atomic_store_n(&vm_loaded_as[c->id], as, __ATOMIC_RELAXED);
	if (arch_pt_load(&as->arch))
		c->as_loads++;
}
/* The same on the CPU the caller runs on (c: this_cpu(), for a caller that has it). */
static inline void vm_switch(struct addrspace *as) { vm_switch_on(this_cpu(), as); }
/* What this CPU has loaded (kernel_as before its first vm_switch); interrupts
 * off or in an interrupt, so the CPU and its loaded space stay put. */
struct addrspace *vm_loaded(void);
void *vm_map_mmio(uint64_t pa, uint64_t size);
void tlb_shootdown(struct addrspace *as, uint64_t va);
/* Unmap npages from va without freeing their frames, with one shootdown
 * for the lot; the page tables stay for the next mapping there (ICAs
 * come back to the same addresses).  Returns how many were mapped. */
uint64_t vm_unmap_range(struct addrspace *as, uint64_t va, uint64_t npages);
/* Unmap npages (at most VM_UNMAP_PAGES_MAX) from va under one lock hold,
 * freeing emptied page tables, with one ranged TLB shootdown; the frames
 * that were mapped go to frames[] (the caller frees them); their count. */
#define VM_UNMAP_PAGES_MAX 64
uint64_t vm_unmap_pages(struct addrspace *as, uint64_t va, uint64_t npages, uint64_t *frames);
/* One large page (va, pa aligned; the arch's size, 2 MiB on x86_64);
 * -EEXIST if a page or table is there. */
#define VM_LARGE_SIZE ARCH_PT_LARGE_SIZE
int vm_map_large(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags);
void vm_unmap_large(struct addrspace *as, uint64_t va);

#endif
