/*
 * sys_isoch.c — the system calls of periodic threads (paper 004):
 * isoch_ctl and isoch_wait.  Checks and copies; the work is isoch.c's.
 * CREATE reserves CPU time above every normal thread: HAKO_PRIV_SCHED
 * (priv.h); the ops on a thread already periodic are open.
 */
#include <stdint.h>
#include <errno.h>
#include <isoch.h>
#include <priv.h>
#include <syscall.h>
#include <thread.h>
#include <uaccess.h>

static long create(struct thread *t, uint64_t req)
{
	return isoch_create(t, (struct hako_isoch *)req);
}

long sys_isoch_ctl(uint64_t uop, uint64_t utid, uint64_t uarg)
{
	int op = (int)uop, tid = (int)utid;
	struct hako_isoch st = { 0 };
	if (tid < 0)
		return -ESRCH;
	if (op == HAKO_ISOCH_CREATE) {
		if (priv_check(HAKO_PRIV_SCHED) < 0)
			return -EPERM;
		if (copy_from_user(&st, uarg, sizeof st) < 0)
			return -EFAULT;
		long r = on_own_thread((uint64_t)tid, create, (uint64_t)&st);
		if (r == 0 || r == -ENOSPC)      /* the outcome, or why it was refused */
			if (copy_to_user(uarg, &st, sizeof st) < 0)
				return -EFAULT;
		return r;
	}
	if (op == HAKO_ISOCH_INFO && !user_range_ok(uarg, sizeof st))
		return -EFAULT;
	if (op < HAKO_ISOCH_START || op > HAKO_ISOCH_DESTROY)
		return -EINVAL;
	long r = isoch_op(op, tid, &st);
	if (r == 0 && op == HAKO_ISOCH_INFO && copy_to_user(uarg, &st, sizeof st) < 0)
		return -EFAULT;
	return r;
}

long sys_isoch_wait(void)
{
	return isoch_wait();
}
