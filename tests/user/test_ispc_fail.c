/*
 * tests/user/test_ispc_fail.c — server communication when things go wrong
 * (paper 002): bad requests, a server that ends or is killed with
 * requests waiting and in service, a client that ends before its result,
 * and the queue limits.  Nothing may hang and no ICA page may be lost:
 * each test compares the region's free pages with where they started.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include "test.h"
#include <hako/thread.h>
#include <echo/proto.h>
#include "fleet.h"

#define LISTEN_WAIT_MS 3000
#define FOREVER_NS 1000000000000ull

static void sleep_forever(void)
{
	for (;;)
		sys_sleep(FOREVER_NS);
}

/* Listen and never take a request. */
UROLE(srv_listen_only)
{
	if (sys_ispc_listen(0) < 0)
		return 1;
	sleep_forever();
	return 0;
}

/* Listen, take N requests and keep them; then end ("exit", once TOTAL
 * requests are in flight) or wait to be killed ("stay"). */
UROLE(srv_hold)
{
	int n = atoi(argv[0]);
	struct hako_ispc_msg m;
	if (sys_ispc_listen(0) < 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (sys_ispc_receive(&m, 0) < 0)
			return 2;
	if (strcmp(argv[1], "exit") == 0) {
		wait_requests(atoi(argv[2]), LISTEN_WAIT_MS);
		return 0;
	}
	sleep_forever();
	return 0;
}

/* Listen, take one request, wait MS ms (the client ends meanwhile), reply. */
UROLE(srv_late_reply)
{
	struct hako_ispc_msg m;
	if (sys_ispc_listen(0) < 0 || sys_ispc_receive(&m, 0) < 0)
		return 1;
	sleep_ms((uint64_t)atoi(argv[0]));
	m.status = 0;
	return sys_ispc_reply(&m, 0) < 0 ? 2 : 0;
}

/* Make a request to PID with a data ICA: "exit" sends it asynchronously
 * and ends; "wait" waits for the result (and is killed meanwhile). */
UROLE(cli_request)
{
	int pid = atoi(argv[0]);
	struct ispc_call call;
	if (ispc_call_open(&call, 2) < 0 || ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0) < 0)
		return 1;
	if (send_when_listening(pid, &call, LISTEN_WAIT_MS) < 0)
		return 2;
	if (strcmp(argv[1], "wait") == 0)
		ispc_collect(call.ctl, &call, 1, 0, NULL);
	return 0;
}

/* Send COUNT asynchronous requests to PID: "eagain" expects the first to
 * be refused with -EAGAIN (exit 0 if so); otherwise all must go (then
 * wait to be killed; exit 1 + i if request i fails). */
UROLE(cli_flood)
{
	int pid = atoi(argv[0]), count = atoi(argv[1]);
	int eagain = argc > 2 && strcmp(argv[2], "eagain") == 0;
	for (int i = 0; i < count; i++) {
		struct ispc_call call;
		if (ispc_call_open(&call, 0) < 0 || ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0) < 0)
			return 100;
		long r = ispc_send(pid, &call, 0);
		if (eagain)
			return r == -EAGAIN ? 0 : 1;
		if (r < 0)
			return 1 + i;
	}
	sleep_forever();
	return 0;
}

/* Start role ROLE with ARGS as one of the fleet's (they are killed at the end). */
#define fleet_role(fl, ...) fleet_start(fl, "selftest", "--role", __VA_ARGS__, NULL)

static int open_calls(struct ispc_call *calls, int n, size_t data_pages)
{
	for (int i = 0; i < n; i++)
		if (ispc_call_open(&calls[i], data_pages) < 0 ||
		    ispc_call_op(&calls[i], ECHO_NULL, 0, 0, NULL, 0) < 0)
			return -1;
	return 0;
}

/* The ICAs are back with us (we can write them) and can be freed. */
static int close_calls(struct ispc_call *calls, int n)
{
	for (int i = 0; i < n; i++) {
		calls[i].c->magic = 0;
		if (calls[i].buf)
			((volatile char *)calls[i].buf)[calls[i].size - 1] = 1;
		if (ispc_call_close(&calls[i]) < 0)
			return -1;
	}
	return 0;
}

static void wait_sync(void *arg);

