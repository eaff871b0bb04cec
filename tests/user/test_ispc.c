/*
 * tests/user/test_ispc.c — requests through the servers (paper 002):
 * synchronous and asynchronous requests to echo, garbage control ICAs,
 * data that stays intact through thousands of ICA moves across CPUs, the
 * ramdisk, multi-stage requests with stepwise and direct return, and the
 * name server.  Each test starts the servers it needs (fleet.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include "test.h"
#include <echo/proto.h>
#include <ramdisk/proto.h>
#include <nameserver/proto.h>
#include "fleet.h"

#define ASYNC_CALLS 8

/* Request OP(A0, A1) of PID on CALL, synchronously, with FLAGS: the status. */
static long ask_with(int pid, struct ispc_call *call, int flags, int op, int64_t a0, int64_t a1)
{
	long r = ispc_call_op(call, op, a0, a1, NULL, 0);
	return r < 0 ? r : ispc_call(pid, call, flags);
}

static long ask(int pid, struct ispc_call *call, int op, int64_t a0, int64_t a1)
{
	return ask_with(pid, call, 0, op, a0, a1);
}

/* Start PROG registered as NAME and open CALL with DATA_PAGES: the pid. */
static int server_and_call(struct fleet *fl, const char *prog, const char *name, size_t data_pages,
			   struct ispc_call *call)
{
	int pid = fleet_server(fl, prog, name, NULL);
	if (pid < 0)
		return pid;
	int r = ispc_call_open(call, data_pages);
	return r < 0 ? r : pid;
}

/* ask on a call of its own, without a data ICA. */
static long once(int pid, int op, int64_t a0, int64_t a1)
{
	struct ispc_call call;
	long r = ispc_call_open(&call, 0);
	if (r < 0)
		return r;
	r = ask(pid, &call, op, a0, a1);
	ispc_call_close(&call);
	return r;
}

ISPC_TEST(echo_sync_requests)
{
	struct ispc_call call;
	int echo = server_and_call(fl, "echo", "echo", 0, &call);
	CHECK(echo > 0, "echo: %d", echo);
	CHECK_EQ(ask(echo, &call, ECHO_NULL, 0, 0), 0);
	CHECK_EQ(call.from, echo);
	for (int i = 0; i < 100; i++)
		CHECK_EQ(ask(echo, &call, ECHO_VALUE, 1000 + i, 0), 1000 + i);
	CHECK_EQ(ask(echo, &call, ECHO_DEPTH, 0, 0), 1);
	CHECK_EQ(call.c->depth, 1);                 /* the stack came back as it went */
	CHECK_EQ(ispc_call_close(&call), 0);
	return 0;
}

/* The control ICA is the client's to scribble on: the server must say
 * -EINVAL to garbage and go on serving. */
ISPC_TEST(echo_rejects_garbage_control_ica)
{
	struct ispc_call call;
	int echo = server_and_call(fl, "echo", "echo", 0, &call);
	CHECK(echo > 0, "echo: %d", echo);
	struct ispc_ctl *c = call.c;
	memset(c, 0xff, ISPC_PAGE);                  /* nothing like a stack */
	CHECK_EQ(ispc_call(echo, &call, 0), -EINVAL);
	ispc_call_op(&call, ECHO_VALUE, 5, 0, NULL, 0);
	c->magic ^= 1;
	CHECK_EQ(ispc_call(echo, &call, 0), -EINVAL);
	ispc_call_op(&call, ECHO_VALUE, 5, 0, NULL, 0);
	c->depth = 0;
	CHECK_EQ(ispc_call(echo, &call, 0), -EINVAL);
	c->depth = ISPC_FRAMES_MAX + 1;
	CHECK_EQ(ispc_call(echo, &call, 0), -EINVAL);
	c->depth = 0xffff;
	CHECK_EQ(ispc_call(echo, &call, 0), -EINVAL);
	ispc_call_op(&call, ECHO_VALUE, 5, 0, NULL, 0);
	c->frame[0].len = ISPC_PAYLOAD_MAX + 1;
	CHECK_EQ(ispc_call(echo, &call, 0), -EINVAL);
	CHECK_EQ(ask(echo, &call, 999, 5, 0), -ENOSYS);
	CHECK_EQ(ask(echo, &call, ECHO_SUM, 8, 0), -EINVAL);      /* no data ICA */
	CHECK_EQ(ask(echo, &call, ECHO_VALUE, 5, 0), 5);          /* still serving */
	CHECK_EQ(ispc_call_close(&call), 0);
	return 0;
}

