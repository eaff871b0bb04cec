/*
 * ica_baseline.c — the baseline ISPC mode (paper 002, `ispc=baseline`):
 * an ICA's translations are made on demand, one page at a time.
 *
 * Paste only records the new holder in the table (ica.c); no page table
 * changes.  The holder's first touch of each page faults, and the page
 * fault handler (proc_mem.c) comes here: if the table says the process
 * holds the ICA on that page, the page is mapped — the paper's SH-4
 * first-access TLB miss.  Peel clears the PTEs with one TLB shootdown
 * (ica_unmap_peeled in ica.c, the same in both modes).
 *
 * The other mode, fast, is in ica_fast.c: paste fills every PTE at once,
 * named servers keep the whole region mapped, and a lone synchronous
 * requester keeps its mappings.  Fast mode still comes here for a page
 * its paste could not map (no memory for a page table).
 *
 * The mapping is made outside ica_lock (see ica.h); a peel that races
 * with it is caught by the re-check after, which undoes the mapping, so
 * after a peel has returned the old holder has no mapping left.
 */
#include <stdint.h>
#include <errno.h>
#include <ica.h>
#include <proc.h>
#include <vm.h>
#include "ica_internal.h"

/* A touch of the ICA area by p: 0 if the page is now mapped, else -EFAULT
 * (it does not hold the ICA there) or vm_map's error. */
int ica_fault(struct proc *p, uint64_t va)
{
	uint64_t page = (va - HAKO_ICA_AREA) / PAGE_SIZE;
	if (va < HAKO_ICA_AREA || page >= ica_region_pages)
		return -EFAULT;
	spin_lock(&ica_lock);
	int slot = page_slot[page];
	struct ica_span s = slot >= 0 ? ica_span_of(&icas[slot]) : (struct ica_span){ 0 };
	bool ok = slot >= 0 && ica_holds(p, s);
	spin_unlock(&ica_lock);
	if (!ok)
		return -EFAULT;
	int err = vm_map(p->as, page_va(page), page_pa(page), ICA_PTE_FLAGS);
	if (err < 0 && err != -EEXIST)
		return err;
	__atomic_fetch_add(&ica_counts.faults, 1, __ATOMIC_RELAXED);
	if (proc_alone(p))
		return 0;
	spin_lock(&ica_lock);
	ok = ica_holds(p, s);
	spin_unlock(&ica_lock);
	if (!ok)                         /* peeled while we mapped: not its page any more */
		vm_unmap_range(p->as, page_va(page), 1);
	return ok ? 0 : -EFAULT;
}
