/*
 * utlb.c — the UTLB's 64 entries, whole or partitioned the way paper 002's
 * AnT kept ICA translations resident on the SH-4 (arch_tlb_partition,
 * switched with the ISPC mode: baseline whole, fast partitioned).
 *
 * Whole: the miss handler (vectors.S) loads every entry with LDTLB at an
 * entry it picks at random of all 64 (URB 0): a plain software refill.
 *
 * Partitioned (the paper's 32 + 8 + 24):
 *   entries  0-31  general, for the miss handler: it fills a never-used
 *                  entry first (sh4_utlb_fill counts those taken since the
 *                  last invalidation of the whole UTLB), then one at
 *                  random.  URB = 32 also keeps the MMU's own replacement
 *                  counter below the reserved entries.
 *   entries 32-39  the OS servers' ICAs: one 1 MiB entry of a server's ICA
 *                  window (ica_fast.c), loaded when an ICA in that MiB is
 *                  pasted into the server, and kept across its peels;
 *   entries 40-63  the applications' ICAs: 4 KiB entries, loaded when an
 *                  ICA is pasted (its first PIN_PAGES_MAX pages, the
 *                  paper's 16 KiB a process) and invalidated when peeled.
 * A reserved entry is loaded with LDTLB at URC = its number from the
 * address space's own page-table entry, with its ASID, so a switch keeps
 * it (QEMU's writes of the memory-mapped data array leave the entry's
 * page size unset, so that it matches every address; LDTLB sets it).  It
 * is read and invalidated through the memory-mapped address array (P4
 * 0xf6000000, entry number in bits 13:8).  Pinning first drops any other entry that maps the same address (a
 * general one from an earlier miss), since two matching entries make a
 * multiple-hit exception, which resets the CPU.  A slot already holding
 * the translation is left alone; else a free slot, else the next in turn.
 *
 * A mode switch also starts the miss handler's random choice over from
 * RAND_SEED, so what runs after it is replaced the same way whatever ran
 * before.
 *
 * Address spaces sharing ASID 0 (more than 255 alive) get no reserved
 * entries: their loads flush the TLB.  Everything here runs with
 * interrupts off, on the one CPU.
 */
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <vm.h>
#include <arch/arch.h>
#include <arch/mmu.h>
#include <hako_perf.h>
#include "sh4.h"

#define UTLB_ENTRIES      64
#define GENERAL_ENTRIES   32
#define SERVER_FIRST      32
#define SERVER_SLOTS      8
#define APP_FIRST         40
#define APP_SLOTS         24
#define PIN_PAGES_MAX     4              /* an application's pages pinned per paste */
#define RAND_SEED         0x2545f491u    /* the handler's random state at each mode switch */

#define UTLB_SLOT(i)      ((uint32_t)(i) << 8)
#define ADDR_V            (1u << 8)
#define ASID_MASK         0xffu
#define PTE_V             (1u << 8)
#define PTE_SZ1           (1u << 7)
#define PTEL_MASK         0x1ffffdffu    /* a table entry without the software bits */
#define MMUCR_URB_SHIFT   18
#define MMUCR_URB_MASK    (0x3fu << MMUCR_URB_SHIFT)
#define MMUCR_URC_MASK    (0x3fu << 10)

static bool partitioned;
static uint32_t pinned[UTLB_ENTRIES];    /* a reserved slot's address word (VPN|V|ASID), 0: free */
static unsigned next_server, next_app;

/* Every entry invalid; in the partition the refill starts over from entry 0. */
void sh4_utlb_invalidate_all(void)
{
	uint64_t flags = arch_irq_save();
	mmio_write32(SH4_MMUCR, mmio_read32(SH4_MMUCR) | MMUCR_TI);
	sh4_utlb_fill = partitioned ? 0 : UTLB_ENTRIES;     /* whole: no free-first fill */
	for (int i = 0; i < UTLB_ENTRIES; i++)
		pinned[i] = 0;
	arch_irq_restore(flags);
}

