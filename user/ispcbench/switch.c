/*
 * ispcbench/switch.c — the process switch inside server communication, the
 * setting of paper 002's Table 2 row "process switch" (its SH-4 figure fell
 * with the UTLB partition: fewer misses after a switch).
 *
 * An application (this process) and a helper server exchange synchronous
 * requests carrying a control ICA and a 4 KiB data ICA, which both sides
 * touch, pasted and peeled as the mode does.  Between two requests the
 * application touches W pages of its own (its working set), and the two
 * processes switch to each other once more through a pair of semaphores
 * (the server waits on one after it answered the request):
 *
 *   switch_ispc_wW     half of: post A, wait B (the server posts B and
 *                      waits for the next request), touch the W pages:
 *                      two switches with what each side needs after them
 *   switch_alone_wW    half of: post C, wait C, touch the W pages: the same
 *                      calls and touches without a switch
 *   switch_request_wW  the request's round trip with the first touches of
 *                      both ICAs on return
 *
 * What a switch adds is (switch_ispc - switch_alone), per switch.  Each
 * figure has a region (hako_region_ids.h, REGION_ISPC_SWITCH_WS: the
 * mode, the figure, the working set's index), marked just outside its
 * TSC reads, for the cost model's cycles; on an
 * arch that counts TLB misses (SH-4) each figure also gets its misses by
 * class of address (code, stack, data, ICA, kernel: HAKO_PERF_TLB_MISS_CLASSES),
 * as a "bench-tlb" line (all classes) and a "bench-tlb-class" line.
 * The working sets are W = 0, 8, 16, 24, 32, 48 pages, or those of
 * `--ws W,W,...`.  Each W starts with a mode switch, which empties the
 * TLB and starts its random replacement over from one seed; what ran
 * before still counts (the heap, the kernel stacks left and the slots the
 * processes' kernel stacks take), so the misses repeat from boot to boot
 * under icount but not always between two runs in one boot.  `--check`
 * (the selftest's) fails unless some switch missed in the mode.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include <hako_perf.h>
#include <arch/tsc.h>
#include "ispcbench.h"

#define RUNS 200
#define WARMUP 8
#define WS_MAX 48
#define WS_LISTED 8
_Static_assert(WS_LISTED <= REGION_ISPC_SWITCH_ISPC - REGION_ISPC_SWITCH_REQUEST,
	       "a region per listed working set");

static const char *class_names[HAKO_TLB_MISS_CLASSES] = { "code", "stack", "data", "ica", "kernel" };

static unsigned ws_list[WS_LISTED] = { 0, 8, 16, 24, 32, 48 };
static int ws_count = 6;

static char pages[WS_MAX][4096] __attribute__((aligned(4096)));

/* The region of figure FIG (REGION_ISPC_SWITCH_*, a constant) for the K-th
 * working set, in the current mode: MARK is region_begin_nth or region_end_nth. */
#define SW_REGION(mark, fig, k) \
	MODE_REGION_(mark, REGION_ISPC_SWITCH_WS + (fig), REGION_ISPC_SWITCH_MODE, k)

static unsigned sw_region(unsigned fig, unsigned k)
{
	return REGION_ISPC_SWITCH_WS + (unsigned)mode_fast * REGION_ISPC_SWITCH_MODE + fig + k;
}

int switch_set_ws(const char *list)
{
	int n = 0;
	for (const char *p = list; *p && n < WS_LISTED; n++) {
		char *end;
		unsigned long w = strtoul(p, &end, 10);
		if (end == p || w > WS_MAX || (*end && *end != ','))
			return -1;
		ws_list[n] = (unsigned)w;
		p = *end ? end + 1 : end;
	}
	ws_count = n;
	return n > 0 ? 0 : -1;
}

/* Misses by class over the timed spans of one figure. */
struct classes {
	uint64_t at[HAKO_TLB_MISS_CLASSES];
	uint64_t sum[HAKO_TLB_MISS_CLASSES];
};

static void classes_begin(struct classes *c)
{
	struct hako_perf_tlb_classes now;
	if (sys_perf_ctl(HAKO_PERF_TLB_MISS_CLASSES, &now) == 0)
		memcpy(c->at, now.misses, sizeof c->at);
}

static void classes_end(struct classes *c)
{
	struct hako_perf_tlb_classes now;
	if (sys_perf_ctl(HAKO_PERF_TLB_MISS_CLASSES, &now) < 0)
		return;
	for (int k = 0; k < HAKO_TLB_MISS_CLASSES; k++)
		c->sum[k] += now.misses[k] - c->at[k];
}

