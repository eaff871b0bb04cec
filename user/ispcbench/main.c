/*
 * ispcbench/main.c — the server-communication benchmark of paper 002:
 * the partial operations, the four basic operations, the n-stage relay,
 * remapping against copying and the process switch inside ISPC traffic
 * (switch.c; by default where TLB misses are counted), each in baseline
 * and then fast mode.
 *
 *   ispcbench                  every part in both modes
 *   ispcbench PART...          the parts named (partial basic relay copy switch)
 *   ispcbench --mode M ...     in mode M (baseline or fast) only
 *   ispcbench --ws W,W ...     the switch part's working sets (pages)
 *   ispcbench --check ...      the switch part checks its misses (switch.c)
 *   ispcbench --serve SEM NEXT FAST   a helper server (roles.c)
 *   ispcbench --pong A B       the process-switch partner (partial.c)
 *
 * The mode is switched with ispc_mode between the runs (no ICA exists
 * then).  Result lines are kind "bench" (unit tsc) and "bench-target";
 * the summary ends with the targets.  Exit status 0, or 1 if a
 * system call failed, 2 for an unknown part.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "ispcbench.h"

struct part {
	const char *name;
	int (*fn)(void);
	int by_default;                  /* run when no part is named */
};

/* The switch inside ISPC traffic is about TLB misses: by default only
 * where they are counted (SH-4). */
static const struct part parts[] = {
	{ "partial", part_partial, 1 },
	{ "basic", part_basic, 1 },
	{ "relay", part_relay, 1 },
	{ "copy", part_copy, 1 },
	{ "switch", part_switch, ARCH_TLB_MISSES_COUNTED },
};
#define NPARTS (int)(sizeof parts / sizeof parts[0])

static const struct bench_target targets[] = {
	{ "sync_roundtrip_nodata_fast", 2500, "request + result, no data ICA, fast" },
	{ "sync_roundtrip_4k_fast", 4000, "request + result, 4 KiB data ICA both ways, fast" },
	{ "sync_roundtrip_fastpath_nodata_fast", 840, "the same, no data ICA, fastpath" },
	{ "sync_roundtrip_fastpath_4k_fast", 1000, "the same, 4 KiB data ICA, fastpath" },
	{ "sync_roundtrip_call_nodata_fast", 840, "ispc_call, message in registers, no data ICA" },
	{ "sync_roundtrip_call_4k_fast", 1000, "ispc_call, message in registers, 4 KiB data ICA" },
};

static int mode;

const char *mode_name(void)
{
	return mode == HAKO_ISPC_FAST ? "fast" : "baseline";
}

int mode_fast;

void set_mode_fast(int fast)
{
	mode_fast = fast != 0;
	mode = fast ? HAKO_ISPC_FAST : HAKO_ISPC_BASELINE;
}

unsigned ispc_region(unsigned slot)
{
	return REGION_ISPC + (unsigned)mode_fast * REGION_ISPC_MODE_STRIDE + slot;
}

/* Misses per region, indexed from REGION_ISPC (both modes' blocks). */
#define MISS_REGIONS (2 * REGION_ISPC_MODE_STRIDE)
static uint64_t region_misses[MISS_REGIONS];
static uint64_t misses_at_begin;

void misses_begin(void)
{
	misses_at_begin = tlb_misses_now();
}

void misses_end(unsigned region)
{
	uint64_t now = tlb_misses_now();
	if (region - REGION_ISPC < MISS_REGIONS)
		region_misses[region - REGION_ISPC] += now - misses_at_begin;
}

struct bench_stats ispc_report(const char *name, struct samples *s, const char *what,
			       unsigned region, unsigned long iters)
{
	struct bench_stats r = bench_report_region(name, s, what, region, iters);
	if (!ARCH_TLB_MISSES_COUNTED || region - REGION_ISPC >= MISS_REGIONS || !iters)
		return r;
	uint64_t total = region_misses[region - REGION_ISPC];
	uint64_t hundredths = total * 100 / iters;
	result_line("{\"kind\":\"bench-tlb\",\"name\":\"%s\",\"region\":%u,\"misses\":%" PRIu64
		    ",\"iters\":%lu}", name, region, total, iters);
	printf("ispcbench: %-28s TLB misses %" PRIu64 ".%02u per operation (%" PRIu64 " in %lu)\n",
	       name, hundredths / 100, (unsigned)(hundredths % 100), total, iters);
	return r;
}

