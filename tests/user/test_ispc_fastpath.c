/*
 * tests/user/test_ispc_fastpath.c — the fastpath of synchronous server
 * calls (kernel/ipc/ispc_fastpath.c): every test runs its case twice,
 * with the fastpath off (the general path) and on, and the outcomes must
 * be the same; the kernel's counters (ica_stat: direct, fallbacks) show
 * which way each went.  The cases: plain calls with and without data on
 * one CPU (direct switches), and each fallback — a server that is not
 * waiting, a server on another CPU, a request queue that is not empty, a
 * requester killed mid-call, a server killed mid-call, a dead server, a
 * thread asleep in the direct switch woken the general way, a requester
 * that awaits too many results already, and a server whose only thread
 * waits for the result of its own forward, not in a receive.  Each test
 * runs again as NAME_by_ispc_call with the message in registers
 * (ispc_call; the test's own servers answer with ispc_reply_recv).
 * No ICA page may be lost.  The fastpath switch is put back as found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include <hako/thread.h>
#include "test.h"
#include <echo/proto.h>
#include "fleet.h"

#define CALLS 20
#define LISTEN_WAIT_MS 3000
#define SETTLE_MS 20                 /* a fresh server gets to its receive */
#define FOREVER_NS 1000000000000ull

/*
 * 1: this test's synchronous calls are ispc_call (the message in
 * registers, kernel/ipc/ispc_call.c) and its own servers answer with
 * ispc_reply_recv; 0: ispc_request, ispc_receive and ispc_reply.  Each
 * test runs both ways as two tests (FP_BOTH); roles get it as argv[0].
 */
static int regs;

static const char *regs_arg(void)
{
	return regs ? "1" : "0";
}

