/*
 * sys_nic.c — the network-card system calls (nic_ctl, nic_recv, nic_send,
 * nic_traffic): the card index, flags and lengths checked, the structures
 * and frames copied between user memory and the kernel stack; nic_user.c,
 * nic_traffic.c and the driver's nic_send do the work.  The kernel's
 * sender (nic_traffic) needs HAKO_PRIV_DEVCTL (priv.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <syscall.h>
#include <drvproc.h>
#include <nic.h>
#include <nic_user.h>
#include <priv.h>
#include <proc.h>
#include <uaccess.h>

_Static_assert(ETH_FRAME_MAX <= 2048, "a frame is copied through the stack");

static bool card_ok(uint64_t nic) { return nic < (uint64_t)nic_count(); }

long sys_nic_ctl(uint64_t nic, uint64_t op, uint64_t uinfo)
{
	if (!card_ok(nic))
		return -ENODEV;
	int pid = proc_current()->pid;
	struct hako_nic_info in;
	switch ((int)op) {
	case HAKO_NIC_INFO:
		nic_user_info((int)nic, &in);
		return copy_to_user(uinfo, &in, sizeof in);
	case HAKO_NIC_OPEN:
		if (copy_from_user(&in, uinfo, sizeof in) < 0)
			return -EFAULT;
		return nic_user_open((int)nic, in.cpu, pid);
	case HAKO_NIC_CLOSE:
		return nic_user_close((int)nic, pid);
	}
	return -EINVAL;
}

/* The frame is taken before it is copied out: a bad buffer loses it. */
long sys_nic_recv(uint64_t nic, uint64_t ubuf, uint64_t len, uint64_t flags)
{
	if (!card_ok(nic))
		return -ENODEV;
	if (flags & ~(uint64_t)HAKO_NIC_NONBLOCK)
		return -EINVAL;
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	uint8_t frame[ETH_FRAME_MAX];
	long r = nic_user_take((int)nic, proc_current()->pid, frame, !(flags & HAKO_NIC_NONBLOCK));
	if (r > 0 && copy_to_user(ubuf, frame, (uint64_t)r < len ? (uint64_t)r : len) < 0)
		return -EFAULT;
	return r;
}

/* A card whose driver is a process: a drvproc call into it (paper 003), which copies the frame in. */
long sys_nic_send(uint64_t nic, uint64_t uframe, uint64_t len)
{
	if (!card_ok(nic))
		return -ENODEV;
	if (len < ETH_HLEN || len > ETH_FRAME_MAX)
		return -EINVAL;
	struct drvproc *c = drvproc_of_nic((int)nic);
	if (c)
		return user_range_ok(uframe, len) ? drvproc_call(c, proc_current(), HAKO_DRVPROC_NET_SEND, uframe, len)
						  : -EFAULT;
	uint8_t frame[ETH_FRAME_MAX];
	if (copy_from_user(frame, uframe, len) < 0)
		return -EFAULT;
	return nic_send(nic_get((int)nic), frame, len);
}

/* spec NULL: stop the card's sender. */
long sys_nic_traffic(uint64_t nic, uint64_t uspec)
{
	if (priv_check(HAKO_PRIV_DEVCTL) < 0)
		return -EPERM;
	if (!card_ok(nic))
		return -ENODEV;
	int pid = proc_current()->pid;
	if (!uspec)
		return nic_traffic_stop((int)nic, pid);
	struct hako_traffic sp;
	if (copy_from_user(&sp, uspec, sizeof sp) < 0)
		return -EFAULT;
	return nic_traffic_start((int)nic, &sp, pid);
}