void arch_tlb_partition(bool on)
{
	uint64_t flags = arch_irq_save();
	partitioned = on;
	sh4_utlb_rand = RAND_SEED;
	sh4_utlb_general = on ? GENERAL_ENTRIES : UTLB_ENTRIES;
	uint32_t mmucr = mmio_read32(SH4_MMUCR) & ~(MMUCR_URB_MASK | MMUCR_URC_MASK);
	mmio_write32(SH4_MMUCR, mmucr | (on ? GENERAL_ENTRIES << MMUCR_URB_SHIFT : 0));
	sh4_utlb_invalidate_all();
	arch_irq_restore(flags);
}

/* Table entry of va in as, or 0 (no table, or not valid). */
static uint32_t pte_of(struct addrspace *as, uint32_t va)
{
	uint32_t *dir = (uint32_t *)(uint32_t)(as->arch.root + 0x80000000u);
	uint32_t *t = (uint32_t *)dir[va >> 22];
	uint32_t e = t ? t[(va >> 12) & 1023] : 0;
	return (e & PTE_V) ? e : 0;
}

/* Drop every entry of asid that maps an address in [base, base + size). */
static void drop_overlaps(uint32_t asid, uint32_t base, uint32_t size)
{
	if (size == PAGE_SIZE) {         /* an associative write per 1 KiB quarter */
		for (uint32_t q = 0; q < PAGE_SIZE; q += 1024)
			mmio_write32(SH4_UTLB_ADDR | SH4_UTLB_ASSOC, (base + q) | asid);
		return;
	}
	for (int i = 0; i < UTLB_ENTRIES; i++) {   /* a 1 MiB entry may be loaded at any 1 KiB of it */
		uint32_t a = mmio_read32(SH4_UTLB_ADDR | UTLB_SLOT(i));
		if ((a & ADDR_V) && (a & ASID_MASK) == asid && (a & ~0x3ffu) - base < size) {
			mmio_write32(SH4_UTLB_ADDR | UTLB_SLOT(i), 0);
			if (i >= SERVER_FIRST)
				pinned[i] = 0;
		}
	}
}

/* LDTLB into entry slot: PTEH the VPN and ASID, PTEL the entry, MMUCR.URC
 * the slot, all in one asm block, so that no TLB miss (a kernel stack
 * access), whose handler rewrites PTEH, PTEL and URC, comes between; then
 * PTEH as it was. */
static void load_slot(int slot, uint32_t pteh, uint32_t ptel)
{
	uint32_t old = mmio_read32(SH4_PTEH);
	uint32_t mmucr = (mmio_read32(SH4_MMUCR) & ~MMUCR_URC_MASK) | ((uint32_t)slot << 10);
	__asm__ volatile("mov.l	%1, @%0\n\t"
			 "mov.l	%3, @%2\n\t"
			 "mov.l	%5, @%4\n\t"
			 "ldtlb\n\t"
			 "nop"
			 : : "r"(SH4_PTEH), "r"(pteh), "r"(SH4_PTEL), "r"(ptel), "r"(SH4_MMUCR),
			   "r"(mmucr) : "memory");
	mmio_write32(SH4_PTEH, old);
}

/* The reserved slot of the n from first that holds key and still has it
 * loaded, or -1. */
static int resident(uint32_t key, int first, int n)
{
	for (int i = first; i < first + n; i++)
		if (pinned[i] == key)
			return mmio_read32(SH4_UTLB_ADDR | UTLB_SLOT(i)) == key ? i : -1;
	return -1;
}

/* Load va's translation in as into one of the n reserved slots from first. */
static void pin_one(struct addrspace *as, uint32_t va, int first, int n, unsigned *next)
{
	uint32_t e = pte_of(as, va);
	if (!e)
		return;
	uint32_t size = (e & PTE_SZ1) ? (uint32_t)ARCH_PT_LARGE_SIZE : (uint32_t)PAGE_SIZE;
	uint32_t base = va & ~(size - 1), asid = as->arch.asid;
	uint32_t key = base | ADDR_V | asid;
	int slot = -1;
	for (int i = first; i < first + n && slot < 0; i++)
		if (pinned[i] == key)
			slot = i;
	if (slot >= 0 && mmio_read32(SH4_UTLB_ADDR | UTLB_SLOT(slot)) == key)
		return;                          /* still loaded */
	for (int i = first; i < first + n && slot < 0; i++)
		if (!pinned[i])
			slot = i;
	if (slot < 0)
		slot = first + (int)((*next)++ % (unsigned)n);
	pinned[slot] = 0;
	drop_overlaps(asid, base, size);
	load_slot(slot, base | asid, e & PTEL_MASK);
	pinned[slot] = key;
}