/* A test body run as NAME (regs 0) and NAME_by_ispc_call (regs 1). */
#define FP_BOTH_NEEDS(tname, need, need_regs) \
	static int both_##tname(struct fleet *fl); \
	FP_TEST_NEEDS(tname, need) { regs = 0; return both_##tname(fl); } \
	FP_TEST_NEEDS(tname##_by_ispc_call, need_regs) { regs = 1; return both_##tname(fl); } \
	static int both_##tname(struct fleet *fl __attribute__((unused)))
#define FP_BOTH(tname) FP_BOTH_NEEDS(tname, NULL, needs_words)

/* A synchronous call on CALL to PID, the way this test makes them: the
 * server's status, or the call's error. */
static long sync_call(int pid, struct ispc_call *call)
{
	struct hako_words w;
	return regs ? call_words(pid, call, &w) : ispc_call(pid, call, 0);
}

#define fleet_role(fl, ...) fleet_start(fl, "selftest", "--role", __VA_ARGS__, NULL)

/* A server on CPU argv[1] (argv[0]: regs): "idle" listens and never
 * receives; "hold" takes one request and keeps it; "late MS" takes one,
 * waits MS ms (its client is killed meanwhile) and replies (exit 0 if the
 * reply worked; with regs by ispc_reply_recv, whose receive then finds
 * nothing: -EAGAIN). */
UROLE(fp_srv)
{
	struct hako_ispc_msg m;
	struct hako_words w;
	regs = atoi(argv[0]);
	argv++;
	if (sys_set_affinity(0, 1ull << atoi(argv[0])) < 0 || sys_ispc_listen(0) < 0)
		return 1;
	long tag = 0;
	if (strcmp(argv[1], "idle") != 0 &&
	    (tag = regs ? sys_ispc_reply_recv(-1, 0, 0, &w) : sys_ispc_receive(&m, 0)) < 0)
		return 2;
	if (strcmp(argv[1], "late") == 0) {
		sleep_ms((uint64_t)atoi(argv[2]));
		if (regs)
			return sys_ispc_reply_recv((int)tag, 0, HAKO_ISPC_NONBLOCK, &w) == -EAGAIN ? 0 : 3;
		m.status = 0;
		return sys_ispc_reply(&m, 0) < 0 ? 3 : 0;
	}
	for (;;)
		sys_sleep(FOREVER_NS);
}

/* Synchronous request ECHO_NULL to PID; -ESRCH is retried until it listens. */
static long call_when_listening(int pid, struct ispc_call *call)
{
	long r = ispc_call_op(call, ECHO_NULL, 0, 0, NULL, 0);
	if (r < 0)
		return r;
	r = sync_call(pid, call);
	for (unsigned waited = 0; r == -ESRCH && waited < LISTEN_WAIT_MS; waited++) {
		sleep_ms(1);
		r = sync_call(pid, call);
	}
	return r;
}

/* A client on CPU argv[2] making one synchronous request to argv[1]
 * (argv[0]: regs; it is killed while it waits). */
UROLE(fp_cli)
{
	struct ispc_call call;
	regs = atoi(argv[0]);
	argv++;
	if (sys_set_affinity(0, 1ull << atoi(argv[1])) < 0 || ispc_call_open(&call, 1) < 0)
		return 1;
	return call_when_listening(atoi(argv[0]), &call) < 0 ? 2 : 0;
}

/* A relay on CPU 0: every request is passed on to pid argv[0] with a
 * synchronous request of its own, and its result (or the error of that
 * request) returned. */
UROLE(fp_relay)
{
	struct hako_ispc_msg m;
	int next = atoi(argv[0]);
	if (sys_set_affinity(0, 1) < 0 || sys_ispc_listen(0) < 0)
		return 1;
	for (long r = sys_ispc_receive(&m, 0); r >= 0; r = sys_ispc_reply(&m, HAKO_ISPC_WAIT)) {
		long f = sys_ispc_request(next, &m, 0);
		if (f < 0)
			m.status = (int32_t)f;
	}
	return 2;
}

/* One synchronous request from CPU 0 to pid argv[1] (argv[0]: regs);
 * exit code: the negated status (0 for success, 100 if the call could not
 * be made). */
UROLE(fp_call1)
{
	struct ispc_call call;
	regs = atoi(argv[0]);
	if (sys_set_affinity(0, 1) < 0 || ispc_call_open(&call, 1) < 0 ||
	    ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0) < 0)
		return 100;
	long r = sync_call(atoi(argv[1]), &call);
	return r < 0 ? (int)-r : r == 0 ? 0 : 100;
}

/* CALLS synchronous requests of each kind to echo PID, results checked:
 * 0, or the first wrong one's number. */
static int echo_calls(int pid, struct ispc_call *call)
{
	for (int i = 0; i < CALLS; i++) {
		if (ispc_call_op(call, ECHO_VALUE, 1000 + i, 0, NULL, 0) < 0 ||
		    sync_call(pid, call) != 1000 + i)
			return 1 + 3 * i;
		size_t bytes = call->size;
		if (ispc_call_op(call, ECHO_FILL, i, (int64_t)bytes, NULL, 0) < 0 || sync_call(pid, call) != 0)
			return 2 + 3 * i;
		const uint64_t *w = call->buf;
		for (size_t k = 0; k < bytes / 8; k++)
			if (w[k] != echo_word((uint64_t)i, k))
				return 2 + 3 * i;
		if (ispc_call_op(call, ECHO_SUM, (int64_t)bytes, 0, NULL, 0) < 0 ||
		    sync_call(pid, call) != echo_checksum(w, bytes / 8))
			return 3 + 3 * i;
	}
	return 0;
}

/* Echo on CPU SRV_CPU, we on CPU 0: both paths give the same results;
 * DIRECT: the fastpath switches directly (else it falls back every time). */
static int echo_both_paths(struct fleet *fl, const char *srv_cpu, int direct)
{
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int echo = fleet_server(fl, "echo", "echo", "--cpu", srv_cpu, NULL);
	CHECK(echo > 0, "echo %d", echo);
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 1), 0);
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		CHECK_EQ(ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0), 0);
		CHECK_EQ(sync_call(echo, &call), 0);     /* echo is in its receive now */
		struct hako_ica_stat a = ica_stat_now();
		CHECK_EQ(echo_calls(echo, &call), 0);
		struct hako_ica_stat b = ica_stat_now();
		if (!on)
			CHECK_EQ(b.direct + b.fallbacks, a.direct + a.fallbacks);   /* never tried */
		else if (direct)
			CHECK(b.direct - a.direct >= 3 * CALLS, "direct %lu", (unsigned long)(b.direct - a.direct));
		else {
			CHECK_EQ(b.direct, a.direct);
			CHECK(b.fallbacks - a.fallbacks >= 3 * CALLS, "fallbacks %lu",
			      (unsigned long)(b.fallbacks - a.fallbacks));
		}
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK(fleet_stop(fl, echo) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

FP_BOTH(fastpath_calls_same_results_as_general_path) { return echo_both_paths(fl, "0", 1); }
FP_BOTH_NEEDS(fastpath_server_on_other_cpu_falls_back, needs_two_cpus, needs_words_two_cpus)
{
	return echo_both_paths(fl, "1", 0);
}

struct waiter {
	int pid;
	struct ispc_call *call;
	long status;
};

static void waiter_call(void *arg)
{
	struct waiter *w = arg;
	w->status = sys_set_affinity(0, 1);         /* the server's CPU */
	if (w->status == 0)
		w->status = call_when_listening(w->pid, w->call);
}

/*
 * A synchronous request from a thread of ours (CPU 0) to a fp_srv in
 * state HOW on CPU 0, which is then killed: the request's status, the
 * server's wait status, and the change of the fastpath's counters.
 */
struct killed_server {
	long status;
	int srv_status;
	uint64_t direct, fallbacks;
};

static int server_killed(struct fleet *fl, const char *how, struct killed_server *out)
{
	uint64_t base = ica_free_pages();
	int srv = fleet_role(fl, "fp_srv", regs_arg(), "0", how);
	CHECK(srv > 0, "spawn %d", srv);
	sleep_ms(SETTLE_MS);
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 1), 0);
	struct hako_ica_stat a = ica_stat_now();
	struct waiter w = { srv, &call, 1 };
	int tid = thread_start(waiter_call, &w);
	CHECK(tid > 0, "thread %d", tid);
	CHECK_EQ(wait_requests(1, LISTEN_WAIT_MS), 1);
	struct hako_ica_stat b = ica_stat_now();
	out->srv_status = kill_after(srv, 10);
	fleet_stop(fl, srv);                        /* reaped already: just forget it */
	CHECK_EQ(thread_join(tid), 0);
	out->status = w.status;
	out->direct = b.direct - a.direct;
	out->fallbacks = b.fallbacks - a.fallbacks;
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/* The same outcome both ways; with the fastpath on, DIRECT says which way it went. */
static int server_killed_both(struct fleet *fl, const char *how, int direct)
{
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	struct killed_server k[2];
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		CHECK_EQ(server_killed(fl, how, &k[on]), 0);
	}
	CHECK_EQ(k[0].status, -EPIPE);
	CHECK_EQ(k[1].status, k[0].status);
	CHECK_EQ(k[0].srv_status, HAKO_STATUS_KILLED | HAKO_CAUSE_KILL);
	CHECK_EQ(k[1].srv_status, k[0].srv_status);
	CHECK_EQ(k[0].direct + k[0].fallbacks, 0);
	CHECK_EQ(k[1].direct, (uint64_t)(direct ? 1 : 0));
	CHECK_EQ(k[1].fallbacks, (uint64_t)(direct ? 0 : 1));
	return 0;
}

