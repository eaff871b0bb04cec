/*
 * sys_core.c — the system calls of drivers as processes (paper 003):
 * drv_ctl (a driver process's grants), drvproc_register, drvproc_call,
 * drvproc_recv, drvproc_reply, drvproc_copyin, drvproc_copyout, drvproc_rx, drvproc_ctl.
 * Checks and copies only; kernel/drvproc/ does the work.
 *
 * The driver-only calls (drv_ctl, drvproc_register, drvproc_recv, drvproc_reply,
 * drvproc_copy*, drvproc_rx) give -EPERM to a process that is not a driver
 * process; a bad pointer is -EFAULT, a driver process (card) that does not exist
 * -ENODEV, a call id that is not the one received -EINVAL.  Every
 * request of a driver process is counted here (stat.requests; drvproc_recv,
 * the driver's loop, only when it is refused)
 * and so is every refusal (stat.refused); while the driver handles a WILD
 * event (c->wild_window, drvproc_call.c) its requests are counted as wild
 * and each one the kernel accepts is wild_accepted.  These counts live in
 * the kernel: the driver's memory, which fault injection flips, holds none.
 * drvproc_ctl's STAT is open; RESET, INJECT and RESTART need
 * HAKO_PRIV_DRVPROC (priv.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cpu.h>
#include <drvproc.h>
#include <drvswitch.h>
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

_Static_assert(sizeof(((struct hako_drvproc_msg *)0)->data) >= ETH_FRAME_MAX, "a frame fits a message");

/* The caller's driver process, or NULL (then -EPERM).  p stops being one when it ends. */
static struct drvproc *my_drvproc(void)
{
	return drvproc_of_proc(proc_current());
}

/* A driver's request and its outcome R (a refusal: -EPERM, -EFAULT, -EINVAL): counted. */
static long checked(struct drvproc *c, long r)
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

static long drv_ctl(struct drvproc *c, uint64_t op, uint64_t uarg);

long sys_drv_ctl(uint64_t op, uint64_t uarg)
{
	struct drvproc *c = my_drvproc();
	if (!c)
		return -EPERM;
	return checked(c, drv_ctl(c, op, uarg));
}

static long drv_info(struct drvproc *c, uint64_t uarg)
{
	struct hako_drv_info in = { 0 };
	if (!c->dev)
		return -ENODEV;
	strlcpy(in.driver, c->dev->driver->name, sizeof in.driver);
	strlcpy(in.name, c->dev->name, sizeof in.name);
	in.index = c->dev->index;
	if (c->dev->pci) {                   /* else a device without hardware (the ramdisk) */
		in.vendor = c->dev->pci->vendor;
		in.device = c->dev->pci->device;
		in.msi = drv_uses_msi(c->dev);
	}
	return copy_to_user(uarg, &in, sizeof in);
}

/* A block device's requests: take one, move its data, complete it (drvproc_blk.c). */
static long drv_blk(struct drvproc *c, uint64_t op, uint64_t uarg)
{
	if (op == HAKO_DRV_BLK_TAKE) {
		struct hako_drv_blkreq q;
		if (!user_range_ok(uarg, sizeof q))
			return -EFAULT;           /* before it is taken: a request is never lost */
		long err = drvproc_blk_take(c, &q);
		return err < 0 ? err : copy_to_user(uarg, &q, sizeof q);
	}
	union {
		struct hako_drv_blkreq q;     /* BLK_DONE */
		struct hako_drv_blkdata d;    /* BLK_DATA */
	} a;
	bool data = op == HAKO_DRV_BLK_DATA;
	if (copy_from_user(&a, uarg, data ? sizeof a.d : sizeof a.q) < 0)
		return -EFAULT;
	return data ? drvproc_blk_data(c, a.d.slot, a.d.to_kernel != 0, a.d.va)
		    : drvproc_blk_done(c, a.q.slot, a.q.status);
}

