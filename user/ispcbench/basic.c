/*
 * ispcbench/basic.c — the four basic operations of paper 002 (its Fig. 8):
 * synchronous request, synchronous result return, asynchronous request,
 * asynchronous result return, without and with a 4 KiB data ICA.
 *
 * Client and server share one CPU.  The control ICA carries the stamps:
 * the client writes when it sends, the server when the request arrived
 * and when it replies, so each direction is timed across the switch:
 *   sync_request    client's ispc_request  -> server's ispc_receive returns
 *   sync_return     server's ispc_reply    -> client's ispc_request returns
 *   sync_roundtrip  the two, plus the first touch of the data on both sides
 *   async_request   the client's ispc_request(ASYNC) call alone (no switch)
 *   async_roundtrip async request, then ispc_result waits for the answer
 *   async_return    the server's ispc_reply without waiting (reported by
 *                   the server process itself)
 *   server_receive  the server's ispc_receive of a request already queued
 *                   (server side too: the paste into the server, no switch)
 * Each figure has a region but async_request (a part of the second
 * round trip); sync_request's ends in the server and sync_return's starts
 * there, while the server is told to mark them (OP_MARK, roles.c): with
 * the fastpath off only.  The synchronous
 * figures are taken with the fastpath off (the general path), then again
 * with it on as sync_*_fastpath_* (kernel/ipc/ispc_fastpath.c: the switch
 * goes straight from client to server and back); the switch is left as
 * it was found.  With the fastpath on, the same round trip once more as
 * sync_*_call_*: ispc_call and ispc_reply_recv (kernel/ipc/ispc_call.c),
 * the message in registers instead of a struct hako_ispc_msg in memory.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "ispcbench.h"

#define RUNS 1000

/* The region slot of a round trip: synchronous, then asynchronous. */
static int basic_slot(const struct call *c)
{
	return c->data_word ? 2 : 0;
}

struct basic {
	struct samples req, ret, rt, areq, art;
	struct samples fpreq, fpret, fprt;       /* the same round trips, fastpath on */
	struct samples creq, cret, crt;          /* ispc_call, fastpath on */
};

/* SLOT + K is the round trip's region: REGION_ISPC_BASIC + basic_slot, or
 * REGION_ISPC_FASTPATH + (4 KiB data). */
static int sync_once(int server, struct call *c, unsigned slot, int k, struct samples *req,
		     struct samples *ret, struct samples *rt)
{
	struct hako_ispc_msg m = { .ctl = c->ctl, .data = c->data };
	int oneway = slot == REGION_ISPC_BASIC, d = c->data_word != NULL;
	c->st->op = OP_STAMP;
	ispc_region_begin(slot, k);
	if (oneway)
		ispc_region_begin(REGION_ISPC_SYNC_REQUEST, d);
	c->st->t_sent = tsc_now();
	long r = sys_ispc_request(server, &m, 0);
	(void)*(volatile uint32_t *)&c->st->op;   /* the first touch of what came back */
	if (c->data_word)
		(void)*c->data_word;
	uint64_t back = tsc_now();
	if (oneway)
		ispc_region_end(REGION_ISPC_SYNC_RETURN, d);
	ispc_region_end(slot, k);
	if (r < 0 || m.status < 0)
		return fail("synchronous request", r < 0 ? r : m.status);
	samples_add(req, c->st->t_received - c->st->t_sent);
	samples_add(ret, back - c->st->t_replied);
	samples_add(rt, back - c->st->t_sent);
	return 0;
}

/* One ispc_call round trip (the server answers OP_CALL with ispc_reply_recv);
 * 1 where the arch has no registers for the message (-ENOSYS: SH-4). */
static int call_once(int server, struct call *c, struct basic *b)
{
	struct hako_words w;
	int d = c->data_word != NULL;
	c->st->op = OP_CALL;
	ispc_region_begin(REGION_ISPC_CALL, d);
	c->st->t_sent = tsc_now();
	long r = sys_ispc_call(server, c->ctl, c->data, 0, &w);
	(void)*(volatile uint32_t *)&c->st->op;   /* the first touch of what came back */
	if (c->data_word)
		(void)*c->data_word;
	uint64_t back = tsc_now();
	ispc_region_end(REGION_ISPC_CALL, d);
	if (r == -ENOSYS)
		return 1;
	if (r < 0 || hako_ispc_word_status(w.w) < 0)
		return fail("ispc_call", r < 0 ? r : hako_ispc_word_status(w.w));
	samples_add(&b->creq, c->st->t_received - c->st->t_sent);
	samples_add(&b->cret, back - c->st->t_replied);
	samples_add(&b->crt, back - c->st->t_sent);
	return 0;
}

