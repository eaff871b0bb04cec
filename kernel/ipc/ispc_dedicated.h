/*
 * ispc_dedicated.h — the fastpath's dedicated call and its return's
 * switch (ispc_fastpath.c has the preconditions at its top), inline where
 * they are used: the dedicated call in ispc_call (ispc_call.c,
 * fastpath_request_words: the result in the words) and in ispc_request
 * (through fastpath_request: the result in a message), the return in
 * ispc_reply_recv (fastpath_hand_back) and in ispc.c's reply (through
 * fastpath_return), so the dedicated paths pay no call layer for them.
 * Everything here runs under ica_lock.
 */
#ifndef HAKO_ISPC_DEDICATED_H
#define HAKO_ISPC_DEDICATED_H

#include <stdint.h>
#include <ica.h>
#include <ispc.h>
#include <proc.h>
#include <sched.h>
#include <sched_direct.h>
#include <spinlock.h>
#include <thread.h>
#include <arch/switch.h>
#include <arch/syscall.h>
#include "ispc_internal.h"

/* Direct switches made and switches refused (ica_stat's direct and
 * fallbacks); guard: ica_lock.  Defined in ispc_fastpath.c. */
extern uint64_t fp_direct, fp_fallbacks;

/* The one thread asleep on wq, or NULL if none or several. */
static inline struct thread *sole_sleeper(struct waitq *wq)
{
	struct list_node *n = wq->sleepers.next;
	if (n == &wq->sleepers || n->next != &wq->sleepers)
		return NULL;
	return list_entry(n, struct thread, rq_link);
}

/* Run the one sleeper of `to` in our place while we wait on `port`;
 * false if a precondition fails (nothing done). */
static inline __attribute__((always_inline))
bool hand_to(struct ispc_port *port, struct ispc_port *to)
{
	struct thread *next = sole_sleeper(&to->wq);
	if (!next)
		return false;
	fp_direct++;                     /* seen by ica_stat while we sleep */
	if (sched_switch_direct(&port->wq, next, &to->wq))
		return true;
	fp_direct--;                     /* ica_lock was held throughout */
	return false;
}

/* fastpath_return (ispc_internal.h), inline in ispc_reply_recv's
 * dedicated reply; ispc.c's reply calls it out of line. */
static inline __attribute__((always_inline))
void fastpath_hand_back(struct ispc_port *port, struct ispc_port *back)
{
	if (list_empty(&port->requests) && !back->receivers) {
		port->receivers++;           /* we wait in receive_locked next */
		bool switched = hand_to(port, back);
		port->receivers--;
		if (switched)
			return;
	}
	fp_fallbacks++;
	waitq_wake_all(&back->wq);
}

/* The one sleeper of `to` if it waits in a receive, else NULL. */
static inline struct thread *sole_receiver(struct ispc_port *to)
{
	return to->receivers == 1 ? sole_sleeper(&to->wq) : NULL;
}

/* Whether t's words calls may be ended by the thread that switches to it
 * in their dedicated waits (sched_switch_direct_user): where the arch has
 * the words calls, a ring-3 thread (a supervisor-mode one returns by its
 * own way), not under irqtrace=on (whose sections the switch would leave
 * open): thread.h's user_resumable.  Read by t itself, which then marks
 * its wait (words_wait). */
static inline bool words_resumable(const struct thread *t)
{
	return ARCH_SYSCALL_WORDS >= HAKO_WORDS && t->user_resumable;
}

/* fastpath_request and fastpath_request_words, one copy each: the request
 * on ICAs ctl and data, made and handed over; FP_DONE with *done the
 * result, taken off p's results and no longer awaited (the callers read
 * it and end it).  words (fastpath_request_words, a words call): a server
 * that sleeps in ispc_reply_recv's dedicated wait gets the request as its
 * words and goes straight back to user mode, and p's own wait may be
 * ended by the server's reply the same way (words_back). */
