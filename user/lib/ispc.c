/*
 * user/lib/ispc.c — the control-ICA stack and the client calls
 * (hako/ispc.h).
 *
 * A control ICA can be written by every process it passes through, so
 * nothing here believes its header: depth and lengths are checked against
 * the page before a frame is touched, and a bad page gives -EINVAL.
 */
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>

void ispc_ctl_init(struct ispc_ctl *c)
{
	memset(c, 0, sizeof(*c) - sizeof(c->frame));
	c->magic = ISPC_CTL_MAGIC;
}

/* The header alone is sane: magic right, depth within the page. */
static int header_ok(const struct ispc_ctl *c)
{
	return c->magic == ISPC_CTL_MAGIC && c->depth <= ISPC_FRAMES_MAX;
}

int ispc_ctl_check(const struct ispc_ctl *c)
{
	if (!header_ok(c) || c->depth == 0)
		return -EINVAL;
	if (c->frame[c->depth - 1].len > ISPC_PAYLOAD_MAX)
		return -EINVAL;
	return 0;
}

int ispc_push(struct ispc_ctl *c, int op, int64_t arg0, int64_t arg1,
	      const void *payload, size_t len)
{
	if (!header_ok(c) || len > ISPC_PAYLOAD_MAX || op < 0 || op > 0xffff)
		return -EINVAL;
	if (c->depth == ISPC_FRAMES_MAX)
		return -ENOSPC;
	struct ispc_frame *f = &c->frame[c->depth];
	memset(f, 0, sizeof(*f));
	f->op = (uint16_t)op;
	f->len = (uint16_t)len;
	f->arg[0] = arg0;
	f->arg[1] = arg1;
	if (len > 0)
		memmove(f->payload, payload, len);
	c->depth++;
	return 0;
}

int ispc_pop(struct ispc_ctl *c)
{
	if (!header_ok(c) || c->depth == 0)
		return -EINVAL;
	c->depth--;
	return 0;
}

struct ispc_frame *ispc_top(struct ispc_ctl *c)
{
	return ispc_ctl_check(c) < 0 ? NULL : &c->frame[c->depth - 1];
}

/* --- client calls ---------------------------------------------------- */

int ispc_call_open(struct ispc_call *call, size_t data_pages)
{
	uint64_t va = 0;
	long id = sys_ica_alloc(1, &va);

	memset(call, 0, sizeof(*call));
	call->data = -1;
	if (id < 0)
		return (int)id;
	call->ctl = (int)id;
	call->c = (struct ispc_ctl *)va;
	if (data_pages == 0)
		return 0;
	id = sys_ica_alloc(data_pages, &va);
	if (id < 0) {
		sys_ica_free(call->ctl);
		return (int)id;
	}
	call->data = (int)id;
	call->buf = (void *)va;
	call->size = data_pages * ISPC_PAGE;
	return 0;
}

int ispc_call_close(struct ispc_call *call)
{
	long r = sys_ica_free(call->ctl), r2 = 0;

	if (call->data >= 0)
		r2 = sys_ica_free(call->data);
	call->c = NULL;
	call->buf = NULL;
	return (int)(r < 0 ? r : r2);
}

int ispc_call_op(struct ispc_call *call, int op, int64_t arg0, int64_t arg1,
		 const void *payload, size_t len)
{
	ispc_ctl_init(call->c);
	return ispc_push(call->c, op, arg0, arg1, payload, len);
}

/* The ICAs are back with us: note where, and who answered. */
static long returned(struct ispc_call *call, const struct hako_ispc_msg *m)
{
	call->c = (struct ispc_ctl *)m->ctl_va;
	if (call->data >= 0)
		call->buf = (void *)m->data_va;
	call->from = m->from;
	return m->status;
}

/* The message for a request on CALL; with HAKO_ISPC_COPY the whole data ICA is copied. */
static struct hako_ispc_msg request_msg(const struct ispc_call *call, int flags)
{
	return (struct hako_ispc_msg){
		.ctl = call->ctl,
		.data = call->data,
		.data_bytes = flags & HAKO_ISPC_COPY ? (uint32_t)call->size : 0,
	};
}

/*
 * A synchronous call goes as ispc_call, the message in registers, where the
 * kernel has it (64-bit registers) and the flags are ones it takes (a
 * direct request, no copied data); otherwise, or if the kernel answers
 * -ENOSYS, as ispc_request with the message in memory.  Both give the same
 * fields back, a forwarded direct request's included.
 */
long ispc_call(int pid, struct ispc_call *call, int flags)
{
	if (sizeof(long) == 8 && !(flags & ~HAKO_ISPC_DIRECT)) {
		struct hako_words w;
		long r = sys_ispc_call(pid, call->ctl, call->data, flags, &w);
		if (r != -ENOSYS) {
			struct hako_ispc_msg m;
			if (r < 0)
				return r;
			hako_ispc_unpack(r, w.w, &m);
			return returned(call, &m);
		}
	}
	struct hako_ispc_msg m = request_msg(call, flags);
	long r = sys_ispc_request(pid, &m, flags & ~HAKO_ISPC_ASYNC);

	return r < 0 ? r : returned(call, &m);
}

long ispc_send(int pid, struct ispc_call *call, int flags)
{
	struct hako_ispc_msg m = request_msg(call, flags);
	long r = sys_ispc_request(pid, &m, flags | HAKO_ISPC_ASYNC);

	return r < 0 ? r : call->ctl;
}

long ispc_collect(int tag, struct ispc_call *calls, int n, int flags, int *which)
{
	struct hako_ispc_msg m;
	long r;

	do
		r = sys_ispc_result(tag, &m, flags);
	while (r == -EINTR);
	if (r < 0)
		return r;
	for (int i = 0; i < n; i++)
		if (calls[i].ctl == m.ctl) {
			if (which)
				*which = i;
			return returned(&calls[i], &m);
		}
	return -ENOENT;      /* a result for a call the caller did not list */
}
