/*
 * ica.h — inter-core communication areas (paper 002), see ica.c; the
 * two ISPC modes are ica_baseline.c and ica_fast.c.
 *
 * Locking: ica_lock guards the ICA table and, in ispc.c, every port and
 * request.  Page tables are changed only outside it (a TLB shootdown
 * waits for other CPUs, which may be spinning on ica_lock with
 * interrupts off): state changes under the lock, mapping after.
 */
#ifndef HAKO_ICA_H
#define HAKO_ICA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <spinlock.h>
#include <hako_ispc.h>
#include <arch/mmu.h>

#define ICA_MAX        512           /* ICAs alive at once */
#define ICA_SLOT_BITS  9             /* id = generation << 9 | slot, generation >= 1 */
#define ICA_PAGE       4096          /* ICAs come in 4 KiB pages, as in the paper */

struct proc;
struct ispc_req;

enum ica_state { ICA_FREE, ICA_LIVE, ICA_DYING };

struct ica {
	enum ica_state state;
	int id;
	uint32_t first, npages;          /* pages of the region */
	uint64_t va;                     /* where it appears in every process: ica_va */
	struct proc *owner;              /* NULL once the owner has ended */
	struct proc *holder;             /* pasted into, or NULL */
	struct ispc_req *req;            /* the request it travels with, or NULL */
};

extern struct spinlock ica_lock;
extern int ica_mode;                 /* HAKO_ISPC_BASELINE or HAKO_ISPC_FAST (ica.c) */

void ica_init(void);                 /* after pmm, vm and the command line */

/* The table (ica.c); guard: ica_lock.  The three look-ups below are
 * inline: each server call makes several. */
extern struct ica icas[ICA_MAX];

/* Where an ICA appears in every process (kept in the slot: every server
 * call reads it, for the words of its message). */
static inline uint64_t ica_va(const struct ica *a)
{
	return a->va;
}

/* Caller holds ica_lock: a live ICA, or NULL. */
static inline struct ica *ica_lookup(int id)
{
	if (id < 0)
		return NULL;
	struct ica *a = &icas[id & (ICA_MAX - 1)];
	return a->state == ICA_LIVE && a->id == id ? a : NULL;
}

void ica_release(struct ica *a);     /* back to the region; nobody may hold it; ica_lock held */

/* Without ica_lock: make the holder's page tables agree with the table. */
struct ica_span {
	struct ica *a;
	int id;
	uint32_t first, npages;
};
/* Under ica_lock. */
static inline struct ica_span ica_span_of(struct ica *a)
{
	return (struct ica_span){ a, a->id, a->first, a->npages };
}
void ica_map_pasted(struct proc *p, struct ica_span s);   /* fast mode: fill PTEs now */
/* A request's control ICA c and data ICA d (d.a NULL: none) reach a
 * process with fast mode's window, address space as: nothing to map, the
 * window's reserved entries made resident (arch_ica_pin) over one range
 * covering both.  Inline, so that it compiles away where the arch
 * reserves no entries (x86). */
static inline void ica_window_pin(struct addrspace *as, struct ica_span c, struct ica_span d)
{
	uint32_t first = c.first, end = c.first + c.npages;
	if (d.a) {
		first = d.first < first ? d.first : first;
		end = d.first + d.npages > end ? d.first + d.npages : end;
	}
	arch_ica_pin(as, HAKO_ICA_AREA + (uint64_t)first * PAGE_SIZE,
		     (uint64_t)(end - first) * PAGE_SIZE, true);
}
void ica_unmap_peeled(struct proc *p, struct ica_span s);

/* What ica_stat reports; each counter is bumped where its event happens. */
struct ica_counters {
	uint64_t pastes;                 /* PTEs filled at paste (ica_fast.c) */
	uint64_t peels;                  /* PTEs cleared at peel (ica.c) */
	uint64_t faults;                 /* pages mapped at first touch (ica_baseline.c) */
	uint64_t kept;                   /* mappings kept across a request (below) */
};
extern struct ica_counters ica_counts;

/*
 * A synchronous request in fast mode whose sender has no other thread
 * (ispc_request and the fastpath decide, under ica_lock, and count it
 * here, inline on the server calls' path): the sender sleeps until the
 * result brings the very same ICAs back to the same addresses, and no
 * thread of it can touch them meanwhile, so they stay mapped — neither
 * peeled at the request nor pasted at the result (the translations kept
 * resident, as the paper's SH-4 method keeps its TLB entries).
 */
static inline void ica_count_kept(void)
{
	__atomic_fetch_add(&ica_counts.kept, 1, __ATOMIC_RELAXED);
}

/* For requests that copy instead of remapping (ispc.c, HAKO_ISPC_COPY):
 * a new ICA, no owner nor holder, with the first `bytes` of src; and the
 * way back.  Without ica_lock; the ICAs must not go away meanwhile. */
struct ica *ica_copy_of(struct ica_span src, uint64_t bytes, long *err);
void ica_copy_back(struct ica_span to, struct ica_span from, uint64_t bytes);

/* The system calls' work (sys_ispc.c copies the arguments). */
long ica_alloc(struct proc *p, uint64_t pages, uint64_t *va);
long ica_free(struct proc *p, int id);
long ica_paste(struct proc *p, int id);
long ica_peel(struct proc *p, int id);
void ica_stat(struct hako_ica_stat *out);
long ica_set_mode(int mode);

/* A touch of the ICA area by p: 0 if the page is now mapped, -EFAULT
 * (baseline mode's first touch, ica_baseline.c). */
int ica_fault(struct proc *p, uint64_t va);
/* fast mode: give a server named by `servers=` the whole region (ica_fast.c). */
void ica_window_open(struct proc *p);
/* p has ended: its ICAs are freed or orphaned (ispc.c has dropped its requests). */
void ica_proc_end(struct proc *p);

#endif
