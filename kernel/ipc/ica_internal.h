/*
 * ica_internal.h — what the three ICA files share and nobody else needs:
 * ica.c (the region, the table, the system calls, the mode switch),
 * ica_baseline.c (baseline mode: pages fault in) and ica_fast.c (fast
 * mode: translations kept resident).  The rest of the kernel uses ica.h.
 */
#ifndef HAKO_ICA_INTERNAL_H
#define HAKO_ICA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <ica.h>
#include <vm.h>
#include <arch/layout.h>

#define ICA_PTE_FLAGS (VM_USER | VM_WRITE)

/* The region (ica.c), fixed at boot. */
extern uint64_t ica_region_pa;
extern uint32_t ica_region_pages;

static inline uint64_t page_va(uint32_t page) { return HAKO_ICA_AREA + (uint64_t)page * PAGE_SIZE; }
static inline uint64_t page_pa(uint32_t page) { return ica_region_pa + (uint64_t)page * PAGE_SIZE; }

/* Under ica_lock: is s still the ICA it was, and held by p? */
static inline bool ica_holds(struct proc *p, struct ica_span s)
{
	return s.a->state == ICA_LIVE && s.a->id == s.id && s.a->holder == p;
}

/* The table's page index (ica.c); guard: ica_lock. */
extern int16_t page_slot[];          /* the ICA on each region page, or -1 */

/* Fast mode (ica_fast.c). */
const char *ica_fast_options(void);  /* reads servers=; the list in force */
int ica_window_count(void);          /* under ica_lock: servers with the window */
void ica_window_close(struct proc *p);   /* under ica_lock: p has ended */

#endif
