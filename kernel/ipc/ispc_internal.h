/*
 * ispc_internal.h — what ispc.c (the general path) and ispc_fastpath.c
 * (the direct switch for synchronous calls) share: the request record,
 * the per-process port, and the fastpath's entry points.  Everything here
 * is guarded by ica_lock.
 */
#ifndef HAKO_ISPC_INTERNAL_H
#define HAKO_ISPC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <ica.h>
#include <list.h>
#include <sched.h>

#define REQ_MAX 256

enum req_state { RQ_FREE, RQ_QUEUED, RQ_SERVING, RQ_RETURNED };

struct ispc_req {
	enum req_state state;
	struct list_node link;           /* in at->requests or at->results */
	struct ica *ctl, *data;
	struct ica *orig;                /* HAKO_ISPC_COPY: the requester's data ICA; data is its copy */
	uint64_t copy_bytes;
	struct proc *stage[HAKO_ISPC_MAX_STAGES];   /* NULL: that requester has ended */
	int depth;
	struct ispc_port *at;
	bool direct;
	int status;
	int answered_by;                 /* pid of the server that replied last */
};

struct ispc_port {
	struct proc *proc;
	bool listening;
	struct list_node link;           /* in `listeners` while listening */
	struct list_node requests;       /* queued for this server */
	int nrequests;
	struct list_node results;        /* returned to this process, not yet taken */
	int awaited;                     /* results it will take: queued, travelling, or here */
	struct waitq wq;                 /* its receivers and result takers; guard: ica_lock */
};

/* The fastpath's run-time switch (`fastpath=on|off`, or ispc_mode with
 * HAKO_ISPC_FASTPATH_ON/OFF): read once per call, so flipping it is safe. */
extern bool ispc_fastpath_on;

/* ispc_request's own flag (beside the uapi's): the request was queued
 * without waking its server; fastpath_call must, one way or the other. */
#define ISPC_FASTPATH_PENDING 0x40000000

/*
 * The requester's side: the request tagged `tag` was queued at its server
 * without waking it; the caller (the requester, about to wait on `port`
 * for the result) holds ica_lock.  Either switches straight to the server
 * and returns once woken, or wakes the server the general way and
 * returns; ica_lock is held on return either way.
 */
void fastpath_call(struct ispc_port *port, int tag);
/*
 * The server's side of a synchronous return: the result went to `back`
 * without a wake; the server (port `port`) is about to wait for its next
 * request.  Switches straight to back's waiting requester, or wakes it
 * the general way.  Caller holds ica_lock, held again on return.
 */
void fastpath_return(struct ispc_port *port, struct ispc_port *back);

#endif