static long drv_ctl(struct drvproc *c, uint64_t op, uint64_t uarg)
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
		err = op == HAKO_DRV_MMIO ? drvproc_grant_mmio(c, g.bar, &g) : drvproc_grant_ports(c, g.bar, &g);
		return err < 0 ? err : copy_to_user(uarg, &g, sizeof g);
	case HAKO_DRV_DMA_ALLOC:
		if (copy_from_user(&d, uarg, sizeof d) < 0)
			return -EFAULT;
		err = drvproc_grant_dma(c, d.bytes, &d);
		if (err == 0 && copy_to_user(uarg, &d, sizeof d) < 0) {
			drvproc_free_dma(c, d.addr);
			return -EFAULT;
		}
		return err;
	case HAKO_DRV_DMA_FREE:
		if (copy_from_user(&d, uarg, sizeof d) < 0)
			return -EFAULT;
		return drvproc_free_dma(c, d.addr);
	case HAKO_DRV_IRQ_DONE:
		if (c->dead)
			return -EINVAL;
		return c->type == HAKO_DRVPROC_BLK ? drvproc_blk_irq_done(c) : drvproc_irq_done(c, uarg != 0);
	case HAKO_DRV_IRQ_ATTACH:
		return uarg < (uint64_t)ncpus ? drvproc_irq_attach(c, (int)uarg) : -EINVAL;
	case HAKO_DRV_BLK_TAKE:
	case HAKO_DRV_BLK_DATA:
	case HAKO_DRV_BLK_DONE:
		return drv_blk(c, op, uarg);
	}
	return -EINVAL;
}

long sys_drvproc_register(uint64_t ureg)
{
	struct drvproc *c = my_drvproc();
	if (!c)
		return -EPERM;
	struct hako_drvproc_reg reg;
	if (copy_from_user(&reg, ureg, sizeof reg) < 0)
		return checked(c, -EFAULT);
	return checked(c, drvproc_register(c, &reg));
}

/*
 * A program calls a driver entry.  A card driven by a process: the call
 * goes to it (a process switch there and back) and the driver copies the
 * data in.  A card driven in the kernel: the same entry runs here
 * directly, with the copy-in on this side.
 */
long sys_drvproc_call(uint64_t id, uint64_t entry, uint64_t ubuf, uint64_t len)
{
	if (id >= (uint64_t)nic_count())
		return -ENODEV;
	if (entry != HAKO_DRVPROC_NET_SEND && entry != HAKO_DRVPROC_NET_COPY)
		return -EINVAL;
	if (len < (entry == HAKO_DRVPROC_NET_COPY ? 1 : ETH_HLEN) || len > ETH_FRAME_MAX)
		return -EINVAL;
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	struct drvproc *c = drvproc_of_nic((int)id);
	if (c)
		return drvproc_call(c, proc_current(), (int)entry, ubuf, len);
	struct hako_drvproc_stat *ks = drvproc_kernel_stat((int)id);
	uint8_t frame[ETH_FRAME_MAX];
	long err = 0;
	bool sw = drvswitch_card(nic_get((int)id));
	if (sw)
		drvswitch_there_and_back();  /* paper 003's point B: a call's switch, before the copy-in */
	uint64_t t0 = arch_tsc();
#define TIMED_COPY(region) do { \
		region_begin(region); \
		err = copy_from_user(frame, ubuf, len); \
		region_end(region); \
	} while (0)
	if (entry != HAKO_DRVPROC_NET_COPY)           /* a send's copy is no copy-in figure */
		err = copy_from_user(frame, ubuf, len);
	else if (sw && len > 4)
		TIMED_COPY(REGION_DRVPROC_SWITCHED + DRVSW_COPYIN_1514);
	else if (sw)
		TIMED_COPY(REGION_DRVPROC_SWITCHED + DRVSW_COPYIN_4);
	else if (len > 4)
		TIMED_COPY(REGION_DRVPROC_COPYIN + 2);
	else
		TIMED_COPY(REGION_DRVPROC_COPYIN);
