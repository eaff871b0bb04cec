/*
 * ispc.c — server program communication (paper 002): each process's
 * request and result queues, requests that carry a control ICA (and a
 * data ICA) from stage to stage, and their return, stepwise or direct.
 *
 * A request is a record of the pool below.  Its stage stack lists the
 * requesters, first requester at the bottom; `at` is the port it is
 * queued at, served by, or returned to.  On the way back every stage pops
 * (stepwise) or the result jumps to stage 0 (direct); a stage whose
 * process has ended is skipped with status -EPIPE, and a result nobody
 * is left to take frees its ICAs.  ica_lock guards everything here; the
 * page tables are changed after it is released (see ica.h).
 *
 * Both ISPC modes run this same code; the page tables follow through
 * ica_map_pasted and ica_unmap_peeled.  Fast mode (ica_fast.c) takes two
 * shortcuts here, both marked: a lone synchronous requester keeps its
 * ICAs mapped into the wait, and a server with the window replies and
 * receives the next request under one hold of ica_lock.
 *
 * The fastpath (ispc_fastpath.c, switched by `fastpath=on|off`) keeps
 * these records, queues and ICA moves, and replaces the wake-up of a
 * synchronous call and of its synchronous return by a direct switch; in
 * fast mode a new synchronous call to a server that waits in its receive
 * is handed to that receiver (port->handed, taken by receive_locked before
 * the queue) instead of being queued.  The three places that hand over to
 * it are marked.
 */
#include <stdint.h>
#include <errno.h>
#include <heap.h>
#include <ica.h>
#include <ispc.h>
#include <proc.h>
#include <sched.h>
#include <thread.h>
#include "ispc_internal.h"

struct ispc_req ispc_reqs[REQ_MAX];
int nreqs;
struct list_node ispc_listeners = LIST_INIT(ispc_listeners);
struct ispc_port *ispc_nameserver;

/* ---- ports ------------------------------------------------------------ */

/* p's first port (port_get). */
static struct ispc_port *port_make(struct proc *p)
{
	struct ispc_port *port;
	struct ispc_port *fresh = kzalloc(sizeof *fresh);
	if (!fresh)
		return NULL;
	fresh->proc = p;
	list_init(&fresh->requests);
	list_init(&fresh->results);
	waitq_init_guarded(&fresh->wq, &ica_lock);
	spin_lock(&ica_lock);
	if (!p->ispc) {
		__atomic_store_n(&p->ispc, fresh, __ATOMIC_RELEASE);
		fresh = NULL;
	}
	port = p->ispc;
	spin_unlock(&ica_lock);
	if (fresh)
		kfree(fresh);
	return port;
}

static inline struct ispc_port *port_get(struct proc *p)
{
	struct ispc_port *port = __atomic_load_n(&p->ispc, __ATOMIC_ACQUIRE);
	return port ? port : port_make(p);
}

/*
 * Nothing for us yet: sleep until woken (then 0: look again), or say why
 * not (-EAGAIN without blocking, -EINTR once killed).  Holds ica_lock
 * before and after.
 */
static long port_wait(struct ispc_port *port, int flags)
{
	if (flags & HAKO_ISPC_NONBLOCK)
		return -EAGAIN;
	if (thread_current()->killed)
		return -EINTR;
	waitq_wait_killable(&port->wq);  /* its guard is ica_lock */
	return 0;
}

static void port_wake(struct ispc_port *port)
{
	waitq_wake_all(&port->wq);
}

/* ---- requests (caller holds ica_lock) --------------------------------- */

/* Nobody is left to take r: its ICAs go back to their owners, or away. */
static void req_drop(struct ispc_req *r)
{
	struct ica *ctl = r->ctl, *data = r->data, *orig = r->orig;
	set_holder(r, NULL);
	req_free(r);
	if (!ctl->owner)
		ica_release(ctl);
	if (data && !data->owner)        /* a copy never has one */
		ica_release(data);
	if (orig && !orig->owner)
		ica_release(orig);
}

/* The server is done with r (status is its result): back down the stages.
 * The port it went to (woken if `wake`), or NULL if nobody was left.
 * Inlined, so each caller's constant `wake` costs nothing. */
