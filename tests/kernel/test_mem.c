/*
 * test_mem.c — self-tests of the frame allocator, the heap and the page
 * tables: distinct zeroed frames, contiguous aligned runs, exhaustion
 * with the count returning to baseline, map/unmap/lookup, a frame held
 * across its unmap and free (vm_lookup_get), address spaces, kernel stacks
 * on guard pages, a spawn undone, the order of a process's exit hooks.
 */
#include <stdint.h>
#include <string.h>
#include <drvproc.h>
#include <heap.h>
#include <ispc.h>
#include <kstack.h>
#include <ktest.h>
#include <pmm.h>
#include <proc.h>
#include <errno.h>
#include <vm.h>
#include <arch/arch.h>
#include <arch/layout.h>

#define TEST_KVA KERNEL_TEST_VA          /* arch/layout.h: unused by the kernel */

TEST(frames_distinct_zeroed)
{
	static uint64_t got[64];
	uint64_t before = pmm_free_count();
	for (int i = 0; i < 64; i++) {
		got[i] = pmm_alloc();
		CHECK(got[i] && !(got[i] & 0xfff), "bad frame %lx", got[i]);
		uint64_t *p = phys_to_virt(got[i]);
		for (int w = 0; w < 512; w++)
			CHECK(p[w] == 0, "frame %lx not zeroed", got[i]);
		memset(p, 0xa5, PAGE_SIZE);
		for (int j = 0; j < i; j++)
			CHECK(got[j] != got[i], "frame %lx handed out twice", got[i]);
	}
	CHECK(pmm_free_count() == before - 64, "count off by %ld", (long)(before - 64 - pmm_free_count()));
	for (int i = 0; i < 64; i++)
		pmm_free(got[i]);
	return 0;
}

TEST(frames_contiguous_aligned)
{
	uint64_t pa = pmm_alloc_contig(16, 16);
	CHECK(pa, "no 16-frame run");
	CHECK((pa & (16 * PAGE_SIZE - 1)) == 0, "run %lx not 64 KiB aligned", pa);
	pmm_free_contig(pa, 16);
	return 0;
}

/* Take every free frame (chained through their first word), then give all back. */
TEST(frames_exhaustion)
{
	uint64_t before = pmm_free_count(), head = 0, n = 0;
	for (uint64_t pa; (pa = pmm_alloc()) != 0; n++) {
		*(uint64_t *)phys_to_virt(pa) = head;
		head = pa;
	}
	CHECK(pmm_free_count() == 0, "allocator stopped with %lu free", pmm_free_count());
	CHECK(n == before, "took %lu of %lu frames", n, before);
	CHECK(kmalloc(100000) == NULL, "large kmalloc succeeded with no memory");
	while (head) {
		uint64_t next = *(uint64_t *)phys_to_virt(head);
		pmm_free(head);
		head = next;
	}
	CHECK(pmm_free_count() == before, "free count %lu, expected %lu", pmm_free_count(), before);
	return 0;
}

TEST(heap_sizes_and_patterns)
{
	static void *ptrs[40];
	for (int i = 0; i < 40; i++) {
		size_t size = 8u << (i % 12);           /* 8 B .. 16 KiB */
		ptrs[i] = kmalloc(size);
		CHECK(ptrs[i], "kmalloc(%zu) failed", size);
		memset(ptrs[i], i, size);
	}
	for (int i = 0; i < 40; i++) {
		size_t size = 8u << (i % 12);
		for (size_t b = 0; b < size; b++)
			CHECK(((unsigned char *)ptrs[i])[b] == (unsigned char)i, "block %d overwritten", i);
		kfree(ptrs[i]);
	}
	CHECK(kmalloc(0) == NULL, "kmalloc(0) returned memory");
	return 0;
}

TEST(heap_exhaustion)
{
	uint64_t before = pmm_free_count();
	void *head = NULL;
	int n = 0;
	for (void *p; (p = kmalloc(256 * 1024)) != NULL; n++) {
		*(void **)p = head;
		head = p;
	}
	CHECK(n > 0, "no large block at all");
	CHECK(pmm_free_count() < before / 8, "stopped early with %lu frames free", pmm_free_count());
	while (head) {
		void *next = *(void **)head;
		kfree(head);
		head = next;
	}
	CHECK(pmm_free_count() == before, "heap kept %ld frames", (long)(before - pmm_free_count()));
	return 0;
}

TEST(vm_map_lookup_unmap)
{
	struct addrspace *as = vm_create();
	CHECK(as, "vm_create failed");
	uint64_t frame = pmm_alloc();
	uint64_t va = 0x400000;
	CHECK(vm_map(as, va, frame, VM_WRITE | VM_USER) == 0, "map failed");
	CHECK(vm_map(as, va, frame, VM_WRITE | VM_USER) < 0, "double map accepted");
	uint64_t pa;
	unsigned flags;
	CHECK(vm_lookup(as, va + 123, &pa, &flags), "lookup failed");
	CHECK(pa == frame + 123, "lookup gave %lx", pa);
	CHECK((flags & VM_WRITE) && (flags & VM_USER) && !(flags & VM_EXEC), "flags %x", flags);
	CHECK(vm_map(as, va + 1, frame, 0) < 0, "unaligned map accepted");
	CHECK(vm_unmap(as, va) == frame, "unmap returned the wrong frame");
	CHECK(!vm_lookup(as, va, NULL, NULL), "still mapped after unmap");
	CHECK(vm_unmap(as, va) == 0, "second unmap found a frame");
	pmm_free(frame);
	vm_destroy(as);
	return 0;
}