static int async_once(int server, struct call *c, struct basic *b)
{
	struct hako_ispc_msg m = { .ctl = c->ctl, .data = c->data };
	int k = basic_slot(c) + 1;
	c->st->op = OP_STAMP;
	ispc_region_begin(REGION_ISPC_BASIC, k);
	uint64_t t0 = tsc_now();
	long r = sys_ispc_request(server, &m, HAKO_ISPC_ASYNC);
	uint64_t t1 = tsc_now();
	if (r >= 0)
		r = sys_ispc_result(c->ctl, &m, 0);
	(void)*(volatile uint32_t *)&c->st->op;
	if (c->data_word)
		(void)*c->data_word;
	uint64_t t2 = tsc_now();
	ispc_region_end(REGION_ISPC_BASIC, k);
	if (r < 0)
		return fail("asynchronous request", r);
	samples_add(&b->areq, t1 - t0);
	samples_add(&b->art, t2 - t0);
	return 0;
}

/* Ask the server to print its figure WHICH as NAME. */
static long server_report(int server, struct call *c, int which, const char *name)
{
	struct hako_ispc_msg m = { .ctl = c->ctl, .data = c->data };
	c->st->op = OP_REPORT;
	c->st->report = (uint32_t)which;
	strcpy(c->st->name, name);
	long r = sys_ispc_request(server, &m, 0);
	return r < 0 ? r : m.status;
}

/* Tell the server to mark the one-way regions of what follows (ON) or not. */
static long server_mark(int server, struct call *c, int on)
{
	struct hako_ispc_msg m = { .ctl = c->ctl, .data = c->data };
	c->st->op = OP_MARK;
	c->st->oneway = (uint32_t)on;
	long r = sys_ispc_request(server, &m, 0);
	return r < 0 ? r : m.status;
}

/* Requests the server answers with an asynchronous return, then its report. */
static int async_returns(int server, struct call *c, const char *suffix)
{
	struct hako_ispc_msg m;
	long r = 0;
	for (int i = 0; i < RUNS && r >= 0; i++) {
		m = (struct hako_ispc_msg){ .ctl = c->ctl, .data = c->data };
		c->st->op = OP_ASYNC_RETURN;
		r = sys_ispc_request(server, &m, 0);
	}
	if (r >= 0)
		r = server_report(server, c, REPORT_REPLY, figure("async_return", suffix));
	return r < 0 ? fail("asynchronous returns", r) : 0;
}

/*
 * Two asynchronous requests, then their results: the server answers the
 * first without waiting and times its receive of the second, which is
 * already queued (roles.c, receive_queued).  C2 is a second control ICA
 * (with a data ICA when C has one).
 */
static int queued_receives(int server, struct call *c, struct call *c2, const char *suffix)
{
	long r = 0;
	for (int i = 0; i < RUNS && r >= 0; i++) {
		struct hako_ispc_msg a = { .ctl = c->ctl, .data = c->data };
		struct hako_ispc_msg b = { .ctl = c2->ctl, .data = c2->data };
		c->st->op = OP_QUEUED_FIRST;
		c2->st->op = OP_QUEUED_SECOND;
		r = sys_ispc_request(server, &a, HAKO_ISPC_ASYNC);
		if (r >= 0)
			r = sys_ispc_request(server, &b, HAKO_ISPC_ASYNC);
		if (r >= 0)
			r = sys_ispc_result(c->ctl, &a, 0);
		if (r >= 0)
			r = sys_ispc_result(c2->ctl, &b, 0);
		if (r >= 0 && (a.status < 0 || b.status < 0))
			r = a.status < 0 ? a.status : b.status;
	}
	if (r >= 0)
		r = server_report(server, c, REPORT_RECEIVE, figure("server_receive", suffix));
	return r < 0 ? fail("queued receives", r) : 0;
}

