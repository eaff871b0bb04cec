/*
 * sys_core.c — the system calls of drivers as processes (paper 003):
 * drv_ctl (a driver process's grants), core_register, core_call,
 * core_recv, core_reply, core_copyin, core_copyout, core_rx, core_ctl.
 * Checks and copies only; kernel/drvproc/ does the work.
 *
 * The driver-only calls (drv_ctl, core_register, core_recv, core_reply,
 * core_copy*, core_rx) give -EPERM to a process that is not a driver
 * process; a bad pointer is -EFAULT, a core (card) that does not exist
 * -ENODEV, a call id that is not the one received -EINVAL.  Every
 * request of a driver process is counted here (stat.requests; core_recv,
 * the driver's loop, only when it is refused)
 * and so is every refusal (stat.refused); while the driver handles a WILD
 * event (c->wild_window, core_call.c) its requests are counted as wild
 * and each one the kernel accepts is wild_accepted.  These counts live in
 * the kernel: the driver's memory, which fault injection flips, holds none.
 * core_ctl's STAT is open; RESET, INJECT and RESTART need
 * HAKO_PRIV_DRVPROC (priv.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <core.h>
#include <errno.h>
#include <pci.h>
#include <string.h>
#include <nic.h>
#include <priv.h>
#include <proc.h>
#include <region.h>
#include <arch/arch.h>
#include <syscall.h>
#include <uaccess.h>

_Static_assert(sizeof(((struct hako_core_msg *)0)->data) >= ETH_FRAME_MAX, "a frame fits a message");

/* The caller's core, or NULL (then -EPERM).  p->core goes when p ends. */
static struct core *my_core(void)
{
	return core_of_proc(proc_current());
}

/* A driver's request and its outcome R (a refusal: -EPERM, -EFAULT, -EINVAL): counted. */
static long checked(struct core *c, long r)
{
	bool refused = r == -EPERM || r == -EFAULT || r == -EINVAL;
	__atomic_fetch_add(&c->stat.requests, 1, __ATOMIC_RELAXED);
	if (refused)
		__atomic_fetch_add(&c->stat.refused, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&c->wild_window, __ATOMIC_RELAXED)) {
		__atomic_fetch_add(&c->stat.wild_requests, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(refused ? &c->stat.wild_refused : &c->stat.wild_accepted, 1,
				   __ATOMIC_RELAXED);
	}
	return r;
}

static long drv_ctl(struct core *c, uint64_t op, uint64_t uarg);

long sys_drv_ctl(uint64_t op, uint64_t uarg)
{
	struct core *c = my_core();
	if (!c)
		return -EPERM;
	return checked(c, drv_ctl(c, op, uarg));
}

static long drv_info(struct core *c, uint64_t uarg)
{
	struct hako_drv_info in = { 0 };
	if (!c->dev)
		return -ENODEV;
	strlcpy(in.driver, c->dev->driver->name, sizeof in.driver);
	strlcpy(in.name, c->dev->name, sizeof in.name);
	in.index = c->dev->index;
	in.vendor = c->dev->pci->vendor;
	in.device = c->dev->pci->device;
	in.msi = drv_uses_msi(c->dev);
	return copy_to_user(uarg, &in, sizeof in);
}

static long drv_ctl(struct core *c, uint64_t op, uint64_t uarg)
{
	struct hako_drv_grant g;
	struct hako_drv_dma d;
	long err;
	switch ((int)op) {
	case HAKO_DRV_INFO:
		return drv_info(c, uarg);
	case HAKO_DRV_MMIO:
	case HAKO_DRV_PORTS:
		if (copy_from_user(&g, uarg, sizeof g) < 0)
			return -EFAULT;
		err = op == HAKO_DRV_MMIO ? core_grant_mmio(c, g.bar, &g) : core_grant_ports(c, g.bar, &g);
		return err < 0 ? err : copy_to_user(uarg, &g, sizeof g);
	case HAKO_DRV_DMA_ALLOC:
		if (copy_from_user(&d, uarg, sizeof d) < 0)
			return -EFAULT;
		err = core_grant_dma(c, d.bytes, &d);
		if (err == 0 && copy_to_user(uarg, &d, sizeof d) < 0) {
			core_free_dma(c, d.addr);
			return -EFAULT;
		}
		return err;
	case HAKO_DRV_DMA_FREE:
		if (copy_from_user(&d, uarg, sizeof d) < 0)
			return -EFAULT;
		return core_free_dma(c, d.addr);
	case HAKO_DRV_IRQ_DONE:
		return !c->dead ? core_irq_done(c, uarg != 0) : -EINVAL;
	}
	return -EINVAL;
}

long sys_core_register(uint64_t ureg)
{
	struct core *c = my_core();
	if (!c)
		return -EPERM;
	struct hako_core_reg reg;
	if (copy_from_user(&reg, ureg, sizeof reg) < 0)
		return checked(c, -EFAULT);
	return checked(c, core_register(c, &reg));
}

/*
 * A program calls a driver entry.  A card driven by a process: the call
 * goes to it (a process switch there and back) and the driver copies the
 * data in.  A card driven in the kernel: the same entry runs here
 * directly, with the copy-in on this side.
 */
