/*
 * kperf/drv_ispc.c — drivers of the ICA and server-communication calls
 * (paper 002), and the two helper roles they spawn: a server that answers
 * at once (`kperf --serve`), for request and result, and a client that
 * queues requests at kperf (`kperf --client`), for receive and reply.
 * All run on KPERF_CPU.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include "kperf.h"

static int server = -1;	/* a `kperf --serve`, kept for the run */

static void msg_init(struct hako_ispc_msg *m, int ctl)
{
	memset(m, 0, sizeof *m);
	m->ctl = ctl;
	m->data = -1;
}

/* SEM's id as an argument string. */
static char *sem_arg(char *buf, size_t size, long sem)
{
	snprintf(buf, size, "%ld", sem);
	return buf;
}

static int start_server(void)
{
	if (server > 0)
		return server;
	char s[16];
	long sem = sys_sem_create(0);
	if (sem < 0)
		return kperf_fail("sem_create", sem);
	char *argv[] = { "kperf", "--serve", sem_arg(s, sizeof s, sem), NULL };
	int pid = kperf_spawn(argv);
	long r = pid < 0 ? pid : sys_sem_wait((int)sem);
	sys_sem_destroy((int)sem);
	if (r < 0)
		return kperf_fail("spawn kperf --serve", r);
	return server = pid;
}

void kperf_ispc_done(void)
{
	if (server > 0) {
		sys_kill(server);
		waitpid(server, NULL);
		server = -1;
	}
}

int kperf_serve_main(int sem)
{
	struct hako_ispc_msg m;
	long r = sys_set_affinity(0, 1ull << KPERF_CPU);
	if (r < 0 || (r = sys_ispc_listen(0)) < 0 || (r = sys_sem_post(sem)) < 0)
		return kperf_fail("serve", r), 1;
	for (r = sys_ispc_receive(&m, 0); r >= 0; r = sys_ispc_reply(&m, HAKO_ISPC_WAIT))
		m.status = 0;
	return kperf_fail("serving", r), 1;
}

#define CLIENT_MAX 4

int kperf_client_main(int to, int n, int sem)
{
	struct hako_ispc_msg m[CLIENT_MAX];
	long r = sys_set_affinity(0, 1ull << KPERF_CPU);
	if (n < 1 || n > CLIENT_MAX || r < 0)
		return 1;
	for (int i = 0; i < n; i++) {
		uint64_t va;
		long id = sys_ica_alloc(1, &va);
		if (id < 0)
			return kperf_fail("client ica_alloc", id), 1;
		msg_init(&m[i], (int)id);
		if ((r = sys_ispc_request(to, &m[i], HAKO_ISPC_ASYNC)) < 0)
			return kperf_fail("client request", r), 1;
	}
	sys_sem_post(sem);
	for (int i = 0; i < n; i++) {
		int ctl = m[i].ctl;
		if ((r = sys_ispc_result(ctl, &m[i], 0)) < 0)
			return kperf_fail("client result", r), 1;
		sys_ica_free(ctl);
	}
	return 0;
}

/* Two ICAs of one page, pasted in the caller. */
static int two_icas(long id[2])
{
	uint64_t va;
	id[0] = sys_ica_alloc(1, &va);
	id[1] = id[0] < 0 ? id[0] : sys_ica_alloc(1, &va);
	if (id[1] < 0) {
		if (id[0] >= 0)
			sys_ica_free((int)id[0]);
		return kperf_fail("ica_alloc", id[1]);
	}
	return 0;
}

int kperf_drv_ica_alloc(struct kperf_run *run)
{
	uint64_t va;
	long a = -1;
	long b = KPERF_TIME(run, a = sys_ica_alloc(1, &va), sys_ica_alloc(1, &va));
	if (a >= 0)
		sys_ica_free((int)a);
	if (b >= 0)
		sys_ica_free((int)b);
	run->note = "one page";
	return a < 0 || b < 0 ? kperf_fail("ica_alloc", a < 0 ? a : b) : 0;
}

int kperf_drv_ica_free(struct kperf_run *run)
{
	long id[2];
	if (two_icas(id) < 0)
		return -1;
	long r = KPERF_TIME(run, sys_ica_free((int)id[0]), sys_ica_free((int)id[1]));
	run->note = "one page, pasted";
	return r < 0 ? kperf_fail("ica_free", r) : 0;
}

int kperf_drv_ica_paste(struct kperf_run *run)
{
	long id[2];
	if (two_icas(id) < 0)
		return -1;
	sys_ica_peel((int)id[0]);
	sys_ica_peel((int)id[1]);
	long r = KPERF_TIME(run, sys_ica_paste((int)id[0]), sys_ica_paste((int)id[1]));
	sys_ica_free((int)id[0]);
	sys_ica_free((int)id[1]);
	run->note = "one page, in the boot's mode";
	return r < 0 ? kperf_fail("ica_paste", r) : 0;
}