const char *figure(const char *name, const char *suffix)
{
	static char ring[8][48];
	static int next;
	char *buf = ring[next++ % 8];
	snprintf(buf, sizeof ring[0], "%s%s%s_%s", name, suffix[0] ? "_" : "", suffix, mode_name());
	return buf;
}

int fail(const char *what, long err)
{
	printf("ispcbench: %s: %s\n", what, err < 0 ? strerror((int)-err) : "failed");
	return err < 0 ? (int)err : -1;
}

int pin_self(int cpu)
{
	long r = sys_set_affinity(0, 1ull << cpu);
	return r < 0 ? fail("set_affinity", r) : 0;
}

static const struct part *find_part(const char *name)
{
	for (int i = 0; i < NPARTS; i++)
		if (strcmp(parts[i].name, name) == 0)
			return &parts[i];
	return NULL;
}

static int run_parts(int argc, char **argv)
{
	int failed = 0;
	for (int i = 0; i < (argc > 1 ? argc - 1 : NPARTS); i++) {
		const struct part *p = argc > 1 ? find_part(argv[i + 1]) : &parts[i];
		if (argc <= 1 && !p->by_default)
			continue;
		printf("ispcbench: %s, %s mode\n", p->name, mode_name());
		if (p->fn() < 0) {
			printf("ispcbench: %s FAILED in %s mode\n", p->name, mode_name());
			failed = 1;
		}
	}
	return failed;
}

/* The relay's claim: direct return at depth 8 is at least 35 % cheaper. */
static void relay_target(void)
{
	const struct bench_stats *step = bench_find("relay_8_stepwise_fast");
	const struct bench_stats *direct = bench_find("relay_8_direct_fast");
	if (!step || !direct || !step->median)
		return;
	unsigned saved = (unsigned)(100 * (step->median - direct->median) / step->median);
	printf("  %-28s %u %% less than stepwise  target 35 %%  %s\n", "relay_8_direct_fast",
	       saved, saved >= 35 ? "within" : "over");
	result_line("{\"kind\":\"bench-target\",\"name\":\"relay_8_direct_saving_fast\",\"stat\":\"percent\","
		    "\"value\":%u,\"target\":35,\"within\":%s}", saved, saved >= 35 ? "true" : "false");
}

int main(int argc, char **argv)
{
	bench_set_program("ispcbench");
	if (argc >= 3 && strcmp(argv[1], "--serve") == 0)
		return serve_main(argc - 2, argv + 2);
	if (argc >= 4 && strcmp(argv[1], "--pong") == 0)
		return pong_main(argc - 2, argv + 2);
	int first = 0, last = 1;         /* --mode baseline|fast: that one only */
	while (argc >= 2 && strcmp(argv[1], "--check") == 0) {
		switch_set_check();
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	while (argc >= 3 && (strcmp(argv[1], "--mode") == 0 || strcmp(argv[1], "--ws") == 0)) {
		if (strcmp(argv[1], "--mode") == 0)
			first = last = strcmp(argv[2], "fast") == 0;
		else if (switch_set_ws(argv[2]) < 0)
			return fail("--ws: working sets W,W,... of 0 to 48 pages", -1), 2;
		argv[2] = argv[0];
		argc -= 2;
		argv += 2;
	}
	for (int i = 1; i < argc; i++)
		if (!find_part(argv[i])) {
			printf("ispcbench: no part %s (partial basic relay copy switch)\n", argv[i]);
			return 2;
		}
	if (pin_self(BENCH_CPU) < 0)
		return 1;
	int failed = 0;
	const int modes[] = { HAKO_ISPC_BASELINE, HAKO_ISPC_FAST };
	for (int m = first; m <= last; m++) {
		long r = sys_ispc_mode(modes[m]);
		if (r < 0)
			return fail("ispc_mode", r), 1;
		set_mode_fast(modes[m] == HAKO_ISPC_FAST);
		failed |= run_parts(argc, argv);
	}
	bench_summary(targets, sizeof targets / sizeof targets[0]);
	relay_target();
	printf("ispcbench: done\n");
	return failed;
}
