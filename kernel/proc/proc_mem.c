/*
 * proc_mem.c — a process's memory: loading the program, the argument
 * stack, the heap (brk) and pages filled on first touch.
 *
 * The user half of an address space (uapi/hako.h has the numbers):
 *   HAKO_USER_IMAGE_BASE   program segments, copied in at spawn
 *   heap_base .. brk       heap, zero pages on first touch
 *   HAKO_THREAD_STACK_AREA thread i>0: slot i, its lowest page a guard
 *   HAKO_USER_STACK_TOP    the main thread's stack, HAKO_USER_STACK_MAX
 *                          below it at most, then an unmapped guard page
 * Every frame mapped for the program is VM_OWNED, so vm_destroy frees it.
 * Nothing else is valid: a touch anywhere else kills the process.
 */
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <elf.h>
#include <errno.h>
#include <pmm.h>
#include <proc.h>
#include <serialiser.h>
#include <vm.h>

#define PAGE_DOWN(x) ((x) & ~(uint64_t)(PAGE_SIZE - 1))
#define PAGE_UP(x)   PAGE_DOWN((x) + PAGE_SIZE - 1)
#define DEMAND_FLAGS (VM_USER | VM_WRITE | VM_OWNED)
/* brk will not promise more than what is free minus this (for the kernel's own needs). */
#define KERNEL_RESERVE_FRAMES 256

/* Every thread's slot lies under the main stack's guard page, in either
 * width of user half. */
_Static_assert(HAKO_THREAD_STACK_AREA + HAKO_MAX_THREADS * HAKO_THREAD_STACK_SLOT <=
	       HAKO_USER_STACK_TOP - HAKO_USER_STACK_MAX - PAGE_SIZE,
	       "the thread stack slots run into the main thread's stack");

uint64_t thread_stack_top(int slot)
{
	return HAKO_THREAD_STACK_AREA + (uint64_t)(slot + 1) * HAKO_THREAD_STACK_SLOT;
}

/* May a page at va be filled on first touch? */
static bool demand_page(struct proc *p, uint64_t va)
{
	if (va >= p->heap_base && va < PAGE_UP(p->brk))
		return true;
	if (va >= HAKO_USER_STACK_TOP - HAKO_USER_STACK_MAX && va < HAKO_USER_STACK_TOP)
		return true;
	if (va >= HAKO_THREAD_STACK_AREA && va < thread_stack_top(HAKO_MAX_THREADS - 1)) {
		uint64_t off = va - HAKO_THREAD_STACK_AREA;
		int slot = (int)(off / HAKO_THREAD_STACK_SLOT);
		return slot > 0 && off % HAKO_THREAD_STACK_SLOT >= PAGE_SIZE &&
		       p->threads[slot].state == UT_LIVE;
	}
	return false;
}

/* Map the (zeroed) frame pa at va for p; on failure the frame is freed. */
static int map_frame(struct proc *p, uint64_t va, uint64_t pa, unsigned flags)
{
	int err = vm_map(p->as, va, pa, flags);
	if (err < 0) {
		pmm_free(pa);
		return err;
	}
	__atomic_fetch_add(&p->user_frames, 1, __ATOMIC_RELAXED);
	return 0;
}

static int map_new_frame(struct proc *p, uint64_t va, unsigned flags, uint64_t *pa_out)
{
	uint64_t pa = pmm_alloc();
	if (!pa)
		return -ENOMEM;
	int err = map_frame(p, va, pa, flags);
	if (!err && pa_out)
		*pa_out = pa;
	return err;
}

static int no_ica_area(struct proc *p, uint64_t va)
{
	(void)p, (void)va;
	return -EFAULT;
}

/* The ICA area's fault handler (proc.h): set once at boot, before any process. */
static int (*ica_area_fault)(struct proc *p, uint64_t va) = no_ica_area;

void proc_on_ica_fault(int (*fn)(struct proc *p, uint64_t va))
{
	ica_area_fault = fn;
}

int proc_page_fault(uint64_t addr, unsigned access)
{
	struct proc *p = proc_current();
	if (!p || addr >= USER_TOP)
		return -EFAULT;
	uint64_t va = PAGE_DOWN(addr);
	if (access & FAULT_EXEC)
		return -EFAULT;              /* code runs only from the program's own pages */
	if (va >= HAKO_ICA_AREA && va < HAKO_ICA_AREA + HAKO_ICA_AREA_SIZE)
		return ica_area_fault(p, va);   /* an ICA it holds, pasted lazily (baseline) */
	/* Only demand pages are ever filled here; a fault on a page of the
	 * program itself (write to text, say) is a rights violation.  With
	 * serialise=on the frame is taken and zeroed before p->lock, not with
	 * interrupts off under it (4 KiB of stores: ~80 us on a Pentium 166
	 * from memory); without a frame the old path says which error. */
	uint64_t pa = serialiser_on() ? pmm_alloc() : 0;
	spin_lock(&p->lock);
	bool demand = demand_page(p, va);
	int err = !demand ? -EFAULT :
		  pa ? map_frame(p, va, pa, DEMAND_FLAGS) : map_new_frame(p, va, DEMAND_FLAGS, NULL);
	spin_unlock(&p->lock);
	if (pa && !demand)
		pmm_free(pa);                /* map_frame frees it on its own failures */
	return err == -EEXIST ? 0 : err;            /* another thread filled it first */
}

bool proc_own_stack(uint64_t addr, uint64_t len)
{
	struct uthread *u = uthread_current();
	uint64_t base = u ? u->super_stack : 0;
	return base && addr >= base && len <= KSTACK_SIZE && addr - base <= KSTACK_SIZE - len;
}

