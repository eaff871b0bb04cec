/*
 * kperf/copy.c — paper 004's Fig. 2: the time of a memory copy, per size,
 * best case (the same copy twice back to back, the second timed) and
 * worst case (caches and TLB purged by the kernel first), KPERF_COPY_RUNS
 * runs each.  The paper ran its copy with the L2 cache enabled and then
 * disabled in the BIOS; here the harness boots `kperf --copy` once per
 * cost-model machine with and without the plugin's l2=off
 * (`./hako bench kperf-copy`, tools/hakotool/papers/p004/copyfig.py).
 *
 * Result lines (kind "kperf-copy"): per size and case min, mean and max
 * in TSC ticks (guest instructions under icount) and the region that
 * covered the runs, REGION_KPERF_COPY + 2 * (size index) + worst.
 *
 * Then the two other halves of a memory bandwidth figure, at the largest
 * size: a read pass (the 64-bit words summed) and a zero pass (memset),
 * best and worst case as above (kind "kperf-bw", "op" read or zero,
 * region REGION_KPERF_COPY + BW_SLOT + (0 read, 2 zero) + worst).  With
 * the copy they are the reads, writes and copies the cost model's
 * bandwidth bench (`./hako bench bandwidth`, tools/hakotool/bandwidth.py)
 * turns into MB/s beside each machine's published figures.
 */
#include <stdio.h>
#include <inttypes.h>
#include <string.h>
#include <hako/region.h>
#include <hako/result.h>
#include "kperf.h"

#define KPERF_COPY_RUNS 5
#define KPERF_COPY_MAX  (256u << 10)

/* From inside the Pentium's 8 KiB L1 to the size of the L2 caches. */
static const uint32_t copy_sizes[] = { 1u << 10, 4u << 10, 16u << 10, 64u << 10, 256u << 10 };
#define NSIZES (sizeof copy_sizes / sizeof copy_sizes[0])

/* What a pass does: copy src to dst, sum src's words, zero dst. */
enum pass_op { OP_COPY, OP_READ, OP_ZERO };

/* The read and zero passes' region slots follow the copies'. */
#define BW_SLOT (2 * NSIZES)

_Static_assert(BW_SLOT + 2 * 2 <= REGION_NTH_MAX, "a region per size and case");

static uint8_t copy_src[KPERF_COPY_MAX] __attribute__((aligned(4096)));
static uint8_t copy_dst[KPERF_COPY_MAX] __attribute__((aligned(4096)));

/* What the read pass sums, kept so the loop is not optimised away. */
static volatile uint64_t read_sink;

/* One pass of op over size bytes. */
static void pass(enum pass_op op, uint32_t size)
{
	const uint64_t *words = (const uint64_t *)copy_src;
	uint64_t sum = 0;
	if (op == OP_COPY) {
		memcpy(copy_dst, copy_src, size);
	} else if (op == OP_READ) {
		for (uint32_t i = 0; i < size / sizeof *words; i++)
			sum += words[i];
		read_sink = sum;
	} else {
		memset(copy_dst, 0, size);
	}
}

/* One timed pass in region slot k. */
static uint64_t timed_pass(enum pass_op op, uint32_t size, unsigned k)
{
	region_begin_nth(REGION_KPERF_COPY, k);
	uint64_t t0 = tsc_now();
	pass(op, size);
	uint64_t t1 = tsc_now();
	region_end_nth(REGION_KPERF_COPY, k);
	return t1 - t0;
}

/*
 * KPERF_COPY_RUNS timed passes in region slot k, each after a purge
 * (worst) or the same pass untimed (best); the result line of kind KIND
 * ("op" OP_NAME, NULL for the copy's lines).
 */
static void measure(const char *kind, const char *op_name, enum pass_op op, uint32_t size,
		    unsigned k, int worst)
{
	uint64_t min = ~0ull, max = 0, sum = 0;
	char op_field[32] = "";
	for (int run = 0; run < KPERF_COPY_RUNS; run++) {
		if (worst)
			kperf_purge();
		else
			pass(op, size);
		uint64_t t = timed_pass(op, size, k);
		min = t < min ? t : min;
		max = t > max ? t : max;
		sum += t;
	}
	if (op_name)
		snprintf(op_field, sizeof op_field, "\"op\":\"%s\",", op_name);
	result_line("{\"kind\":\"%s\",%s\"bytes\":%u,\"case\":\"%s\",\"unit\":\"tsc\","
		    "\"n\":%d,\"min\":%" PRIu64 ",\"mean\":%" PRIu64 ",\"max\":%" PRIu64
		    ",\"region\":%u,\"iters\":%d}", kind, op_field, size, worst ? "worst" : "best",
		    KPERF_COPY_RUNS, min, (sum + KPERF_COPY_RUNS / 2) / KPERF_COPY_RUNS, max,
		    REGION_KPERF_COPY + k, KPERF_COPY_RUNS);
}

int kperf_copy_main(void)
{
	long r = sys_set_affinity(0, 1ull << KPERF_CPU);
	if (r < 0)
		return kperf_fail("set_affinity", r), 1;
	/* Touch every page of both buffers: no page fault inside a timed copy. */
	memset(copy_src, 0x5a, sizeof copy_src);
	memset(copy_dst, 0, sizeof copy_dst);
	printf("kperf: memory copy, %u sizes, %d runs per case; figures in TSC ticks "
	       "(instructions under icount: caches show only under --model)\n",
	       (unsigned)NSIZES, KPERF_COPY_RUNS);
	for (unsigned i = 0; i < NSIZES; i++)
		for (int worst = 0; worst < 2; worst++)
			measure("kperf-copy", NULL, OP_COPY, copy_sizes[i], 2 * i + (unsigned)worst, worst);
	/* The read and zero passes at the largest size. */
	for (int worst = 0; worst < 2; worst++)
		measure("kperf-bw", "read", OP_READ, KPERF_COPY_MAX, BW_SLOT + (unsigned)worst, worst);
	for (int worst = 0; worst < 2; worst++)
		measure("kperf-bw", "zero", OP_ZERO, KPERF_COPY_MAX, BW_SLOT + 2 + (unsigned)worst, worst);
	printf("kperf: done\n");
	return 0;
}
