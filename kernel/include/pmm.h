/*
 * pmm.h — the physical frame allocator.
 *
 * Frames are 4 KiB.  pmm_alloc() returns a physical address (0 on
 * exhaustion: frame 0 is never handed out).  pmm_free_count() is the
 * counter the leak checks compare before and after a test.
 */
#ifndef HAKO_PMM_H
#define HAKO_PMM_H

#include <stdint.h>
#include <bootinfo.h>

void pmm_init(const struct bootinfo *bi);
uint64_t pmm_alloc(void);                       /* one zeroed frame */
uint64_t pmm_alloc_contig(uint64_t n, uint64_t align_frames);  /* n zeroed frames */
void pmm_free(uint64_t pa);
void pmm_free_contig(uint64_t pa, uint64_t n);
uint64_t pmm_free_count(void);
uint64_t pmm_total_count(void);                 /* usable frames at boot */
uint64_t pmm_max_phys(void);                    /* highest usable RAM address + 1 */

#endif