static inline __attribute__((always_inline))
struct ispc_port *deliver(struct ispc_req *r, int status, bool wake)
{
	r->status = status;
	for (;;) {
		struct proc *to;
		if (r->direct) {
			to = r->stage[0];
			r->depth = 0;
		} else
			to = r->depth > 0 ? r->stage[--r->depth] : NULL;
		if (to) {
			struct ispc_port *back = return_to(r, to);
			if (wake)
				port_wake(back);
			return back;
		}
		r->status = -EPIPE;          /* that stage has ended: tell the one below */
		if (r->depth == 0) {
			req_drop(r);
			return NULL;
		}
	}
}

static struct ica_span no_span(void) { return (struct ica_span){ 0 }; }

/* A process with fast mode's window maps every ICA already: for it only
 * the window's entries are made resident (ica_window_pin). */
static void paste_both(struct proc *p, struct ica_span c, struct ica_span d)
{
	if (p->ica_window) {
		ica_window_pin(p->as, c, d);
		return;
	}
	ica_map_pasted(p, c);
	if (d.a)
		ica_map_pasted(p, d);
}

static void peel_both(struct proc *p, struct ica_span c, struct ica_span d)
{
	ica_unmap_peeled(p, c);
	if (d.a)
		ica_unmap_peeled(p, d);
}

/* ---- taking results --------------------------------------------------- */

static struct ispc_req *find_result(struct ispc_port *port, int tag)
{
	list_for_each(n, &port->results) {
		struct ispc_req *r = list_entry(n, struct ispc_req, link);
		if (tag < 0 || r->ctl->id == tag)
			return r;
	}
	return NULL;
}

/* Will the result of the request tagged `tag` come back to p? */
static bool awaits(struct proc *p, int tag)
{
	struct ica *c = ica_lookup(tag);
	struct ispc_req *r = c ? c->req : NULL;
	if (!r || r->ctl != c || r->state == RQ_FREE)
		return false;
	if (r->direct)
		return r->stage[0] == p;
	for (int k = 0; k < r->depth; k++)  /* every stage of a stepwise request hears back */
		if (r->stage[k] == p)
			return true;
	return false;
}

/* Take a result for p (ica_lock held, released here); `mapped`: its ICAs
 * never left p's page tables. */
static long take_result(struct proc *p, struct ispc_port *port, int tag, struct hako_ispc_msg *m,
			int flags, bool mapped)
{
	struct ispc_req *r;
	long err = 0;
	while (!(r = find_result(port, tag)) && !err) {
		bool coming = tag < 0 ? port->awaited > 0 : awaits(p, tag);
		err = coming ? port_wait(port, flags) : -ESRCH;
	}
	if (!r) {
		spin_unlock(&ica_lock);
		return err;
	}
	list_remove(&r->link);
	port->awaited--;
	fill_msg(m, r, r->answered_by);
	struct ica_span c = ica_span_of(r->ctl), d = r->data ? ica_span_of(r->data) : no_span();
	struct ica_span orig = no_span();
	uint64_t bytes = r->copy_bytes;
	if (r->depth == 0 && r->orig) {  /* a copy comes home: into the original */
		orig = ica_span_of(r->orig);
		r->ctl->holder = p;
		m->data = orig.id;
		m->data_va = ica_va(r->orig);
		m->data_pages = (int32_t)orig.npages;
	} else
		set_holder(r, p);
	if (r->depth == 0)
		req_free(r);                 /* back at its first requester: done */
	else {
		r->state = RQ_SERVING;       /* a forwarder serves it again */
		r->at = port;
	}
	spin_unlock(&ica_lock);
	if (orig.a) {
		ica_copy_back(orig, d, bytes);
		spin_lock(&ica_lock);
		ica_release(d.a);
		spin_unlock(&ica_lock);
		d = no_span();
	}
	if (!mapped && (!p->ica_window || arch_ica_pins()))
		paste_both(p, c, d);
	return 0;
}

long ispc_result(struct proc *p, int tag, struct hako_ispc_msg *m, int flags)
{
	struct ispc_port *port = port_get(p);
	if (!port)
		return -ENOMEM;
	spin_lock(&ica_lock);
	return take_result(p, port, tag, m, flags, false);
}

