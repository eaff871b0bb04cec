/*
 * kstack.c — kernel stacks with a guard page under each.
 *
 * A thread's stack is KSTACK_SIZE of frames mapped at the top of a slot
 * in the kernel-stack window; the rest of the slot stays unmapped, so
 * running off the bottom of a stack faults on the guard instead of
 * silently overwriting the neighbour.  The window's page tables are in
 * every address space (all upper-half PDPTs are shared), so a stack is
 * usable whatever address space the CPU is in.
 *
 * A stack takes the lowest free slot, so the stacks alive stay packed at
 * the bottom of the window and its page tables (one per 64 slots, freed
 * when their last stack goes) number what the most threads alive at once
 * need.  Handing slots out round-robin would spread long-lived threads
 * over the window, each pinning a table of its own, and a thread started
 * after many others had come and gone would cost a new table.
 */
#include <stdbool.h>
#include <stdint.h>
#include <kstack.h>
#include <pmm.h>
#include <spinlock.h>
#include <vm.h>
#include <arch/layout.h>

#define STACK_PAGES (KSTACK_SIZE / PAGE_SIZE)

static uint64_t used[KSTACK_SLOTS / 64];
static struct spinlock kstack_lock = SPINLOCK_INIT("kstack", LOCK_KSTACK);

/* The lowest free slot, taken; -1 if every slot is in use. */
static int take_slot(void)
{
	int found = -1;
	spin_lock(&kstack_lock);
	for (int w = 0; w < KSTACK_SLOTS / 64 && found < 0; w++) {
		if (~used[w]) {
			int bit = __builtin_ctzll(~used[w]);
			used[w] |= 1ull << bit;
			found = w * 64 + bit;
		}
	}
	spin_unlock(&kstack_lock);
	return found;
}

static void give_slot(int i)
{
	spin_lock(&kstack_lock);
	used[i / 64] &= ~(1ull << (i % 64));
	spin_unlock(&kstack_lock);
}

static uint64_t stack_base(int slot)
{
	return KSTACK_AREA_BASE + (uint64_t)slot * KSTACK_SLOT + KSTACK_SLOT - KSTACK_SIZE;
}

static void unmap_pages(uint64_t base, int pages)
{
	for (int p = 0; p < pages; p++) {
		uint64_t pa = vm_unmap(&kernel_as, base + (uint64_t)p * PAGE_SIZE);
		if (pa)
			pmm_free(pa);
	}
}

uint64_t kstack_alloc(void)
{
	int slot = take_slot();
	if (slot < 0)
		return 0;
	uint64_t base = stack_base(slot);
	for (int p = 0; p < STACK_PAGES; p++) {
		uint64_t pa = pmm_alloc();
		if (!pa || vm_map(&kernel_as, base + (uint64_t)p * PAGE_SIZE, pa, VM_WRITE | VM_GLOBAL) < 0) {
			if (pa)
				pmm_free(pa);
			unmap_pages(base, p);
			give_slot(slot);
			return 0;
		}
	}
	return base;
}

void kstack_free(uint64_t base)
{
	unmap_pages(base, STACK_PAGES);
	give_slot((int)((base - KSTACK_AREA_BASE) / KSTACK_SLOT));
}

bool kstack_is_guard(uint64_t addr)
{
	if (addr < KSTACK_AREA_BASE || addr >= KSTACK_AREA_BASE + (uint64_t)KSTACK_SLOTS * KSTACK_SLOT)
		return false;
	return (addr - KSTACK_AREA_BASE) % KSTACK_SLOT < KSTACK_SLOT - KSTACK_SIZE;
}
