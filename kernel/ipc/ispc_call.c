/*
 * ispc_call.c — the two server calls with the message in registers
 * (seL4's Call and ReplyRecv in Hako's terms): ispc_call, a new
 * synchronous request and the wait for its result in one kernel entry,
 * and ispc_reply_recv, a server's synchronous reply followed by its next
 * receive.  The message's fields come in as arguments and go back as the
 * words of hako_ispc.h, which the system-call layer (sys_ispc.c) leaves
 * in the caller's registers: no struct hako_ispc_msg crosses user memory.
 *
 * Each has a dedicated path for the fastpath's common case, with one
 * hold of ica_lock each way and no search beyond the server's port:
 *   ispc_call: the fastpath's dedicated call (fastpath_request_words,
 *     inline: ispc_dedicated.h), its result read straight into the words;
 *   ispc_reply_recv: the reply of a windowed server whose result goes to
 *     a live stage (the common case of ispc.c's deliver), the return's
 *     direct switch (fastpath_return, inline: fastpath_hand_back), then
 *     the request the fastpath handed to this server meanwhile, read
 *     straight into the words.
 * Everything else — and every step of those where a precondition fails —
 * is ispc.c's general path, the one ispc_request, ispc_reply and
 * ispc_receive take: the control ICA (and the data ICA) change holder as
 * there, asynchronous users of the same queues see them as always, and
 * every failure gives what the general path gives.
 *
 * Preconditions, checked in this order before anything is changed:
 *   - ispc_call: flags has nothing but HAKO_ISPC_DIRECT (else -EINVAL);
 *     a forward of a direct request is passed on as by ispc_request
 *     (HAKO_ISPC_PASSED, no result comes back); dedicated path: p has a port, the fastpath is on, fast mode, then
 *     fastpath_request's own (ispc_fastpath.c), under ica_lock;
 *   - ispc_reply_recv: flags has nothing but HAKO_ISPC_NONBLOCK (else
 *     -EINVAL); ctl < 0 is a receive alone (a server's first call);
 *     dedicated path: ctl >= 0, flags 0, the fastpath is on, p has fast
 *     mode's window and listens; under ica_lock, ctl is a request p
 *     serves, and the stage its result goes back to is alive; after the
 *     return, a request was handed to p (port->handed), else
 *     ispc.c's receive waits the general way.
 * Callers hold no lock; both may sleep.  Both are called with interrupts
 * off (x86_64's syscall_entry leaves them off for the words calls, and
 * syscall_dispatch turns them off): the dedicated paths keep them off,
 * touch no user memory and take ica_lock inline (spin_nested.h's
 * spin_lock_irqs_off: each direction of a round trip takes it once); the
 * general paths turn them on first (general_begin).
 *
 * When the other side sleeps in the other call's dedicated path, the side
 * that switches ends that call for it and resumes it straight to user
 * mode (sched_switch_direct_user): dedicated_call writes the request into
 * a waiting server's words, words_back the result into a waiting
 * client's.  A thread marks such a wait in thread.words_wait, only where
 * words_resumable says it may be resumed so.
 */
#include <stdint.h>
#include <errno.h>
#include <ica.h>
#include <ispc.h>
#include <proc.h>
#include <spinlock.h>
#include <spin_nested.h>
#include <thread.h>
#include <arch/switch.h>
#include "ispc_internal.h"
#include "ispc_dedicated.h"

/* The general path's answer as words: the tag (r 0, the message in m),
 * HAKO_ISPC_PASSED (a forward of a direct request passed on: no result,
 * m as the caller gave it; tags are never 1, ica.h), or the error. */
static long general(long r, const struct hako_ispc_msg *m, uint64_t w[HAKO_WORDS])
{
	if (r < 0)
		return r;
	hako_ispc_pack(m, w);
	return r == HAKO_ISPC_PASSED ? r : m->ctl;
}

/* ispc.c's paths, each with a message of its own (kept out of the
 * dedicated paths' frames), and with interrupts on: they may copy from
 * user memory and sleep the general way. */
static inline void general_begin(void)
{
	arch_irq_enable();
}

static __attribute__((noinline)) long request_general(struct proc *p, int pid, int ctl, int data,
							int flags, uint64_t w[HAKO_WORDS])
{
	general_begin();
	struct hako_ispc_msg m = { .ctl = ctl, .data = data };
	return general(ispc_request(p, pid, &m, flags), &m, w);
}

static __attribute__((noinline)) long result_general(struct proc *p, int ctl, uint64_t w[HAKO_WORDS])
{
	general_begin();
	struct hako_ispc_msg m;
	return general(ispc_result(p, ctl, &m, 0), &m, w);
}

/* A reply (ctl >= 0) and the next receive, or the receive alone. */
static __attribute__((noinline)) long reply_recv_general(struct proc *p, int ctl, int status, int flags,
							   uint64_t w[HAKO_WORDS])
{
	general_begin();
	struct hako_ispc_msg m = { .ctl = ctl, .status = status };
	long r = ctl < 0 ? ispc_receive(p, &m, flags) : ispc_reply(p, &m, HAKO_ISPC_WAIT | flags);
	return general(r, &m, w);
}

