/*
 * sys_blk.c — the block-device system calls (blk_ctl, blk_read,
 * blk_write): raw 4 KiB blocks between a process and a device, no buffer
 * cache.  The device number, offset and length are checked here, then
 * each block goes through one frame the device can reach (kernel/drivers/block/blk.c):
 * copied from the caller before a write, to the caller after a read.
 * A buffer outside the caller's memory is refused before the device is
 * touched; one that faults part way (an unmapped page) stops the call
 * there with -EFAULT, the blocks before it done.  blk_ctl also shows and
 * sets paper 001's switches of a device (mpio.h); setting them needs
 * HAKO_PRIV_DEVCTL (priv.h), INFO is open.  blk_open/blk_close
 * keep the caller's open devices as a bit per device number in its
 * struct proc (no allocation: nothing to free when it ends); reading or
 * writing a device not opened is -EBADF.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <blk.h>
#include <errno.h>
#include <syscall.h>
#include <mpio.h>
#include <pmm.h>
#include <priv.h>
#include <proc.h>
#include <uaccess.h>
#include <hako_blk.h>
#include <arch/arch.h>

_Static_assert(HAKO_BLK_SIZE == BLK_SIZE, "user and kernel blocks differ");
_Static_assert(HAKO_BLK_CPUS == MAX_CPUS, "per-CPU counters differ");
_Static_assert(HAKO_BLK_SYMMETRIC == MPIO_SYMMETRIC && HAKO_BLK_FUNNEL == MPIO_FUNNEL, "modes differ");
_Static_assert(HAKO_BLK_MASTER == MPIO_POL_MASTER && HAKO_BLK_FIXED == MPIO_POL_FIXED &&
	       HAKO_BLK_ISSUER == MPIO_POL_ISSUER && HAKO_BLK_IDLE == MPIO_POL_IDLE &&
	       HAKO_BLK_BUSIEST == MPIO_POL_BUSIEST && HAKO_BLK_BROADCAST == MPIO_POL_BROADCAST &&
	       HAKO_BLK_LOAD == MPIO_POL_LOAD && HAKO_BLK_POLICIES == MPIO_POLICIES, "policies differ");
_Static_assert(HAKO_BLK_KEEP == MPIO_KEEP, "keep differs");
_Static_assert(BLK_MAX <= 32, "proc.blk_open has a bit per device");

static void info(struct blkdev *d, struct hako_blk_info *out)
{
	memset(out, 0, sizeof *out);
	strlcpy(out->name, d->name, sizeof out->name);
	out->blocks = d->blocks;
	out->reads = d->reads;
	out->writes = d->writes;
	out->errors = d->errors;
	out->delay_us = d->delay_us;
	out->in_process = d->in_process;
	out->driver_pid = d->driver_pid;
	out->paced = d->paced;
	out->paced_late = d->paced_late;
	const struct mpio *m = &d->mp;
	out->mode = m->mode;
	out->policy = m->policy;
	out->effective = mpio_effective(d);
	out->fixed_cpu = m->fixed_cpu;
	out->has_irq = m->has_irq;
	out->target = m->target;
	out->retargets = m->retargets;
	out->solo = m->solo;
	out->solo_on_issuer = m->solo_on_issuer;
	for (int c = 0; c < MAX_CPUS; c++) {
		out->issued[c] = d->issued[c];
		out->completed[c] = d->completed[c];
		out->interrupts[c] = m->interrupts[c];
		out->lost[c] = m->lost[c];
		out->iop_ipis[c] = m->iop_ipis[c];
		out->left[c] = m->left[c];
		out->empty[c] = m->empty[c];
	}
	out->iop = m->iop;
	out->iop_cpu = iop_cpu();
	out->iop_cmds = m->iop_cmds;
}

/* HAKO_BLK_SET: copy, check every field, then act (mpio_set, mpio_set_iop cannot fail). */
static long set(struct blkdev *d, uint64_t uarg)
{
	struct hako_blk_set in;
	long err = copy_from_user(&in, uarg, sizeof in);
	if (err < 0)
		return err;
	int iop = in.iop == 0 || in.iop == HAKO_BLK_KEEP ? MPIO_KEEP :
		  in.iop == HAKO_BLK_IOP_ON ? 1 : in.iop == HAKO_BLK_IOP_OFF ? 0 : 2;   /* 2: refused */
	err = mpio_check(d, in.mode, in.policy, in.fixed_cpu);
	if (err == 0)
		err = mpio_check_iop(d, iop);
	if (err < 0)
		return err;
	mpio_set(d, in.mode, in.policy, in.fixed_cpu);
	if (iop != MPIO_KEEP)
		mpio_set_iop(d, iop);
	return 0;
}

