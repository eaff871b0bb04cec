/*
 * kperf/main.c — paper 004's measurement program: every system call of
 * syscalls.def timed in its best case (called twice back to back, the
 * second timed) and its worst case (caches and TLB purged by the kernel
 * first), KPERF_RUNS runs each; and the helper roles it spawns.
 *
 *   kperf                  every call
 *   kperf NAME...          the calls named
 *   kperf --internal       only the kernel-internal interfaces (perf_ctl
 *                          HAKO_PERF_INTERNAL: process and thread create,
 *                          address space create/destroy, map, unmap, ICA
 *                          paste and peel), which plain kperf times last
 *   kperf --copy           only paper 004's Fig. 2: memory copies per size,
 *                          best and worst case (copy.c)
 *   kperf --copy --bw      and then the lmbench-style bandwidth passes (bw.c)
 *   kperf --exit           end at once (a child for spawn, wait, kill)
 *   kperf --sleep          sleep until killed
 *   kperf --serve SEM      an ISPC server answering at once; posts SEM once listening
 *   kperf --client PID N SEM  send N asynchronous requests to PID, post SEM, take the results
 *
 * Result lines (kind "kperf", and "kperf-internal" for the kernel's
 * own interfaces): one per call and case with min, mean and
 * max over the runs in TSC ticks (guest instructions under icount), the
 * region that covered the runs ("iters": runs) for --model, or
 * "timed":false and the reason.  Exit status 0, 1 if a driver failed.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include "kperf.h"

#define KPERF_RUNS 5	/* as the paper: five runs averaged */

static const char *const case_name[2] = { "best", "worst" };

int kperf_fail(const char *what, long err)
{
	printf("kperf: %s: %s\n", what, err < 0 ? strerror((int)-err) : "failed");
	return err < 0 ? (int)err : -1;
}

void kperf_purge(void)
{
	sys_perf_ctl(HAKO_PERF_PURGE, NULL);
}

int kperf_spawn(char *const argv[])
{
	return spawnv("kperf", argv);
}

/* One call, one case: KPERF_RUNS runs and the result line; 1 if it failed. */
static int measure(const struct kperf_call *c, int worst)
{
	uint64_t min = ~0ull, max = 0, sum = 0;
	struct kperf_run run = { .slot = 2u * (unsigned)c->nr + (unsigned)worst, .worst = worst };
	char q[160];

	for (int i = 0; i < KPERF_RUNS; i++) {
		int r = c->driver(&run);
		if (r == KPERF_NOT_TIMED) {
			result_line("{\"kind\":\"kperf\",\"name\":\"%s\",\"nr\":%d,\"case\":\"%s\","
				    "\"timed\":false,\"why\":%s}", c->name, c->nr, case_name[worst],
				    json_quote(q, sizeof q, run.why));
			return 0;
		}
		if (r < 0) {
			printf("kperf: %s (%s case) FAILED\n", c->name, case_name[worst]);
			return 1;
		}
		min = run.ticks < min ? run.ticks : min;
		max = run.ticks > max ? run.ticks : max;
		sum += run.ticks;
	}
	result_line("{\"kind\":\"kperf\",\"name\":\"%s\",\"nr\":%d,\"case\":\"%s\",\"unit\":\"tsc\","
		    "\"n\":%d,\"min\":%" PRIu64 ",\"mean\":%" PRIu64 ",\"max\":%" PRIu64 ",\"note\":%s,\"region\":%u,\"iters\":%d}",
		    c->name, c->nr, case_name[worst], KPERF_RUNS, min,
		    (sum + KPERF_RUNS / 2) / KPERF_RUNS, max,
		    json_quote(q, sizeof q, run.note ? run.note : ""),
		    run.region ? run.region : REGION_KPERF + run.slot, KPERF_RUNS);
	return 0;
}

/* Kernel-internal interface INDEX (kernel/measure/kinternal.c), one case:
 * KPERF_RUNS runs and the result line.  0, 1 if it failed, -1 past the last. */
static int measure_internal(uint32_t index, int worst)
{
	uint64_t min = ~0ull, max = 0, sum = 0;
	struct hako_perf_internal io;
	char q[160];

	for (int i = 0; i < KPERF_RUNS; i++) {
		memset(&io, 0, sizeof io);
		io.index = index;
		io.worst = (uint32_t)worst;
		long r = sys_perf_ctl(HAKO_PERF_INTERNAL, &io);
		if (r == -ENOENT)
			return -1;
		if (r < 0) {
			printf("kperf: internal %u (%s case): %s\n", index, case_name[worst],
			       strerror((int)-r));
			return 1;
		}
		min = io.ticks < min ? io.ticks : min;
		max = io.ticks > max ? io.ticks : max;
		sum += io.ticks;
	}
	result_line("{\"kind\":\"kperf-internal\",\"name\":\"%s\",\"index\":%u,\"case\":\"%s\","
		    "\"unit\":\"tsc\",\"n\":%d,\"min\":%" PRIu64 ",\"mean\":%" PRIu64 ",\"max\":%" PRIu64 ",\"note\":%s,"
		    "\"region\":%u,\"iters\":%d}", io.name, index, case_name[worst], KPERF_RUNS, min,
		    (sum + KPERF_RUNS / 2) / KPERF_RUNS, max, json_quote(q, sizeof q, io.note),
		    io.region, KPERF_RUNS);
	return 0;
}

