/*
 * mmu.c — x86_64 4-level page tables: the arch_pt_* hooks (arch/mmu.h)
 * under the generic address spaces of kernel/mm/vm.c.
 *
 * The kernel tables map RAM at DIRECT_MAP_BASE with 2 MiB pages (RW, NX,
 * global) and the image at KERNEL_VBASE with 4 KiB pages whose rights
 * follow the sections (text RX, rodata R, data RW).  The identity map of
 * boot.S is gone after vm_init(): a NULL dereference faults.  Every
 * arch_pt_* hook that takes an address space runs with as->lock held
 * (vm.c takes it), except create, destroy and load.
 */
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <cpu.h>
#include <heap.h>
#include <kprintf.h>
#include <panic.h>
#include <pmm.h>
#include <vm.h>
#include "x86.h"

#define PTE_P    (1ull << 0)
#define PTE_W    (1ull << 1)
#define PTE_U    (1ull << 2)
#define PTE_PWT  (1ull << 3)
#define PTE_PCD  (1ull << 4)
#define PTE_PS   (1ull << 7)
#define PTE_G    (1ull << 8)
#define PTE_OWNED (1ull << 9)  /* software: vm_destroy frees the frame */
#define PTE_NX   (1ull << 63)
#define PTE_ADDR 0x000ffffffffff000ull

#define KERNEL_SLOT_FIRST 256

struct cpu_features cpu_features;

extern char _kernel_start[], _text_start[], _rodata_start[], _data_start[], _end[];

static uint64_t *table(uint64_t pa) { return phys_to_virt(pa); }
static int index_of(uint64_t va, int level) { return (va >> (12 + 9 * level)) & 511; }

static void detect_features(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	cpu_features.pge = d & (1u << 13);
	cpu_features.x2apic = c & (1u << 21);
	cpu_features.tsc_deadline = c & (1u << 24);
	cpu_features.pcid = c & (1u << 17);
	cpuid(7, 0, &a, &b, &c, &d);
	cpu_features.smep = b & (1u << 7);
	cpu_features.smap = b & (1u << 20);
	cpuid(0x80000001, 0, &a, &b, &c, &d);
	cpu_features.nx = d & (1u << 20);
	cpu_features.huge_1g = d & (1u << 26);
	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a >= 0x80000007) {
		cpuid(0x80000007, 0, &a, &b, &c, &d);
		cpu_features.invariant_tsc = d & (1u << 8);
	}
}

static uint64_t pte_bits(unsigned flags)
{
	uint64_t bits = PTE_P;
	if (flags & VM_WRITE)
		bits |= PTE_W;
	if (flags & VM_USER)
		bits |= PTE_U;
	if (!(flags & VM_EXEC) && cpu_features.nx)
		bits |= PTE_NX;
	if ((flags & VM_GLOBAL) && cpu_features.pge)
		bits |= PTE_G;
	if (flags & VM_NOCACHE)
		bits |= PTE_PCD | PTE_PWT;
	if (flags & VM_OWNED)
		bits |= PTE_OWNED;
	return bits;
}

/* Replace a 2 MiB page by a table of 512 4 KiB pages with the same rights. */
static int split_large(struct addrspace *as, uint64_t *pde)
{
	uint64_t pt = pmm_alloc();
	if (!pt)
		return -ENOMEM;
	uint64_t base = *pde & PTE_ADDR & ~0x1fffffull, bits = *pde & ~PTE_ADDR & ~PTE_PS;
	for (int i = 0; i < 512; i++)
		table(pt)[i] = (base + ((uint64_t)i << 12)) | bits;
	as->table_frames++;
	*pde = pt | PTE_P | PTE_W | (bits & PTE_U);
	return 0;
}

/*
 * The level-0 entry for va, creating tables on the way if create is set.
 * Caller holds as->lock.  Returns NULL if a table is missing (or on
 * exhaustion when creating).  A table made takes vm_table_frame(spare,
 * need): with spare used up, *need is set and NULL returned, so the
 * caller can zero one outside the lock (arch_pt_map).  Inlined into
 * every arch_pt_* hook: a vm_* call then costs the same call levels as a
 * walk of its own, and the per-page loops of the range hooks get a walk
 * without the create path.
 */
static inline __attribute__((always_inline)) uint64_t *walk(struct addrspace *as, uint64_t va, bool create,
							     uint64_t *spare, bool *need)
{
	uint64_t *t = table(as->arch.root);
	for (int level = 3; level > 0; level--) {
		uint64_t *e = &t[index_of(va, level)];
		if ((*e & PTE_P) && (*e & PTE_PS)) {
			if (level != 1 || !create || split_large(as, e) < 0)
				return NULL;
		}
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			uint64_t pa = vm_table_frame(spare, need);
			if (!pa)
				return NULL;
			as->table_frames++;
			*e = pa | PTE_P | PTE_W | (va < DIRECT_MAP_BASE ? PTE_U : 0);
		}
		t = table(*e & PTE_ADDR);
	}
	return &t[index_of(va, 0)];
}