static uint64_t classes_total(const struct classes *c)
{
	uint64_t t = 0;
	for (int k = 0; k < HAKO_TLB_MISS_CLASSES; k++)
		t += c->sum[k];
	return t;
}

/* The figure's result line with its REGION, and where misses are counted
 * its misses in ITERS operations: all, and by class. */
static void report(const char *name, struct samples *s, const char *what, const struct classes *c,
		   unsigned region, unsigned long iters)
{
	bench_report_region(name, s, what, region, iters);
	if (!ARCH_TLB_MISSES_COUNTED)
		return;
	result_line("{\"kind\":\"bench-tlb\",\"name\":\"%s\",\"misses\":%" PRIu64 ",\"iters\":%lu}",
		    name, classes_total(c), iters);
	result_line("{\"kind\":\"bench-tlb-class\",\"name\":\"%s\",\"iters\":%lu,\"code\":%" PRIu64
		    ",\"stack\":%" PRIu64 ",\"data\":%" PRIu64 ",\"ica\":%" PRIu64 ",\"kernel\":%" PRIu64 "}",
		    name, iters, c->sum[0], c->sum[1], c->sum[2], c->sum[3], c->sum[4]);
}

static void touch(unsigned w)
{
	for (unsigned i = 0; i < w; i++)
		((volatile uint32_t *)pages[i])[0]++;
}

struct sw_figures {
	struct samples ispc, alone, request;
	struct classes c_ispc, c_alone, c_request;
};

/* Post POST, wait WAIT, touch the W pages: the span into *span, its misses
 * into c and its region (REGION_ISPC_SWITCH_ISPC when POST differs from
 * WAIT, else _ALONE, for the K-th working set) if c is not NULL. */
static long post_wait_touch(int post, int wait, unsigned w, unsigned k, struct classes *c,
			    uint64_t *span)
{
	if (c) {
		classes_begin(c);
		if (post != wait)
			SW_REGION(region_begin_nth, REGION_ISPC_SWITCH_ISPC, k);
		else
			SW_REGION(region_begin_nth, REGION_ISPC_SWITCH_ALONE, k);
	}
	uint64_t t0 = tsc_now();
	long r = sys_sem_post(post);
	if (r >= 0)
		r = sys_sem_wait(wait);
	touch(w);
	uint64_t t1 = tsc_now();
	if (c) {
		if (post != wait)
			SW_REGION(region_end_nth, REGION_ISPC_SWITCH_ISPC, k);
		else
			SW_REGION(region_end_nth, REGION_ISPC_SWITCH_ALONE, k);
		classes_end(c);
	}
	*span = t1 - t0;
	return r;
}

/* One cycle: the request, the W pages, the two switches, the same calls
 * alone; k: W's index in the list (its regions). */
static int cycle(int server, struct call *c, unsigned w, unsigned k, int sem_c, struct sw_figures *f,
		 int keep)
{
	struct hako_ispc_msg m = { .ctl = c->ctl, .data = c->data };
	c->st->op = OP_PINGPONG;
	if (keep) {
		classes_begin(&f->c_request);
		SW_REGION(region_begin_nth, REGION_ISPC_SWITCH_REQUEST, k);
	}
	uint64_t t0 = tsc_now();
	long r = sys_ispc_request(server, &m, 0);
	(void)*(volatile uint32_t *)&c->st->op;
	(void)*c->data_word;
	uint64_t t1 = tsc_now();
	if (keep) {
		SW_REGION(region_end_nth, REGION_ISPC_SWITCH_REQUEST, k);
		classes_end(&f->c_request);
	}
	if (r < 0 || m.status < 0)
		return fail("switch: request", r < 0 ? r : m.status);
	touch(w);
	uint64_t both, alone;
	r = post_wait_touch((int)c->st->sem_a, (int)c->st->sem_b, w, k, keep ? &f->c_ispc : NULL, &both);
	if (r < 0)
		return fail("switch: semaphores", r);
	r = post_wait_touch(sem_c, sem_c, w, k, keep ? &f->c_alone : NULL, &alone);
	if (r < 0)
		return fail("switch: semaphore alone", r);
	if (keep) {
		samples_add(&f->request, t1 - t0);
		samples_add(&f->ispc, both / 2);
		samples_add(&f->alone, alone / 2);
	}
	return 0;
}

/* Misses per switch of class k (or all, k < 0), hundredths. */
static uint64_t per_switch(const struct sw_figures *f, int k)
{
	uint64_t a = k < 0 ? classes_total(&f->c_ispc) : f->c_ispc.sum[k];
	uint64_t b = k < 0 ? classes_total(&f->c_alone) : f->c_alone.sum[k];
	return a > b ? (a - b) * 100 / (2 * RUNS) : 0;
}

