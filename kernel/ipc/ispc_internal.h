/*
 * ispc_internal.h — what ispc.c (the general path) and ispc_fastpath.c
 * (the dedicated path of synchronous calls) share: the request record and
 * its small helpers, the per-process port, and the fastpath's entry
 * points.  Everything here is guarded by ica_lock.
 */
#ifndef HAKO_ISPC_INTERNAL_H
#define HAKO_ISPC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <hako.h>
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
	/* status and direct side by side, low | high as word 4 of a message in
	 * registers (hako_ispc.h), so fill_words reads them in one load. */
	int32_t status;
	uint32_t direct;                 /* HAKO_ISPC_DIRECT (the result goes straight to the
					    first requester) or 0 */
	int answered_by;                 /* pid of the server that replied last */
};

struct ispc_port {
	struct proc *proc;
	bool listening;
	struct list_node link;           /* in `ispc_listeners` while listening */
	struct list_node requests;       /* queued for this server */
	int nrequests;
	struct list_node results;        /* returned to this process, not yet taken */
	int awaited;                     /* results it will take: queued, travelling, or here */
	struct waitq wq;                 /* its receivers and result takers; guard: ica_lock */
	int receivers;                   /* threads asleep on wq in a receive (not a result) */
	struct ispc_req *handed;         /* a request the fastpath gave a receiver here: served
					    before the queue, RQ_SERVING, its ICAs held already */
};

/* ispc.c's pool and ports, and the lookups the fastpath shares with it
 * (inline: the dedicated paths pay no call for them).  Guard: ica_lock. */
extern struct ispc_req ispc_reqs[REQ_MAX];
extern int nreqs;
extern struct list_node ispc_listeners;   /* ports listening, by their link */
extern struct ispc_port *ispc_nameserver; /* the one taking HAKO_ISPC_NAMESERVER_PID, or NULL */

/* A free record, counted in nreqs; NULL if none.  Caller holds ica_lock. */
static inline struct ispc_req *req_alloc(void)
{
	for (int i = 0; i < REQ_MAX; i++)
		if (ispc_reqs[i].state == RQ_FREE) {
			nreqs++;
			return &ispc_reqs[i];
		}
	return NULL;
}

/* r back to the pool, its ICAs in no request.  Caller holds ica_lock. */
static inline void req_free(struct ispc_req *r)
{
	r->ctl->req = NULL;
	if (r->data)
		r->data->req = NULL;
	if (r->orig)
		r->orig->req = NULL;
	r->state = RQ_FREE;
	nreqs--;
}

/* The port listening as pid, or NULL.  Caller holds ica_lock. */
static inline struct ispc_port *find_listener(int pid)
{
	if (pid == HAKO_ISPC_NAMESERVER_PID)
		return ispc_nameserver;
	list_for_each(n, &ispc_listeners) {
		struct ispc_port *port = list_entry(n, struct ispc_port, link);
		if (port->proc->pid == pid)
			return port;
	}
	return NULL;
}
/* A fresh request (direct: HAKO_ISPC_DIRECT or 0); its stage stack is
 * empty (only stage[0 .. depth) is ever read, so the rest is not
 * cleared). */
static inline void req_init(struct ispc_req *r, struct ica *ctl, struct ica *data, struct ica *orig,
			    uint64_t copy_bytes, uint32_t direct)
{
	r->ctl = ctl;
	r->data = data;
	r->orig = orig;
	r->copy_bytes = copy_bytes;
	r->depth = 0;
	r->at = NULL;
	r->direct = direct;
	r->status = 0;
	r->answered_by = 0;
}

static inline void set_holder(struct ispc_req *r, struct proc *p)
{
	r->ctl->holder = p;
	if (r->data)
		r->data->holder = p;
}

/* The stage a result of r goes back to next, as ispc.c's deliver picks
 * it (stepwise: the one below the server, direct: the first requester),
 * or NULL if it has ended or none is left; r is not changed. */
