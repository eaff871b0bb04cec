/*
 * tests/user/test_ispc_call.c — the server calls with the message in
 * registers (kernel/ipc/ispc_call.c): ispc_call and ispc_reply_recv, with
 * the fastpath off and on, the outcomes the same both ways.  Here: the
 * words that come back, a server that answers with ispc_reply_recv (to
 * clients of ispc_call and of ispc_request) beside one that answers with
 * ispc_reply, on this CPU (direct switches) and on another (fallbacks),
 * a forward of a direct request (passed on, as by ispc_request), and
 * every argument the calls refuse.  The calls take no pointer: the
 * message never crosses user memory, so there is no -EFAULT to give, and
 * garbage in the argument registers they do not read changes nothing.
 * Every fallback case of the fastpath runs with ispc_call as well, as
 * the tests NAME_by_ispc_call of test_ispc_fastpath.c.  No ICA page may
 * be lost.  The fastpath switch is put back as found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include "test.h"
#include <echo/proto.h>
#include "fleet.h"

#define CALLS 20
#define LISTEN_WAIT_MS 3000

#define CALL_TEST(tname) FP_TEST_NEEDS(tname, needs_words)

#define fleet_role(fl, ...) fleet_start(fl, "selftest", "--role", __VA_ARGS__, NULL)

/* ECHO_NULL by ispc_call to PID, retried while PID does not listen yet (-ESRCH). */
static long call_when_listening(int pid, struct ispc_call *call)
{
	struct hako_words w;
	long r = ispc_call_op(call, ECHO_NULL, 0, 0, NULL, 0);
	if (r < 0)
		return r;
	r = call_words(pid, call, &w);
	for (unsigned waited = 0; r == -ESRCH && waited < LISTEN_WAIT_MS; waited++) {
		sleep_ms(1);
		r = call_words(pid, call, &w);
	}
	return r;
}

/* The status echo's ops give, computed by a server of ours. */
static int32_t answer(const struct hako_ispc_msg *m)
{
	struct ispc_frame *f = ispc_top((struct ispc_ctl *)m->ctl_va);
	if (!f)
		return -EINVAL;
	return f->op == ECHO_VALUE ? (int32_t)f->arg[0] : f->op == ECHO_NULL ? 0 : -ENOSYS;
}

/* A server on CPU argv[0] that receives and replies with
 * ispc_reply_recv, answering ECHO_NULL and ECHO_VALUE, for ever. */
UROLE(rr_srv)
{
	struct hako_words w;
	struct hako_ispc_msg m;
	if (sys_set_affinity(0, 1ull << atoi(argv[0])) < 0 || sys_ispc_listen(0) < 0)
		return 1;
	long tag = sys_ispc_reply_recv(-1, 0, 0, &w);
	if (tag < 0)
		return 2;
	hako_ispc_unpack(tag, w.w, &m);
	for (;;) {
		tag = sys_ispc_reply_recv((int)tag, answer(&m), 0, &w);
		if (tag < 0)
			return 4;
		hako_ispc_unpack(tag, w.w, &m);
	}
}

/* CALLS ispc_calls of ECHO_VALUE to PID, words checked: 0, or the first
 * wrong one's number. */
static int value_calls(int pid, struct ispc_call *call)
{
	int me = (int)sys_getpid();
	for (int i = 0; i < CALLS; i++) {
		struct hako_words w;
		struct hako_ispc_msg m;
		if (ispc_call_op(call, ECHO_VALUE, 1000 + i, 0, NULL, 0) < 0 ||
		    call_words(pid, call, &w) != 1000 + i)
			return 1 + i;
		hako_ispc_unpack(call->ctl, w.w, &m);
		if (m.ctl_va != (uint64_t)call->c || m.data != call->data || m.client != me ||
		    m.from != pid || m.depth != 0 || m.flags != 0 || m.data_bytes != 0 ||
		    m.data_pages != (call->data >= 0 ? 1 : 0) ||
		    m.data_va != (call->data >= 0 ? (uint64_t)call->buf : 0))
			return 1 + i;
	}
	return 0;
}

/* The same requests by ispc_request (the library's ispc_call): the
 * message in memory, answered by a server of ispc_reply_recv. */
static int request_calls(int pid, struct ispc_call *call)
{
	for (int i = 0; i < CALLS; i++)
		if (ispc_call_op(call, ECHO_VALUE, 2000 + i, 0, NULL, 0) < 0 ||
		    ispc_call(pid, call, 0) != 2000 + i)
			return 1 + i;
	return 0;
}

/*
 * Our server (ispc_reply_recv) and echo (ispc_reply) on CPU SRV_CPU, we
 * on CPU 0, a control ICA with DATA_PAGES of data: the same results both
 * ways; DIRECT: the fastpath switches directly (else it falls back).
 */