/* A server learns the data ICA's size from the kernel: asking it to fill
 * or sum past the end is refused, and the ICA next to ours is untouched. */
ISPC_TEST(echo_data_bounded_by_its_ica)
{
	struct ispc_call call;
	int echo = server_and_call(fl, "echo", "echo", 1, &call);
	CHECK(echo > 0, "echo: %d", echo);
	uint64_t va;
	long next = sys_ica_alloc(1, &va);             /* first fit: most likely right after */
	CHECK(next >= 0, "alloc %ld", next);
	*(volatile uint64_t *)va = 0x5a5a;
	CHECK_EQ(ask(echo, &call, ECHO_FILL, 1, 2 * ISPC_PAGE), -EINVAL);
	CHECK_EQ(ask(echo, &call, ECHO_SUM, 2 * ISPC_PAGE, 0), -EINVAL);
	CHECK_EQ(ask(echo, &call, ECHO_FILL, 1, -8), -EINVAL);
	CHECK_EQ(ask(echo, &call, ECHO_FILL, 1, ISPC_PAGE), 0);
	CHECK(*(volatile uint64_t *)va == 0x5a5a, "the next ICA was written");
	CHECK_EQ(sys_ica_free((int)next), 0);
	CHECK_EQ(ispc_call_close(&call), 0);
	return 0;
}

/* Send every call, then take the results with tag -1 (any): each once. */
static int collect_any(int echo, struct ispc_call *calls)
{
	int seen = 0;
	for (int i = 0; i < ASYNC_CALLS; i++) {
		CHECK_EQ(ispc_call_op(&calls[i], ECHO_VALUE, 500 + i, 0, NULL, 0), 0);
		CHECK_EQ(ispc_send(echo, &calls[i], 0), calls[i].ctl);
	}
	for (int i = 0; i < ASYNC_CALLS; i++) {
		int which = -1;
		long status = ispc_collect(-1, calls, ASYNC_CALLS, 0, &which);
		CHECK(which >= 0 && !(seen & (1 << which)), "result %d: call %d (status %ld)", i, which, status);
		CHECK_EQ(status, 500 + which);
		seen |= 1 << which;
	}
	return 0;
}

/* The same, results taken by tag, newest first. */
static int collect_by_tag(int echo, struct ispc_call *calls)
{
	for (int i = 0; i < ASYNC_CALLS; i++) {
		CHECK_EQ(ispc_call_op(&calls[i], ECHO_VALUE, 700 + i, 0, NULL, 0), 0);
		CHECK_EQ(ispc_send(echo, &calls[i], 0), calls[i].ctl);
	}
	for (int i = ASYNC_CALLS - 1; i >= 0; i--) {
		int which = -1;
		CHECK_EQ(ispc_collect(calls[i].ctl, calls, ASYNC_CALLS, 0, &which), 700 + i);
		CHECK_EQ(which, i);
	}
	return 0;
}