static inline __attribute__((always_inline))
enum fp_outcome dedicated_call(struct proc *p, struct ispc_port *port, int pid, int ctl, int data,
			       int flags, bool words, struct ispc_req **done)
{
	if (!proc_alone(p))
		return FP_NOT_TAKEN;
	struct ica *c = ica_lookup(ctl), *d = NULL;
	if (!c || c->holder != p || c->req)          /* an error or a forward: ispc.c's */
		return FP_NOT_TAKEN;
	if (data != -1) {
		d = ica_lookup(data);
		if (!d || d == c || d->holder != p || d->req)
			return FP_NOT_TAKEN;
	}
	struct ispc_port *to = find_listener(pid);
	if (!to || to->nrequests || to->handed || to == port || nreqs >= REQ_MAX ||
	    port->awaited >= HAKO_ISPC_OUTSTANDING_MAX)
		return FP_NOT_TAKEN;
	struct thread *next = sole_receiver(to);
	if (!next)
		return FP_NOT_TAKEN;
	/* ispc_request's new request, and receive_locked's part of taking it */
	struct ispc_req *r = req_alloc();
	req_init(r, c, d, NULL, 0, flags & HAKO_ISPC_DIRECT);
	c->req = r;
	if (d)
		d->req = r;
	r->stage[0] = p;
	r->depth = 1;
	port->awaited++;
	r->state = RQ_SERVING;
	r->at = to;
	set_holder(r, to->proc);
	ica_count_kept();
	fp_direct++;
	struct thread *t = words ? thread_current() : NULL;
	if (words && words_resumable(t))
		t->words_wait = r;              /* until woken: see words_back */
	if (words && ARCH_SYSCALL_WORDS >= HAKO_WORDS && next->words_wait == to &&
	    sched_direct_park_user(&port->wq, next, &to->wq)) {
		/* The server's end of its wait and of its ispc_reply_recv,
		 * done here: r, handed over, in its words. */
		to->receivers--;
		next->words_wait = NULL;
		fill_words(arch_thread_words(next), r, p->pid);
		sched_switch_direct_user(&port->wq, next, c->id);
	} else {
		to->handed = r;                 /* where the server finds it */
		if (!sched_switch_direct(&port->wq, next, &to->wq)) {
			if (words)
				t->words_wait = NULL;
			fp_direct--;            /* queued and woken, as ispc.c does it */
			fp_fallbacks++;
			to->handed = NULL;
			set_holder(r, NULL);
			r->state = RQ_QUEUED;
			list_push_back(&to->requests, &r->link);
			to->nrequests++;
			waitq_wake_all(&to->wq);
			return FP_WAIT;
		}
	}
	/* Woken.  r is still ours (only its first requester frees it); back
	 * here, it is the result, which take_result would find and take. */
	if (words)
		t->words_wait = NULL;
	if (r->state != RQ_RETURNED || r->at != port)
		return FP_WAIT;
	list_remove(&r->link);
	port->awaited--;
	*done = r;
	return FP_DONE;
}

/* p has read the result r: the ICAs are p's again, the record goes back
 * to the pool, ica_lock is released. */
static inline void call_done(struct proc *p, struct ispc_req *r)
{
	set_holder(r, p);
	req_free(r);
	spin_unlock(&ica_lock);
}

/*
 * fastpath_request's dedicated call on control ICA ctl and data ICA data
 * (-1: none), the result in the words w (hako_ispc.h).  Caller holds
 * ica_lock; outcomes as fastpath_request's (ispc_internal.h).
 */
static inline __attribute__((always_inline))
enum fp_outcome fastpath_request_words(struct proc *p, struct ispc_port *port, int pid, int ctl,
				       int data, int flags, uint64_t w[HAKO_WORDS])
{
	struct ispc_req *r;
	enum fp_outcome o = dedicated_call(p, port, pid, ctl, data, flags, true, &r);
	if (o == FP_DONE) {
		fill_words(w, r, r->answered_by);
		call_done(p, r);
	}
	return o;
}

#endif
