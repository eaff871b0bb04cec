/*
 * tlbstep.c — the TLB-step check for the cost-model plugin: touch N
 * distinct 4 KiB pages right after a CR3 reload, then the same N pages
 * again, for N from 1 to 4096, each pass in a region of its own
 * (uapi/hako_region_ids.h), and print a result line per (N, pass).
 *
 * `./hako bench tlbstep --model PROFILE` joins the lines to the plugin's
 * regions and prints dTLB misses, STLB misses and cycles per page.  With
 * a profile of E L1 dTLB entries and S STLB entries the first pass misses
 * the L1 dTLB on every page (the reload emptied it) and walks the page
 * tables on every page too (the STLB was emptied with it), whatever N; the
 * second pass hits both while N <= E, misses the L1 dTLB on every page but
 * hits the STLB while E < N <= S (a pass in order evicts each entry before
 * it comes round again, under LRU), and misses both once N > S.  Under
 * icount the instruction counts per page are the same for every N.
 *
 * The pages are mapped in an address space of their own, not global, so
 * the reload drops them while the kernel's global mappings (code, stack,
 * direct map) stay.  Each page is read at a different cache line (page p
 * at line p mod 64), so the reads do not all fall into one cache set.
 * Interrupts are off from the reload to the end of the second pass, so
 * nothing else runs on this CPU inside the regions.
 */
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <kprintf.h>
#include <measure.h>
#include <region.h>
#include <stats.h>
#include <vm.h>
#include <pmm.h>
#include <arch/arch.h>

#define TLBSTEP_VA    0x40000000ull      /* 1 GiB: any lower-half address */
#define TLBSTEP_REPS  4                  /* reloads per size; the figures are their sum */
#define PAGE_BYTES    4096ull
#define LINE_BYTES    64ull

static const unsigned sizes[] = { 1, 8, 16, 32, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096 };
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAX_PAGES 4096

_Static_assert(NSIZES <= REGION_NTH_MAX, "one region per size and pass");

/* Read one word of each of the first `pages` pages. */
static void touch(unsigned pages)
{
	for (unsigned p = 0; p < pages; p++) {
		uint64_t offset = p * PAGE_BYTES + (p % (PAGE_BYTES / LINE_BYTES)) * LINE_BYTES;
		(void)*(volatile uint64_t *)(TLBSTEP_VA + offset);
	}
}

/* MAX_PAGES fresh frames at TLBSTEP_VA; vm_destroy gives them back. */
static struct addrspace *map_pages(void)
{
	struct addrspace *as = vm_create();
	if (!as)
		return NULL;
	for (unsigned p = 0; p < MAX_PAGES; p++) {
		uint64_t pa = pmm_alloc();
		if (!pa || vm_map(as, TLBSTEP_VA + p * PAGE_BYTES, pa, VM_WRITE | VM_OWNED) < 0) {
			if (pa)
				pmm_free(pa);
			vm_destroy(as);
			return NULL;
		}
	}
	return as;
}

/* One reload and both passes over sizes[k] pages; their TSC deltas. */
static void step(struct addrspace *as, unsigned k, uint64_t ticks[2])
{
	uint64_t irq = arch_irq_save();
	vm_switch(&kernel_as);
	vm_switch(as);                       /* CR3 reload: the pages' entries are gone */
	region_begin_nth(REGION_TLBSTEP_FIRST, k);
	uint64_t t0 = arch_tsc_serial();
	touch(sizes[k]);
	uint64_t t1 = arch_tsc_serial();
	region_end_nth(REGION_TLBSTEP_FIRST, k);
	region_begin_nth(REGION_TLBSTEP_AGAIN, k);
	uint64_t t2 = arch_tsc_serial();
	touch(sizes[k]);
	uint64_t t3 = arch_tsc_serial();
	region_end_nth(REGION_TLBSTEP_AGAIN, k);
	vm_switch(&kernel_as);
	arch_irq_restore(irq);
	ticks[0] += t1 - t0;
	ticks[1] += t3 - t2;
}

int tlbstep_main(int argc, char **argv)
{
	struct addrspace *as = map_pages();
	if (!as) {
		kprintf("tlbstep: no memory for %u pages\n", MAX_PAGES);
		return -ENOMEM;
	}
	kprintf("tlbstep: %u reloads per size; ticks per page (guest instructions under icount)\n",
		TLBSTEP_REPS);
	for (unsigned k = 0; k < NSIZES; k++) {
		uint64_t ticks[2] = { 0, 0 };
		for (int r = 0; r < TLBSTEP_REPS; r++)
			step(as, k, ticks);
		uint64_t iters = (uint64_t)TLBSTEP_REPS * sizes[k];
		kprintf("tlbstep: %4u pages  first %4lu  again %4lu\n", sizes[k],
			ticks[0] / iters, ticks[1] / iters);
		result_line("{\"kind\":\"tlbstep\",\"pages\":%u,\"pass\":\"first\",\"ticks\":%lu,"
			    "\"region\":%u,\"iters\":%lu}", sizes[k], ticks[0],
			    REGION_TLBSTEP_FIRST + k, iters);
		result_line("{\"kind\":\"tlbstep\",\"pages\":%u,\"pass\":\"again\",\"ticks\":%lu,"
			    "\"region\":%u,\"iters\":%lu}", sizes[k], ticks[1],
			    REGION_TLBSTEP_AGAIN + k, iters);
	}
	vm_destroy(as);
	return 0;
}
