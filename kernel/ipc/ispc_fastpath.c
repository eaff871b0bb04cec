/*
 * ispc_fastpath.c — the fastpath of server communication (paper 002): a
 * synchronous request, and the synchronous return of its result, switch
 * straight from requester to server and back (sched_switch_direct), with
 * no run-queue insert or remove, no scheduler decision, and the time
 * slice of the thread that waits handed to the thread it wakes.
 *
 * Two ways in.  The dedicated call (fastpath_request): a new synchronous
 * request whose server already waits in its receive is made and handed
 * to that receiver in one hold of ica_lock, without the request queue:
 * the requester does the receiver's part of the receive (the request is
 * serving, the server holds its ICAs) and switches to it, and once the
 * result has come back it takes the result itself, without a search.
 * The late switch (fastpath_call): a synchronous request the dedicated
 * call did not take is queued as ispc.c does it, without waking the
 * server; when the requester comes to wait, it switches to the server if
 * it can.  The return (fastpath_return): a windowed server's reply with
 * HAKO_ISPC_WAIT switches back to its waiting requester.
 *
 * Everything else is ispc.c's general path, unchanged: the control ICA
 * (and the data ICA) change holder as in a receive and a result (in fast
 * mode the requester's mappings are kept and the server's window covers
 * them, so moving them is bookkeeping), and asynchronous users see the
 * queues as they always are.  Whenever a precondition fails, the general
 * path runs and nothing differs.
 *
 * Preconditions — all checked under ica_lock (and the run-queue lock for
 * the thread states, in sched_switch_direct):
 *   - the switch is on (`fastpath=on`, or ispc_mode HAKO_ISPC_FASTPATH_ON);
 *   - dedicated call: a new synchronous request (no HAKO_ISPC_ASYNC, no
 *     HAKO_ISPC_COPY, not a forward) that ispc.c would accept (ICAs held
 *     by the requester and in no request, a listening server that is not
 *     the requester, a free record, fewer than 32 results awaited); fast
 *     mode, and the requester has one thread (its ICAs stay mapped); the
 *     server has no request queued or handed, and its only sleeper on the
 *     port is a thread in a receive;
 *   - late switch: a new synchronous request (as above, in either mode,
 *     with any number of threads), still queued at its server when the
 *     requester comes to wait (in baseline mode the requester peels its
 *     ICAs first, with ica_lock released), as the only request there;
 *   - return: a reply with HAKO_ISPC_WAIT (not HAKO_ISPC_NONBLOCK) by a
 *     listening server with fast mode's window (it replies and receives
 *     under one hold of ica_lock), the result reached a live requester
 *     that has no thread in a receive, and no other request waits at the
 *     server (it is going to sleep);
 *   - exactly one thread sleeps on the port to be woken (the general path
 *     would wake just that one);
 *   - that thread last ran on this CPU (same CPU), neither thread is
 *     killed (no pending kill), neither is periodic (isoch.c), no switch
 *     is already due on this CPU, and no runnable thread here has a higher
 *     priority than the one woken (sched_switch_direct).
 * If the switch itself is refused after the dedicated call has made the
 * request, the request is queued and the server woken: the state the
 * general path would have left.  The woken thread rechecks its condition
 * like after any wake-up, so a kill, the end of either process, or an
 * asynchronous user of the same queues is handled by ispc.c as always.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <errno.h>
#include <ispc.h>
#include <proc.h>
#include <thread.h>
#include "ispc_internal.h"
#include "ispc_dedicated.h"

bool ispc_fastpath_on;
uint64_t fp_direct, fp_fallbacks;   /* ispc_dedicated.h */

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
	st->direct = fp_direct;
	st->fallbacks = fp_fallbacks;
	spin_unlock(&ica_lock);
	st->fastpath = (int32_t)ispc_fastpath_set(HAKO_ISPC_FASTPATH_QUERY);
}

enum fp_outcome fastpath_request(struct proc *p, struct ispc_port *port, int pid,
				 struct hako_ispc_msg *m, int flags)
{
	struct ispc_req *r;
	enum fp_outcome o = dedicated_call(p, port, pid, m->ctl, m->data, flags, false, &r);
	if (o == FP_DONE) {
		fill_msg(m, r, r->answered_by);
		call_done(p, r);
	}
	return o;
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
	fp_fallbacks++;
	waitq_wake_all(&to->wq);
}

void fastpath_return(struct ispc_port *port, struct ispc_port *back)
{
	fastpath_hand_back(port, back);
}