/* vm_map zeroes the page tables a map needs between holds of the address
 * space's lock (arch_pt_map's -EAGAIN, one frame a missing level): every
 * frame it took is a table of the space, none is left over, and a second
 * page under the same tables takes none. */
TEST(vm_map_takes_exactly_the_tables_it_makes)
{
	struct addrspace *as = vm_create();
	CHECK(as, "vm_create failed");
	uint64_t frame = pmm_alloc();
	CHECK(frame, "no frame");
	uint64_t va = 0x40000000;               /* 1 GiB: a region nothing maps */
	uint64_t free0 = pmm_free_count(), tables0 = as->table_frames;
	CHECK(vm_map(as, va, frame, VM_WRITE | VM_USER) == 0, "map failed");
	uint64_t made = as->table_frames - tables0;
	CHECK(made >= 1 && made < ARCH_PT_LEVELS, "%lu tables made", made);
	CHECK(pmm_free_count() == free0 - made, "%ld frames taken for %lu tables",
	      (long)(free0 - pmm_free_count()), made);
	CHECK(vm_map(as, va + PAGE_SIZE, frame, VM_WRITE | VM_USER) == 0, "second map failed");
	CHECK(as->table_frames == tables0 + made && pmm_free_count() == free0 - made,
	      "the second page under the same tables took a frame");
	uint64_t pa;
	CHECK(vm_lookup(as, va + PAGE_SIZE + 8, &pa, NULL) && pa == frame + 8, "lookup gave %lx", pa);
	CHECK(vm_unmap(as, va + PAGE_SIZE) == frame && vm_unmap(as, va) == frame, "unmap");
	pmm_free(frame);
	vm_destroy(as);
	return 0;
}

/* A kernel stack slot freed and taken again maps other frames at the same
 * addresses: a write anywhere in the page reaches the new frame (a TLB
 * entry the unmap left behind would send it to the old one).  The old
 * frames are held meanwhile, so the new ones differ. */
TEST(kernel_page_remapped_reaches_its_new_frame)
{
	enum { HOLD = KSTACK_SIZE / PAGE_SIZE + 1 };
	uint64_t a = kstack_alloc();
	CHECK(a, "no kernel stack");
	volatile uint32_t *last = (volatile uint32_t *)(uintptr_t)(a + KSTACK_SIZE - 4);
	*last = 0x1111;                      /* the last 1 KB of the page: its TLB entry */
	kstack_free(a);
	uint64_t held[HOLD];
	for (int i = 0; i < HOLD; i++)
		held[i] = pmm_alloc();
	uint64_t b = kstack_alloc(), pa = 0;
	bool same = b == a, mapped = b && vm_lookup(&kernel_as, b + KSTACK_SIZE - 4, &pa, NULL);
	if (same && mapped)
		*last = 0x2222;
	uint32_t seen = mapped ? *(volatile uint32_t *)phys_to_virt(pa) : 0;
	if (b)
		kstack_free(b);
	for (int i = 0; i < HOLD; i++)
		if (held[i])
			pmm_free(held[i]);
	CHECK(same && mapped, "the slot came back at %lx, not %lx", b, a);
	CHECK(seen == 0x2222, "the new frame holds %x: the write went elsewhere", seen);
	return 0;
}

/* A frame held by vm_lookup_get is not free again until its last pmm_put. */
TEST(frame_held_across_unmap_is_freed_at_the_last_put)
{
	struct addrspace *as = vm_create();
	CHECK(as, "vm_create failed");
	uint64_t frame = pmm_alloc(), va = 0x400000, pa;
	CHECK(vm_map(as, va, frame, VM_WRITE | VM_USER) == 0, "map failed");
	CHECK(vm_lookup_get(as, va, &pa, NULL) && pa == frame, "lookup_get");
	CHECK(vm_lookup_get(as, va, &pa, NULL) && pa == frame, "second lookup_get");
	CHECK(vm_unmap(as, va) == frame, "unmap");
	uint64_t before = pmm_free_count();      /* the emptied page tables went already */
	pmm_free(frame);
	CHECK(pmm_free_count() == before, "a held frame went back at its free");
	pmm_put(frame);
	CHECK(pmm_free_count() == before, "a frame still held went back");
	pmm_put(frame);
	CHECK(pmm_free_count() == before + 1, "the last put did not free it");
	CHECK(!vm_lookup_get(as, va, &pa, NULL), "lookup_get found an unmapped page");
	vm_destroy(as);
	return 0;
}

