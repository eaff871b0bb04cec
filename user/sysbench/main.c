/*
 * sysbench/main.c — the system-call micro-benchmark: picks the
 * benchmarks to run and plays the roles of the copies it spawns.
 *
 *   sysbench                   every benchmark
 *   sysbench NAME...           the benchmarks named
 *   sysbench --list            their names
 *   sysbench --exit            end at once (what spawn_exit_wait spawns)
 *   sysbench --pong A B N [pw] process_switch's partner (semaphore ids A, B;
 *                              pw: one sem_post_wait a turn)
 *
 * Each benchmark prints a result line per figure (kind "bench", unit
 * "tsc": min, median, mean and max of many runs) and a readable line; at
 * the end come a summary table and the targets.  Exit status 0,
 * or 1 if a system call failed, 2 for an unknown name.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <hako/sys.h>
#include "sysbench.h"
#include <arch/tsc.h>

struct bench {
	const char *name;
	int (*fn)(void);
	const char *about;
};

static const struct bench benches[] = {
	{ "null_syscall", bench_null_syscall, "sys_null() round trip" },
	{ "getpid", bench_getpid, "sys_getpid() round trip" },
	{ "yield_one_cpu", bench_yield, "two threads on one CPU, sys_yield to each other" },
	{ "process_switch", bench_process_switch,
	  "two processes ping-pong through semaphores (post + wait, then sem_post_wait)" },
	{ "page_fault_first_touch", bench_page_fault, "first write to a fresh heap page" },
	{ "spawn_exit_wait", bench_spawn, "spawn `sysbench --exit`, wait for it" },
	{ "cross_cpu_wakeup", bench_cross_cpu, "sem_post on one CPU to the waiter's return on another" },
};

#define NBENCH (int)(sizeof benches / sizeof benches[0])

int fail(const char *what, long err)
{
	printf("sysbench: %s: %s\n", what, err < 0 ? strerror((int)-err) : "failed");
	return err < 0 ? (int)err : -1;
}

/* Run the calling thread on CPU only (moves it there now). */
int pin_self(int cpu)
{
	long r = sys_set_affinity(0, 1ull << cpu);

	if (r < 0)
		return fail("set_affinity", r);
	r = sys_getcpu();
	if (r != cpu) {
		printf("sysbench: pinned to cpu %d but running on %ld\n", cpu, r);
		return -1;
	}
	return 0;
}

int unpin_self(void)
{
	long r = sys_set_affinity(0, ~0ull);

	return r < 0 ? fail("set_affinity", r) : 0;
}

/* Two TSC reads back to back, the least of a few tries: what every
 * figure carries on top of the operation it times. */
static uint64_t tsc_pair_cost(void)
{
	uint64_t best = ~0ull;

	for (int i = 0; i < 16; i++) {
		uint64_t t0 = tsc_now();
		uint64_t d = tsc_now() - t0;
		if (d < best)
			best = d;
	}
	return best;
}

int online_cpus(void)
{
	struct hako_sysinfo si;

	return sys_sysinfo(&si) < 0 ? 1 : si.ncpus;
}

static const struct bench *find_bench(const char *name)
{
	for (int i = 0; i < NBENCH; i++)
		if (strcmp(benches[i].name, name) == 0)
			return &benches[i];
	return NULL;
}

/* Run one benchmark; 1 if it failed. */
static int run(const struct bench *b)
{
	printf("sysbench: %s: %s\n", b->name, b->about);
	int r = b->fn();
	unpin_self();
	if (r == BENCH_SKIPPED)
		printf("sysbench: %s skipped\n", b->name);
	else if (r < 0)
		printf("sysbench: %s FAILED\n", b->name);
	return r < 0;
}

/* Are all the names known?  Says which one is not. */
static int names_known(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!find_bench(argv[i])) {
			printf("sysbench: no benchmark %s (try --list)\n", argv[i]);
			return 0;
		}
	return 1;
}

int main(int argc, char **argv)
{
	int failed = 0;

	bench_set_program("sysbench");
	if (argc >= 2 && strcmp(argv[1], "--exit") == 0)
		return 0;
	if (argc >= 2 && strcmp(argv[1], "--pong") == 0)
		return pong_main(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; i < NBENCH; i++)
			printf("%-24s %s\n", benches[i].name, benches[i].about);
		return 0;
	}
	if (!names_known(argc, argv))
		return 2;
	printf("sysbench: cpus %d; figures in TSC ticks, a TSC read pair (%" PRIu64 " ticks) included in each\n",
	       online_cpus(), tsc_pair_cost());
	if (argc >= 2)
		for (int i = 1; i < argc; i++)
			failed += run(find_bench(argv[i]));
	else
		for (int i = 0; i < NBENCH; i++)
			failed += run(&benches[i]);
	report_summary();
	printf("sysbench: %s\n", failed ? "some benchmarks FAILED" : "done");
	return failed ? 1 : 0;
}
