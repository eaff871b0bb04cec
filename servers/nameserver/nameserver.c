/*
 * servers/nameserver/nameserver.c — the name server: maps server names to
 * pids.  It listens with HAKO_ISPC_NAMESERVER, so every process reaches it
 * at pid HAKO_ISPC_NAMESERVER_PID without knowing its real pid.  Protocol
 * in proto.h.
 *
 *     nameserver
 *
 * A name is bound to the pid the kernel names as the requester
 * (msg.client); the control ICA is the client's and is never believed.
 * The server does not watch its clients: the name of a server that has
 * ended stays bound until unregistered, and requests to its pid fail with
 * -ESRCH (a reused pid would receive them; the table is for a small,
 * long-lived set of servers).
 */
#include <string.h>
#include <errno.h>
#include <hako/ispc.h>
#include "proto.h"

struct binding {
	char name[NS_NAME_MAX + 1];      /* "" when the slot is free */
	int pid;
};

static struct binding table[NS_NAMES_MAX];

/* The frame's payload as a C string in OUT; -EINVAL if it is no name. */
static int take_name(const struct ispc_frame *f, char out[NS_NAME_MAX + 1])
{
	if (f->len == 0 || f->len > NS_NAME_MAX || memchr(f->payload, '\0', f->len))
		return -EINVAL;
	memcpy(out, f->payload, f->len);
	out[f->len] = '\0';
	return 0;
}

static struct binding *find(const char *name)
{
	for (int i = 0; i < NS_NAMES_MAX; i++)
		if (table[i].name[0] && strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

/* Bind NAME (whose binding is B, NULL if none) to PID. */
static long bind(const char *name, struct binding *b, int pid)
{
	if (pid <= 0)
		return -ESRCH;                  /* the requester is gone */
	if (b)
		return b->pid == pid ? 0 : -EEXIST;
	for (int i = 0; i < NS_NAMES_MAX && !b; i++)
		if (!table[i].name[0])
			b = &table[i];
	if (!b)
		return -ENOSPC;
	strcpy(b->name, name);
	b->pid = pid;
	return 0;
}

/* Drop binding B if PID holds it. */
static long unbind(struct binding *b, int pid)
{
	if (!b)
		return -ENOENT;
	if (b->pid != pid)
		return -EPERM;
	b->name[0] = '\0';
	return 0;
}

/* Every op names a name: read it, find its binding, then act. */
static long name_op(struct ispc_req *req)
{
	char name[NS_NAME_MAX + 1];
	int err = take_name(req->frame, name);

	if (err < 0)
		return err;
	struct binding *b = find(name);
	switch (req->frame->op) {
	case NS_REGISTER:
		return bind(name, b, req->msg.client);
	case NS_LOOKUP:
		return b ? b->pid : -ENOENT;
	default:
		return unbind(b, req->msg.client);
	}
}

static const struct ispc_handler ops[] = {
	{ NS_REGISTER, name_op },
	{ NS_LOOKUP, name_op },
	{ NS_UNREGISTER, name_op },
};

int main(void)
{
	struct ispc_server srv = {
		.listen_flags = HAKO_ISPC_NAMESERVER,
		.ops = ops,
		.nops = sizeof ops / sizeof ops[0],
	};
	return -ispc_serve(&srv);
}
