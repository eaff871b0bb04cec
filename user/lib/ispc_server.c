/*
 * user/lib/ispc_server.c — the server skeleton (hako/ispc.h): the loop
 * every OS server shares.  A server hands ispc_serve a table of
 * op -> handler; the library listens, registers the server's name,
 * receives, checks the control ICA, dispatches and replies with
 * synchronous return (reply and receive the next request in one call).
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>

#define REGISTER_WAIT_MS 2000   /* the name server may start after us */

/* The data ICA's size as the kernel tells it: the bytes of a copy
 * (HAKO_ISPC_COPY), else its pages. */
static size_t data_size(const struct hako_ispc_msg *m)
{
	if (m->data < 0)
		return 0;
	if (m->data_bytes > 0)
		return m->data_bytes;
	return m->data_pages > 0 ? (size_t)m->data_pages * ISPC_PAGE : 0;
}

static long dispatch(const struct ispc_server *srv, struct ispc_req *req)
{
	req->ctl = (struct ispc_ctl *)req->msg.ctl_va;
	req->frame = ispc_top(req->ctl);
	if (req->frame == NULL)
		return -EINVAL;
	req->data = req->msg.data >= 0 ? (void *)req->msg.data_va : NULL;
	req->data_size = data_size(&req->msg);
	for (int i = 0; i < srv->nops; i++)
		if (srv->ops[i].op == req->frame->op)
			return srv->ops[i].fn(req);
	return srv->other ? srv->other(req) : -ENOSYS;
}

static int register_name(const char *name)
{
	int r = ns_register(name);

	for (unsigned waited = 0; r == -ESRCH && waited < REGISTER_WAIT_MS; waited++) {
		sleep_ms(1);
		r = ns_register(name);
	}
	return r;
}

/* Wait for the next request (after an interruption, or when there was
 * nothing to reply). */
static long receive(struct hako_ispc_msg *m)
{
	long r;

	do
		r = sys_ispc_receive(m, 0);
	while (r == -EINTR);
	return r;
}

int ispc_serve(const struct ispc_server *srv)
{
	struct ispc_req req;
	long r = sys_ispc_listen(srv->listen_flags);

	if (r == 0 && srv->name)
		r = register_name(srv->name);
	if (r < 0) {
		printf("%s: cannot serve as %s: %s\n", prog_name(), srv->name ? srv->name : "?",
		       strerror((int)-r));
		return (int)r;
	}
	r = receive(&req.msg);
	while (r >= 0) {
		long status = dispatch(srv, &req);
		if (status == ISPC_FORWARDED) {
			r = receive(&req.msg);
			continue;
		}
		req.msg.status = (int32_t)status;
		r = sys_ispc_reply(&req.msg, HAKO_ISPC_WAIT);
		if (r < 0)           /* the reply or the wait failed: wait afresh */
			r = receive(&req.msg);
	}
	printf("%s: receive failed: %s\n", prog_name(), strerror((int)-r));
	return (int)r;
}
