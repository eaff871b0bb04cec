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

_Static_assert(2 * NSIZES <= REGION_NTH_MAX, "a region per size and case");

static uint8_t copy_src[KPERF_COPY_MAX] __attribute__((aligned(4096)));
static uint8_t copy_dst[KPERF_COPY_MAX] __attribute__((aligned(4096)));

/* One timed copy of size bytes in region slot k. */
static uint64_t timed_copy(uint32_t size, unsigned k)
{
	region_begin_nth(REGION_KPERF_COPY, k);
	uint64_t t0 = tsc_now();
	memcpy(copy_dst, copy_src, size);
	uint64_t t1 = tsc_now();
	region_end_nth(REGION_KPERF_COPY, k);
	return t1 - t0;
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
		for (int worst = 0; worst < 2; worst++) {
			uint64_t min = ~0ull, max = 0, sum = 0;
			unsigned k = 2 * i + (unsigned)worst;
			for (int run = 0; run < KPERF_COPY_RUNS; run++) {
				if (worst)
					kperf_purge();
				else
					memcpy(copy_dst, copy_src, copy_sizes[i]);
				uint64_t t = timed_copy(copy_sizes[i], k);
				min = t < min ? t : min;
				max = t > max ? t : max;
				sum += t;
			}
			result_line("{\"kind\":\"kperf-copy\",\"bytes\":%u,\"case\":\"%s\",\"unit\":\"tsc\","
				    "\"n\":%d,\"min\":%" PRIu64 ",\"mean\":%" PRIu64
				    ",\"max\":%" PRIu64 ",\"region\":%u,\"iters\":%d}",
				    copy_sizes[i], worst ? "worst" : "best", KPERF_COPY_RUNS, min,
				    (sum + KPERF_COPY_RUNS / 2) / KPERF_COPY_RUNS, max,
				    REGION_KPERF_COPY + k, KPERF_COPY_RUNS);
		}
	printf("kperf: done\n");
	return 0;
}