ISPC_TEST(echo_async_requests_outstanding)
{
	int echo = fleet_server(fl, "echo", "echo", NULL);
	CHECK(echo > 0, "echo: %d", echo);
	struct ispc_call calls[ASYNC_CALLS];
	for (int i = 0; i < ASYNC_CALLS; i++)
		CHECK_EQ(ispc_call_open(&calls[i], 1), 0);
	struct hako_ispc_msg m;
	CHECK_EQ(sys_ispc_result(-1, &m, HAKO_ISPC_NONBLOCK), -ESRCH);    /* nothing awaited */
	for (int round = 0; round < 5; round++) {
		CHECK_EQ(collect_any(echo, calls), 0);
		CHECK_EQ(collect_by_tag(echo, calls), 0);
	}
	CHECK_EQ(sys_ispc_result(-1, &m, HAKO_ISPC_NONBLOCK), -ESRCH);
	for (int i = 0; i < ASYNC_CALLS; i++)
		CHECK_EQ(ispc_call_close(&calls[i]), 0);
	return 0;
}

/* ROUNDS round trips on CALL with FLAGS: even ones the server fills the
 * data ICA and we check it, odd ones we fill it and the server checks the sum. */
static int round_trips(int echo, struct ispc_call *call, int rounds, int flags)
{
	size_t words = call->size / 8;
	for (int i = 0; i < rounds; i++) {
		uint64_t seed = (uint64_t)i * 7919;
		if (i % 2 == 0) {
			CHECK_EQ(ask_with(echo, call, flags, ECHO_FILL, (int64_t)seed, (int64_t)call->size), 0);
			const uint64_t *w = call->buf;
			for (size_t k = 0; k < words; k++)
				CHECK(w[k] == echo_word(seed, k), "round %d: word %lu", i, (unsigned long)k);
		} else {
			uint64_t *w = call->buf;
			for (size_t k = 0; k < words; k++)
				w[k] = echo_word(seed, k);
			CHECK_EQ(ask_with(echo, call, flags, ECHO_SUM, (int64_t)call->size, 0), echo_checksum(w, words));
		}
	}
	return 0;
}

ISPC_TEST(data_intact_through_many_moves_across_cpus)
{
	int two = online_cpus() > 1;
	CHECK_EQ(sys_set_affinity(0, 1), 0);                   /* us on CPU 0 */
	int echo = fleet_server(fl, "echo", "echo", "--cpu", two ? "1" : "0", NULL);
	CHECK(echo > 0, "echo: %d", echo);
	struct ispc_call small, big;
	CHECK_EQ(ispc_call_open(&small, 1), 0);
	CHECK_EQ(ispc_call_open(&big, 16), 0);
	CHECK_EQ(round_trips(echo, &small, 2000, 0), 0);
	CHECK_EQ(round_trips(echo, &big, 400, 0), 0);
	CHECK_EQ(round_trips(echo, &small, 200, HAKO_ISPC_COPY), 0);     /* copied, not moved */
	CHECK_EQ(round_trips(echo, &big, 50, HAKO_ISPC_COPY), 0);
	CHECK_EQ(ispc_call_close(&small), 0);
	CHECK_EQ(ispc_call_close(&big), 0);
	return 0;
}

static void fill_block(uint64_t *w, int block, int pass)
{
	for (int k = 0; k < RD_BLOCK / 8; k++)
		w[k] = echo_word((uint64_t)block * 8 + (uint64_t)pass, (uint64_t)k);
}

/* Write every block of the disk, then read each back (last first), with FLAGS. */
static int disk_pass(int rd, struct ispc_call *call, int blocks, int flags, int pass)
{
	for (int b = 0; b < blocks; b++) {
		fill_block(call->buf, b, pass);
		CHECK_EQ(ask_with(rd, call, flags, RD_WRITE, b, 0), 0);
	}
	uint64_t expect[RD_BLOCK / 8];
	for (int b = blocks - 1; b >= 0; b--) {
		memset(call->buf, 0, RD_BLOCK);
		CHECK_EQ(ask_with(rd, call, flags, RD_READ, b, 0), 0);
		fill_block(expect, b, pass);
		CHECK(memcmp(call->buf, expect, RD_BLOCK) == 0, "pass %d: block %d read back wrong", pass, b);
	}
	return 0;
}

