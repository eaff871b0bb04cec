/*
 * kinternal.c — paper 004's measurement of kernel-internal interfaces,
 * the way user/kperf times the system calls: the best case is the second
 * of two calls back to back, the worst case follows a purge of the caches
 * and the TLB (arch_purge_caches_and_tlb); each timed call runs with
 * interrupts off, so no other thread's time counts.  user/kperf asks for
 * one run at a time (perf_ctl HAKO_PERF_INTERNAL) and averages five.
 *
 * Each interface has a prepare (untimed), the operation (run twice: call
 * 0 untimed, call 1 timed, on separate objects), an undo per call and a
 * cleanup, all untimed.  Address-space copy, which the paper also timed,
 * has no counterpart in Hako (no fork; ICAs are pasted, not copied), so
 * the table has map, unmap and create/destroy of an address space.
 */
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <ica.h>
#include <measure.h>
#include <pmm.h>
#include <proc.h>
#include <region.h>
#include <spinlock.h>
#include <thread.h>
#include <vm.h>
#include <arch/arch.h>
#include <hako_perf.h>

#define MAP_PAGES 16
#define MAP_BASE  0x40000000ull          /* in a scratch address space */
#define MAP_STEP  (2 * MAP_PAGES * PAGE_SIZE)
#define ICA_PAGES 16
#define PROGRAM   "hello"                /* the smallest program in the boot archive */

struct kint_state {
	struct proc *p[2];
	struct thread *t[2];
	struct addrspace *as;
	uint64_t frames[2][MAP_PAGES], keeper;
	long ica[2];
};

struct kint {
	const char *name, *note;
	long (*prepare)(struct kint_state *s);
	long (*op)(struct kint_state *s, int i);
	void (*undo)(struct kint_state *s, int i);
	void (*cleanup)(struct kint_state *s);
};

/* ---- process and thread create ---------------------------------------- */

static long proc_op(struct kint_state *s, int i)
{
	s->p[i] = proc_create_unstarted(PROGRAM);
	return s->p[i] ? 0 : -ENOMEM;
}

static void proc_undo(struct kint_state *s, int i)
{
	if (s->p[i])
		proc_discard_unstarted(s->p[i]);
}

static void idle_entry(void *unused) { }

static long thread_op(struct kint_state *s, int i)
{
	s->t[i] = thread_create("kinternal", idle_entry, NULL, 8, 0);
	return s->t[i] ? 0 : -ENOMEM;
}

static void thread_undo(struct kint_state *s, int i)
{
	if (s->t[i])
		thread_discard(s->t[i]);
}

static long as_op(struct kint_state *s, int i)
{
	struct addrspace *as = vm_create();
	if (!as)
		return -ENOMEM;
	vm_destroy(as);
	return 0;
}

/* ---- map and unmap in a scratch address space -------------------------- */

static void release_frames(struct kint_state *s)
{
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < MAP_PAGES; k++)
			if (s->frames[i][k])
				pmm_free(s->frames[i][k]);
	if (s->keeper)
		pmm_free(s->keeper);
}

static void as_cleanup(struct kint_state *s)
{
	if (s->as)
		vm_destroy(s->as);       /* the frames are not VM_OWNED: they go here */
	release_frames(s);
}

/* A scratch space with a page kept mapped beside the two ranges, so the
 * timed map finds its page tables made and the timed unmap frees none. */
static long as_prepare(struct kint_state *s)
{
	s->as = vm_create();
	s->keeper = pmm_alloc();
	if (!s->as || !s->keeper)
		return -ENOMEM;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < MAP_PAGES; k++)
			if (!(s->frames[i][k] = pmm_alloc()))
				return -ENOMEM;
	return vm_map(s->as, MAP_BASE + 2 * MAP_STEP, s->keeper, VM_USER | VM_WRITE);
}

static long map_op(struct kint_state *s, int i)
{
	for (int k = 0; k < MAP_PAGES; k++) {
		long r = vm_map(s->as, MAP_BASE + i * MAP_STEP + (uint64_t)k * PAGE_SIZE, s->frames[i][k],
				VM_USER | VM_WRITE);
		if (r < 0)
			return r;
	}
	return 0;
}

static void unmap_undo(struct kint_state *s, int i)
{
	uint64_t got[MAP_PAGES];
	vm_unmap_pages(s->as, MAP_BASE + i * MAP_STEP, MAP_PAGES, got);
}

