/*
 * kbench.c — the kernel's own timing figures (see docs/results.md):
 * TSC read cost, a lock round trip, an IPI round trip, thread yield and
 * a cross-CPU wake-up, each as min/median/mean/max of many runs; and how
 * evenly the emulator shares time among CPUs that all compute.
 */
#include <stdint.h>
#include <cpu.h>
#include <kmain.h>
#include <smp.h>
#include <spinlock.h>
#include <stats.h>
#include <thread.h>
#include <time.h>
#include <arch/arch.h>

#define RUNS 200
static uint64_t samples[RUNS];

static void bench_tsc(void)
{
	struct stats s;
	stats_init(&s, samples, RUNS);
	for (int i = 0; i < RUNS; i++) {
		uint64_t t0 = arch_tsc_serial();
		uint64_t t1 = arch_tsc_serial();
		stats_add(&s, t1 - t0);
	}
	result_bench("tsc_read", "tsc", &s);
}

static void bench_lock(void)
{
	static struct spinlock l = SPINLOCK_INIT("bench", LOCK_ALONE);
	struct stats s;
	stats_init(&s, samples, RUNS);
	for (int i = 0; i < RUNS; i++) {
		uint64_t t0 = arch_tsc_serial();
		spin_lock(&l);
		spin_unlock(&l);
		stats_add(&s, arch_tsc_serial() - t0);
	}
	result_bench("spinlock_uncontended", "tsc", &s);
}

static void nothing(void *arg) { (void)arg; }

static void bench_ipi(void)
{
	if (ncpus < 2)
		return;
	struct stats s;
	stats_init(&s, samples, RUNS);
	int other = cpu_id() == 0 ? 1 : 0;
	for (int i = 0; i < RUNS; i++) {
		uint64_t t0 = arch_tsc_serial();
		smp_call_mask(1ull << other, nothing, NULL, true);
		stats_add(&s, arch_tsc_serial() - t0);
	}
	result_bench("ipi_call_roundtrip", "tsc", &s);
}

static void bench_yield(void)
{
	struct stats s;
	stats_init(&s, samples, RUNS);
	for (int i = 0; i < RUNS; i++) {
		uint64_t t0 = arch_tsc_serial();
		sched_yield();
		stats_add(&s, arch_tsc_serial() - t0);
	}
	result_bench("yield_alone", "tsc", &s);
}

/*
 * One compute loop pinned to each CPU for 50 ms of guest time: the loop
 * counts of the CPUs, min to max.  On hardware they are about equal;
 * under QEMU 7.2 icount a vCPU late in the emulator's round-robin order
 * can get far less (docs/design/qemu.md), which every SMP figure must allow for.
 */
static volatile uint64_t share_count[MAX_CPUS];

static void share_worker(void *arg)
{
	volatile uint64_t *count = arg;
	uint64_t end = arch_tsc() + ns_to_tsc(50000000);
	while (arch_tsc() < end)
		(*count)++;
}

static void bench_vcpu_share(void)
{
	struct thread *t[MAX_CPUS];
	int n = 0;
	for (int i = 0; i < ncpus; i++) {
		share_count[i] = 0;
		t[n] = thread_create("share", share_worker, (void *)&share_count[i], PRIO_DEFAULT, 1ull << i);
		if (t[n])
			thread_start(t[n++]);
	}
	for (int i = 0; i < n; i++)
		thread_join(t[i]);
	struct stats s;
	stats_init(&s, samples, RUNS);
	for (int i = 0; i < ncpus; i++)
		stats_add(&s, share_count[i]);
	result_bench("vcpu_share_50ms", "loops", &s);
}

int kbench_main(int argc, char **argv)
{
	bench_tsc();
	bench_lock();
	bench_yield();
	bench_ipi();
	bench_vcpu_share();
	return 0;
}
