/*
 * test_drvswitch.c — the address-space switch of paper 003's
 * microbenchmark (kernel/measure/drvswitch.c), without drvswitch=on:
 *
 *   drvswitch_loads_the_driver_space_and_back   drvswitch_in loads a space
 *       of its own (not kernel_as, not what was loaded) holding the kernel
 *       half and nothing below it; drvswitch_out loads what was there
 *       again; two CR3 loads counted on this CPU; the space is freed after.
 */
#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <drvswitch.h>
#include <ktest.h>
#include <spinlock.h>
#include <vm.h>

TEST(drvswitch_loads_the_driver_space_and_back)
{
	CHECK(drvswitch_build() == 0, "no memory for the driver's address space");
	push_off();                            /* this CPU and its loaded space stay put */
	struct addrspace *before = vm_loaded();
	uint64_t loads = this_cpu()->as_loads;
	drvswitch_in();
	struct addrspace *in = vm_loaded();
	bool held = drvswitch_held();
	uint64_t frames = in->table_frames;     /* kernel data, read with the driver's space loaded */
	drvswitch_out();
	struct addrspace *after = vm_loaded();
	bool held_after = drvswitch_held();
	uint64_t n = this_cpu()->as_loads - loads;
	pop_off();
	uint64_t pa_k = 0, pa_d = 0;
	uint64_t kva = (uint64_t)&kernel_as;
	bool shared = vm_lookup(&kernel_as, kva, &pa_k, NULL) && vm_lookup(in, kva, &pa_d, NULL) &&
		      pa_k == pa_d;
	bool user = vm_lookup(in, 0x400000, NULL, NULL);
	drvswitch_teardown();
	CHECK(in != before && in != &kernel_as, "drvswitch_in did not load a space of its own");
	CHECK(held && !held_after, "held %d after %d", held, held_after);
	CHECK(after == before, "drvswitch_out did not load the space it found");
	CHECK_EQ(n, 2);
	CHECK(frames >= 1, "driver space owns %lu table frames", frames);
	CHECK(shared, "the kernel half is not the driver space's");
	CHECK(!user, "the driver space maps a user page");
	return 0;
}