uint64_t proc_own_stack_top(void)
{
	struct uthread *u = uthread_current();
	return u && u->super_stack ? u->super_stack + KSTACK_SIZE : 0;
}

/* Unmap and free what is mapped in [from, to). */
static void unmap_range(struct proc *p, uint64_t from, uint64_t to)
{
	for (uint64_t va = from; va < to; va += PAGE_SIZE) {
		uint64_t pa = vm_unmap(p->as, va);
		if (pa) {
			pmm_free(pa);
			__atomic_fetch_sub(&p->user_frames, 1, __ATOMIC_RELAXED);
		}
	}
}

long proc_brk(struct proc *p, uint64_t end)
{
	if (end == 0)
		return (long)p->brk;
	if (end < p->heap_base || end > p->heap_base + HAKO_HEAP_MAX)
		return -ENOMEM;
	spin_lock(&p->lock);
	uint64_t old = p->brk;
	uint64_t grow = PAGE_UP(end) > PAGE_UP(old) ? (PAGE_UP(end) - PAGE_UP(old)) / PAGE_SIZE : 0;
	uint64_t free = pmm_free_count();
	bool ok = grow == 0 || (free > KERNEL_RESERVE_FRAMES && grow <= free - KERNEL_RESERVE_FRAMES);
	if (ok)
		p->brk = end;
	spin_unlock(&p->lock);
	if (!ok)
		return -ENOMEM;
	if (PAGE_UP(end) < PAGE_UP(old))
		unmap_range(p, PAGE_UP(end), PAGE_UP(old));
	return (long)end;
}

void proc_free_stack_slot(struct proc *p, int slot)
{
	unmap_range(p, thread_stack_top(slot) - HAKO_THREAD_STACK_SLOT, thread_stack_top(slot));
}

/* The same, on the serialising thread: SER_UNMAP_CHUNK pages per lock
 * hold and one ranged TLB shootdown each (vm_unmap_pages). */
void proc_free_stack_slot_chunked(struct proc *p, int slot)
{
	uint64_t frames[SER_UNMAP_CHUNK];
	uint64_t va = thread_stack_top(slot) - HAKO_THREAD_STACK_SLOT;
	for (uint64_t off = 0; off < HAKO_THREAD_STACK_SLOT; off += SER_UNMAP_CHUNK * PAGE_SIZE) {
		uint64_t n = vm_unmap_pages(p->as, va + off, SER_UNMAP_CHUNK, frames);
		for (uint64_t i = 0; i < n; i++)
			pmm_free(frames[i]);
		__atomic_fetch_sub(&p->user_frames, n, __ATOMIC_RELAXED);
	}
}

static unsigned segment_flags(unsigned elf_flags)
{
	return VM_USER | VM_OWNED | ((elf_flags & ELF_SEG_W) ? VM_WRITE : 0) |
	       ((elf_flags & ELF_SEG_X) ? VM_EXEC : 0);
}

/* Copy the file part of a segment that falls in the page at va. */
static void fill_page(uint8_t *page, uint64_t va, const struct elf_segment *s, const uint8_t *file)
{
	uint64_t from = s->vaddr > va ? s->vaddr : va;
	uint64_t to = s->vaddr + s->filesz < va + PAGE_SIZE ? s->vaddr + s->filesz : va + PAGE_SIZE;
	if (from < to)
		memcpy(page + (from - va), file + s->offset + (from - s->vaddr), to - from);
}

int proc_load(struct proc *p, const struct elf_image *img, const uint8_t *file)
{
	uint64_t top = 0;
	for (int i = 0; i < img->nsegs; i++) {
		const struct elf_segment *s = &img->segs[i];
		uint64_t end = PAGE_UP(s->vaddr + s->memsz);
		for (uint64_t va = PAGE_DOWN(s->vaddr); va < end; va += PAGE_SIZE) {
			uint64_t pa;
			int err = map_new_frame(p, va, segment_flags(s->flags), &pa);
			if (err < 0)
				return err;
			fill_page(phys_to_virt(pa), va, s, file);
		}
		if (end > top)
			top = end;
	}
	p->heap_base = p->brk = top;
	return 0;
}

/*
 * The main thread's first stack page: argument strings at the top, the
 * argv array (argc + 1 pointers) under them, rsp 16-byte aligned at argv.
 */
int proc_setup_stack(struct proc *p, int argc, char *const argv[], uint64_t *rsp, uint64_t *uargv)
{
	uint64_t page_va = HAKO_USER_STACK_TOP - PAGE_SIZE, pa;
	int err = map_new_frame(p, page_va, DEMAND_FLAGS, &pa);
	if (err < 0)
		return err;
	uint8_t *page = phys_to_virt(pa);
	uint64_t off = PAGE_SIZE;
	uintptr_t ptrs[HAKO_ARGV_MAX + 1];       /* user pointers: as wide as the kernel's */
	for (int i = 0; i < argc; i++) {
		uint64_t len = strlen(argv[i]) + 1;
		if (len > off || i >= HAKO_ARGV_MAX)
			return -E2BIG;
		off -= len;
		memcpy(page + off, argv[i], len);
		ptrs[i] = (uintptr_t)(page_va + off);
	}
	ptrs[argc] = 0;
	uint64_t bytes = (uint64_t)(argc + 1) * sizeof(uintptr_t);
	if (bytes + 16 > off)
		return -E2BIG;
	off = (off - bytes) & ~15ull;
	memcpy(page + off, ptrs, bytes);
	*rsp = *uargv = page_va + off;
	return 0;
}
