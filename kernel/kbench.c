/*
 * kbench.c — the kernel's own timing figures (see docs/results.md):
 * TSC read cost, a lock round trip, an IPI round trip, thread yield and
 * a cross-CPU wake-up, each as min/median/mean/max of many runs.
 */
#include <stdint.h>
#include <cpu.h>
#include <kmain.h>
#include <smp.h>
#include <spinlock.h>
#include <stats.h>
#include <thread.h>
#include "arch.h"

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
	static struct spinlock l = SPINLOCK_INIT("bench");
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

int kbench_main(int argc, char **argv)
{
	bench_tsc();
	bench_lock();
	bench_yield();
	bench_ipi();
	return 0;
}