int kperf_drv_ica_peel(struct kperf_run *run)
{
	long id[2];
	if (two_icas(id) < 0)
		return -1;
	long r = KPERF_TIME(run, sys_ica_peel((int)id[0]), sys_ica_peel((int)id[1]));
	sys_ica_free((int)id[0]);
	sys_ica_free((int)id[1]);
	run->note = "one page, pasted";
	return r < 0 ? kperf_fail("ica_peel", r) : 0;
}

int kperf_drv_ica_stat(struct kperf_run *run)
{
	struct hako_ica_stat st;
	long r = KPERF_TIME(run, sys_ica_stat(&st), sys_ica_stat(&st));
	return r < 0 ? kperf_fail("ica_stat", r) : 0;
}

int kperf_drv_ispc_listen(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_ispc_listen(0), sys_ispc_listen(0));
	run->note = "already listening after the first";
	return r < 0 ? kperf_fail("ispc_listen", r) : 0;
}

int kperf_drv_ispc_request(struct kperf_run *run)
{
	struct hako_ispc_msg a, b;
	long id[2];
	if (start_server() < 0 || two_icas(id) < 0)
		return -1;
	msg_init(&a, (int)id[0]);
	msg_init(&b, (int)id[1]);
	long r = KPERF_TIME(run, sys_ispc_request(server, &a, 0), sys_ispc_request(server, &b, 0));
	sys_ica_free((int)id[0]);
	sys_ica_free((int)id[1]);
	run->note = "synchronous round trip to a server on the same CPU that answers at once";
	return r < 0 ? kperf_fail("ispc_request", r) : 0;
}

/* The same round trip with the fastpath on (kernel/ipc/ispc_fastpath.c);
 * the switch is put back as found. */
int kperf_drv_ispc_request_fastpath(struct kperf_run *run)
{
	struct hako_ispc_msg a, b;
	long id[2];
	if (start_server() < 0 || two_icas(id) < 0)
		return -1;
	long was = sys_ispc_mode(HAKO_ISPC_FASTPATH_ON), r = was;
	if (was >= 0) {
		msg_init(&a, (int)id[0]);
		msg_init(&b, (int)id[1]);
		r = KPERF_TIME_AT(run, REGION_KPERF_FASTPATH, sys_ispc_request(server, &a, 0),
				  sys_ispc_request(server, &b, 0));
		sys_ispc_mode((int)was);
	}
	sys_ica_free((int)id[0]);
	sys_ica_free((int)id[1]);
	run->note = "ispc_request's round trip with the fastpath on: switched directly to the server "
		    "(not windowed: its result comes back the general way)";
	return r < 0 ? kperf_fail("ispc_request, fastpath on", r) : 0;
}

int kperf_drv_ispc_result(struct kperf_run *run)
{
	struct hako_ispc_msg a, b;
	long id[2], r;
	if (start_server() < 0 || two_icas(id) < 0)
		return -1;
	msg_init(&a, (int)id[0]);
	msg_init(&b, (int)id[1]);
	if ((r = sys_ispc_request(server, &a, HAKO_ISPC_ASYNC)) < 0 ||
	    (r = sys_ispc_request(server, &b, HAKO_ISPC_ASYNC)) < 0)
		return kperf_fail("ispc_request async", r);
	r = KPERF_TIME(run, sys_ispc_result((int)id[0], &a, 0), sys_ispc_result((int)id[1], &b, 0));
	sys_ica_free((int)id[0]);
	sys_ica_free((int)id[1]);
	run->note = "the second of two asynchronous requests, answered while the first was awaited";
	return r < 0 ? kperf_fail("ispc_result", r) : 0;
}

/* KPERF_NOT_TIMED where the arch has no registers for a message (SH-4:
 * ispc_call and ispc_reply_recv return -ENOSYS), else 0. */
static int no_words(struct kperf_run *run)
{
	struct hako_words w;
	if (sys_ispc_reply_recv(-1, 0, HAKO_ISPC_NONBLOCK, &w) != -ENOSYS)
		return 0;
	run->why = "no registers for the message on this arch (-ENOSYS)";
	return KPERF_NOT_TIMED;
}

/* ispc_call's round trip to the server, as booted or (FASTPATH) with the
 * fastpath on, in the row's own region, the switch put back as found: 0,
 * KPERF_NOT_TIMED, or the error. */
static long ispc_call_round_trip(struct kperf_run *run, int fastpath)
{
	struct hako_words w;
	long id[2];
	if (no_words(run))
		return KPERF_NOT_TIMED;
	if (start_server() < 0 || two_icas(id) < 0)
		return -1;
	long was = fastpath ? sys_ispc_mode(HAKO_ISPC_FASTPATH_ON) : 0, r = was;
	if (was >= 0) {
		if (fastpath)
			r = KPERF_TIME_AT(run, REGION_KPERF_FASTPATH + 2, sys_ispc_call(server, (int)id[0], -1, 0, &w),
					  sys_ispc_call(server, (int)id[1], -1, 0, &w));
		else
			r = KPERF_TIME(run, sys_ispc_call(server, (int)id[0], -1, 0, &w),
				       sys_ispc_call(server, (int)id[1], -1, 0, &w));
		if (r >= 0 && hako_ispc_word_status(w.w) < 0)
			r = hako_ispc_word_status(w.w);
		if (fastpath)
			sys_ispc_mode((int)was);
	}
	sys_ica_free((int)id[0]);
	sys_ica_free((int)id[1]);
	return r < 0 ? r : 0;
}