long sys_core_call(uint64_t core, uint64_t entry, uint64_t ubuf, uint64_t len)
{
	if (core >= (uint64_t)nic_count())
		return -ENODEV;
	if (entry != HAKO_CORE_NET_SEND && entry != HAKO_CORE_NET_COPY)
		return -EINVAL;
	if (len < (entry == HAKO_CORE_NET_COPY ? 1 : ETH_HLEN) || len > ETH_FRAME_MAX)
		return -EINVAL;
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	struct core *c = core_of_nic((int)core);
	if (c)
		return core_call(c, proc_current(), (int)entry, ubuf, len);
	struct hako_core_stat *ks = core_kernel_stat((int)core);
	uint8_t frame[ETH_FRAME_MAX];
	uint64_t t0 = arch_tsc();
	long err;
	if (len > 4) {
		region_begin(REGION_DRVPROC_COPYIN + 2);
		err = copy_from_user(frame, ubuf, len);
		region_end(REGION_DRVPROC_COPYIN + 2);
	} else {
		region_begin(REGION_DRVPROC_COPYIN);
		err = copy_from_user(frame, ubuf, len);
		region_end(REGION_DRVPROC_COPYIN);
	}
	if (err < 0)
		return -EFAULT;
	ks->last_copy_tsc = arch_tsc() - t0;
	ks->calls++;
	ks->copyin_bytes += len;
	if (entry == HAKO_CORE_NET_COPY)
		return (long)len;
	return nic_send(nic_get((int)core), frame, len);
}

long sys_core_recv(uint64_t umsg)
{
	struct core *c = my_core();
	if (!c)
		return -EPERM;
	struct hako_core_msg m;
	if (copy_from_user(&m.st, umsg + offsetof(struct hako_core_msg, st), sizeof m.st) < 0)
		return checked(c, -EFAULT);
	long r = core_recv(c, &m);
	if (r < 0)
		return r;
	uint64_t n = offsetof(struct hako_core_msg, st);
	if (copy_to_user(umsg, &m, n) < 0)
		return -EFAULT;
	if (m.kind == HAKO_CORE_MSG_EVENTS && (m.events & HAKO_CORE_EV_TXQ) &&
	    copy_to_user(umsg + offsetof(struct hako_core_msg, data), m.data, m.len) < 0)
		return -EFAULT;
	return 0;
}

long sys_core_reply(uint64_t call, uint64_t result)
{
	struct core *c = my_core();
	if (!c)
		return -EPERM;
	return checked(c, core_reply(c, (int)call, (long)result));
}

/* copyin (IN: the caller's data into the driver's UBUF) or copyout. */
static long copy_call(uint64_t call, uint64_t off, uint64_t ubuf, uint64_t len, bool in)
{
	struct core *c = my_core();
	if (!c)
		return -EPERM;
	if (!user_range_ok(ubuf, len))
		return checked(c, -EFAULT);
	return checked(c, core_copy(c, (int)call, off, ubuf, len, in));
}

long sys_core_copyin(uint64_t call, uint64_t off, uint64_t udst, uint64_t len)
{
	return copy_call(call, off, udst, len, true);
}

long sys_core_copyout(uint64_t call, uint64_t off, uint64_t usrc, uint64_t len)
{
	return copy_call(call, off, usrc, len, false);
}

long sys_core_rx(uint64_t uframe, uint64_t len)
{
	struct core *c = my_core();
	if (!c)
		return -EPERM;
	if (c->dead)
		return checked(c, -EINVAL);
	if (len < ETH_HLEN || len > ETH_FRAME_MAX + 4)    /* + a VLAN tag */
		return checked(c, -EINVAL);
	uint8_t frame[ETH_FRAME_MAX + 4];
	if (copy_from_user(frame, uframe, len) < 0)
		return checked(c, -EFAULT);
	return checked(c, core_nic_rx(c, frame, len));
}

long sys_core_ctl(uint64_t core, uint64_t op, uint64_t uarg)
{
	if ((int)op != HAKO_CORE_STAT && priv_check(HAKO_PRIV_DRVPROC) < 0)
		return -EPERM;
	if (core >= (uint64_t)nic_count())
		return -ENODEV;
	struct hako_core_stat st;
	struct hako_core_inject in;
	long err;
	switch ((int)op) {
	case HAKO_CORE_STAT:
		core_stat((int)core, &st);
		return copy_to_user(uarg, &st, sizeof st);
	case HAKO_CORE_RESET:
		core_stat_reset((int)core);
		return 0;
	case HAKO_CORE_INJECT:               /* not from a driver process */
		if (core_of_proc(proc_current()))
			return -EPERM;
		if (copy_from_user(&in, uarg, sizeof in) < 0)
			return -EFAULT;
		err = core_inject((int)core, &in);
		return err < 0 ? err : copy_to_user(uarg, &in, sizeof in);
	case HAKO_CORE_RESTART:
		if (core_of_proc(proc_current()))
			return -EPERM;
		return core_restart_given_up((int)core);
	}
	return -EINVAL;
}
