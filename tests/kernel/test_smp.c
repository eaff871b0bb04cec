/*
 * test_smp.c — self-tests of the multiprocessor machinery: every CPU
 * online and ticking, IPIs reaching each CPU, cross-CPU calls, TLB
 * shootdown seen by another CPU (and the lazily cleared CPU mask of an
 * address space), and a spinlock hammered by all CPUs.
 */
#include <stdint.h>
#include <acpi.h>
#include <cpu.h>
#include <intr.h>
#include <ktest.h>
#include <pmm.h>
#include <smp.h>
#include <spinlock.h>
#include <thread.h>
#include <vm.h>
#include <arch/arch.h>
#include <arch/layout.h>

#define TEST_KVA (KERNEL_TEST_VA + 0x200000)

TEST(cpus_all_online)
{
	/* No firmware CPU list (no ACPI): the boot CPU alone. */
	int expect = acpi.ncpus == 0 ? 1 : acpi.ncpus < MAX_CPUS ? acpi.ncpus : MAX_CPUS;
	CHECK(cpus_online() == expect, "%d online, ACPI lists %d", cpus_online(), expect);
	uint64_t t0[MAX_CPUS];
	for (int i = 0; i < ncpus; i++)
		t0[i] = cpus[i].ticks;
	thread_sleep_ns(35000000);
	for (int i = 0; i < ncpus; i++)
		CHECK(cpus[i].ticks >= t0[i] + 2, "cpu %d took %lu ticks in 35 ms", i, cpus[i].ticks - t0[i]);
	return 0;
}

static volatile uint64_t ipi_hits[MAX_CPUS];

static void count_ipi(void *unused)
{
	__atomic_fetch_add(&ipi_hits[cpu_id()], 1, __ATOMIC_RELAXED);
}

TEST(ipi_reaches_each_cpu)
{
	CHECK(intr_register(VECTOR_TEST, count_ipi, NULL, "ktest-ipi") == 0, "register");
	for (int c = 0; c < ncpus; c++) {
		uint64_t before = ipi_hits[c];
		smp_send_ipi(c, VECTOR_TEST);
		for (int spin = 0; spin < 1000000 && ipi_hits[c] == before; spin++)
			arch_spin_hint();
		CHECK(ipi_hits[c] == before + 1, "cpu %d: %lu IPIs seen", c, ipi_hits[c] - before);
	}
	intr_unregister(VECTOR_TEST);
	return 0;
}

static volatile int call_ran[MAX_CPUS];

static void mark_call(void *arg)
{
	call_ran[cpu_id()] += (int)(uint64_t)arg;
}

TEST(cross_cpu_call)
{
	for (int c = 0; c < ncpus; c++)
		call_ran[c] = 0;
	smp_call_mask(~0ull, mark_call, (void *)3, true);
	for (int c = 0; c < ncpus; c++)
		if (c != cpu_id())
			CHECK(call_ran[c] == 3, "cpu %d ran the call %d/3 times", c, call_ran[c]);
	CHECK(call_ran[cpu_id()] == 0, "the caller ran its own call");
	return 0;
}

static volatile uint64_t seen_value;

static void read_test_page(void *unused)
{
	seen_value = *(volatile uint64_t *)TEST_KVA;
}

/* Another CPU caches TEST_KVA -> A, we remap it to B; it must now read B. */
TEST(tlb_shootdown)
{
	if (ncpus < 2)
		SKIP("needs 2 CPUs");
	int other = cpu_id() == 0 ? 1 : 0;
	uint64_t a = pmm_alloc(), b = pmm_alloc();
	*(uint64_t *)phys_to_virt(a) = 0xaaaa;
	*(uint64_t *)phys_to_virt(b) = 0xbbbb;
	CHECK(vm_map(&kernel_as, TEST_KVA, a, VM_WRITE) == 0, "map a");
	smp_call_mask(1ull << other, read_test_page, NULL, true);
	CHECK(seen_value == 0xaaaa, "cpu %d read %lx before the remap", other, seen_value);
	CHECK(vm_unmap(&kernel_as, TEST_KVA) == a, "unmap a");
	CHECK(vm_map(&kernel_as, TEST_KVA, b, VM_WRITE) == 0, "map b");
	smp_call_mask(1ull << other, read_test_page, NULL, true);
	CHECK(seen_value == 0xbbbb, "cpu %d still reads %lx: stale TLB", other, seen_value);
	vm_unmap(&kernel_as, TEST_KVA);
	pmm_free(a);
	pmm_free(b);
	return 0;
}

#define TEST_UVA 0x400000ull      /* a user address, in an address space of the test's own */

/* Load as on this CPU and leave it again, as two thread switches would. */
static void visit_as(void *as)
{
	struct addrspace *was = vm_loaded();
	vm_switch(as);
	vm_switch(was);
}

/* A CPU that left an address space keeps its bit in as->cpus (vm_switch_on
 * clears it lazily), and a shootdown of that space does not interrupt it:
 * it no longer has the space loaded (vm.c's holders). */
TEST(shootdown_skips_a_cpu_that_left)
{
	if (ncpus < 2)
		SKIP("needs 2 CPUs");
	int other = cpu_id() == 0 ? 1 : 0;
	uint64_t bit = 1ull << other;
	struct addrspace *as = vm_create();
	CHECK(as != NULL, "vm_create");
	uint64_t frame = pmm_alloc();
	smp_call_mask(bit, visit_as, as, true);
	CHECK(as->cpus & bit, "cpu %d's bit went when it left: %lx", other, as->cpus);
	CHECK(vm_map(as, TEST_UVA, frame, VM_USER | VM_WRITE) == 0, "map");
	uint64_t irqs = cpus[other].irqs;
	CHECK(vm_unmap(as, TEST_UVA) == frame, "unmap");
	CHECK(cpus[other].irqs == irqs, "cpu %d was interrupted %lu times by the shootdown", other,
	      cpus[other].irqs - irqs);
	vm_destroy(as);
	pmm_free(frame);
	return 0;
}

#define STRESS_ROUNDS 20000
static struct spinlock stress_lock = SPINLOCK_INIT("stress", LOCK_ALONE);
static volatile uint64_t stress_counter;
static volatile uint64_t stress_unlocked_shadow;

static void hammer(void *unused)
{
	for (int i = 0; i < STRESS_ROUNDS; i++) {
		spin_lock(&stress_lock);
		uint64_t v = stress_counter;      /* read-modify-write, not atomic */
		stress_unlocked_shadow = v;
		stress_counter = v + 1;
		spin_unlock(&stress_lock);
	}
}

TEST(spinlock_stress_all_cpus)
{
	struct thread *t[MAX_CPUS];
	stress_counter = 0;
	for (int c = 0; c < ncpus; c++) {
		t[c] = thread_create("hammer", hammer, NULL, PRIO_DEFAULT, 1ull << c);
		CHECK(t[c], "thread_create");
		thread_start(t[c]);
	}
	for (int c = 0; c < ncpus; c++)
		thread_join(t[c]);
	CHECK(stress_counter == (uint64_t)ncpus * STRESS_ROUNDS, "counter %lu, expected %lu",
		 stress_counter, (uint64_t)ncpus * STRESS_ROUNDS);
	return 0;
}
