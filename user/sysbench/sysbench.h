/*
 * sysbench/sysbench.h — what the parts of the system-call micro-benchmark
 * share: sample sets and their report, pinning, and the benchmarks.
 *
 * Every figure is in TSC ticks (guest instructions under QEMU icount).
 * A benchmark returns 0, BENCH_SKIPPED, or a negative errno when a
 * system call it relies on failed.
 */
#ifndef SYSBENCH_H
#define SYSBENCH_H

#include <stdint.h>
#include <hako/bench.h>

#define BENCH_CPU	0	/* where the one-CPU benchmarks run */
#define WAKE_CPU	1	/* where cross_cpu_wakeup's sleeper waits */
#define BENCH_SKIPPED	1

/* Print its result line and a readable line (WHAT: per what); the line
 * names REGION (hako_region_ids.h), which covered ITERS operations. */
void report(const char *name, struct samples *s, const char *what,
	    unsigned region, unsigned long iters);
/* The table of everything reported, then the targets. */
void report_summary(void);

/* Print "sysbench: WHAT: error" and return ERR (< 0) unchanged. */
int fail(const char *what, long err);
int pin_self(int cpu);
int unpin_self(void);
int online_cpus(void);

int bench_null_syscall(void);
int bench_getpid(void);
int bench_page_fault(void);
int bench_spawn(void);
int bench_yield(void);
int bench_process_switch(void);
int bench_cross_cpu(void);

/* The other half of process_switch, in the spawned copy. */
int pong_main(int argc, char **argv);

#endif
