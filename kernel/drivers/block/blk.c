/*
 * blk.c — the block-device layer: the registry of block devices, and one
 * request at a time per calling thread, issued and waited for.
 *
 * A request lives on the issuing thread's stack; the thread sleeps on the
 * request's own wait queue until the driver calls blk_complete(), from an
 * interrupt on whichever CPU took it (paper 001 is about which one that
 * is: the per-CPU counters say).  blk_complete sets done under the queue's
 * lock and the waiter reads it under the same lock, so the request (and
 * the stack it is on) outlives the completer's last touch of it.
 * The wait is not killable: a device completes every request it started
 * (the drivers time out what the hardware drops).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <blk.h>
#include <errno.h>
#include <kprintf.h>
#include <pmm.h>
#include <spinlock.h>
#include <arch/arch.h>
#include <region.h>

static struct blkdev *devs[BLK_MAX];
static int ndevs;
static struct spinlock blk_lock = SPINLOCK_INIT("blk", LOCK_BLK);

int blk_register(struct blkdev *d)
{
	mpio_attach(d);                  /* before anyone can reach it */
	spin_lock(&blk_lock);
	if (ndevs == BLK_MAX) {
		spin_unlock(&blk_lock);
		kprintf("blk: no room for %s (%d devices)\n", d->name, BLK_MAX);
		return -ENOSPC;
	}
	d->index = ndevs;
	devs[ndevs] = d;
	__atomic_store_n(&ndevs, ndevs + 1, __ATOMIC_RELEASE);
	spin_unlock(&blk_lock);
	kprintf("blk: %d is %s, %lu blocks of 4 KiB\n", d->index, d->name, d->blocks);
	return 0;
}

int blk_count(void) { return __atomic_load_n(&ndevs, __ATOMIC_ACQUIRE); }

struct blkdev *blk_get(int i)
{
	return i >= 0 && i < blk_count() ? devs[i] : NULL;
}

void blk_complete(struct blk_req *r, int status)
{
	if (r->via_iop)
		iop_done(r, status);     /* the IOP signals it to a CPU of the policy's */
	else
		blk_finish(r, status);
}

void blk_finish(struct blk_req *r, int status)
{
	int cpu = cpu_id();
	sync_wait(HAKO_SYNC_IO, r);            /* after the device's (or the IOP's) end of it */
	/* ... and so is the issuer, in blk_io_frame's wait: a thread woken
	 * gets this time through the wake-up, but one that finds done set
	 * before it sleeps (the interrupt taken on its own CPU first) has
	 * only this post to hold it back to the device's end. */
	sync_post(HAKO_SYNC_IO, r);
	__atomic_fetch_add(&r->dev->completed[cpu], 1, __ATOMIC_RELAXED);
	mpio_complete(r, cpu);
	spin_lock(&r->wq.lock);
	r->status = status;
	r->done_cpu = cpu;
	r->done = true;
	waitq_wake_all(&r->wq);
	spin_unlock(&r->wq.lock);
}

static void count(struct blkdev *d, bool write, int err)
{
	if (err)
		__atomic_fetch_add(&d->errors, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(write ? &d->writes : &d->reads, 1, __ATOMIC_RELAXED);
}

/* One device clock serves every block device that calls this (testdev: one device). */
#define BLK_SYNC_DEVICE 1

void blk_service_time(struct blk_req *r, uint64_t ns)
{
	sync_service(BLK_SYNC_DEVICE, r, ns);
}

void blk_host_wait(const volatile uint32_t *word, uint32_t mask, uint32_t value)
{
	sync_host_wait(word, mask, value);
}

int blk_io_frame(struct blkdev *d, uint64_t block, void *va, uint64_t pa, bool write)
{
	if (block >= d->blocks)
		return -EINVAL;
	struct blk_req r = { .dev = d, .block = block, .write = write, .buf = va, .buf_addr = pa };
	waitq_init(&r.wq, "blk-req", LOCK_WAITQ);
	struct mpio_trip trip;
	int err = mpio_submit(d, &r, &trip);    /* on the master if funnelled; counts issued */
	if (err == 0) {
		spin_lock(&r.wq.lock);
		pop_off();                      /* mpio_submit's: the lock keeps interrupts off */
		while (!r.done)
			waitq_wait_locked(&r.wq);
		sync_wait(HAKO_SYNC_IO, &r);    /* no earlier than a modelled device's end (testdev) */
		spin_unlock(&r.wq.lock);
		err = r.status;
	} else {
		pop_off();
	}
	mpio_return(&trip);
	count(d, write, err);
	return err;
}

int blk_io(struct blkdev *d, uint64_t block, void *buf, bool write)
{
	uint64_t pa = pmm_alloc();
	if (!pa)
		return -ENOMEM;
	void *va = phys_to_virt(pa);
	if (write)
		memcpy(va, buf, BLK_SIZE);
	int err = blk_io_frame(d, block, va, pa, write);
	if (!err && !write)
		memcpy(buf, va, BLK_SIZE);
	pmm_free(pa);
	return err;
}