static inline struct proc *stage_back(const struct ispc_req *r)
{
	if (r->direct)
		return r->stage[0];
	return r->depth > 0 ? r->stage[r->depth - 1] : NULL;
}

/* r, its depth already lowered to `to`'s, comes back to to's results
 * (not woken); to's port. */
static inline struct ispc_port *return_to(struct ispc_req *r, struct proc *to)
{
	r->state = RQ_RETURNED;
	r->at = to->ispc;
	list_push_back(&r->at->results, &r->link);
	return r->at;
}

/* What p gets to see of r, now that p holds its ICAs (inline: on every
 * receive and result). */
static inline __attribute__((always_inline))
void fill_msg(struct hako_ispc_msg *m, const struct ispc_req *r, int from)
{
	const struct ica *c = r->ctl, *d = r->data;   /* read once: m's stores may alias */
	const struct proc *first = r->stage[0];
	m->ctl = c->id;
	m->ctl_va = ica_va(c);
	m->data = d ? d->id : -1;
	m->data_va = d ? ica_va(d) : 0;
	m->data_pages = d ? (int32_t)d->npages : 0;
	m->client = first ? first->pid : -1;
	m->from = from;
	m->depth = r->depth;
	m->status = r->status;
	m->flags = (int32_t)r->direct;
	m->data_bytes = r->orig ? (uint32_t)r->copy_bytes : 0;
	m->reserved = 0;
}

/* The same as the words of a message in registers (hako_ispc.h), built
 * word by word: a request without a data ICA (never a copied one: a copy
 * is its data ICA) has constant words 1 and 5. */
static inline __attribute__((always_inline))
void fill_words(uint64_t w[HAKO_WORDS], const struct ispc_req *r, int from)
{
	const struct ica *c = r->ctl, *d = r->data;
	const struct proc *first = r->stage[0];
	int client = first ? first->pid : -1;
	w[0] = ica_va(c);
	w[3] = HAKO_ISPC_PAIR(from, r->depth);
	w[4] = HAKO_ISPC_PAIR(r->status, r->direct);
	if (!d) {
		w[1] = 0;
		w[2] = HAKO_ISPC_PAIR(-1, client);
		w[5] = 0;
		return;
	}
	w[1] = ica_va(d);
	w[2] = HAKO_ISPC_PAIR(d->id, client);
	w[5] = HAKO_ISPC_PAIR(d->npages, r->orig ? (uint32_t)r->copy_bytes : 0);
}

/* The fastpath's run-time switch (`fastpath=on|off`, or ispc_mode with
 * HAKO_ISPC_FASTPATH_ON/OFF): read once per call, so flipping it is safe. */
extern bool ispc_fastpath_on;

/* ispc_request's own flag (beside the uapi's): the request was queued
 * without waking its server; fastpath_call must, one way or the other. */
#define ISPC_FASTPATH_PENDING 0x40000000

/*
 * The dedicated path of a new synchronous request (ispc_fastpath.c, whose
 * top lists its preconditions).  Caller holds ica_lock and has checked
 * that the switch is on, that the mode is fast, and that flags has neither
 * HAKO_ISPC_ASYNC nor HAKO_ISPC_COPY.
 *   FP_NOT_TAKEN: a precondition failed, nothing was changed; ica_lock held.
 *   FP_WAIT: the request is in flight (queued, or served); the caller takes
 *     its result the general way (ispc.c's take_result, or ispc_result
 *     once ica_lock is released), with the ICAs kept mapped; ica_lock held.
 *   FP_DONE: the result is in *m; ica_lock released.
 * fastpath_request_words (ispc_dedicated.h, inline): the same on control
 * ICA ctl and data ICA data (-1: none), the result in the words w
 * (ispc_call.c).
 */
enum fp_outcome { FP_NOT_TAKEN, FP_WAIT, FP_DONE };
enum fp_outcome fastpath_request(struct proc *p, struct ispc_port *port, int pid,
				 struct hako_ispc_msg *m, int flags);

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