static long unmap_prepare(struct kint_state *s)
{
	long r = as_prepare(s);
	for (int i = 0; i < 2 && r == 0; i++)
		r = map_op(s, i);
	return r;
}

static long unmap_op(struct kint_state *s, int i)
{
	uint64_t got[MAP_PAGES];
	return vm_unmap_pages(s->as, MAP_BASE + i * MAP_STEP, MAP_PAGES, got) == MAP_PAGES ? 0 : -EFAULT;
}

/* ---- ICA paste and peel in the calling process ------------------------- */

static long ica_prepare(struct kint_state *s, bool peeled)
{
	struct proc *self = proc_current();
	if (!self)
		return -EINVAL;
	for (int i = 0; i < 2; i++) {
		uint64_t va;
		s->ica[i] = ica_alloc(self, ICA_PAGES, &va);
		if (s->ica[i] < 0)
			return s->ica[i];
		if (peeled && ica_peel(self, (int)s->ica[i]) < 0)
			return -EFAULT;
	}
	return 0;
}

static long paste_prepare(struct kint_state *s) { return ica_prepare(s, true); }
static long peel_prepare(struct kint_state *s) { return ica_prepare(s, false); }

static long paste_op(struct kint_state *s, int i)
{
	long r = ica_paste(proc_current(), (int)s->ica[i]);
	return r < 0 ? r : 0;
}

static long peel_op(struct kint_state *s, int i)
{
	return ica_peel(proc_current(), (int)s->ica[i]);
}

static void ica_cleanup(struct kint_state *s)
{
	for (int i = 0; i < 2; i++)
		if (s->ica[i] > 0)
			ica_free(proc_current(), (int)s->ica[i]);
}

static const struct kint kints[] = {
	{ "proc_create", "spawn's build of " PROGRAM ", not started",
	  NULL, proc_op, proc_undo, NULL },
	{ "thread_create", "a kernel thread with its stack; not started", NULL, thread_op, thread_undo, NULL },
	{ "as_create_destroy", "vm_create then vm_destroy of an empty address space", NULL, as_op, NULL, NULL },
	{ "vm_map_16", "16 pages mapped one by one, page tables there", as_prepare, map_op, unmap_undo,
	  as_cleanup },
	{ "vm_unmap_16", "vm_unmap_pages of 16 pages, one shootdown, no table freed", unmap_prepare,
	  unmap_op, NULL, as_cleanup },
	{ "ica_paste", "ica_paste of a 16-page ICA (the mode's mapping work)", paste_prepare, paste_op,
	  NULL, ica_cleanup },
	{ "ica_peel", "ica_peel of a 16-page ICA, its TLB shootdown included", peel_prepare, peel_op,
	  NULL, ica_cleanup },
};
#define NKINTS ((int)(sizeof kints / sizeof kints[0]))
_Static_assert(NKINTS <= REGION_KINTERNAL_SLOTS && 2 * NKINTS <= REGION_NTH_MAX,
	       "every interface needs its two region slots");

long kinternal_time(struct hako_perf_internal *io)
{
	io->count = NKINTS;
	if (io->index >= (uint32_t)NKINTS)
		return -ENOENT;
	const struct kint *k = &kints[io->index];
	unsigned slot = 2 * io->index + (io->worst ? 1 : 0);
	struct kint_state s;
	memset(&s, 0, sizeof s);
	strlcpy(io->name, k->name, sizeof io->name);
	strlcpy(io->note, k->note, sizeof io->note);
	io->region = REGION_KINTERNAL + slot;
	long r = k->prepare ? k->prepare(&s) : 0;
	uint64_t t0 = 0, t1 = 0;
	if (r == 0) {
		push_off();                  /* nobody else's time in the figure */
		r = k->op(&s, 0);
		if (r == 0) {
			if (io->worst)
				arch_purge_caches_and_tlb();
			region_begin_nth(REGION_KINTERNAL, slot);
			t0 = arch_tsc();
			r = k->op(&s, 1);
			t1 = arch_tsc();
			region_end_nth(REGION_KINTERNAL, slot);
		}
		pop_off();
	}
	for (int i = 0; i < 2 && k->undo; i++)
		k->undo(&s, i);
	if (k->cleanup)
		k->cleanup(&s);
	io->ticks = t1 - t0;
	return r;
}