ISPC_TEST(ramdisk_every_block_written_and_read_back)
{
	struct ispc_call call;
	int rd = server_and_call(fl, "ramdisk", "ramdisk", 1, &call);
	CHECK(rd > 0, "ramdisk: %d", rd);
	long blocks = ask(rd, &call, RD_SIZE, 0, 0);
	CHECK_EQ(blocks, 256);
	CHECK_EQ(disk_pass(rd, &call, (int)blocks, 0, 1), 0);
	CHECK_EQ(disk_pass(rd, &call, (int)blocks, HAKO_ISPC_COPY, 2), 0);   /* copied, not moved */
	int64_t bad[] = { -1, blocks, 1ll << 40, INT64_MIN };
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_EQ(ask(rd, &call, RD_READ, bad[i], 0), -EINVAL);
	ispc_call_op(&call, RD_WRITE, 0, 0, NULL, 0);
	struct hako_ispc_msg m = { .ctl = call.ctl, .data = call.data, .data_bytes = RD_BLOCK - 8 };
	CHECK_EQ(sys_ispc_request(rd, &m, HAKO_ISPC_COPY), 0);
	CHECK_EQ(m.status, -EINVAL);                       /* a copy short of a block */
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK_EQ(once(rd, RD_READ, 0, 0), -EINVAL);      /* no data ICA */
	CHECK_EQ(once(rd, RD_WRITE, 0, 0), -EINVAL);
	return 0;
}

/* A request through e1 -> e2 -> e3, with FLAGS 0 or HAKO_ISPC_DIRECT. */
static int chain_call(int e1, int e3, int flags)
{
	int direct = flags & HAKO_ISPC_DIRECT;
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 1), 0);
	CHECK_EQ(ispc_call_op(&call, ECHO_VALUE, 777, 0, NULL, 0), 0);
	CHECK_EQ(ispc_call(e1, &call, flags), 777);
	CHECK_EQ(call.from, direct ? e3 : e1);
	CHECK_EQ(call.c->depth, direct ? 3 : 1);         /* relays pop their frames only stepwise */
	CHECK_EQ(call.c->frame[0].arg[0], 777);
	CHECK_EQ(ispc_call_op(&call, ECHO_DEPTH, 0, 0, NULL, 0), 0);
	CHECK_EQ(ispc_call(e1, &call, flags), 3);         /* e3 saw us and two relays below it */
	CHECK_EQ(ispc_call_op(&call, ECHO_FILL, 99, ISPC_PAGE, NULL, 0), 0);
	CHECK_EQ(ispc_call(e1, &call, flags), 0);
	for (int k = 0; k < ISPC_PAGE / 8; k++)
		CHECK(((uint64_t *)call.buf)[k] == echo_word(99, k), "word %d", k);
	CHECK_EQ(ispc_call_op(&call, ECHO_VALUE, 4242, 0, NULL, 0), 0);
	CHECK_EQ(ispc_send(e1, &call, flags), call.ctl);
	CHECK_EQ(ispc_collect(call.ctl, &call, 1, 0, NULL), 4242);
	CHECK_EQ(ispc_call_close(&call), 0);
	return 0;
}

ISPC_TEST(relay_three_stages_stepwise_and_direct)
{
	int e3 = fleet_server(fl, "echo", "e3", NULL);
	int e2 = fleet_server(fl, "echo", "e2", "--relay", "e3", NULL);
	int e1 = fleet_server(fl, "echo", "e1", "--relay", "e2", NULL);
	CHECK(e1 > 0 && e2 > 0 && e3 > 0, "e1 %d e2 %d e3 %d", e1, e2, e3);
	CHECK_EQ(chain_call(e1, e3, 0), 0);
	CHECK_EQ(chain_call(e1, e3, HAKO_ISPC_DIRECT), 0);
	CHECK_EQ(chain_call(e1, e3, 0), 0);                /* and stepwise again */
	return 0;
}

