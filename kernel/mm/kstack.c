/*
 * kstack.c — kernel stacks with a guard page under each.
 *
 * A thread's stack is KSTACK_SIZE of frames mapped at the top of a slot
 * in the kernel-stack window; the rest of the slot stays unmapped, so
 * running off the bottom of a stack faults on the guard instead of
 * silently overwriting the neighbour.  The window's page tables are in
 * every address space (all upper-half PDPTs are shared), so a stack is
 * usable whatever address space the CPU is in.
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
static int next_hint;
static struct spinlock kstack_lock = SPINLOCK_INIT("kstack", LOCK_KSTACK);

static int take_slot(void)
{
	int found = -1;
	spin_lock(&kstack_lock);
	for (int n = 0; n < KSTACK_SLOTS && found < 0; n++) {
		int i = (next_hint + n) % KSTACK_SLOTS;
		if (!(used[i / 64] & (1ull << (i % 64)))) {
			used[i / 64] |= 1ull << (i % 64);
			next_hint = i + 1;
			found = i;
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