ISPC_TEST(ispc_request_errors)
{
	uint64_t base = ica_free_pages();
	struct ispc_call a, b;
	CHECK_EQ(open_calls(&a, 1, 1), 0);
	CHECK_EQ(open_calls(&b, 1, 0), 0);
	CHECK_EQ(ispc_send((int)sys_getpid(), &a, 0), -ESRCH);     /* we do not listen */
	CHECK_EQ(ispc_send(HAKO_ISPC_NAMESERVER_PID, &a, 0), -ESRCH);
	CHECK_EQ(ispc_send(100000, &a, 0), -ESRCH);
	int srv = fleet_role(fl, "srv_listen_only");
	CHECK(srv > 0, "spawn %d", srv);
	CHECK_EQ(send_when_listening(srv, &b, LISTEN_WAIT_MS), b.ctl);   /* b is away now */
	struct hako_ispc_msg m = { .ctl = -1, .data = -1 };
	CHECK_EQ(sys_ispc_request(srv, &m, HAKO_ISPC_ASYNC), -EINVAL);
	m.ctl = 100000;
	CHECK_EQ(sys_ispc_request(srv, &m, HAKO_ISPC_ASYNC), -EINVAL);
	m = (struct hako_ispc_msg){ .ctl = a.ctl, .data = a.ctl };
	CHECK_EQ(sys_ispc_request(srv, &m, HAKO_ISPC_ASYNC), -EINVAL);
	m = (struct hako_ispc_msg){ .ctl = a.ctl, .data = 100000 };
	CHECK_EQ(sys_ispc_request(srv, &m, HAKO_ISPC_ASYNC), -EINVAL);
	m = (struct hako_ispc_msg){ .ctl = b.ctl, .data = -1 };          /* away: not held by us */
	CHECK_EQ(sys_ispc_request(srv, &m, HAKO_ISPC_ASYNC), -EPERM);
	m = (struct hako_ispc_msg){ .ctl = a.ctl, .data = b.ctl };       /* in a request already */
	CHECK_EQ(sys_ispc_request(srv, &m, HAKO_ISPC_ASYNC), -EBUSY);
	CHECK_EQ(sys_ispc_request(srv, &m, 0x100), -EINVAL);            /* unknown flag */
	CHECK_EQ(sys_ispc_request(srv, NULL, HAKO_ISPC_ASYNC), -EFAULT);
	CHECK_EQ(sys_ispc_request(srv, (void *)0xffff800000000000ull, HAKO_ISPC_ASYNC), -EFAULT);
	/* readable but not writable (program text): refused before anything is sent */
	CHECK_EQ(sys_ispc_request(srv, (void *)(uintptr_t)wait_sync, HAKO_ISPC_ASYNC), -EFAULT);
	CHECK_EQ(sys_ispc_receive((void *)(uintptr_t)wait_sync, HAKO_ISPC_NONBLOCK), -EFAULT);
	CHECK_EQ(sys_ica_peel(a.ctl), 0);                                 /* not pasted in us */
	CHECK_EQ(ispc_send(srv, &a, 0), -EPERM);
	CHECK_EQ(sys_ica_paste(a.ctl), (long)a.c);
	CHECK(sys_ica_free(b.ctl) < 0, "freed an ICA that is in a request");
	m = (struct hako_ispc_msg){ .ctl = a.ctl, .data = -1 };
	CHECK_EQ(sys_ispc_reply(&m, 0), -EINVAL);                        /* not a request we serve */
	CHECK(sys_ispc_receive(&m, HAKO_ISPC_NONBLOCK) < 0, "receive without listening");
	CHECK_EQ(sys_ispc_result(a.ctl, &m, HAKO_ISPC_NONBLOCK), -ESRCH);    /* not awaited */
	CHECK_EQ(sys_ispc_result(b.ctl, &m, HAKO_ISPC_NONBLOCK), -EAGAIN);   /* not answered yet */
	CHECK(fleet_stop(fl, srv) > 0, "stop");
	CHECK_EQ(ispc_collect(b.ctl, &b, 1, 0, NULL), -EPIPE);
	CHECK_EQ(close_calls(&a, 1) | close_calls(&b, 1), 0);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

struct sync_waiter {
	int pid;
	struct ispc_call *call;
	long status;
};

static void wait_sync(void *arg)
{
	struct sync_waiter *w = arg;
	w->status = ispc_call(w->pid, w->call, 0);
}

/*
 * Three asynchronous requests and one synchronous one (from a thread)
 * to a server that takes two and then ends by HOW ("exit" or "kill"):
 * all four come back with -EPIPE, ICAs and all.
 */
static int pending_requests_fail(struct fleet *fl, const char *how)
{
	uint64_t base = ica_free_pages();
	int killed = strcmp(how, "kill") == 0;
	int srv = fleet_role(fl, "srv_hold", "2", killed ? "stay" : "exit", "4");
	CHECK(srv > 0, "spawn %d", srv);
	struct ispc_call calls[4];
	CHECK_EQ(open_calls(calls, 4, 1), 0);
	CHECK_EQ(send_when_listening(srv, &calls[0], LISTEN_WAIT_MS), calls[0].ctl);
	for (int i = 1; i < 3; i++)
		CHECK_EQ(ispc_send(srv, &calls[i], 0), calls[i].ctl);
	struct sync_waiter w = { srv, &calls[3], 1 };
	int tid = thread_start(wait_sync, &w);
	CHECK(tid > 0, "thread %d", tid);
	int status = -1;
	if (killed) {
		CHECK_EQ(wait_requests(4, LISTEN_WAIT_MS), 4);
		status = kill_after(srv, 10);
	} else {
		waitpid(srv, &status);
	}
	fleet_stop(fl, srv);                        /* reaped already: just forget it */
	CHECK_EQ(status, killed ? HAKO_STATUS_KILLED | HAKO_CAUSE_KILL : 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(ispc_collect(calls[i].ctl, calls, 3, 0, NULL), -EPIPE);
	CHECK_EQ(thread_join(tid), 0);
	CHECK_EQ(w.status, -EPIPE);
	CHECK_EQ(ispc_send(srv, &calls[0], 0), -ESRCH);            /* gone for good */
	CHECK_EQ(close_calls(calls, 4), 0);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

ISPC_TEST(server_exit_fails_pending_requests) { return pending_requests_fail(fl, "exit"); }
ISPC_TEST(server_killed_fails_pending_requests) { return pending_requests_fail(fl, "kill"); }

/* The client has ended when the server replies: its ICAs are freed. */
ISPC_TEST(result_for_dead_client_frees_icas)
{
	uint64_t base = ica_free_pages();
	char pid[16];
	for (int round = 0; round < 2; round++) {
		int srv = fleet_role(fl, "srv_late_reply", "100");
		CHECK(srv > 0, "spawn %d", srv);
		snprintf(pid, sizeof pid, "%d", srv);
		if (round == 0) {
			CHECK_EQ(run_role("cli_request", pid, "exit", NULL), 0);
		} else {
			int cli = spawn_role("cli_request", pid, "wait", NULL);
			CHECK(cli > 0, "spawn %d", cli);
			CHECK_EQ(kill_after(cli, 30), HAKO_STATUS_KILLED | HAKO_CAUSE_KILL);
		}
		int status = -1;
		CHECK_EQ(waitpid(srv, &status), srv);
		fleet_stop(fl, srv);
		CHECK_EQ(status, 0);                        /* the reply itself succeeded */
		CHECK_EQ(ica_free_pages(), base);
	}
	return 0;
}

ISPC_TEST(queue_limits_eagain)
{
	uint64_t base = ica_free_pages();
	int srv = fleet_role(fl, "srv_listen_only");
	CHECK(srv > 0, "spawn %d", srv);
	struct ispc_call calls[HAKO_ISPC_OUTSTANDING_MAX + 1];
	int n = HAKO_ISPC_OUTSTANDING_MAX;
	CHECK_EQ(open_calls(calls, n + 1, 0), 0);
	CHECK_EQ(send_when_listening(srv, &calls[0], LISTEN_WAIT_MS), calls[0].ctl);
	for (int i = 1; i < n; i++)
		CHECK_EQ(ispc_send(srv, &calls[i], 0), calls[i].ctl);
	CHECK_EQ(ispc_send(srv, &calls[n], 0), -EAGAIN);            /* we await 32 */
	calls[n].c->magic = 0;                                       /* still ours */
	char pid[16], count[16];
	snprintf(pid, sizeof pid, "%d", srv);
	snprintf(count, sizeof count, "%d", HAKO_ISPC_QUEUE_MAX - n);
	CHECK(fleet_role(fl, "cli_flood", pid, count) > 0, "spawn flood");
	CHECK_EQ(wait_requests(HAKO_ISPC_QUEUE_MAX, LISTEN_WAIT_MS), HAKO_ISPC_QUEUE_MAX);
	CHECK_EQ(run_role("cli_flood", pid, "1", "eagain", NULL), 0);  /* the queue is full */
	CHECK(fleet_stop(fl, srv) > 0, "stop");
	for (int i = 0; i < n; i++)
		CHECK_EQ(ispc_collect(calls[i].ctl, calls, n, 0, NULL), -EPIPE);
	CHECK_EQ(close_calls(calls, n + 1), 0);
	fleet_stop_all(fl);
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}
