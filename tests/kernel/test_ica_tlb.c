/*
 * test_ica_tlb.c — self-tests of paper 002's resident ICA translations
 * (arch_tlb_partition, arch_ica_pin, arch_ica_unpin, arch/mmu.h): with
 * the TLB partitioned a pin loads a reserved entry for the address
 * space's ASID, an unpin invalidates it, and a server's pin covers the
 * whole large page (a read through it with the space loaded finds the
 * right frame and misses nothing); with the partition off a pin loads
 * nothing.  The entries are read back through arch_ica_pinned.  Where the hardware
 * loads the TLB (x86) there are no reserved entries: skipped.
 */
#include <stdint.h>
#include <errno.h>
#include <ica.h>
#include <ktest.h>
#include <pmm.h>
#include <spinlock.h>
#include <vm.h>
#include <arch/mmu.h>

#define PIN_VA 0x60000000ull             /* a user address, 1 MiB aligned */

/* Read the word at va with as loaded; *missed: the TLB misses served meanwhile. */
static uint32_t read_in(struct addrspace *as, uint64_t va, uint64_t *missed)
{
	uint64_t m0, m1;
	push_off();                          /* this CPU and its loaded space stay put */
	struct addrspace *before = vm_loaded();
	vm_switch(as);
	arch_tlb_misses(&m0);
	uint32_t got = *(volatile uint32_t *)(uintptr_t)va;
	arch_tlb_misses(&m1);
	vm_switch(before);
	pop_off();
	*missed = m1 - m0;
	return got;
}

TEST(ica_pin_loads_and_unpin_invalidates)
{
	struct addrspace *as = vm_create();
	CHECK(as, "vm_create failed");
	uint64_t frame = pmm_alloc();
	CHECK(frame, "no frame");
	CHECK_EQ(vm_map(as, PIN_VA, frame, VM_USER | VM_WRITE), 0);
	if (arch_ica_pinned(as, PIN_VA) == -ENOSYS) {
		vm_unmap(as, PIN_VA);
		pmm_free(frame);
		vm_destroy(as);
		SKIP("the TLB is loaded by the page walker: no reserved entries");
	}
	arch_tlb_partition(true);
	CHECK_EQ(arch_ica_pinned(as, PIN_VA), -ENOENT);      /* partitioning empties the TLB */
	arch_ica_pin(as, PIN_VA, PAGE_SIZE, false);
	int slot = arch_ica_pinned(as, PIN_VA);
	CHECK(slot >= 0, "no reserved entry after the pin (%d)", slot);
	CHECK_EQ(arch_ica_pinned(as, PIN_VA + 123), slot);   /* the whole page */
	CHECK_EQ(arch_ica_pinned(as, PIN_VA + PAGE_SIZE), -ENOENT);
	arch_ica_pin(as, PIN_VA, PAGE_SIZE, false);          /* again: the same entry */
	CHECK_EQ(arch_ica_pinned(as, PIN_VA), slot);
	uint64_t missed;
	*(volatile uint32_t *)phys_to_virt(frame + 64) = 0x1ca7e57u;
	CHECK_EQ(read_in(as, PIN_VA + 64, &missed), 0x1ca7e57u);   /* the entry's frame, */
	CHECK_EQ(missed, 0);                                 /* no miss */
	arch_ica_unpin(as, PIN_VA, PAGE_SIZE);
	CHECK_EQ(arch_ica_pinned(as, PIN_VA), -ENOENT);
	arch_tlb_partition(false);
	arch_ica_pin(as, PIN_VA, PAGE_SIZE, false);
	CHECK_EQ(arch_ica_pinned(as, PIN_VA), -ENOENT);      /* no reserved entries */
	CHECK_EQ(vm_unmap(as, PIN_VA), frame);
	pmm_free(frame);

	/* A server's window: one large entry covers the whole large page. */
	uint64_t nframes = VM_LARGE_SIZE / PAGE_SIZE;
	uint64_t large = pmm_alloc_contig(nframes, nframes);
	CHECK(large, "no free large page");
	CHECK_EQ(vm_map_large(as, PIN_VA, large, VM_USER | VM_WRITE), 0);
	arch_tlb_partition(true);
	arch_ica_pin(as, PIN_VA + 5 * PAGE_SIZE, PAGE_SIZE, true);
	slot = arch_ica_pinned(as, PIN_VA + VM_LARGE_SIZE - 1);
	CHECK(slot >= 0, "no reserved large entry after the pin (%d)", slot);
	CHECK_EQ(arch_ica_pinned(as, PIN_VA), slot);
	CHECK_EQ(arch_ica_pinned(as, PIN_VA + VM_LARGE_SIZE), -ENOENT);
	uint64_t off = VM_LARGE_SIZE / 2 + 64;               /* far from the page pinned at */
	*(volatile uint32_t *)phys_to_virt(large + off) = 0x1a59e57u;
	CHECK_EQ(read_in(as, PIN_VA + off, &missed), 0x1a59e57u);  /* the whole MiB translated, */
	CHECK_EQ(missed, 0);                                 /* by the one entry */
	arch_tlb_partition(ica_mode == HAKO_ISPC_FAST);      /* as the ISPC mode has it */
	CHECK_EQ(arch_ica_pinned(as, PIN_VA), -ENOENT);
	vm_unmap_large(as, PIN_VA);
	pmm_free_contig(large, nframes);
	vm_destroy(as);
	return 0;
}
