/*
 * ispcbench/roles.c — the helper processes: a server that notes when a
 * request arrives and answers at once (synchronous return, or timing an
 * asynchronous one, or the receive of a request already queued, or its
 * own paste, peel and first access), or a relay that passes each request
 * on to the next server, stacking a word of its own on the control ICA
 * first.
 *
 *   ispcbench --serve SEM 0 FAST     serve; post SEM once listening
 *   ispcbench --serve SEM NEXT FAST  relay to pid NEXT
 *
 * FAST is the client's mode (1 fast, 0 baseline), for the names and
 * regions of the server's figures.  Between two OP_MARK requests (basic.c)
 * the server ends the synchronous request's region as soon as a request
 * arrives, before it touches the control ICA, and begins the return's
 * just before it answers an OP_STAMP.  An OP_CALL is answered with
 * ispc_reply_recv, and so is every OP_CALL that follows it (the message
 * in registers), until another op comes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "ispcbench.h"

#define SERVER_SAMPLES 4096

static struct samples async_replies, queued_receives;
static int mark_oneway;                  /* OP_MARK: the one-way regions are marked */

/* 1 if the request carries a data ICA: the region slot's offset. */
static int with_data(const struct hako_ispc_msg *m)
{
	return m->data >= 0;
}

/* Answer m without waiting for the next request; time the reply. */
static long reply_async(struct hako_ispc_msg *m)
{
	int k = with_data(m);
	m->status = 0;
	ispc_region_begin(REGION_ISPC_SERVER_REPLY, k);
	uint64_t t0 = tsc_now();
	long r = sys_ispc_reply(m, 0);
	uint64_t t1 = tsc_now();
	ispc_region_end(REGION_ISPC_SERVER_REPLY, k);
	samples_add(&async_replies, t1 - t0);
	return r < 0 ? r : sys_ispc_receive(m, 0);
}

/*
 * OP_QUEUED_FIRST: the client sent two requests before it waited, so the
 * second is queued here.  Answer the first without waiting, then time
 * the receive of the second: the system call, taking it off the queue
 * and pasting its ICAs into this server, with no switch.
 */
static long receive_queued(struct hako_ispc_msg *m)
{
	int k = with_data(m);
	m->status = 0;
	long r = sys_ispc_reply(m, 0);
	if (r < 0)
		return r;
	ispc_region_begin(REGION_ISPC_SERVER_RECEIVE, k);
	uint64_t t0 = tsc_now();
	r = sys_ispc_receive(m, HAKO_ISPC_NONBLOCK);
	uint64_t t1 = tsc_now();
	ispc_region_end(REGION_ISPC_SERVER_RECEIVE, k);
	samples_add(&queued_receives, t1 - t0);
	return r;                        /* -EAGAIN: the client did not queue two */
}

static void report(const struct stamp *st, int k)
{
	if (st->report == REPORT_REPLY) {
		ispc_report(st->name, &async_replies,
			    "per ispc_reply without waiting (server side)",
			    ispc_region(REGION_ISPC_SERVER_REPLY + k), async_replies.n);
		async_replies.n = 0;
	} else {
		ispc_report(st->name, &queued_receives,
			    "per ispc_receive of a queued request (server side)",
			    ispc_region(REGION_ISPC_SERVER_RECEIVE + k), queued_receives.n);
		queued_receives.n = 0;
	}
}

/*
 * OP_PINGPONG (switch.c): answer without waiting, then switch back and
 * forth once more with the client through its two semaphores, and wait
 * for the next request.
 */
static long pingpong(struct hako_ispc_msg *m, const struct stamp *st)
{
	int a = (int)st->sem_a, b = (int)st->sem_b;  /* read while the ICA is ours */
	m->status = 0;
	long r = sys_ispc_reply(m, 0);
	if (r >= 0)
		r = sys_sem_wait(a);
	if (r >= 0)
		r = sys_sem_post(b);
	return r < 0 ? r : sys_ispc_receive(m, 0);
}

/* OP_CALLs, the message in registers: stamp, answer with ispc_reply_recv,
 * and so on while OP_CALLs come; the first other request goes into *m
 * for the caller's loop (0), or the error. */
static __attribute__((noinline)) long serve_calls(struct hako_ispc_msg *m, struct stamp *st)
{
	struct hako_words w;
	long tag = m->ctl;
	for (;;) {
		st->t_replied = tsc_now();
		tag = sys_ispc_reply_recv((int)tag, 0, 0, &w);
		uint64_t arrived = tsc_now();
		if (tag < 0)
			return tag;
		st = (struct stamp *)hako_ispc_word_ctl_va(w.w);
		st->t_received = arrived;
		if (st->op != OP_CALL)
			break;
		for (uint32_t i = 0; i < st->touch && (int32_t)i < (int32_t)w.w[5]; i++)
			(void)*(volatile uint32_t *)(w.w[1] + (uint64_t)i * 4096);
	}
	hako_ispc_unpack(tag, w.w, m);
	return 0;
}