/* Register NAME from another process: register and unregister must fail. */
UROLE(ns_intruder)
{
	int bad = 0;
	if (ns_register(argv[0]) != -EEXIST)
		bad |= 1;
	if (ns_unregister(argv[0]) != -EPERM)
		bad |= 2;
	return bad;
}

/* A raw request to the name server with PAYLOAD of LEN bytes. */
static long ns_raw(int op, const void *payload, size_t len)
{
	struct ispc_call call;
	long r = ispc_call_open(&call, 0);
	if (r < 0)
		return r;
	ispc_call_op(&call, op, 0, 0, NULL, 0);
	call.c->frame[0].len = (uint16_t)len;
	memcpy(call.c->frame[0].payload, payload, len < ISPC_PAYLOAD_MAX ? len : ISPC_PAYLOAD_MAX);
	r = ispc_call(HAKO_ISPC_NAMESERVER_PID, &call, 0);
	ispc_call_close(&call);
	return r;
}

ISPC_TEST(nameserver_names)
{
	int me = (int)sys_getpid();
	CHECK_EQ(ns_lookup("alpha"), -ESRCH);             /* no name server yet */
	int alpha = fleet_server(fl, "echo", "alpha", NULL);
	CHECK(alpha > 0, "alpha: %d", alpha);
	CHECK_EQ(ns_lookup("alpha"), alpha);
	CHECK_EQ(ns_lookup("nosuch"), -ENOENT);
	CHECK_EQ(ns_lookup(""), -EINVAL);
	CHECK_EQ(ns_lookup("a_name_that_is_32_bytes_long_xx"), -ENOENT);   /* 31: fits */
	CHECK_EQ(ns_lookup("a_name_that_is_32_bytes_long_xxx"), -ENAMETOOLONG);
	CHECK_EQ(ns_raw(NS_LOOKUP, "al\0ha", 5), -EINVAL);
	CHECK_EQ(ns_raw(NS_LOOKUP, "", 0), -EINVAL);
	CHECK_EQ(ns_raw(NS_LOOKUP, "a_name_that_is_32_bytes_long_xxx", 32), -EINVAL);
	CHECK_EQ(ns_raw(NS_LOOKUP, "alpha", ISPC_PAYLOAD_MAX + 1), -EINVAL);
	CHECK_EQ(ns_raw(77, "alpha", 5), -ENOSYS);
	CHECK_EQ(ns_register("me"), 0);
	CHECK_EQ(ns_register("me"), 0);                   /* again: still ours */
	CHECK_EQ(ns_lookup("me"), me);
	CHECK_EQ(run_role("ns_intruder", "me", NULL), 0);
	CHECK_EQ(ns_unregister("me"), 0);
	CHECK_EQ(ns_lookup("me"), -ENOENT);
	CHECK_EQ(ns_unregister("me"), -ENOENT);
	/* A server that has ended keeps its name; requests to it say -ESRCH. */
	CHECK_EQ(fleet_stop(fl, alpha), HAKO_STATUS_KILLED | HAKO_CAUSE_KILL);
	CHECK_EQ(ns_lookup("alpha"), alpha);
	CHECK_EQ(once(alpha, ECHO_NULL, 0, 0), -ESRCH);
	return 0;
}

ISPC_TEST(nameserver_table_full_enospc)
{
	int echo = fleet_server(fl, "echo", "echo", NULL);
	CHECK(echo > 0, "echo: %d", echo);
	char name[16];
	int n = 0;
	long r = 0;
	while (n < NS_NAMES_MAX + 4) {
		snprintf(name, sizeof name, "n%d", n);
		if ((r = ns_register(name)) < 0)
			break;
		n++;
	}
	CHECK_EQ(r, -ENOSPC);
	CHECK_EQ(n, NS_NAMES_MAX - 1);                    /* "echo" has the last slot */
	CHECK_EQ(ns_unregister("n3"), 0);
	CHECK_EQ(ns_register("again"), 0);
	CHECK_EQ(ns_lookup("echo"), echo);
	return 0;
}
