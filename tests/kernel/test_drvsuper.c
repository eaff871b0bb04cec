/*
 * test_drvsuper.c — driver processes in supervisor mode (paper 003's own
 * placement, drvmode=super; kernel/drvproc/drvproc_super.c).
 *
 *   drvproc_super_drivers_map_only_supervisor_pages   with drvmode=super,
 *       every driver process (network and block) is placed 3, its address
 *       space is marked supervisor, its I/O grant says ring0 (its system
 *       calls take the ring-0 entry), its main thread runs on a stack in
 *       the kernel half, and no page of its program, heap, argument page,
 *       MMIO windows or DMA memory is a user page (SMAP would refuse it to
 *       ring 0, and ring 3 must not reach it).
 */
#include <stdint.h>
#include <drvproc.h>
#include <ktest.h>
#include <proc.h>
#include <vm.h>
#include <arch/arch.h>

#define NO_SUPER "no driver process in supervisor mode (boot with --drvproc rtl8139,e1000 " \
		 "--cmdline drvmode=super)"

/* va, if mapped in as, is a supervisor page. */
static int supervisor_page(struct drvproc *c, struct addrspace *as, uint64_t va)
{
	unsigned flags;
	if (vm_lookup(as, va, NULL, &flags))
		CHECK(!(flags & VM_USER), "%s: page %lx of its process is a user page", c->dev->name,
		      (unsigned long)va);
	return 0;
}

/* Caller holds c->wq.lock (the process and its address space stay). */
static int check_super(struct drvproc *c)
{
	struct proc *p = c->proc;
	CHECK(p && p->as->supervisor, "%s: its address space is not a supervisor one", c->dev->name);
	CHECK(c->grant.io.ring0, "%s: its threads would take the ring-3 system-call entry", c->dev->name);
	uint64_t stack = p->threads[0].super_stack;
	CHECK(stack >= KSTACK_AREA_BASE && stack < KSTACK_AREA_BASE + (uint64_t)KSTACK_SLOT * KSTACK_SLOTS,
	      "%s: its stack %lx is not in the kernel half's stack window", c->dev->name,
	      (unsigned long)stack);
	for (uint64_t va = HAKO_USER_IMAGE_BASE; va < p->brk + PAGE_SIZE; va += PAGE_SIZE)
		if (supervisor_page(c, p->as, va))
			return -1;
	if (supervisor_page(c, p->as, HAKO_USER_STACK_TOP - PAGE_SIZE))
		return -1;
	for (int bar = 0; bar < DRV_BARS; bar++)
		if (c->grant.mmio_va[bar] && supervisor_page(c, p->as, c->grant.mmio_va[bar] & ~(uint64_t)(PAGE_SIZE - 1)))
			return -1;
	for (int i = 0; i < DRV_DMA_MAX; i++)
		if (c->grant.dma[i].pages && supervisor_page(c, p->as, c->grant.dma[i].va))
			return -1;
	return 0;
}

TEST(drvproc_super_drivers_map_only_supervisor_pages)
{
	int found = 0;
	for (int i = 0; i < drvproc_count(); i++) {
		struct drvproc *c = drvproc_get(i);
		if (!c->dev || c->stat.placement != 3)
			continue;
		spin_lock(&c->wq.lock);
		int r = c->proc ? check_super(c) : 0;
		spin_unlock(&c->wq.lock);
		if (r)
			return r;
		found++;
	}
	if (!found)
		SKIP(NO_SUPER);
	return 0;
}