/* The server listens but is not in its receive: the request falls back. */
FP_BOTH(fastpath_server_not_waiting_falls_back) { return server_killed_both(fl, "idle", 0); }
/* The server took the request by the fastpath and is killed holding it. */
FP_BOTH(fastpath_server_killed_mid_call) { return server_killed_both(fl, "hold", 1); }

/* An asynchronous request is queued ahead: the synchronous one falls back. */
FP_BOTH(fastpath_queue_not_empty_falls_back)
{
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int echo = fleet_server(fl, "echo", "echo", "--cpu", "0", NULL);
	CHECK(echo > 0, "echo %d", echo);
	struct ispc_call calls[2];
	CHECK_EQ(ispc_call_open(&calls[0], 0), 0);
	CHECK_EQ(ispc_call_open(&calls[1], 0), 0);
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		struct hako_ica_stat a = ica_stat_now();
		CHECK_EQ(ispc_call_op(&calls[0], ECHO_VALUE, 7, 0, NULL, 0), 0);
		CHECK_EQ(ispc_call_op(&calls[1], ECHO_VALUE, 8, 0, NULL, 0), 0);
		CHECK_EQ(ispc_send(echo, &calls[0], 0), calls[0].ctl);
		CHECK_EQ(sync_call(echo, &calls[1]), 8);     /* queued behind the first */
		CHECK_EQ(ispc_collect(calls[0].ctl, calls, 2, 0, NULL), 7);
		struct hako_ica_stat b = ica_stat_now();
		CHECK_EQ(b.direct, a.direct);
		if (on)
			CHECK(b.fallbacks > a.fallbacks, "no fallback");
		else
			CHECK_EQ(b.fallbacks, a.fallbacks);
	}
	CHECK_EQ(ispc_call_close(&calls[0]) | ispc_call_close(&calls[1]), 0);
	CHECK(fleet_stop(fl, echo) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/*
 * A thread asleep in the direct switch, woken the general way: it takes
 * the guard itself (nothing was handed over).  In fast mode the server
 * sleeps there (it returned the last result directly) and an asynchronous
 * request wakes it; in both modes the client sleeps there (its call went
 * directly) and, in baseline mode, the server's reply wakes it.  Each
 * synchronous call after that switches directly again.
 */
FP_BOTH(fastpath_direct_sleeper_woken_general_way)
{
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int echo = fleet_server(fl, "echo", "echo", "--cpu", "0", NULL);
	CHECK(echo > 0, "echo %d", echo);
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 0), 0);
	CHECK_EQ(ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0), 0);
	CHECK_EQ(sync_call(echo, &call), 0);         /* echo is in its receive now */
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		struct hako_ica_stat a = ica_stat_now();
		for (int i = 0; i < 3; i++) {
			CHECK_EQ(ispc_call_op(&call, ECHO_VALUE, 10 + i, 0, NULL, 0), 0);
			CHECK_EQ(sync_call(echo, &call), 10 + i);
			CHECK_EQ(ispc_call_op(&call, ECHO_VALUE, 20 + i, 0, NULL, 0), 0);
			CHECK_EQ(ispc_send(echo, &call, 0), call.ctl);
			CHECK_EQ(ispc_collect(call.ctl, &call, 1, 0, NULL), 20 + i);
		}
		struct hako_ica_stat b = ica_stat_now();
		if (on)
			CHECK(b.direct - a.direct >= (a.mode == HAKO_ISPC_FAST ? 6u : 3u), "direct %lu",
			      (unsigned long)(b.direct - a.direct));   /* fast mode: the returns too */
		else
			CHECK_EQ(b.direct + b.fallbacks, a.direct + a.fallbacks);
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK(fleet_stop(fl, echo) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/* The requester is killed while the server (which took the request by the
 * fastpath) holds it; the server's late reply still works and frees the ICAs. */
FP_BOTH(fastpath_requester_killed_mid_call)
{
	uint64_t base = ica_free_pages();
	char pid[16];
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		int srv = fleet_role(fl, "fp_srv", regs_arg(), "0", "late", "100");
		CHECK(srv > 0, "spawn %d", srv);
		sleep_ms(SETTLE_MS);
		snprintf(pid, sizeof pid, "%d", srv);
		struct hako_ica_stat a = ica_stat_now();
		int cli = spawn_role("fp_cli", regs_arg(), pid, "0", NULL);
		CHECK(cli > 0, "spawn %d", cli);
		CHECK_EQ(kill_after(cli, 30), HAKO_STATUS_KILLED | HAKO_CAUSE_KILL);
		struct hako_ica_stat b = ica_stat_now();
		int status = -1;
		CHECK_EQ(waitpid(srv, &status), srv);
		fleet_stop(fl, srv);
		CHECK_EQ(status, 0);                        /* the reply itself succeeded */
		CHECK_EQ(b.direct - a.direct, (uint64_t)on);
		CHECK_EQ(ica_free_pages(), base);
	}
	return 0;
}

