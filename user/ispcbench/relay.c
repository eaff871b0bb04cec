/*
 * ispcbench/relay.c — an n-stage request (paper 002, Fig. 9): a chain of
 * n servers, each but the last passing the request on; the result comes
 * back stage by stage (stepwise) or straight from the last server to the
 * client (direct).  n = 1 .. 8; the figure is the client's round trip,
 * each (n, return) with a region of its own.
 */
#include <stdio.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "ispcbench.h"

#define RUNS 300
#define DEPTH_MAX 8

_Static_assert(2 * DEPTH_MAX <= REGION_NTH_MAX, "a region per depth and way");

static int chain_start(int *pids, int n)
{
	int next = 0;
	for (int i = 0; i < n; i++) {
		pids[i] = spawn_server(next);
		if (pids[i] < 0) {
			while (i-- > 0)
				stop_server(pids[i]);
			return -1;
		}
		next = pids[i];
	}
	return next;                     /* the first stage: the last one spawned */
}

static int time_chain(int first, int n, int flags, const char *how)
{
	struct samples s;
	struct call c;
	int k = (flags & HAKO_ISPC_DIRECT ? DEPTH_MAX : 0) + n - 1;
	if (samples_init(&s, RUNS) < 0 || call_open(&c, 0) < 0)
		return -1;
	int err = 0;
	for (int i = 0; i < RUNS && !err; i++) {
		struct hako_ispc_msg m = { .ctl = c.ctl, .data = -1 };
		c.st->op = OP_STAMP;
		ispc_region_begin(REGION_ISPC_RELAY, k);
		uint64_t t0 = tsc_now();
		long r = sys_ispc_request(first, &m, flags);
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_RELAY, k);
		if (r < 0 || m.status < 0)
			err = fail("relay request", r < 0 ? r : m.status);
		samples_add(&s, t1 - t0);
	}
	char name[32];
	snprintf(name, sizeof name, "relay_%d", n);
	if (!err)
		ispc_report(figure(name, how), &s, "round trip through the chain",
			    ispc_region(REGION_ISPC_RELAY + k), s.n);
	call_close(&c);
	samples_free(&s);
	return err;
}

int part_relay(void)
{
	int pids[DEPTH_MAX];
	for (int n = 1; n <= DEPTH_MAX; n++) {
		int first = chain_start(pids, n);
		if (first < 0)
			return -1;
		int err = time_chain(first, n, 0, "stepwise");
		if (!err)
			err = time_chain(first, n, HAKO_ISPC_DIRECT, "direct");
		for (int i = 0; i < n; i++)
			stop_server(pids[i]);
		if (err)
			return err;
	}
	return 0;
}
