/*
 * kperf/bw.c — memory bandwidth passes shaped as lmbench's (kperf --copy
 * --bw), so that a whole pass's modelled rate can stand beside lmbench's
 * published figures (the cost model's bandwidth bench, `./hako bench
 * bandwidth`, tools/hakotool/bandwidth.py).
 *
 * lmbench 1.x as its USENIX 1996 paper describes it (doc/usenix96.ms of
 * lmbench 2, "Memory reading ... Memory writing"): the read is an unrolled
 * loop summing 4-byte integers, each a load and an add at a constant
 * offset from one pointer; the write an unrolled loop storing a value into
 * each 4-byte integer; bcopy the C library's, over 8 MB (4 MB on the
 * smaller PCs).  Here: rd adds BW_UNROLL ints a loop turn with constant
 * offsets from one pointer (gcc emits one add with a memory operand per
 * int on x86), wr stores BW_UNROLL ints a turn the same way, bcopy is
 * Hako's libc memcpy (lib/string.c: 8 bytes a step).  The loops are
 * written out, not left to the compiler, so their instruction count per
 * byte is lmbench's and not what gcc would choose for a plain loop.
 * rd4 is lmbench 3's rd: it sums every fourth int, one load per 16
 * bytes, so it runs fewer instructions per line than any shipped
 * profile's memory needs per line: its rate is the memory's, the figure
 * to set beside a published read that a loop bound by memory measured.
 *
 * The buffers are BW_BYTES each, twice the largest last-level cache of
 * the shipped profiles (modern's 8 MiB L3), so every line of a pass comes
 * from memory and every line a pass dirtied goes back to it.  lmbench's
 * figure is a loop run again and again: each op runs once untimed, then
 * once timed in region REGION_KPERF_BW + op, so the timed pass is the
 * steady state (its reads miss, the previous pass's dirty lines are
 * written back as it goes).  The model is deterministic, so one timed pass
 * is the figure.  Result lines: kind "kperf-bwmem", "op" rd, wr or bcopy,
 * "case" steady.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/region.h>
#include <hako/result.h>
#include "kperf.h"

#define BW_BYTES  (16u << 20)
#define BW_UNROLL 32                    /* ints a loop turn: 128 bytes */

enum bw_op { BW_RD, BW_WR, BW_BCOPY, BW_RD4, BW_NOPS };

static const char *const bw_name[BW_NOPS] = { "rd", "wr", "bcopy", "rd4" };

_Static_assert(BW_BYTES % (4 * BW_UNROLL * sizeof(int)) == 0, "whole loop turns");
_Static_assert(BW_NOPS == REGION_KPERF_BW_OPS, "a region per op");

/* What rd sums, kept so the loop is not optimised away. */
static volatile int bw_sink;

/* The sum of the ints from p to end, BW_UNROLL a turn. */
static int rd(const int *p, const int *end)
{
	int sum = 0;
	for (; p < end; p += BW_UNROLL)
		sum += p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7] +
		       p[8] + p[9] + p[10] + p[11] + p[12] + p[13] + p[14] + p[15] +
		       p[16] + p[17] + p[18] + p[19] + p[20] + p[21] + p[22] + p[23] +
		       p[24] + p[25] + p[26] + p[27] + p[28] + p[29] + p[30] + p[31];
	return sum;
}

/* The sum of every fourth int from p to end, BW_UNROLL of them a turn. */
static int rd4(const int *p, const int *end)
{
	int sum = 0;
	for (; p < end; p += 4 * BW_UNROLL)
		sum += p[0] + p[4] + p[8] + p[12] + p[16] + p[20] + p[24] + p[28] +
		       p[32] + p[36] + p[40] + p[44] + p[48] + p[52] + p[56] + p[60] +
		       p[64] + p[68] + p[72] + p[76] + p[80] + p[84] + p[88] + p[92] +
		       p[96] + p[100] + p[104] + p[108] + p[112] + p[116] + p[120] + p[124];
	return sum;
}

/*
 * Store 1 into every int from p to end, BW_UNROLL a turn.  volatile keeps
 * gcc from merging two 4-byte stores into one 8-byte store, which would
 * halve a Pentium's bus writes (its stores that miss do not allocate).
 */
static void wr(volatile int *p, volatile int *end)
{
	for (; p < end; p += BW_UNROLL) {
		p[0] = 1; p[1] = 1; p[2] = 1; p[3] = 1; p[4] = 1; p[5] = 1; p[6] = 1; p[7] = 1;
		p[8] = 1; p[9] = 1; p[10] = 1; p[11] = 1; p[12] = 1; p[13] = 1; p[14] = 1; p[15] = 1;
		p[16] = 1; p[17] = 1; p[18] = 1; p[19] = 1; p[20] = 1; p[21] = 1; p[22] = 1; p[23] = 1;
		p[24] = 1; p[25] = 1; p[26] = 1; p[27] = 1; p[28] = 1; p[29] = 1; p[30] = 1; p[31] = 1;
	}
}

static void pass(enum bw_op op, int *src, int *dst)
{
	if (op == BW_RD)
		bw_sink = rd(src, src + BW_BYTES / sizeof *src);
	else if (op == BW_RD4)
		bw_sink = rd4(src, src + BW_BYTES / sizeof *src);
	else if (op == BW_WR)
		wr(dst, dst + BW_BYTES / sizeof *dst);
	else
		memcpy(dst, src, BW_BYTES);
}

/* One op: an untimed pass, then the timed one and its result line. */
static void measure(enum bw_op op, int *src, int *dst)
{
	pass(op, src, dst);
	unsigned k = (unsigned)op;            /* the markers' switch takes a plain number */
	region_begin_nth(REGION_KPERF_BW, k);
	uint64_t t0 = tsc_now();
	pass(op, src, dst);
	uint64_t t1 = tsc_now();
	region_end_nth(REGION_KPERF_BW, k);
	result_line("{\"kind\":\"kperf-bwmem\",\"op\":\"%s\",\"bytes\":%u,\"case\":\"steady\","
		    "\"unit\":\"tsc\",\"n\":1,\"min\":%" PRIu64 ",\"mean\":%" PRIu64 ",\"max\":%" PRIu64
		    ",\"region\":%u,\"iters\":1}", bw_name[op], BW_BYTES, t1 - t0, t1 - t0, t1 - t0,
		    REGION_KPERF_BW + (unsigned)op);
}

int kperf_bw_main(void)
{
	int *src = malloc(BW_BYTES), *dst = malloc(BW_BYTES);
	if (!src || !dst)
		return kperf_fail("malloc", -1), 1;
	/* Every page touched (and the source's ints set) before any pass. */
	memset(src, 0x5a, BW_BYTES);
	memset(dst, 0, BW_BYTES);
	printf("kperf: lmbench-style passes, %u MiB, rd wr bcopy rd4, the second of two timed\n",
	       BW_BYTES >> 20);
	for (enum bw_op op = BW_RD; op < BW_NOPS; op++)
		measure(op, src, dst);
	free(src);
	free(dst);
	printf("kperf: bw done\n");
	return 0;
}
