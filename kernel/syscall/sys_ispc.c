/*
 * sys_ispc.c — the ICA and server-communication system calls (paper 002):
 * argument checks and copies; ica.c and ispc.c do the work.  ispc_call
 * and ispc_reply_recv take the message from argument registers and give
 * it back in registers (hako_ispc.h's words; -ENOSYS where a register
 * cannot hold them).  Switching
 * the mode for everyone (ispc_mode) needs HAKO_PRIV_IPC (priv.h).
 */
#include <stdint.h>
#include <errno.h>
#include <syscall.h>
#include <ica.h>
#include <ispc.h>
#include <priv.h>
#include <proc.h>
#include <uaccess.h>
#include <arch/syscall.h>

long sys_ica_alloc(uint64_t pages, uint64_t uva)
{
	uint64_t va = 0;
	if (copy_to_user(uva, &va, sizeof va) < 0)     /* fail before allocating */
		return -EFAULT;
	long id = ica_alloc(proc_current(), pages, &va);
	if (id >= 0 && copy_to_user(uva, &va, sizeof va) < 0) {
		ica_free(proc_current(), (int)id);
		return -EFAULT;
	}
	return id;
}

long sys_ica_free(uint64_t id) { return ica_free(proc_current(), (int)id); }
long sys_ica_paste(uint64_t id) { return ica_paste(proc_current(), (int)id); }
long sys_ica_peel(uint64_t id) { return ica_peel(proc_current(), (int)id); }

long sys_ica_stat(uint64_t uout)
{
	struct hako_ica_stat st = { 0 };
	ica_stat(&st);
	st.requests = ispc_requests_in_flight();
	ispc_fastpath_stat(&st);
	return copy_to_user(uout, &st, sizeof st);
}

long sys_ispc_listen(uint64_t flags) { return ispc_listen(proc_current(), (int)flags); }
long sys_ispc_mode(uint64_t mode)
{
	int m = (int)mode;
	bool fastpath = m == HAKO_ISPC_FASTPATH_ON || m == HAKO_ISPC_FASTPATH_OFF;
	if (m == HAKO_ISPC_FASTPATH_QUERY)
		return ispc_fastpath_set(m);
	if (priv_check(HAKO_PRIV_IPC) < 0)
		return -EPERM;
	return fastpath ? ispc_fastpath_set(m) : ica_set_mode(m);
}

/* Read the message, and make sure it can be written back: a result or a
 * request taken must not be lost to a bad buffer. */
static long msg_in(struct hako_ispc_msg *m, uint64_t umsg)
{
	return copy_from_user_rw(m, umsg, sizeof *m);
}

/* Copy the message back if the call succeeded (the result, if one came). */
static long msg_out(long ret, const struct hako_ispc_msg *m, uint64_t umsg)
{
	if (ret >= 0 && copy_to_user(umsg, m, sizeof *m) < 0)
		return -EFAULT;
	return ret;
}

long sys_ispc_request(uint64_t pid, uint64_t umsg, uint64_t flags)
{
	struct hako_ispc_msg m;
	if (msg_in(&m, umsg) < 0)
		return -EFAULT;
	return msg_out(ispc_request(proc_current(), (int)pid, &m, (int)flags), &m, umsg);
}

long sys_ispc_receive(uint64_t umsg, uint64_t flags)
{
	struct hako_ispc_msg m;
	if (msg_in(&m, umsg) < 0)
		return -EFAULT;
	return msg_out(ispc_receive(proc_current(), &m, (int)flags), &m, umsg);
}

long sys_ispc_reply(uint64_t umsg, uint64_t flags)
{
	struct hako_ispc_msg m;
	if (msg_in(&m, umsg) < 0)
		return -EFAULT;
	return msg_out(ispc_reply(proc_current(), &m, (int)flags), &m, umsg);
}

long sys_ispc_result(uint64_t tag, uint64_t umsg, uint64_t flags)
{
	struct hako_ispc_msg m;
	if (msg_in(&m, umsg) < 0)
		return -EFAULT;
	return msg_out(ispc_result(proc_current(), (int)tag, &m, (int)flags), &m, umsg);
}

/* A message in registers: the words go straight into the caller's saved
 * registers (arch_syscall_words), written only by a call that succeeds. */
long sys_ispc_call(uint64_t pid, uint64_t ctl, uint64_t data, uint64_t flags)
{
	if (ARCH_SYSCALL_WORDS < HAKO_WORDS)
		return -ENOSYS;
	return ispc_call(proc_current(), (int)pid, (int)ctl, (int)data, (int)flags, arch_syscall_words());
}

long sys_ispc_reply_recv(uint64_t ctl, uint64_t status, uint64_t flags)
{
	if (ARCH_SYSCALL_WORDS < HAKO_WORDS)
		return -ENOSYS;
	return ispc_reply_recv(proc_current(), (int)ctl, (int)status, (int)flags, arch_syscall_words());
}