long ispc_call(struct proc *p, int pid, int ctl, int data, int flags, uint64_t w[HAKO_WORDS])
{
	if (flags & ~HAKO_ISPC_DIRECT)
		return -EINVAL;
	struct ispc_port *port = __atomic_load_n(&p->ispc, __ATOMIC_ACQUIRE);
	if (port && __builtin_expect(ispc_fastpath_on, 1) && ica_mode == HAKO_ISPC_FAST) {
		spin_lock_irqs_off(&ica_lock);
		switch (fastpath_request_words(p, port, pid, ctl, data, flags, w)) {
		case FP_DONE:                /* ica_lock released */
			return ctl;
		case FP_WAIT:                /* the switch was refused: the general wait, after
						one more hold (in fast mode ispc_result pastes the
						ICAs, still mapped, again: the same PTEs) */
			spin_unlock(&ica_lock);
			return result_general(p, ctl, w);
		case FP_NOT_TAKEN:
			break;
		}
		spin_unlock(&ica_lock);
	}
	return request_general(p, pid, ctl, data, flags, w);
}

/* The return's direct switch to a requester that sleeps in ispc_call's
 * dedicated wait for r (to, r's live stage, is its process): its end of
 * the call is done here (r read into its words, its ICAs back, the record
 * freed: what dedicated_call and call_done do once it wakes) and it is
 * resumed straight to user mode, while we wait in our receive as
 * fastpath_hand_back would have us.  False, with nothing changed, if it
 * cannot be; true once we are woken (ica_lock held).  Preconditions:
 * fastpath_hand_back's, and the requester's thread waits for r. */
static inline __attribute__((always_inline))
bool words_back(struct ispc_port *port, struct ispc_req *r, struct proc *to)
{
	struct ispc_port *back = to->ispc;
	if (ARCH_SYSCALL_WORDS < HAKO_WORDS || !list_empty(&port->requests) || back->receivers)
		return false;
	struct thread *next = sole_sleeper(&back->wq);
	if (!next || next->words_wait != r)
		return false;
	port->receivers++;               /* we wait in receive_locked next */
	if (!sched_direct_park_user(&port->wq, next, &back->wq)) {
		port->receivers--;
		return false;
	}
	fp_direct++;
	back->awaited--;
	next->words_wait = NULL;
	fill_words(arch_thread_words(next), r, r->answered_by);
	int tag = r->ctl->id;
	set_holder(r, to);
	req_free(r);
	sched_switch_direct_user(&port->wq, next, tag);
	port->receivers--;
	return true;
}

/* The dedicated reply: p answers its request on control ICA ctl with
 * status, as ispc_reply's fast branch does it when the result reaches a
 * live stage, and waits for its next request (words_back or
 * fastpath_hand_back: the current thread, asleep there, may be resumed
 * straight to user mode with that request, by dedicated_call).  False
 * (nothing changed) if ctl is not such a request.  Caller holds ica_lock,
 * held on return. */
static bool reply_direct(struct proc *p, struct ispc_port *port, int ctl, int status)
{
	struct ica *c = ica_lookup(ctl);
	struct ispc_req *r = c ? c->req : NULL;
	if (!r || r->ctl != c || r->state != RQ_SERVING || r->at != port || !port->listening)
		return false;
	struct proc *to = stage_back(r);
	if (!to)
		return false;                /* that stage has ended: deliver skips it */
	set_holder(r, NULL);
	r->answered_by = p->pid;
	r->status = status;
	r->depth = r->direct ? 0 : r->depth - 1;
	struct thread *t = thread_current();
	if (words_resumable(t))
		t->words_wait = port;
	if (!words_back(port, r, to))
		fastpath_hand_back(port, return_to(r, to));
	t->words_wait = NULL;
	return true;
}

long ispc_reply_recv(struct proc *p, int ctl, int status, int flags, uint64_t w[HAKO_WORDS])
{
	if (flags & ~HAKO_ISPC_NONBLOCK)
		return -EINVAL;
	struct ispc_port *port = p->ispc;
	if (ctl < 0 || !port || flags || !__builtin_expect(ispc_fastpath_on, 1) || !p->ica_window)
		return reply_recv_general(p, ctl, status, flags, w);
	spin_lock_irqs_off(&ica_lock);
	if (!reply_direct(p, port, ctl, status)) {
		spin_unlock(&ica_lock);
		return reply_recv_general(p, ctl, status, 0, w);
	}
	struct ispc_req *r = port->handed;   /* by the fastpath: serving, ours already */
	if (!r) {                            /* the general receive, after one more hold */
		spin_unlock(&ica_lock);
		return reply_recv_general(p, -1, 0, 0, w);
	}
	port->handed = NULL;
	struct proc *from = r->stage[r->depth - 1];
	fill_words(w, r, from ? from->pid : -1);
	int tag = r->ctl->id;
	spin_unlock(&ica_lock);
	return tag;
}
