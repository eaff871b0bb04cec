/*
 * iotest/iotest.h — what iotest's files share: one run of paper 001's
 * workload (run.c) and the grids of its two tables (main.c).
 */
#ifndef IOTEST_H
#define IOTEST_H

#include <stdint.h>
#include <hako/region.h>
#include <hako_blk.h>

/* One run: K processes on device DEV, each LOOPS times a 4 KiB read and
 * WAIT x 1000 turns of the busy loop. */
struct run {
	int dev;
	int k, loops, wait;
	int slot;                 /* its global region: REGION_IOTEST + slot; -1 none */
	int pin;                  /* 1: worker i runs on the (i + 1)-th scheduling CPU only */
	int iop_cpu;              /* the I/O processor, which runs no worker; -1: none */
};

/* What a run measured: guest time from the start signal to the last DONE. */
struct run_result {
	uint64_t elapsed_ns;
	int failed;               /* workers that did not exit 0 */
};

#define IOTEST_MAX_K     32
#define IOTEST_WAIT_UNIT 1000  /* busy-loop turns per wait count, as the paper's */

/* The busy-wait: N turns of a fixed loop (busy_turn in run.c says what
 * one turn is). */
void busy_wait(unsigned long n);

/* Spawn the workers, time them, and print nothing; 0 or a negative errno. */
int run_once(const struct run *r, struct run_result *out);

/* The worker's own entry: iotest --worker DEV INDEX LOOPS WAIT READY GO DONE
 * LEAVE CPU (CPU -1: not pinned); it exits only after LEAVE is posted. */
int worker_main(int argc, char **argv);

/*
 * region_global_begin/end for slot S of REGION_IOTEST, chosen at run time
 * (0 <= S < REGION_IOTEST_SLOTS; another S marks nothing): thirty-two
 * blocks of region_begin_nth's sixteen constant markers.
 */
#define iotest_region_global(op, s) do { \
		switch ((s) >> 4) { \
		IOTEST_BLOCK4_(op, s, 0) IOTEST_BLOCK4_(op, s, 4) \
		IOTEST_BLOCK4_(op, s, 8) IOTEST_BLOCK4_(op, s, 12) \
		IOTEST_BLOCK4_(op, s, 16) IOTEST_BLOCK4_(op, s, 20) \
		IOTEST_BLOCK4_(op, s, 24) IOTEST_BLOCK4_(op, s, 28) } \
	} while (0)
#define IOTEST_BLOCK4_(op, s, b) IOTEST_BLOCK_(op, s, (b)) IOTEST_BLOCK_(op, s, (b) + 1) \
	IOTEST_BLOCK_(op, s, (b) + 2) IOTEST_BLOCK_(op, s, (b) + 3)
#define IOTEST_BLOCK_(op, s, b) \
	case b: REGION_NTH_(op, REGION_IOTEST + 16 * (b), (s) & 15); break;
#define iotest_region_global_begin(s) iotest_region_global(HAKO_REGION_GLOBAL_BEGIN, s)
#define iotest_region_global_end(s)   iotest_region_global(HAKO_REGION_GLOBAL_END, s)

#endif
