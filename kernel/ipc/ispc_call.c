/*
 * ispc_call.c — the two server calls with the message in registers
 * (seL4's Call and ReplyRecv in Hako's terms): ispc_call, a new
 * synchronous request and the wait for its result in one kernel entry,
 * and ispc_reply_recv, a server's synchronous reply followed by its next
 * receive.  The system-call layer (sys_ispc.c) takes the message's fields
 * from argument registers and returns the result's in registers
 * (hako_ispc.h's words), so no struct hako_ispc_msg crosses user memory.
 *
 * Both are ispc.c's calls with fixed flags: the control ICA (and the data
 * ICA) move to the server and back exactly as there, the fastpath
 * (ispc_fastpath.c) is taken under its own preconditions and on/off
 * switch, and every failure, fallback and asynchronous user of the same
 * queues behaves as in the general path, which these calls are.
 *
 * Preconditions (checked here, before anything is done; the rest are
 * ispc_request's and ispc_reply's):
 *   - ispc_call: flags has nothing but HAKO_ISPC_DIRECT (no ASYNC, no
 *     COPY, no WAIT: a synchronous call whose result comes back to it);
 *   - ispc_reply_recv: flags has nothing but HAKO_ISPC_NONBLOCK; ctl < 0
 *     means no reply, only the receive (a server's first call).
 * Callers hold no lock; both may sleep.
 */
#include <errno.h>
#include <ispc.h>
#include <proc.h>

long ispc_call(struct proc *p, int pid, struct hako_ispc_msg *m, int flags)
{
	if (flags & ~HAKO_ISPC_DIRECT)
		return -EINVAL;
	long r = ispc_request(p, pid, m, flags);
	return r < 0 ? r : m->ctl;
}

long ispc_reply_recv(struct proc *p, struct hako_ispc_msg *m, int flags)
{
	if (flags & ~HAKO_ISPC_NONBLOCK)
		return -EINVAL;
	long r = m->ctl < 0 ? ispc_receive(p, m, flags) : ispc_reply(p, m, HAKO_ISPC_WAIT | flags);
	return r < 0 ? r : m->ctl;
}