static void print_row(unsigned w, const struct sw_figures *f)
{
	char name[16];
	snprintf(name, sizeof name, "w%u", w);
	const struct bench_stats *is = bench_find(figure("switch_ispc", name));
	const struct bench_stats *al = bench_find(figure("switch_alone", name));
	if (!is || !al)
		return;
	long add = (long)is->median - (long)al->median;
	printf("ispcbench: switch %s, W %2u: %6" PRIu64 " insns one way, %5ld more than alone",
	       mode_name(), w, is->median, add);
	if (ARCH_TLB_MISSES_COUNTED) {
		uint64_t all = per_switch(f, -1);
		printf("; TLB misses per switch %" PRIu64 ".%02u (", all / 100, (unsigned)(all % 100));
		for (int k = 0; k < HAKO_TLB_MISS_CLASSES; k++) {
			uint64_t v = per_switch(f, k);
			printf("%s%s %" PRIu64 ".%02u", k ? ", " : "", class_names[k], v / 100,
			       (unsigned)(v % 100));
		}
		printf(")");
	}
	printf("\n");
}

/* Run W's cycles (the K-th working set); their misses by class into *f (freed samples). */
static int switch_run(unsigned w, unsigned k, struct sw_figures *out)
{
	struct sw_figures f;
	memset(&f, 0, sizeof f);
	long mode = sys_ispc_mode(mode_fast ? HAKO_ISPC_FAST : HAKO_ISPC_BASELINE);
	if (mode < 0)                    /* the TLB emptied, its replacement started over */
		return fail("switch: ispc_mode", mode);
	if (samples_init(&f.ispc, RUNS) < 0 || samples_init(&f.alone, RUNS) < 0 ||
	    samples_init(&f.request, RUNS) < 0)
		return -1;
	long a = sys_sem_create(0), b = sys_sem_create(0), sc = sys_sem_create(0);
	struct call c;
	int server = a < 0 || b < 0 || sc < 0 ? -1 : spawn_server(0), err = 0;
	if (server < 0 || call_open(&c, 1) < 0)
		err = fail("switch set-up", server < 0 ? server : -1);
	if (!err) {
		c.st->touch = 1;
		c.st->sem_a = (uint32_t)a;
		c.st->sem_b = (uint32_t)b;
		touch(w);
	}
	for (int i = 0; i < WARMUP + RUNS && !err; i++)
		err = cycle(server, &c, w, k, (int)sc, &f, i >= WARMUP);
	if (!err) {
		char suffix[16];
		snprintf(suffix, sizeof suffix, "w%u", w);
		report(figure("switch_request", suffix), &f.request,
		       "request + result, control and 4 KiB data ICA", &f.c_request,
		       sw_region(REGION_ISPC_SWITCH_REQUEST, k), RUNS);
		report(figure("switch_ispc", suffix), &f.ispc,
		       "one way: half a semaphore ping-pong in ISPC traffic, then the pages", &f.c_ispc,
		       sw_region(REGION_ISPC_SWITCH_ISPC, k), 2ul * RUNS);
		report(figure("switch_alone", suffix), &f.alone,
		       "half of the same calls and pages without a switch", &f.c_alone,
		       sw_region(REGION_ISPC_SWITCH_ALONE, k), 2ul * RUNS);
		print_row(w, &f);
	}
	if (server > 0) {
		call_close(&c);
		stop_server(server);
	}
	sys_sem_destroy((int)a);
	sys_sem_destroy((int)b);
	sys_sem_destroy((int)sc);
	samples_free(&f.ispc);
	samples_free(&f.alone);
	samples_free(&f.request);
	*out = f;
	return err;
}

static int check_on;

void switch_set_check(void)
{
	check_on = 1;
}

/*
 * --check (the selftest's): the switches must have missed at all in this
 * mode over the Ws (the counting works: not zero by construction).
 */
static void check(const struct sw_figures *f, uint64_t *switched)
{
	*switched += classes_total(&f->c_ispc);
}

int part_switch(void)
{
	uint64_t switched = 0;
	for (int i = 0; i < ws_count; i++) {
		struct sw_figures f;
		if (switch_run(ws_list[i], (unsigned)i, &f) < 0)
			return -1;
		if (check_on)
			check(&f, &switched);
	}
	if (check_on && ARCH_TLB_MISSES_COUNTED && !switched) {
		printf("ispcbench: switch check FAILED, %s mode: no switch missed\n", mode_name());
		return -1;
	}
	if (check_on)
		printf("ispcbench: switch check passed, %s mode\n", mode_name());
	return 0;
}