#undef TIMED_COPY
	if (err < 0)
		return -EFAULT;
	ks->last_copy_tsc = arch_tsc() - t0;
	ks->calls++;
	ks->copyin_bytes += len;
	if (entry == HAKO_DRVPROC_NET_COPY)
		return (long)len;
	return nic_send(nic_get((int)id), frame, len);
}

long sys_drvproc_recv(uint64_t umsg)
{
	struct drvproc *c = my_drvproc();
	if (!c)
		return -EPERM;
	struct hako_drvproc_msg m;
	if (copy_from_user(&m.st, umsg + offsetof(struct hako_drvproc_msg, st), sizeof m.st) < 0)
		return checked(c, -EFAULT);
	long r = drvproc_recv(c, &m);
	if (r < 0)
		return r;
	uint64_t n = offsetof(struct hako_drvproc_msg, st);
	if (copy_to_user(umsg, &m, n) < 0)
		return -EFAULT;
	if (m.kind == HAKO_DRVPROC_MSG_EVENTS && (m.events & HAKO_DRVPROC_EV_TXQ) &&
	    copy_to_user(umsg + offsetof(struct hako_drvproc_msg, data), m.data, m.len) < 0)
		return -EFAULT;
	return 0;
}

long sys_drvproc_reply(uint64_t call, uint64_t result)
{
	struct drvproc *c = my_drvproc();
	if (!c)
		return -EPERM;
	return checked(c, drvproc_reply(c, (int)call, (long)result));
}

/* copyin (IN: the caller's data into the driver's UBUF) or copyout. */
static long copy_call(uint64_t call, uint64_t off, uint64_t ubuf, uint64_t len, bool in)
{
	struct drvproc *c = my_drvproc();
	if (!c)
		return -EPERM;
	if (!user_range_ok(ubuf, len))
		return checked(c, -EFAULT);
	return checked(c, drvproc_copy(c, (int)call, off, ubuf, len, in));
}

long sys_drvproc_copyin(uint64_t call, uint64_t off, uint64_t udst, uint64_t len)
{
	return copy_call(call, off, udst, len, true);
}

long sys_drvproc_copyout(uint64_t call, uint64_t off, uint64_t usrc, uint64_t len)
{
	return copy_call(call, off, usrc, len, false);
}

long sys_drvproc_rx(uint64_t uframe, uint64_t len)
{
	struct drvproc *c = my_drvproc();
	if (!c)
		return -EPERM;
	if (c->dead)
		return checked(c, -EINVAL);
	if (len < ETH_HLEN || len > ETH_FRAME_MAX + 4)    /* + a VLAN tag */
		return checked(c, -EINVAL);
	uint8_t frame[ETH_FRAME_MAX + 4];
	if (copy_from_user(frame, uframe, len) < 0)
		return checked(c, -EFAULT);
	return checked(c, drvproc_nic_rx(c, frame, len));
}

long sys_drvproc_ctl(uint64_t id, uint64_t op, uint64_t uarg)
{
	if ((int)op != HAKO_DRVPROC_STAT && priv_check(HAKO_PRIV_DRVPROC) < 0)
		return -EPERM;
	if (id >= (uint64_t)nic_count())
		return -ENODEV;
	struct hako_drvproc_stat st;
	struct hako_drvproc_inject in;
	long err;
	switch ((int)op) {
	case HAKO_DRVPROC_STAT:
		drvproc_stat((int)id, &st);
		return copy_to_user(uarg, &st, sizeof st);
	case HAKO_DRVPROC_RESET:
		drvproc_stat_reset((int)id);
		return 0;
	case HAKO_DRVPROC_INJECT:               /* not from a driver process */
		if (drvproc_of_proc(proc_current()))
			return -EPERM;
		if (copy_from_user(&in, uarg, sizeof in) < 0)
			return -EFAULT;
		err = drvproc_inject((int)id, &in);
		return err < 0 ? err : copy_to_user(uarg, &in, sizeof in);
	case HAKO_DRVPROC_RESTART:
		if (drvproc_of_proc(proc_current()))
			return -EPERM;
		return drvproc_restart_given_up((int)id);
	}
	return -EINVAL;
}
