/*
 * pmm.h — the physical frame allocator.
 *
 * Frames are 4 KiB.  pmm_alloc() returns a physical address (0 on
 * exhaustion: frame 0 is never handed out).  pmm_free_count() is the
 * counter the leak checks compare before and after a test.
 *
 * References: pmm_get holds a frame that is not the caller's (a page of
 * another address space the kernel copies through the direct map) so it
 * cannot be handed out again meanwhile; the owner's pmm_free of a held
 * frame is deferred to the last pmm_put.  The caller of pmm_get makes sure
 * the frame is allocated at that moment (vm_lookup_get takes it under the
 * address space's lock, so an unmap cannot free it in between); a
 * reference to a frame that is free anyway only keeps the next owner's
 * free waiting for the put.  A frame above RAM (MMIO) is never freed: get
 * and put do nothing for it.
 */
#ifndef HAKO_PMM_H
#define HAKO_PMM_H

#include <stdint.h>
#include <bootinfo.h>
#include <arch/layout.h>

/* Physical <-> virtual: RAM and MMIO through the direct map at
 * DIRECT_MAP_BASE, the kernel image at KERNEL_VBASE (arch/layout.h). */
static inline void *phys_to_virt(uint64_t pa) { return (void *)(pa + DIRECT_MAP_BASE); }
static inline uint64_t virt_to_phys(const void *va)
{
	uint64_t v = (uint64_t)va;
	return v >= KERNEL_VBASE ? v - KERNEL_VBASE : v - DIRECT_MAP_BASE;
}

void pmm_init(const struct bootinfo *bi);
uint64_t pmm_alloc(void);                       /* one zeroed frame */
uint64_t pmm_alloc_contig(uint64_t n, uint64_t align_frames);  /* n zeroed frames */
void pmm_free(uint64_t pa);
void pmm_free_contig(uint64_t pa, uint64_t n);
void pmm_get(uint64_t pa);                      /* hold the allocated frame at pa */
void pmm_put(uint64_t pa);                      /* let it go; freed if its owner freed it */
uint64_t pmm_free_count(void);
uint64_t pmm_total_count(void);                 /* usable frames at boot */
uint64_t pmm_max_phys(void);                    /* highest usable RAM address + 1 */

#endif