/* Load the reserved entries for [va, va + size) in as (arch_ica_pin's
 * work when they are not loaded already). */
static __attribute__((noinline)) void pin_range(struct addrspace *as, uint64_t va, uint64_t size,
						bool server)
{
	uint64_t flags = arch_irq_save();
	if (server) {
		uint64_t end = va + size;
		for (uint64_t mb = va & ~(ARCH_PT_LARGE_SIZE - 1); mb < end; mb += ARCH_PT_LARGE_SIZE)
			pin_one(as, (uint32_t)mb, SERVER_FIRST, SERVER_SLOTS, &next_server);
	} else {
		for (uint64_t off = 0; off < size && off < PIN_PAGES_MAX * PAGE_SIZE; off += PAGE_SIZE)
			pin_one(as, (uint32_t)(va + off), APP_FIRST, APP_SLOTS, &next_app);
	}
	arch_irq_restore(flags);
}

/* The server slot a pin found loaded last: checked first. */
static int server_hint = SERVER_FIRST;

/* A server's pin is made at every paste into it (every request it
 * receives): when [va, va + size) lies in one MiB whose entry is loaded
 * already (the slot of the last such check first, then the others), that
 * is all it does.  Read with interrupts on: the reserved slots change
 * only on this CPU, and an entry replaced right after the check is one
 * replaced right after a pin. */
void arch_ica_pin(struct addrspace *as, uint64_t va, uint64_t size, bool server)
{
	if (!partitioned || !as->arch.asid)
		return;
	uint32_t mib = ~((uint32_t)ARCH_PT_LARGE_SIZE - 1), v = (uint32_t)va;
	if (server && size && (v & mib) == ((v + (uint32_t)size - 1) & mib)) {
		uint32_t key = (v & mib) | ADDR_V | as->arch.asid;
		int hint = server_hint;
		if (pinned[hint] == key && mmio_read32(SH4_UTLB_ADDR | UTLB_SLOT(hint)) == key)
			return;
		hint = resident(key, SERVER_FIRST, SERVER_SLOTS);
		if (hint >= 0) {
			server_hint = hint;
			return;
		}
	}
	pin_range(as, va, size, server);
}

void arch_ica_unpin(struct addrspace *as, uint64_t va, uint64_t size)
{
	if (!partitioned || !as->arch.asid)
		return;
	uint64_t flags = arch_irq_save();
	uint32_t asid = as->arch.asid;
	for (int i = APP_FIRST; i < APP_FIRST + APP_SLOTS; i++) {
		uint32_t k = pinned[i];
		if (k && (k & ASID_MASK) == asid && (k & ~0x3ffu) - (uint32_t)va < (uint32_t)size) {
			mmio_write32(SH4_UTLB_ADDR | UTLB_SLOT(i), 0);
			pinned[i] = 0;
		}
	}
	arch_irq_restore(flags);
}

/* The reserved entry translating va in as (its size by its part of the
 * UTLB: QEMU's reads of the data array do not give the size bits). */
int arch_ica_pinned(struct addrspace *as, uint64_t va)
{
	uint64_t flags = arch_irq_save();
	int found = -ENOENT;
	for (int i = SERVER_FIRST; i < UTLB_ENTRIES && found < 0; i++) {
		uint32_t a = mmio_read32(SH4_UTLB_ADDR | UTLB_SLOT(i));
		uint32_t size = i < APP_FIRST ? (uint32_t)ARCH_PT_LARGE_SIZE : (uint32_t)PAGE_SIZE;
		if ((a & ADDR_V) && (a & ASID_MASK) == as->arch.asid &&
		    (uint32_t)va - (a & ~0x3ffu) < size)
			found = i;
	}
	arch_irq_restore(flags);
	return found;
}

int arch_tlb_miss_classes(uint64_t *counts, int n)
{
	for (int i = 0; i < n && i < HAKO_TLB_MISS_CLASSES; i++)
		counts[i] = sh4_tlb_misses[i];
	return 0;
}

int arch_tlb_misses(uint64_t *count)
{
	*count = 0;
	for (int i = 0; i < HAKO_TLB_MISS_CLASSES; i++)
		*count += sh4_tlb_misses[i];
	return 0;
}