/* ---- requests --------------------------------------------------------- */

/* Why p may not send m now (0 if it may); *r is the request it forwards. */
static long check_request(struct proc *p, struct ispc_port *port, const struct hako_ispc_msg *m,
			  struct ica *c, struct ica *d, struct ispc_req **r)
{
	if (!c || (m->data != -1 && !d))
		return -EINVAL;
	if (c->holder != p)
		return -EPERM;
	*r = c->req;
	if (*r) {                        /* a forward of a request p serves */
		if ((*r)->ctl != c || (*r)->state != RQ_SERVING || (*r)->at != port)
			return -EBUSY;
		if (((*r)->data ? (*r)->data->id : -1) != m->data)
			return -EINVAL;
		return (*r)->depth >= HAKO_ISPC_MAX_STAGES ? -E2BIG : 0;
	}
	if (d == c)
		return -EINVAL;
	if (d && (d->holder != p || d->req))
		return d->req ? -EBUSY : -EPERM;
	return nreqs >= REQ_MAX ? -EAGAIN : 0;
}

/* HAKO_ISPC_COPY: copy the bytes the request will carry, before it is made. */
static long make_copy(struct proc *p, const struct hako_ispc_msg *m, struct ica **copy)
{
	spin_lock(&ica_lock);
	struct ica *d = ica_lookup(m->data);
	bool ok = d && d->holder == p && !d->req && m->data_bytes > 0 &&
		  m->data_bytes <= (uint64_t)d->npages * ICA_PAGE;
	struct ica_span s = ok ? ica_span_of(d) : no_span();
	spin_unlock(&ica_lock);
	if (!ok)
		return -EINVAL;
	long err = 0;
	*copy = ica_copy_of(s, m->data_bytes, &err);
	return err;
}

long ispc_request(struct proc *p, int pid, struct hako_ispc_msg *m, int flags)
{
	if (flags & ~(HAKO_ISPC_ASYNC | HAKO_ISPC_DIRECT | HAKO_ISPC_WAIT | HAKO_ISPC_COPY))
		return -EINVAL;
	struct ispc_port *port = port_get(p);
	if (!port)
		return -ENOMEM;
	struct ica *copy = NULL;
	long err = (flags & HAKO_ISPC_COPY) ? make_copy(p, m, &copy) : 0;
	if (err)
		return err;
	spin_lock(&ica_lock);
	/* the fastpath's dedicated call (ispc_fastpath.c) */
	if (__builtin_expect(ispc_fastpath_on, 0) && !(flags & (HAKO_ISPC_ASYNC | HAKO_ISPC_COPY)) &&
	    ica_mode == HAKO_ISPC_FAST) {
		enum fp_outcome o = fastpath_request(p, port, pid, m, flags);
		if (o == FP_DONE)
			return 0;
		if (o == FP_WAIT)
			return take_result(p, port, m->ctl, m, 0, true);
	}
	struct ica *c = ica_lookup(m->ctl), *d = m->data >= 0 ? ica_lookup(m->data) : NULL;
	struct ispc_req *r = NULL;
	err = check_request(p, port, m, c, d, &r);
	struct ispc_port *to = err ? NULL : find_listener(pid);
	bool waits = !r || !r->direct;  /* a forward of a direct request never comes back */
	if (!err)
		err = !to ? -ESRCH : to == port ? -EINVAL : to->nrequests >= HAKO_ISPC_QUEUE_MAX ? -EAGAIN :
		      (waits && port->awaited >= HAKO_ISPC_OUTSTANDING_MAX) ? -EAGAIN :
		      (copy && r) ? -EINVAL : 0;   /* only a new request may copy */
	if (err) {
		if (copy)
			ica_release(copy);
		spin_unlock(&ica_lock);
		return err;
	}
	if (!r) {
		r = req_alloc();
		req_init(r, c, copy ? copy : d, copy ? d : NULL, m->data_bytes, flags & HAKO_ISPC_DIRECT);
		c->req = r;
		if (d)
			d->req = r;      /* the original too: busy until the result */
		if (copy)
			copy->req = r;
	}
	r->stage[r->depth++] = p;
	port->awaited += waits;
	set_holder(r, NULL);
	r->state = RQ_QUEUED;
	r->at = to;
	list_push_back(&to->requests, &r->link);
	to->nrequests++;
	/* the fastpath (ispc_fastpath.c) wakes the server when we come to wait */
	if (__builtin_expect(ispc_fastpath_on, 0) && !(flags & (HAKO_ISPC_ASYNC | HAKO_ISPC_COPY)) &&
	    waits && r->depth == 1)
		flags |= ISPC_FASTPATH_PENDING;
	else
		port_wake(to);
	int tag = c->id;
	struct ica_span cs = ica_span_of(c), ds = r->data && !copy ? ica_span_of(r->data) : no_span();
	/* fast mode's kept mappings (ica_fast.c): a lone thread that now
	 * waits for these very ICAs cannot touch them meanwhile, so they may
	 * stay mapped; then nothing is unmapped and the lock is kept into
	 * the wait. */
	bool keep = waits && !(flags & HAKO_ISPC_ASYNC) && ica_mode == HAKO_ISPC_FAST && proc_alone(p);
	if (keep) {
		ica_count_kept();
		if (flags & ISPC_FASTPATH_PENDING)
			fastpath_call(port, tag);
		return take_result(p, port, tag, m, 0, true);
	}
	spin_unlock(&ica_lock);
	peel_both(p, cs, ds);
	if (!waits && (flags & HAKO_ISPC_WAIT)) {   /* passed on: serve the next one */
		long got = ispc_receive(p, m, 0);
		return got < 0 ? got : HAKO_ISPC_PASSED;
	}
	if (!waits)
		return HAKO_ISPC_PASSED;
	if (flags & HAKO_ISPC_ASYNC)
		return 0;
	spin_lock(&ica_lock);
	if (flags & ISPC_FASTPATH_PENDING)
		fastpath_call(port, tag);
	return take_result(p, port, tag, m, 0, false);
}