/* ispc_call: the same round trip as ispc_request's, the message in registers. */
int kperf_drv_ispc_call(struct kperf_run *run)
{
	long r = ispc_call_round_trip(run, 0);
	run->note = "synchronous round trip, the message in registers, to a server on the same CPU "
		    "that answers at once";
	return r < 0 ? kperf_fail("ispc_call", r) : (int)r;
}

int kperf_drv_ispc_call_fastpath(struct kperf_run *run)
{
	long r = ispc_call_round_trip(run, 1);
	run->note = "ispc_call's round trip with the fastpath on: switched directly to the server "
		    "(not windowed: its result comes back the general way)";
	return r < 0 ? kperf_fail("ispc_call, fastpath on", r) : (int)r;
}

/* A `kperf --client` that has queued N requests at us; its pid. */
static int queued_requests(int n)
{
	char p[16], s[16];
	long r = sys_ispc_listen(0);
	long sem = r < 0 ? r : sys_sem_create(0);
	if (sem < 0)
		return kperf_fail("listen", sem);
	snprintf(p, sizeof p, "%ld", sys_getpid());
	char c[4];
	snprintf(c, sizeof c, "%d", n);
	char *argv[] = { "kperf", "--client", p, c, sem_arg(s, sizeof s, sem), NULL };
	int pid = kperf_spawn(argv);
	r = pid < 0 ? pid : sys_sem_wait((int)sem);
	sys_sem_destroy((int)sem);
	return r < 0 ? kperf_fail("spawn kperf --client", r) : pid;
}

int kperf_drv_ispc_receive(struct kperf_run *run)
{
	struct hako_ispc_msg a, b;
	int pid = queued_requests(2);
	if (pid < 0)
		return -1;
	long r = KPERF_TIME(run, sys_ispc_receive(&a, HAKO_ISPC_NONBLOCK),
			    sys_ispc_receive(&b, HAKO_ISPC_NONBLOCK));
	a.status = b.status = 0;
	sys_ispc_reply(&a, 0);
	sys_ispc_reply(&b, 0);
	waitpid(pid, NULL);
	run->note = "a request already queued";
	return r < 0 ? kperf_fail("ispc_receive", r) : 0;
}

int kperf_drv_ispc_reply(struct kperf_run *run)
{
	struct hako_ispc_msg a, b;
	int pid = queued_requests(2);
	if (pid < 0)
		return -1;
	long r = sys_ispc_receive(&a, 0);
	if (r < 0 || (r = sys_ispc_receive(&b, 0)) < 0)
		return kperf_fail("ispc_receive", r);
	a.status = b.status = 0;
	r = KPERF_TIME(run, sys_ispc_reply(&a, 0), sys_ispc_reply(&b, 0));
	waitpid(pid, NULL);
	run->note = "without waiting for the next request";
	return r < 0 ? kperf_fail("ispc_reply", r) : 0;
}

/* Four requests queued: two taken, then each reply_recv answers one and
 * takes the next, without waiting. */
int kperf_drv_ispc_reply_recv(struct kperf_run *run)
{
	struct hako_ispc_msg a, b;
	struct hako_words w;
	if (no_words(run))
		return KPERF_NOT_TIMED;
	int pid = queued_requests(4);
	if (pid < 0)
		return -1;
	long r = sys_ispc_receive(&a, 0), c = -1, d = -1;
	if (r < 0 || (r = sys_ispc_receive(&b, 0)) < 0)
		return kperf_fail("ispc_receive", r);
	r = KPERF_TIME(run, c = sys_ispc_reply_recv(a.ctl, 0, HAKO_ISPC_NONBLOCK, &w),
		       d = sys_ispc_reply_recv(b.ctl, 0, HAKO_ISPC_NONBLOCK, &w));
	if (c >= 0)
		sys_ispc_reply_recv((int)c, 0, HAKO_ISPC_NONBLOCK, &w);   /* -EAGAIN: none left */
	if (d >= 0)
		sys_ispc_reply_recv((int)d, 0, HAKO_ISPC_NONBLOCK, &w);
	waitpid(pid, NULL);
	run->note = "reply, then a request already queued";
	return r < 0 ? kperf_fail("ispc_reply_recv", r) : 0;
}

int kperf_drv_ispc_mode(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_ispc_mode(HAKO_ISPC_QUERY), sys_ispc_mode(HAKO_ISPC_QUERY));
	run->note = "query (switching needs no ICA in the system)";
	return r < 0 ? kperf_fail("ispc_mode", r) : 0;
}