int arch_pt_map(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags, uint64_t *spare)
{
	bool need = false;
	uint64_t *pte = walk(as, va, true, spare, &need);
	int err = !pte ? (need ? -EAGAIN : -ENOMEM) : (*pte & PTE_P) ? -EEXIST : 0;
	if (!err)
		*pte = pa | pte_bits(flags);
	return err;
}

int arch_pt_set(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags)
{
	uint64_t *pte = walk(as, va, true, NULL, NULL);
	if (!pte)
		return -ENOMEM;
	*pte = pa | pte_bits(flags);
	return 0;
}

static bool table_empty(uint64_t pa)
{
	uint64_t *t = table(pa);
	for (int i = 0; i < 512; i++)
		if (t[i])
			return false;
	return true;
}

/*
 * Clear the entries that point at now-empty tables on the way up from va;
 * the kernel's PDPTs (slots 256-511) are shared and always stay.  Returns
 * how many table frames it put in freed[].  Caller holds as->lock.
 */
static int prune(struct addrspace *as, uint64_t va, uint64_t freed[3])
{
	uint64_t *entry[4];
	uint64_t *t = table(as->arch.root);
	for (int level = 3; level > 0; level--) {
		entry[level] = &t[index_of(va, level)];
		t = table(*entry[level] & PTE_ADDR);
	}
	int n = 0;
	for (int level = 1; level <= 3; level++) {
		if (level == 3 && va >= DIRECT_MAP_BASE)
			break;
		uint64_t pa = *entry[level] & PTE_ADDR;
		if (!table_empty(pa))
			break;
		*entry[level] = 0;
		freed[n++] = pa;
		as->table_frames--;
	}
	return n;
}

uint64_t arch_pt_unmap(struct addrspace *as, uint64_t va, uint64_t *freed, int *nfreed)
{
	uint64_t *pte = walk(as, va, false, NULL, NULL);
	uint64_t pa = 0;
	if (pte && (*pte & PTE_P)) {
		pa = *pte & PTE_ADDR;
		*pte = 0;
		*nfreed = prune(as, va, freed);
	}
	return pa;
}

bool arch_pt_lookup(struct addrspace *as, uint64_t va, uint64_t *frame, unsigned *flags)
{
	uint64_t *pte = walk(as, va, false, NULL, NULL);
	bool found = pte && (*pte & PTE_P);
	if (found) {
		*frame = *pte & PTE_ADDR;
		if (flags)
			*flags = ((*pte & PTE_W) ? VM_WRITE : 0) | ((*pte & PTE_U) ? VM_USER : 0) |
				 ((*pte & PTE_NX) ? 0 : VM_EXEC) | ((*pte & PTE_G) ? VM_GLOBAL : 0) |
				 ((*pte & PTE_OWNED) ? VM_OWNED : 0);
	}
	return found;
}

uint64_t arch_pt_clear_range(struct addrspace *as, uint64_t va, uint64_t npages)
{
	uint64_t unmapped = 0;
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t *pte = walk(as, va + i * PAGE_SIZE, false, NULL, NULL);
		if (pte && (*pte & PTE_P)) {
			*pte = 0;
			unmapped++;
		}
	}
	return unmapped;
}

uint64_t arch_pt_unmap_pages(struct addrspace *as, uint64_t va, uint64_t npages,
			     uint64_t *frames, uint64_t *freed, int *nfreed)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t v = va + i * PAGE_SIZE;
		uint64_t *pte = walk(as, v, false, NULL, NULL);
		if (pte && (*pte & PTE_P)) {
			frames[n++] = *pte & PTE_ADDR;
			*pte = 0;
		}
		/* the last page of the range or of its page table: prune once */
		if (n && (i == npages - 1 || ((v + PAGE_SIZE) & 0x1fffff) == 0) && walk(as, v, false, NULL, NULL))
			*nfreed += prune(as, v, freed + *nfreed);
	}
	return n;
}

int arch_pt_map_large(struct addrspace *as, uint64_t va, uint64_t pa, unsigned flags)
{
	uint64_t *t = table(as->arch.root);
	int err = 0;
	for (int level = 3; level > 1 && !err; level--) {
		uint64_t *e = &t[index_of(va, level)];
		if (!(*e & PTE_P)) {
			uint64_t npa = pmm_alloc();
			if (!npa) {
				err = -ENOMEM;
				break;
			}
			as->table_frames++;
			*e = npa | PTE_P | PTE_W | (va < DIRECT_MAP_BASE ? PTE_U : 0);
		} else if (*e & PTE_PS)
			err = -EEXIST;
		t = table(*e & PTE_ADDR);
	}
	uint64_t *pde = err ? NULL : &t[index_of(va, 1)];
	if (pde && (*pde & PTE_P))
		err = -EEXIST;
	if (pde && !err)
		*pde = pa | pte_bits(flags) | PTE_PS;
	return err;
}