/* ---- serving ---------------------------------------------------------- */

long ispc_listen(struct proc *p, int flags)
{
	if (flags & ~HAKO_ISPC_NAMESERVER)
		return -EINVAL;
	struct ispc_port *port = port_get(p);
	if (!port)
		return -ENOMEM;
	ica_window_open(p);
	spin_lock(&ica_lock);
	long err = 0;
	if (flags & HAKO_ISPC_NAMESERVER) {
		if (ispc_nameserver && ispc_nameserver != port)
			err = -EBUSY;
		else
			ispc_nameserver = port;
	}
	if (!err && !port->listening) {
		port->listening = true;
		list_push_back(&ispc_listeners, &port->link);
	}
	spin_unlock(&ica_lock);
	return err;
}

/* The next request for port's process p; ica_lock held, released here. */
static long receive_locked(struct proc *p, struct ispc_port *port, struct hako_ispc_msg *m, int flags)
{
	long err = 0;
	while (list_empty(&port->requests) && !port->handed && !err) {
		port->receivers++;
		err = port_wait(port, flags);
		port->receivers--;
	}
	if (err) {
		spin_unlock(&ica_lock);
		return err;
	}
	struct ispc_req *r = port->handed;
	if (r)                           /* by the fastpath: serving, ours already */
		port->handed = NULL;
	else {
		r = list_entry(list_pop_front(&port->requests), struct ispc_req, link);
		port->nrequests--;
		r->state = RQ_SERVING;
		set_holder(r, p);
	}
	struct proc *from = r->stage[r->depth - 1];
	fill_msg(m, r, from ? from->pid : -1);
	if (p->ica_window && !arch_ica_pins()) {  /* nothing to map or pin */
		spin_unlock(&ica_lock);
		return 0;
	}
	struct ica_span c = ica_span_of(r->ctl), d = r->data ? ica_span_of(r->data) : no_span();
	spin_unlock(&ica_lock);
	paste_both(p, c, d);
	return 0;
}

