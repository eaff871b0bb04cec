/*
 * servers/echo/echo.c — the echo server: answers small requests at once,
 * reads and writes its clients' data ICAs, or relays every request to the
 * next server of a chain.  Protocol in proto.h.
 *
 *     echo [NAME] [--relay NEXT] [--cpu N]
 *
 * It registers as NAME (default "echo") and, with --cpu, runs on CPU N.
 * With --relay it is one stage of a multi-stage request: for every
 * request it pushes its own frame (a copy of the top one) on the control
 * ICA and passes the request, data ICA and all, on to the server
 * registered as NEXT.  Stepwise, it waits for that result, pops its frame
 * and replies.  If the client asked for direct return (HAKO_ISPC_DIRECT
 * on its request; only the first requester chooses it), the kernel says
 * HAKO_ISPC_PASSED: the final result goes straight back to the client,
 * this stage has nothing to reply and its frame stays on the stack.
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/args.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include "proto.h"

#define LOOKUP_WAIT_MS 2000

static const char *next_name;     /* relay: the next stage */
static int next_pid = -1;

/* The first COUNT bytes of the data ICA as words, or NULL if COUNT is bad. */
static uint64_t *data_words(struct ispc_req *req, int64_t count)
{
	if (!req->data || count < 0 || count % 8 || (uint64_t)count > req->data_size)
		return NULL;
	return req->data;
}

static long do_null(struct ispc_req *req __attribute__((unused)))
{
	return 0;
}

static long do_value(struct ispc_req *req)
{
	return (int32_t)req->frame->arg[0];
}

static long do_sum(struct ispc_req *req)
{
	int64_t count = req->frame->arg[0];
	uint64_t *w = data_words(req, count);

	return w ? echo_checksum(w, (size_t)count / 8) : -EINVAL;
}

static long do_fill(struct ispc_req *req)
{
	uint64_t seed = (uint64_t)req->frame->arg[0];
	int64_t count = req->frame->arg[1];
	uint64_t *w = data_words(req, count);

	if (!w)
		return -EINVAL;
	for (size_t i = 0; i < (size_t)count / 8; i++)
		w[i] = echo_word(seed, i);
	return 0;
}

static long do_depth(struct ispc_req *req)
{
	return req->msg.depth;
}

static const struct ispc_handler ops[] = {
	{ ECHO_NULL, do_null },
	{ ECHO_VALUE, do_value },
	{ ECHO_SUM, do_sum },
	{ ECHO_FILL, do_fill },
	{ ECHO_DEPTH, do_depth },
};

/* Pass the request on to the next stage, our frame on top of the stack. */
static long relay(struct ispc_req *req)
{
	const struct ispc_frame *f = req->frame;

	if (next_pid < 0)
		next_pid = ns_wait(next_name, LOOKUP_WAIT_MS);
	if (next_pid < 0)
		return next_pid;
	long r = ispc_push(req->ctl, f->op, f->arg[0], f->arg[1], f->payload, f->len);
	if (r < 0)
		return r;
	struct hako_ispc_msg m = { .ctl = req->msg.ctl, .data = req->msg.data };
	r = sys_ispc_request(next_pid, &m, 0);
	if (r == HAKO_ISPC_PASSED)
		return ISPC_FORWARDED;
	if (r < 0) {                      /* not sent: still ours */
		ispc_pop(req->ctl);
		return r;
	}
	req->ctl = (struct ispc_ctl *)m.ctl_va;
	if (ispc_pop(req->ctl) < 0)
		return -EINVAL;           /* a later stage spoiled the stack */
	return m.status;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : "echo";
	long cpu = arg_int(argc, argv, "--cpu", -1);
	struct ispc_server srv = { .name = name, .ops = ops, .nops = sizeof ops / sizeof ops[0] };

	next_name = arg_str(argc, argv, "--relay", NULL);
	if (next_name) {
		srv.nops = 0;
		srv.other = relay;
	}
	if (cpu >= 0 && sys_set_affinity(0, 1ull << cpu) < 0)
		return 1;
	return -ispc_serve(&srv);
}