TEST(vm_kernel_alias)
{
	uint64_t frame = pmm_alloc();
	CHECK(vm_map(&kernel_as, TEST_KVA, frame, VM_WRITE) == 0, "map failed");
	*(volatile uint64_t *)TEST_KVA = 0x1234abcd;
	CHECK(*(uint64_t *)phys_to_virt(frame) == 0x1234abcd, "alias does not reach the frame");
	CHECK(vm_unmap(&kernel_as, TEST_KVA) == frame, "unmap");
	pmm_free(frame);
	/* the page table frames made for TEST_KVA stay: give them back */
	return 0;
}

/* A kernel stack is mapped, writable, and sits on an unmapped guard page. */
TEST(kstack_has_guard_page)
{
	uint64_t a = kstack_alloc(), b = kstack_alloc();
	CHECK(a && b && a != b, "kstack_alloc gave %lx and %lx", a, b);
	uint64_t pa;
	unsigned flags;
	for (uint64_t off = 0; off < KSTACK_SIZE; off += PAGE_SIZE) {
		CHECK(vm_lookup(&kernel_as, a + off, &pa, &flags), "stack page %lx unmapped", a + off);
		CHECK(flags & VM_WRITE, "stack page %lx read-only", a + off);
	}
	CHECK(!vm_lookup(&kernel_as, a - PAGE_SIZE, &pa, &flags), "guard page %lx is mapped", a - PAGE_SIZE);
	CHECK(kstack_is_guard(a - 1) && !kstack_is_guard(a), "kstack_is_guard wrong at %lx", a);
	CHECK(!kstack_is_guard(0xffff800000001000ull), "a direct-map address taken for a guard");
	memset((void *)a, 0x5a, KSTACK_SIZE);     /* every byte writable */
	memset((void *)b, 0xa5, KSTACK_SIZE);
	CHECK(*(volatile uint8_t *)(a + KSTACK_SIZE - 1) == 0x5a, "stacks overlap");
	kstack_free(a);
	kstack_free(b);
	CHECK(!vm_lookup(&kernel_as, a, &pa, &flags), "freed stack still mapped");
	return 0;
}

/* Stacks are handed out lowest slot first: a stack taken after hundreds
 * came and went sits beside the long-lived ones, under the page table they
 * already use, instead of costing a table of its own (which made a restarted
 * driver look like a one-frame leak). */
TEST(kstack_reuses_freed_slots_so_tables_do_not_grow)
{
	uint64_t a = kstack_alloc();
	CHECK(a, "no stack");
	for (int i = 0; i < 200; i++) {
		uint64_t x = kstack_alloc();
		CHECK(x, "no stack at round %d", i);
		kstack_free(x);
	}
	uint64_t b = kstack_alloc();
	CHECK(b, "no stack");
	uint64_t apart = (b > a ? b - a : a - b) / KSTACK_SLOT;
	kstack_free(a);
	kstack_free(b);
	CHECK(apart < 64, "a stack taken after 200 came and went is %lu slots from a live one "
	      "(one page table spans 64)", apart);
	return 0;
}

/* A spawn whose setup step refuses (a driver process's grants, paper 003)
 * after the main thread was made: every frame comes back, the thread's
 * kernel stack too (the error path once freed the address space and
 * the process but not the thread). */
static int refuse_setup(struct proc *p, void *arg)
{
	(void)p;
	(void)arg;
	return -EIO;
}

TEST(spawn_refused_by_its_setup_gives_every_frame_back)
{
	char *argv[] = { "hello", NULL };
	const void *image;
	uint64_t size;
	if (initrd_find("hello", &image, &size) < 0)
		SKIP("no program hello: no user programs in the boot archive");
	uint64_t before = pmm_free_count();
	for (int i = 0; i < 3; i++)
		CHECK(proc_spawn_with(NULL, "hello", 1, argv, refuse_setup, NULL) == -EIO,
			 "spawn with a refusing setup did not fail with -EIO");
	CHECK(pmm_free_count() == before, "%ld frames lost", (long)(before - pmm_free_count()));
	return 0;
}

/* A process's end runs the exit hooks the boot registered, ipc first (its
 * requests and ICAs, while the address space is there), then drvproc (a
 * driver process's device), then the cards of programs. */
TEST(process_exit_hooks_run_ipc_then_drvproc_then_nic)
{
	const struct proc_exit_hook *h = proc_exit_hooks();
	CHECK(h && h->rank == PROC_EXIT_ISPC && h->fn == ispc_proc_end, "first hook is not ipc's");
	h = h->next;
	CHECK(h && h->rank == PROC_EXIT_DRVPROC && h->fn == drvproc_proc_end, "second hook is not drvproc's");
	h = h->next;
	CHECK(h && h->rank == PROC_EXIT_NIC, "third hook is not the NICs'");
	CHECK(!h->next, "a fourth hook (rank %d)", h->next->rank);
	return 0;
}