long sys_blk_ctl(uint64_t dev, uint64_t op, uint64_t uarg)
{
	if ((int)op != HAKO_BLK_INFO && priv_check(HAKO_PRIV_DEVCTL) < 0)
		return -EPERM;
	struct blkdev *d = blk_get((int)dev);
	if (!d)
		return -ENODEV;
	switch ((int)op) {
	case HAKO_BLK_INFO: {
		struct hako_blk_info in;
		info(d, &in);
		return copy_to_user(uarg, &in, sizeof in);
	}
	case HAKO_BLK_DELAY:
		if (!d->ops->set_delay || uarg == 0 || uarg > 10000000)
			return -EINVAL;
		return d->ops->set_delay(d, uarg);
	case HAKO_BLK_SET:
		return set(d, uarg);
	case HAKO_BLK_RESET:
		mpio_reset(d);
		return 0;
	case HAKO_BLK_PACE:
		if (!d->ops->set_pace || uarg > 1)
			return -EINVAL;
		return d->ops->set_pace(d, uarg == 1);
	}
	return -EINVAL;
}

static bool opened(uint64_t dev)
{
	return dev < BLK_MAX && (__atomic_load_n(&proc_current()->blk_open, __ATOMIC_RELAXED) >> dev & 1);
}

long sys_blk_open(uint64_t uname)
{
	char name[HAKO_BLK_NAME];
	long len = copy_str_from_user(name, uname, sizeof name);
	if (len == -E2BIG)
		return -ENAMETOOLONG;
	if (len < 0)
		return len;
	for (int i = 0; i < blk_count(); i++)
		if (strcmp(blk_get(i)->name, name) == 0) {
			__atomic_fetch_or(&proc_current()->blk_open, 1u << i, __ATOMIC_RELAXED);
			return i;
		}
	return -ENOENT;
}

long sys_blk_close(uint64_t dev)
{
	if (!opened(dev))
		return -EBADF;
	__atomic_fetch_and(&proc_current()->blk_open, ~(1u << dev), __ATOMIC_RELAXED);
	return 0;
}

/* The device, if the caller opened it, offset and len name whole blocks
 * inside it and ubuf is the caller's. */
static long check(uint64_t dev, uint64_t offset, uint64_t ubuf, uint64_t len, struct blkdev **out)
{
	struct blkdev *d = blk_get((int)dev);
	if (!d)
		return -ENODEV;
	if (!opened(dev))
		return -EBADF;
	if (offset % BLK_SIZE || len % BLK_SIZE || len == 0 || len > HAKO_BLK_IO_MAX)
		return -EINVAL;
	if (offset / BLK_SIZE >= d->blocks || len / BLK_SIZE > d->blocks - offset / BLK_SIZE)
		return -EINVAL;
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	*out = d;
	return 0;
}

static long transfer(uint64_t dev, uint64_t offset, uint64_t ubuf, uint64_t len, bool write)
{
	struct blkdev *d;
	long err = check(dev, offset, ubuf, len, &d);
	if (err)
		return err;
	uint64_t pa = pmm_alloc();
	if (!pa)
		return -ENOMEM;
	void *frame = phys_to_virt(pa);
	uint64_t done = 0;
	for (; done < len && !err; done += BLK_SIZE) {
		uint64_t block = offset / BLK_SIZE + done / BLK_SIZE;
		if (write && copy_from_user(frame, ubuf + done, BLK_SIZE) < 0) {
			err = -EFAULT;
			break;
		}
		err = blk_io_frame(d, block, frame, pa, write);
		if (!err && !write && copy_to_user(ubuf + done, frame, BLK_SIZE) < 0)
			err = -EFAULT;
	}
	pmm_free(pa);
	return err ? err : (long)len;
}

long sys_blk_read(uint64_t dev, uint64_t offset, uint64_t ubuf, uint64_t len)
{
	return transfer(dev, offset, ubuf, len, false);
}

long sys_blk_write(uint64_t dev, uint64_t offset, uint64_t ubuf, uint64_t len)
{
	return transfer(dev, offset, ubuf, len, true);
}