static int calls_both_paths(struct fleet *fl, const char *srv_cpu, int direct, int data_pages)
{
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int srv[2];
	srv[0] = fleet_role(fl, "rr_srv", srv_cpu);
	srv[1] = fleet_server(fl, "echo", "echo", "--cpu", srv_cpu, NULL);
	CHECK(srv[0] > 0 && srv[1] > 0, "servers %d %d", srv[0], srv[1]);
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, (size_t)data_pages), 0);
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		for (int s = 0; s < 2; s++) {
			CHECK_EQ(call_when_listening(srv[s], &call), 0);   /* it waits in its receive now */
			struct hako_ica_stat a = ica_stat_now();
			CHECK_EQ(value_calls(srv[s], &call), 0);
			struct hako_ica_stat b = ica_stat_now();
			if (!on)
				CHECK_EQ(b.direct + b.fallbacks, a.direct + a.fallbacks);   /* never tried */
			else if (direct)
				CHECK(b.direct - a.direct >= CALLS, "direct %lu", (unsigned long)(b.direct - a.direct));
			else {
				CHECK_EQ(b.direct, a.direct);
				CHECK(b.fallbacks - a.fallbacks >= CALLS, "fallbacks %lu",
				      (unsigned long)(b.fallbacks - a.fallbacks));
			}
		}
		CHECK_EQ(request_calls(srv[0], &call), 0);
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK(fleet_stop(fl, srv[1]) > 0 && fleet_stop(fl, srv[0]) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

CALL_TEST(ispc_call_same_results_both_paths) { return calls_both_paths(fl, "0", 1, 0); }
CALL_TEST(ispc_call_with_data_same_results_both_paths) { return calls_both_paths(fl, "0", 1, 1); }
FP_TEST_NEEDS(ispc_call_server_on_other_cpu_falls_back, needs_words_two_cpus)
{
	return calls_both_paths(fl, "1", 0, 0);
}

/* A server on CPU argv[0] of ispc_reply_recv, as rr_srv, that answers
 * each request with the registers the C ABI keeps which its previous
 * ispc_reply_recv did not bring back (regs_kept_across_syscall: 0 if all
 * came back). */
UROLE(rr_regs_srv)
{
	long a[4] = { -1, 0, 0, 0 }, out[7];
	if (sys_set_affinity(0, 1ull << atoi(argv[0])) < 0 || sys_ispc_listen(0) < 0)
		return 1;
	for (;;) {
		long lost = regs_kept_across_syscall(SYS_ispc_reply_recv, a, out);
		if (out[0] < 0)
			return 2;
		a[0] = out[0];               /* the request's tag */
		a[1] = lost;                 /* its status */
	}
}

/* Those registers come back from ispc_call and from ispc_reply_recv, on
 * both sides, whichever way the call goes: the general path, or (fast
 * mode) the dedicated paths, where the thread whose call the other side
 * ends goes straight back to user mode (sched_switch_direct_user). */
CALL_TEST(ispc_call_keeps_callee_saved_registers)
{
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int srv = fleet_role(fl, "rr_regs_srv", "0");
	CHECK(srv > 0, "spawn %d", srv);
	struct ispc_call call;
	CHECK_EQ(ispc_call_open(&call, 0), 0);
	CHECK_EQ(call_when_listening(srv, &call), 0);   /* it waits in its receive now */
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		for (int i = 0; i < CALLS; i++) {
			long a[4] = { srv, call.ctl, call.data, 0 }, out[7];
			uint64_t w[HAKO_WORDS];
			CHECK_EQ(regs_kept_across_syscall(SYS_ispc_call, a, out), 0);
			CHECK_EQ(out[0], call.ctl);
			for (int k = 0; k < HAKO_WORDS; k++)
				w[k] = (uint64_t)out[1 + k];
			CHECK_EQ(hako_ispc_word_status(w), 0);   /* the server's, likewise */
			CHECK_EQ(hako_ispc_word_ctl_va(w), (uint64_t)call.c);
		}
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK(fleet_stop(fl, srv) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/* One request with HAKO_ISPC_DIRECT, by ispc_request, to pid argv[0]
 * (retried while it does not listen); exit code: its status, or 100. */
UROLE(direct_cli)
{
	struct ispc_call call;
	if (ispc_call_open(&call, 0) < 0 || ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0) < 0)
		return 100;
	long r = ispc_call(atoi(argv[0]), &call, HAKO_ISPC_DIRECT);
	for (unsigned waited = 0; r == -ESRCH && waited < LISTEN_WAIT_MS; waited++) {
		sleep_ms(1);
		r = ispc_call(atoi(argv[0]), &call, HAKO_ISPC_DIRECT);
	}
	return r < 0 ? 100 : (int)r;
}

/* ispc_call passes on a direct request we serve, as ispc_request does:
 * HAKO_ISPC_PASSED, and the result goes straight to the client. */
CALL_TEST(ispc_call_forward_of_direct_request_passed_on)
{
	uint64_t base = ica_free_pages();
	char me[16];
	int srv = fleet_role(fl, "rr_srv", "0");
	CHECK(srv > 0, "spawn %d", srv);
	CHECK_EQ(sys_ispc_listen(0), 0);
	for (int on = 0; on < 2; on++) {
		struct hako_words w;
		struct hako_ispc_msg m;
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		snprintf(me, sizeof me, "%ld", sys_getpid());
		int cli = spawn_role("direct_cli", me, NULL);
		CHECK(cli > 0, "spawn %d", cli);
		long tag = sys_ispc_reply_recv(-1, 0, 0, &w);
		CHECK(tag >= 0, "receive %ld", tag);
		hako_ispc_unpack(tag, w.w, &m);
		CHECK_EQ(m.flags, HAKO_ISPC_DIRECT);
		long r = sys_ispc_call(srv, (int)tag, m.data, 0, &w);
		for (unsigned waited = 0; r == -ESRCH && waited < LISTEN_WAIT_MS; waited++) {
			sleep_ms(1);             /* rr_srv not listening yet */
			r = sys_ispc_call(srv, (int)tag, m.data, 0, &w);
		}
		CHECK_EQ(r, HAKO_ISPC_PASSED);
		CHECK_EQ(sys_ispc_reply_recv((int)tag, 9, HAKO_ISPC_NONBLOCK, &w), -EINVAL);   /* not ours now */
		int status = -1;
		CHECK_EQ(waitpid(cli, &status), cli);
		CHECK_EQ(status, 0);                        /* rr_srv's answer to ECHO_NULL */
	}
	CHECK(fleet_stop(fl, srv) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}

/* What both calls refuse, the same both ways, before anything is done. */
CALL_TEST(ispc_call_bad_arguments_refused)
{
	uint64_t base = ica_free_pages();
	CHECK_EQ(sys_set_affinity(0, 1), 0);
	int srv = fleet_role(fl, "rr_srv", "0");
	CHECK(srv > 0, "spawn %d", srv);
	struct ispc_call call, other;
	CHECK_EQ(ispc_call_open(&call, 1), 0);
	CHECK_EQ(ispc_call_open(&other, 0), 0);
	CHECK_EQ(call_when_listening(srv, &call), 0);
	CHECK_EQ(sys_ica_peel(other.ctl), 0);
	struct hako_words w;
	for (int on = 0; on < 2; on++) {
		CHECK_EQ(fastpath_set(on), on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
		CHECK_EQ(ispc_call_op(&call, ECHO_VALUE, 5, 0, NULL, 0), 0);
		CHECK_EQ(sys_ispc_call(srv, call.ctl, call.data, HAKO_ISPC_ASYNC, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, call.ctl, call.data, HAKO_ISPC_COPY, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, call.ctl, call.data, HAKO_ISPC_WAIT, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, -1, -1, 0, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, 0x7fffffff, -1, 0, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, call.ctl, 0x7fffffff, 0, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, call.ctl, -2, 0, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, call.ctl, call.ctl, 0, &w), -EINVAL);
		CHECK_EQ(sys_ispc_call(srv, other.ctl, -1, 0, &w), -EPERM);      /* parked: not held */
		CHECK_EQ(sys_ispc_call(srv, call.ctl, other.ctl, 0, &w), -EPERM);
		/* Ourselves: not listening (-ESRCH), then listening (-EINVAL). */
		CHECK_EQ(sys_ispc_call((int)sys_getpid(), call.ctl, -1, 0, &w), on ? -EINVAL : -ESRCH);
		/* Not a listener, then a listener that serves nothing. */
		CHECK_EQ(sys_ispc_reply_recv(-1, 0, HAKO_ISPC_NONBLOCK, &w), on ? -EAGAIN : -EINVAL);
		if (!on)
			CHECK_EQ(sys_ispc_listen(0), 0);
		CHECK_EQ(sys_ispc_reply_recv(call.ctl, 0, HAKO_ISPC_NONBLOCK, &w), -EINVAL);
		CHECK_EQ(sys_ispc_reply_recv(-1, 0, HAKO_ISPC_WAIT, &w), -EINVAL);
		CHECK_EQ(sys_ispc_reply_recv(-1, 0, HAKO_ISPC_NONBLOCK, &w), -EAGAIN);
		/* Garbage in the registers neither call reads. */
		CHECK_EQ(sys_raw(SYS_ispc_call, srv, call.ctl, call.data, 0, 0xdead0000, 0xbeef0000), call.ctl);
		CHECK_EQ(sys_raw(SYS_ispc_reply_recv, -1, 0, HAKO_ISPC_NONBLOCK, 0xdead0000, 1, 2), -EAGAIN);
	}
	CHECK_EQ(ispc_call_close(&call), 0);
	CHECK_EQ(sys_ica_paste(other.ctl) > 0, 1);
	CHECK_EQ(ispc_call_close(&other), 0);
	CHECK(fleet_stop(fl, srv) > 0, "stop");
	CHECK_EQ(ica_free_pages(), base);
	return 0;
}