static int measure_internals(void)
{
	int failed = 0;
	for (uint32_t i = 0;; i++) {
		int r = measure_internal(i, 0);
		if (r < 0)
			return failed;
		failed += r + measure_internal(i, 1);
	}
}

static const struct kperf_call *find_call(const char *name)
{
	for (int i = 0; i < KPERF_NCALLS; i++)
		if (strcmp(kperf_calls[i].name, name) == 0)
			return &kperf_calls[i];
	return NULL;
}

static int helper_role(int argc, char **argv)
{
	if (strcmp(argv[1], "--exit") == 0)
		return 0;
	if (strcmp(argv[1], "--sleep") == 0) {
		for (;;)
			sys_sleep(1000000000ull);
	}
	if (strcmp(argv[1], "--serve") == 0 && argc == 3)
		return kperf_serve_main(atoi(argv[2]));
	if (strcmp(argv[1], "--client") == 0 && argc == 5)
		return kperf_client_main(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	printf("kperf: unknown role %s\n", argv[1]);
	return 2;
}

/* The rows that are not calls of syscalls.def, in region order (kperf.h). */
static const struct {
	const char *name, *call;
	int (*driver)(struct kperf_run *run);
} fastpath_rows[] = {
	{ "ispc_request_fastpath", "ispc_request", kperf_drv_ispc_request_fastpath },
	{ "ispc_call_fastpath", "ispc_call", kperf_drv_ispc_call_fastpath },
};
#define NFASTPATH_ROWS (int)(sizeof fastpath_rows / sizeof fastpath_rows[0])
_Static_assert(NFASTPATH_ROWS == REGION_KPERF_FASTPATH_ROWS, "a region pair per row");

static int fastpath_row(const char *name)
{
	for (int i = 0; i < NFASTPATH_ROWS; i++)
		if (strcmp(name, fastpath_rows[i].name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0, internal_only = 0;

	if (argc >= 2 && strcmp(argv[1], "--copy") == 0) {
		int status = kperf_copy_main();
		if (status == 0 && argc >= 3 && strcmp(argv[2], "--bw") == 0)
			status = kperf_bw_main();
		return status;
	}
	if (argc >= 2 && strcmp(argv[1], "--internal") == 0)
		internal_only = 1;
	else if (argc >= 2 && argv[1][0] == '-')
		return helper_role(argc, argv);
	if (internal_only) {
		argc = 1;
		long r = sys_set_affinity(0, 1ull << KPERF_CPU);
		if (r < 0)
			return kperf_fail("set_affinity", r), 1;
		failed = measure_internals();
		printf("kperf: %s\n", failed ? "some interfaces FAILED" : "done");
		return failed ? 1 : 0;
	}
	for (int i = 1; i < argc; i++)
		if (!find_call(argv[i]) && !fastpath_row(argv[i])) {
			printf("kperf: no system call %s in syscalls.def\n", argv[i]);
			return 2;
		}
	long r = sys_set_affinity(0, 1ull << KPERF_CPU);
	if (r < 0)
		return kperf_fail("set_affinity", r), 1;
	printf("kperf: %d system calls from syscalls.def, %d runs per case; figures in TSC ticks "
	       "(instructions under icount: the purge shows only under --model)\n",
	       KPERF_NCALLS, KPERF_RUNS);
	for (int i = 0; i < KPERF_NCALLS; i++) {
		const struct kperf_call *c = &kperf_calls[i];
		int named = argc < 2;
		for (int k = 1; k < argc; k++)
			named |= strcmp(argv[k], c->name) == 0;
		if (named)
			failed += measure(c, 0) + measure(c, 1);
	}
	/* The fastpath's rows, numbered as their calls, right after the calls. */
	for (int i = 0; i < NFASTPATH_ROWS; i++) {
		const struct kperf_call row = { find_call(fastpath_rows[i].call)->nr, fastpath_rows[i].name,
						fastpath_rows[i].driver };
		int named = argc < 2;
		for (int k = 1; k < argc; k++)
			named |= strcmp(argv[k], row.name) == 0;
		if (named)
			failed += measure(&row, 0) + measure(&row, 1);
	}
	kperf_ispc_done();
	if (argc < 2)
		failed += measure_internals();
	printf("kperf: %s\n", failed ? "some calls FAILED" : "done");
	return failed ? 1 : 0;
}