bool arch_pt_unmap_large(struct addrspace *as, uint64_t va)
{
	uint64_t *t = table(as->arch.root);
	uint64_t *pde = NULL;
	for (int level = 3; level > 1 && t; level--) {
		uint64_t e = t[index_of(va, level)];
		t = (e & PTE_P) && !(e & PTE_PS) ? table(e & PTE_ADDR) : NULL;
	}
	if (t && (t[index_of(va, 1)] & (PTE_P | PTE_PS)) == (PTE_P | PTE_PS)) {
		pde = &t[index_of(va, 1)];
		*pde = 0;
	}
	return pde != NULL;
}

static void map_direct(uint64_t top)
{
	uint64_t bits = PTE_P | PTE_W | PTE_PS | (cpu_features.nx ? PTE_NX : 0) | (cpu_features.pge ? PTE_G : 0);
	for (uint64_t pa = 0; pa < top; pa += 0x200000) {
		uint64_t va = DIRECT_MAP_BASE + pa;
		uint64_t *t = table(kernel_as.arch.root);
		for (int level = 3; level > 1; level--) {
			uint64_t *e = &t[index_of(va, level)];
			if (!(*e & PTE_P)) {
				uint64_t npa = pmm_alloc();
				if (!npa)
					panic("vm: out of memory for the direct map");
				kernel_as.table_frames++;
				*e = npa | PTE_P | PTE_W;
			}
			t = table(*e & PTE_ADDR);
		}
		t[index_of(va, 1)] = pa | bits;
	}
}

static void map_image_range(char *start, char *end, unsigned flags)
{
	for (uint64_t va = (uint64_t)start; va < (uint64_t)end; va += PAGE_SIZE)
		if (vm_map(&kernel_as, va, va - KERNEL_VBASE, flags | VM_GLOBAL) < 0)
			panic("vm: cannot map the kernel image");
}

void arch_vm_init(void)
{
	detect_features();
	if (cpu_features.nx)
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	kernel_as.arch.root = pmm_alloc();
	if (!kernel_as.arch.root)
		panic("vm: no frame for the kernel PML4");
	/* Every kernel PDPT exists from the start, so all address spaces share them. */
	for (int slot = KERNEL_SLOT_FIRST; slot < 512; slot++) {
		uint64_t pdpt = pmm_alloc();
		if (!pdpt)
			panic("vm: no frame for a kernel PDPT");
		kernel_as.table_frames++;
		table(kernel_as.arch.root)[slot] = pdpt | PTE_P | PTE_W;
	}
	map_direct((pmm_max_phys() + 0x1fffff) & ~0x1fffffull);
	map_image_range(_kernel_start, _rodata_start, VM_EXEC);
	map_image_range(_rodata_start, _data_start, 0);
	map_image_range(_data_start, _end, VM_WRITE);
}

/* Per CPU: the kernel tables, global pages, NX, SMEP/SMAP, write protect. */
void arch_vm_init_cpu(void)
{
	if (cpu_features.nx)
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	uint64_t cr4 = read_cr4();
	if (cpu_features.pge)
		cr4 |= CR4_PGE;
	if (cpu_features.smep)
		cr4 |= CR4_SMEP;
	if (cpu_features.smap)
		cr4 |= CR4_SMAP;
	write_cr4(cr4);
	write_cr0(read_cr0() | CR0_WP);
	write_cr3(kernel_as.arch.root);
}

void arch_cpu_summary(void)
{
	kprintf("cpu: nx %d smep %d smap %d pcid %d pge %d, %d io-apic(s)\n",
		cpu_features.nx, cpu_features.smep, cpu_features.smap, cpu_features.pcid,
		cpu_features.pge, arch_intc_count());
}

int arch_pt_create(struct addrspace *as)
{
	as->arch.root = pmm_alloc();
	if (!as->arch.root)
		return -ENOMEM;
	memcpy(table(as->arch.root) + KERNEL_SLOT_FIRST, table(kernel_as.arch.root) + KERNEL_SLOT_FIRST,
	       (512 - KERNEL_SLOT_FIRST) * sizeof(uint64_t));
	return 0;
}

/* A table and everything under it; leaves marked PTE_OWNED go back too. */
static void free_tables(uint64_t pa, int level)
{
	uint64_t *t = table(pa);
	for (int i = 0; i < 512; i++) {
		if (!(t[i] & PTE_P))
			continue;
		if (level > 0 && !(t[i] & PTE_PS))
			free_tables(t[i] & PTE_ADDR, level - 1);
		else if (level == 0 && (t[i] & PTE_OWNED))
			pmm_free(t[i] & PTE_ADDR);
	}
	pmm_free(pa);
}

void arch_pt_destroy(struct addrspace *as)
{
	uint64_t *root = table(as->arch.root);
	for (int i = 0; i < KERNEL_SLOT_FIRST; i++)
		if (root[i] & PTE_P)
			free_tables(root[i] & PTE_ADDR, 2);
	pmm_free(as->arch.root);
}