static void report_basic(struct basic *b, const char *suffix, int slot)
{
	ispc_report(figure("sync_request", suffix), &b->req, "request sent -> server has it",
		    ispc_region(REGION_ISPC_SYNC_REQUEST + slot / 2), b->req.n);
	ispc_report(figure("sync_return", suffix), &b->ret, "result sent -> client has it",
		    ispc_region(REGION_ISPC_SYNC_RETURN + slot / 2), b->ret.n);
	ispc_report(figure("sync_roundtrip", suffix), &b->rt, "synchronous request + result",
		    ispc_region(REGION_ISPC_BASIC + slot), b->rt.n);
	bench_report(figure("sync_request_fastpath", suffix), &b->fpreq,
		     "request sent -> server has it, fastpath");
	bench_report(figure("sync_return_fastpath", suffix), &b->fpret,
		     "result sent -> client has it, fastpath");
	ispc_report(figure("sync_roundtrip_fastpath", suffix), &b->fprt,
		    "synchronous request + result, fastpath",
		    ispc_region(REGION_ISPC_FASTPATH + slot / 2), b->fprt.n);
	if (b->crt.n) {
		bench_report(figure("sync_request_call", suffix), &b->creq,
			     "request sent -> server has it, ispc_call");
		bench_report(figure("sync_return_call", suffix), &b->cret,
			     "result sent -> client has it, ispc_reply_recv");
		ispc_report(figure("sync_roundtrip_call", suffix), &b->crt,
			    "ispc_call + ispc_reply_recv, the message in registers, fastpath on",
			    ispc_region(REGION_ISPC_CALL + slot / 2), b->crt.n);
	}
	bench_report(figure("async_request", suffix), &b->areq, "the asynchronous ispc_request call");
	ispc_report(figure("async_roundtrip", suffix), &b->art,
		    "asynchronous request, then ispc_result",
		    ispc_region(REGION_ISPC_BASIC + slot + 1), b->art.n);
}

static int basic_run(int data_pages, const char *suffix)
{
	struct basic b;
	struct samples *all[] = { &b.req, &b.ret, &b.rt, &b.areq, &b.art, &b.fpreq, &b.fpret, &b.fprt,
				  &b.creq, &b.cret, &b.crt };
	const int nall = (int)(sizeof all / sizeof all[0]);
	struct call c, c2;
	int err = 0;
	for (int i = 0; i < nall; i++)
		if (samples_init(all[i], RUNS) < 0)
			err = -1;
	int server = err ? -1 : spawn_server(0);
	if (server < 0 || call_open(&c, data_pages) < 0)
		return -1;
	if (call_open(&c2, data_pages) < 0) {
		call_close(&c);
		return -1;
	}
	c.st->touch = data_pages > 0;
	long was = sys_ispc_mode(HAKO_ISPC_FASTPATH_OFF);
	if (was < 0)
		err = fail("ispc_mode fastpath", was);
	long r = err ? 0 : server_mark(server, &c, 1);
	if (r < 0)
		err = fail("marking the one-way regions", r);
	for (int i = 0; i < RUNS && !err; i++)
		err = sync_once(server, &c, REGION_ISPC_BASIC, basic_slot(&c), &b.req, &b.ret, &b.rt);
	if (!err && (r = server_mark(server, &c, 0)) < 0)
		err = fail("marking the one-way regions", r);
	if (!err && sys_ispc_mode(HAKO_ISPC_FASTPATH_ON) < 0)
		err = fail("ispc_mode fastpath", -1);
	for (int i = 0; i < RUNS && !err; i++)
		err = sync_once(server, &c, REGION_ISPC_FASTPATH, basic_slot(&c) / 2, &b.fpreq, &b.fpret,
				&b.fprt);
	for (int i = 0; i < RUNS && !err; i++)
		err = call_once(server, &c, &b);
	err = err < 0 ? err : 0;             /* 1: no ispc_call on this arch */
	if (was >= 0)
		sys_ispc_mode((int)was);
	for (int i = 0; i < RUNS && !err; i++)
		err = async_once(server, &c, &b);
	if (!err)
		err = async_returns(server, &c, suffix);
	if (!err)
		err = queued_receives(server, &c, &c2, suffix);
	if (!err)
		report_basic(&b, suffix, basic_slot(&c));
	call_close(&c);
	call_close(&c2);
	stop_server(server);
	for (int i = 0; i < nall; i++)
		samples_free(all[i]);
	return err;
}

int part_basic(void)
{
	if (basic_run(0, "nodata") < 0)
		return -1;
	return basic_run(1, "4k");
}
