/*
 * test_serialiser.c — self-tests of paper 004's serialising thread
 * (sched/serialiser.c), the chunked unmap it uses (vm_unmap_pages), and
 * the kernel-internal interfaces kperf times (measure/kinternal.c).
 */
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <ktest.h>
#include <measure.h>
#include <pmm.h>
#include <proc.h>
#include <serialiser.h>
#include <thread.h>
#include <vm.h>
#include <arch/arch.h>
#include <hako_perf.h>

#define NWORK 8

struct order_work {
	struct ser_work w;
	int index;
};

static struct order_work works[NWORK];
static int ran[NWORK], nran;
static struct thread *ran_on[NWORK];

static void record(struct ser_work *w)
{
	struct order_work *o = (struct order_work *)w;
	ran_on[nran] = thread_current();
	ran[nran++] = o->index;
}

TEST(serialiser_runs_work_in_order_on_its_own_thread)
{
	if (!serialiser_on())
		SKIP("serialise=off");
	nran = 0;
	for (int i = 0; i < NWORK; i++) {
		works[i].w.fn = record;
		works[i].index = i;
		serialiser_queue(&works[i].w);
	}
	serialiser_drain();
	CHECK(nran == NWORK, "%d of %d pieces ran by the drain", nran, NWORK);
	for (int i = 0; i < NWORK; i++) {
		CHECK(ran[i] == i, "piece %d ran %dth", ran[i], i);
		CHECK(ran_on[i] != thread_current() && ran_on[i] == ran_on[0],
			 "piece %d ran on another thread than the serialiser", i);
	}
	return 0;
}

/* 40 pages across an 8 MiB boundary (one between two lowest-level page
 * tables on every arch), unmapped in two chunks: every frame comes back
 * once, and the emptied page tables are freed.  The tables made: one per
 * level above the lowest, two of the lowest (ARCH_PT_LEVELS + 1). */
TEST(vm_unmap_pages_returns_frames_and_frees_tables)
{
	const uint64_t va = 0x800000 - 20 * PAGE_SIZE, n = 40;
	uint64_t mapped[40], got[VM_UNMAP_PAGES_MAX];
	uint64_t free_before = pmm_free_count();
	struct addrspace *as = vm_create();
	CHECK(as, "vm_create");
	for (uint64_t i = 0; i < n; i++) {
		mapped[i] = pmm_alloc();
		CHECK(mapped[i], "pmm_alloc");
		CHECK(vm_map(as, va + i * PAGE_SIZE, mapped[i], VM_USER | VM_WRITE) == 0, "vm_map %lu", i);
	}
	CHECK(as->table_frames == ARCH_PT_LEVELS + 1, "%lu table frames for 40 pages across a table line, not %d",
		 as->table_frames, ARCH_PT_LEVELS + 1);
	uint64_t k = 0;
	for (uint64_t off = 0; off < n; off += 32) {
		uint64_t chunk = n - off < 32 ? n - off : 32;
		uint64_t got_n = vm_unmap_pages(as, va + off * PAGE_SIZE, chunk, got);
		CHECK(got_n == chunk, "chunk at %lu: %lu frames, not %lu", off, got_n, chunk);
		for (uint64_t i = 0; i < got_n; i++, k++) {
			CHECK(got[i] == mapped[k], "page %lu: frame %lx, mapped %lx", k, got[i], mapped[k]);
			pmm_free(got[i]);
		}
	}
	CHECK(as->table_frames == 1, "%lu table frames left, not the root alone", as->table_frames);
	CHECK(vm_unmap_pages(as, va, 16, got) == 0, "unmapped pages unmapped again");
	vm_destroy(as);
	CHECK(pmm_free_count() == free_before, "%lu frames free, %lu before", pmm_free_count(), free_before);
	return 0;
}

/* perf_ctl HAKO_PERF_INTERNAL's interfaces (measure/kinternal.c) each time
 * a call in both cases and give back every frame; the ICA ones need a
 * calling process, which a kernel test is not. */
TEST(kinternal_interfaces_time_and_give_every_frame_back)
{
	struct hako_perf_internal io = { .index = 0 };
	const void *image;
	uint64_t size;
	if (initrd_find("hello", &image, &size) < 0)
		SKIP("no program hello (proc_create's): no user programs in the boot archive");
	kinternal_time(&io);                         /* warm-up: the heap's slabs */
	uint64_t before = pmm_free_count();
	uint32_t n = io.count;
	CHECK(n >= 7, "%u interfaces", n);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t worst = 0; worst < 2; worst++) {
			memset(&io, 0, sizeof io);
			io.index = i;
			io.worst = worst;
			long r = kinternal_time(&io);
			bool ica = strncmp(io.name, "ica_", 4) == 0;
			CHECK(ica ? r == -EINVAL : r == 0 && io.ticks > 0, "%s (%s): %ld, %lu ticks",
				 io.name, worst ? "worst" : "best", r, io.ticks);
		}
	io.index = n;
	CHECK(kinternal_time(&io) == -ENOENT, "an index past the last");
	CHECK(pmm_free_count() == before, "%lu frames free, %lu before", pmm_free_count(), before);
	return 0;
}
