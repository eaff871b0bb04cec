/*
 * ispc_fastpath.c — the fastpath of server communication (paper 002): a
 * synchronous request, and the synchronous return of its result, switch
 * straight from requester to server and back (sched_switch_direct), with
 * no run-queue insert or remove, no scheduler decision, and the time
 * slice of the thread that waits handed to the thread it wakes.
 *
 * Everything else is ispc.c's general path, unchanged: the request is
 * queued at the server, the result at the requester, the control ICA (and
 * the data ICA) move by the same paste and peel, so asynchronous users
 * see the queues as they always are.  Only the wake-up differs: instead
 * of waking the one waiting thread onto the run queue and letting the
 * scheduler pick it, the waker sleeps and runs it at once.
 *
 * Preconditions — all must hold, checked under ica_lock (and the run-queue
 * lock for the thread states); if any fails, the general path runs
 * (the waiting thread is woken onto its run queue) and nothing differs:
 *   - the switch is on (`fastpath=on`, or ispc_mode HAKO_ISPC_FASTPATH_ON);
 *   - request: a new synchronous request (no HAKO_ISPC_ASYNC, no
 *     HAKO_ISPC_COPY, not a forward), and it is still queued at its server
 *     when the requester comes to wait (in baseline mode the requester
 *     peels its ICAs first, with ica_lock released);
 *   - request: the server has exactly this one request queued;
 *   - return: a reply with HAKO_ISPC_WAIT (not HAKO_ISPC_NONBLOCK) by a
 *     listening server with fast mode's window (it replies and receives
 *     under one hold of ica_lock), the result reached a live requester,
 *     and no other request waits at the server (it is going to sleep);
 *   - exactly one thread sleeps on the port to be woken (the general path
 *     would wake just that one);
 *   - that thread last ran on this CPU (same CPU), neither thread is
 *     killed (no pending kill), neither is periodic (isoch.c), no switch
 *     is already due on this CPU, and no runnable thread here has a higher
 *     priority than the one woken (sched_switch_direct).
 * The woken thread rechecks its condition like after any wake-up, so a
 * kill, the end of either process, or an asynchronous user of the same
 * queues is handled by ispc.c as always.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <errno.h>
#include <ispc.h>
#include <thread.h>
#include "ispc_internal.h"

bool ispc_fastpath_on;
static uint64_t direct, fallbacks;   /* guard: ica_lock */

void ispc_fastpath_init(void)
{
	const char *v = cmdline_get(&kcmdline, "fastpath");   /* on or off: options.c */
	ispc_fastpath_on = v && strcmp(v, "on") == 0;
}

long ispc_fastpath_set(int mode)
{
	if (mode == HAKO_ISPC_FASTPATH_ON || mode == HAKO_ISPC_FASTPATH_OFF)
		__atomic_store_n(&ispc_fastpath_on, mode == HAKO_ISPC_FASTPATH_ON, __ATOMIC_RELAXED);
	else if (mode != HAKO_ISPC_FASTPATH_QUERY)
		return -EINVAL;
	return ispc_fastpath_on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF;
}

void ispc_fastpath_stat(struct hako_ica_stat *st)
{
	spin_lock(&ica_lock);
	st->direct = direct;
	st->fallbacks = fallbacks;
	spin_unlock(&ica_lock);
	st->fastpath = (int32_t)ispc_fastpath_set(HAKO_ISPC_FASTPATH_QUERY);
}

/* The one thread asleep on wq, or NULL if none or several. */
static struct thread *sole_sleeper(struct waitq *wq)
{
	struct list_node *n = wq->sleepers.next;
	if (n == &wq->sleepers || n->next != &wq->sleepers)
		return NULL;
	return list_entry(n, struct thread, rq_link);
}

/* Run the one sleeper of `to` in our place while we wait on `port`;
 * false if a precondition fails (nothing done). */
static bool hand_to(struct ispc_port *port, struct ispc_port *to)
{
	struct thread *next = sole_sleeper(&to->wq);
	if (!next)
		return false;
	direct++;                        /* seen by ica_stat while we sleep */
	if (sched_switch_direct(&port->wq, next, &to->wq))
		return true;
	direct--;                        /* ica_lock was held throughout */
	return false;
}

void fastpath_call(struct ispc_port *port, int tag)
{
	/* Through the tag, not a kept pointer: in baseline mode ica_lock was
	 * released while the requester peeled, and the request may have been
	 * served (its server was awake then) or failed meanwhile.  Queued
	 * still, it is ours: a control ICA is in one request at a time. */
	struct ica *c = ica_lookup(tag);
	struct ispc_req *r = c ? c->req : NULL;
	if (!r || r->ctl != c || r->state != RQ_QUEUED)
		return;
	struct ispc_port *to = r->at;
	if (to->nrequests == 1 && hand_to(port, to))
		return;
	fallbacks++;
	waitq_wake_all(&to->wq);
}

void fastpath_return(struct ispc_port *port, struct ispc_port *back)
{
	if (list_empty(&port->requests) && hand_to(port, back))
		return;
	fallbacks++;
	waitq_wake_all(&back->wq);
}