long ispc_receive(struct proc *p, struct hako_ispc_msg *m, int flags)
{
	struct ispc_port *port = p->ispc;
	if (flags & ~HAKO_ISPC_NONBLOCK)
		return -EINVAL;
	if (!port || !port->listening)
		return -EINVAL;
	ica_window_open(p);              /* fast mode may have come on since listen */
	spin_lock(&ica_lock);
	return receive_locked(p, port, m, flags);
}

long ispc_reply(struct proc *p, struct hako_ispc_msg *m, int flags)
{
	if (flags & ~(HAKO_ISPC_WAIT | HAKO_ISPC_NONBLOCK))
		return -EINVAL;
	spin_lock(&ica_lock);
	struct ica *c = ica_lookup(m->ctl);
	struct ispc_req *r = c ? c->req : NULL;
	struct ispc_port *port = p->ispc;
	if (!r || r->ctl != c || r->state != RQ_SERVING || !port || r->at != port) {
		spin_unlock(&ica_lock);
		return -EINVAL;
	}
	set_holder(r, NULL);
	r->answered_by = p->pid;
	if (__builtin_expect(ispc_fastpath_on, 0) &&
	    (flags & (HAKO_ISPC_WAIT | HAKO_ISPC_NONBLOCK)) == HAKO_ISPC_WAIT &&
	    p->ica_window && port->listening) {
		struct ispc_port *back = deliver(r, m->status, false);
		if (back)
			fastpath_return(port, back);    /* ispc_fastpath.c */
		return receive_locked(p, port, m, 0);
	}
	struct ica_span cs = ica_span_of(c), ds = r->data ? ica_span_of(r->data) : no_span();
	deliver(r, m->status, true);
	bool wait = flags & HAKO_ISPC_WAIT;
	/* fast mode's window (ica_fast.c): nothing to unmap, stay locked */
	if (p->ica_window && wait && port->listening)
		return receive_locked(p, port, m, flags & HAKO_ISPC_NONBLOCK);
	spin_unlock(&ica_lock);
	peel_both(p, cs, ds);
	return wait ? ispc_receive(p, m, flags & HAKO_ISPC_NONBLOCK) : 0;
}

/* ---- the end of a process --------------------------------------------- */

/* p has ended (no thread left): nothing may wait on it or return to it. */
void ispc_proc_end(struct proc *p)
{
	struct ispc_port *port = p->ispc;
	spin_lock(&ica_lock);
	for (int i = 0; i < REQ_MAX; i++)
		for (int k = 0; k < ispc_reqs[i].depth && ispc_reqs[i].state != RQ_FREE; k++)
			if (ispc_reqs[i].stage[k] == p)
				ispc_reqs[i].stage[k] = NULL;
	if (port) {
		if (port->listening)
			list_remove(&port->link);
		port->listening = false;
		if (ispc_nameserver == port)
			ispc_nameserver = NULL;
		port->handed = NULL;         /* RQ_SERVING at port: failed below */
		while (!list_empty(&port->requests)) {
			struct ispc_req *r = list_entry(list_pop_front(&port->requests), struct ispc_req, link);
			r->answered_by = p->pid;
			deliver(r, -EPIPE, true);
		}
		for (int i = 0; i < REQ_MAX; i++)
			if (ispc_reqs[i].state == RQ_SERVING && ispc_reqs[i].at == port) {
				set_holder(&ispc_reqs[i], NULL);
				ispc_reqs[i].answered_by = p->pid;
				deliver(&ispc_reqs[i], -EPIPE, true);
			}
		while (!list_empty(&port->results)) {
			struct ispc_req *r = list_entry(list_pop_front(&port->results), struct ispc_req, link);
			if (r->depth == 0)
				req_drop(r);
			else
				deliver(r, -EPIPE, true);
		}
		p->ispc = NULL;
	}
	spin_unlock(&ica_lock);
	kfree(port);
	ica_proc_end(p);
}

static struct proc_exit_hook exit_hook = { .rank = PROC_EXIT_ISPC, .fn = ispc_proc_end };

void ispc_init(void)
{
	ispc_fastpath_init();
	proc_on_exit(&exit_hook);
}

int ispc_requests_in_flight(void)
{
	return nreqs;
}