/* A server that has ended: -ESRCH both ways, nothing tried. */
FP_BOTH(fastpath_dead_server_esrch)
{
	uint64_t base = ica_free_pages();
	int echo = fleet_server(fl, "echo", "echo", NULL);
	CHECK(echo > 0, "echo %d", echo);
	CHECK(fleet_stop(fl, echo) > 0, "stop");
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 1), 0);
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		struct hako_ica_stat a = ica_stat_now();
		CHECK_EQ(ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0), 0);
		CHECK_EQ(sync_call(echo, &call), -ESRCH);
		struct hako_ica_stat b = ica_stat_now();
		CHECK_EQ(b.direct + b.fallbacks, a.direct + a.fallbacks);
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/* A requester that awaits HAKO_ISPC_OUTSTANDING_MAX results already (its
 * asynchronous requests wait at a server that never receives): a
 * synchronous request is refused with -EAGAIN both ways, nothing tried,
 * and the queued requests come back -EPIPE when the server ends. */
FP_BOTH(fastpath_too_many_awaited_eagain)
{
	enum { N = HAKO_ISPC_OUTSTANDING_MAX };
	static struct ispc_call calls[N + 1];
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	for (int i = 0; i <= N; i++)
		CHECK_EQ(ispc_call_open(&calls[i], 0), 0);
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		int srv = fleet_role(fl, "fp_srv", regs_arg(), "0", "idle");
		CHECK(srv > 0, "spawn %d", srv);
		sleep_ms(SETTLE_MS);
		struct hako_ica_stat a = ica_stat_now();
		for (int i = 0; i < N; i++)
			CHECK_EQ(ispc_send(srv, &calls[i], 0), calls[i].ctl);
		CHECK_EQ(sync_call(srv, &calls[N]), -EAGAIN);
		struct hako_ica_stat b = ica_stat_now();
		CHECK_EQ(b.direct + b.fallbacks, a.direct + a.fallbacks);
		CHECK(fleet_stop(fl, srv) > 0, "stop");
		for (int i = 0; i < N; i++)
			CHECK_EQ(ispc_collect(calls[i].ctl, calls, N, 0, NULL), -EPIPE);
	}
	for (int i = 0; i <= N; i++)
		CHECK_EQ(ispc_call_close(&calls[i]), 0);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/*
 * The server's only thread waits for the result of its own forward, not
 * in a receive: a relay R passes our asynchronous request to a server H
 * that holds it, then a one-threaded client calls R synchronously (the
 * dedicated call must not hand it to R's waiting thread; it stays queued).
 * H is killed: our request comes back -EPIPE, and R, free again, passes
 * the client's on to the dead H, which R answers -ESRCH.  The same both
 * ways, and no page lost.
 */