/* The requests that are not OP_STAMP: OP_CALL, and the server's own figures. */
static long serve_other(struct hako_ispc_msg *m, struct stamp *st)
{
	if (st->op == OP_CALL)
		return serve_calls(m, st);
	set_mode_fast((int)st->fast);
	if (st->op == OP_ASYNC_RETURN)
		return reply_async(m);
	if (st->op == OP_QUEUED_FIRST)
		return receive_queued(m);
	if (st->op == OP_PINGPONG)
		return pingpong(m, st);
	m->status = 0;
	if (st->op == OP_MARK)
		mark_oneway = st->oneway != 0;
	if (st->op == OP_REPORT)
		report(st, with_data(m));
	if (st->op == OP_SERVER_PARTIAL)
		m->status = partial_ica(1);
	return sys_ispc_reply(m, HAKO_ISPC_WAIT);
}

/* One request as the end server: stamp, maybe touch the data, answer.
 * OP_STAMP, the one timed from outside, takes the shortest way. */
static long serve_one(struct hako_ispc_msg *m, uint64_t arrived)
{
	struct stamp *st = (struct stamp *)m->ctl_va;
	st->t_received = arrived;
	for (uint32_t i = 0; i < st->touch && (int32_t)i < m->data_pages; i++)
		(void)*(volatile uint32_t *)(m->data_va + (uint64_t)i * 4096);
	if (st->op != OP_STAMP)
		return serve_other(m, st);
	m->status = 0;
	if (mark_oneway)
		ispc_region_begin(REGION_ISPC_SYNC_RETURN, with_data(m));
	st->t_replied = tsc_now();
	return sys_ispc_reply(m, HAKO_ISPC_WAIT);
}

static int my_pid;

/* One request as a relay: stack our word, pass it on, answer what came back. */
static long relay_one(struct hako_ispc_msg *m, int next)
{
	((volatile uint64_t *)m->ctl_va)[256 + m->depth] = (uint64_t)my_pid;
	long r = sys_ispc_request(next, m, HAKO_ISPC_WAIT);
	if (r == HAKO_ISPC_PASSED)           /* direct return: m is our next request */
		return 0;
	m->status = r < 0 ? (int)r : m->status;
	return sys_ispc_reply(m, HAKO_ISPC_WAIT);
}

int serve_main(int argc, char **argv)
{
	int sem = atoi(argv[0]), next = argc > 1 ? atoi(argv[1]) : 0;
	set_mode_fast(argc > 2 && atoi(argv[2]) != 0);
	if (pin_self(BENCH_CPU) < 0 || samples_init(&async_replies, SERVER_SAMPLES) < 0 ||
	    samples_init(&queued_receives, SERVER_SAMPLES) < 0)
		return 1;
	my_pid = (int)sys_getpid();
	long r = sys_ispc_listen(0);
	if (r < 0 || (r = sys_sem_post(sem)) < 0)
		return fail("listen", r), 1;
	struct hako_ispc_msg m;
	for (r = sys_ispc_receive(&m, 0); r >= 0;) {
		uint64_t arrived = tsc_now();
		if (mark_oneway)
			ispc_region_end(REGION_ISPC_SYNC_REQUEST, with_data(&m));
		r = next ? relay_one(&m, next) : serve_one(&m, arrived);
	}
	return fail("serving", r), 1;
}

int spawn_server(int next)
{
	long sem = sys_sem_create(0);
	if (sem < 0)
		return fail("sem_create", sem);
	char s[16], n[16], f[4];
	snprintf(s, sizeof s, "%ld", sem);
	snprintf(n, sizeof n, "%d", next);
	snprintf(f, sizeof f, "%d", mode_fast);
	char *argv[] = { "ispcbench", "--serve", s, n, f, NULL };
	int pid = spawnv("ispcbench", argv);
	long r = pid < 0 ? pid : sys_sem_wait((int)sem);
	sys_sem_destroy((int)sem);
	if (pid < 0 || r < 0)
		return fail("spawn ispcbench --serve", pid < 0 ? pid : r);
	return pid;
}

int stop_server(int pid)
{
	int status;
	long r = sys_kill(pid);
	if (r < 0 || (r = waitpid(pid, &status)) < 0)
		return fail("stopping a server", r);
	return 0;
}

int call_open(struct call *c, int data_pages)
{
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	if (id < 0)
		return fail("ica_alloc", id);
	c->ctl = (int)id;
	c->st = (struct stamp *)va;
	c->st->fast = (uint32_t)mode_fast;
	c->data = -1;
	c->data_word = NULL;
	if (data_pages > 0) {
		id = sys_ica_alloc((size_t)data_pages, &va);
		if (id < 0) {
			sys_ica_free(c->ctl);
			return fail("ica_alloc", id);
		}
		c->data = (int)id;
		c->data_word = (volatile uint32_t *)va;
	}
	return 0;
}

void call_close(struct call *c)
{
	sys_ica_free(c->ctl);
	if (c->data >= 0)
		sys_ica_free(c->data);
}