FP_BOTH(fastpath_server_awaiting_its_forward)
{
	uint64_t base = ica_free_pages();
	char hpid[16], rpid[16];
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 0), 0);
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		int h = fleet_role(fl, "fp_srv", regs_arg(), "0", "hold");
		CHECK(h > 0, "spawn %d", h);
		snprintf(hpid, sizeof hpid, "%d", h);
		int r = fleet_role(fl, "fp_relay", hpid);
		CHECK(r > 0, "spawn %d", r);
		snprintf(rpid, sizeof rpid, "%d", r);
		sleep_ms(SETTLE_MS);
		CHECK_EQ(ispc_send(r, &call, 0), call.ctl);
		sleep_ms(SETTLE_MS);                        /* R has passed it on and waits */
		int cli = spawn_role("fp_call1", regs_arg(), rpid, NULL);
		CHECK(cli > 0, "spawn %d", cli);
		CHECK_EQ(wait_requests(2, LISTEN_WAIT_MS), 2);
		CHECK_EQ(kill_after(h, 10), HAKO_STATUS_KILLED | HAKO_CAUSE_KILL);
		fleet_stop(fl, h);                          /* reaped already: just forget it */
		int status = -1;
		CHECK_EQ(waitpid(cli, &status), cli);
		CHECK_EQ(status, ESRCH);
		CHECK_EQ(ispc_collect(call.ctl, &call, 1, 0, NULL), -EPIPE);
		CHECK(fleet_stop(fl, r) > 0, "stop");
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}
