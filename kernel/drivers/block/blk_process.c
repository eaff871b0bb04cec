/*
 * blk_process.c — the driver side of a block device (blk_driver.h) in a
 * driver process (paper 003); the kernel's is blk.c, and the kernel's
 * proxy for the device is kernel/drvproc/drvproc_blk.c.
 *
 * blk_register is the drvproc registration: the device's name and size go
 * to the kernel, which enters a proxy struct blkdev for it in blk.c.  It
 * first takes HAKO_DRV_BLK_SLOTS request buffers of DMA memory (granted
 * beyond the manifest's amount for them), one per slot the kernel may
 * have in flight with this process, so a driver may either copy a block
 * (the ramdisk: buf) or hand the device its address (AHCI: buf_addr).
 *
 * The loop (user/drvhost/main.c) calls blk_process_serve whenever it
 * wakes: each waiting request is taken (HAKO_DRV_BLK_TAKE, which names its
 * slot), a write's data is fetched into the slot's buffer, and the
 * driver's submit starts it.  blk_complete — from submit, or from the
 * driver's interrupt handler, which the loop runs — returns a read's data
 * and completes the request in the kernel (HAKO_DRV_BLK_DONE).  One
 * registered device per process.
 */
#include <string.h>
#include <hako/sys.h>
#include <drvenv.h>
#include <blk_driver.h>

static struct blkdev *dev;
static struct blk_req reqs[HAKO_DRV_BLK_SLOTS];
static struct drv_dma buffers;

struct blkdev *blk_process_dev(void) { return dev; }

int blk_register(struct blkdev *d)
{
	if (dev)
		return -ENOSPC;                  /* one device per driver process */
	int err = drv_dma_alloc(d->dev, HAKO_DRV_BLK_SLOTS * BLK_SIZE, &buffers);
	if (err < 0)
		return err;
	for (int i = 0; i < HAKO_DRV_BLK_SLOTS; i++) {
		reqs[i].buf = (uint8_t *)buffers.va + i * BLK_SIZE;
		reqs[i].buf_addr = buffers.addr + (uint64_t)i * BLK_SIZE;
	}
	struct hako_drvproc_reg reg = { .type = HAKO_DRVPROC_BLK, .blocks = d->blocks };
	strlcpy(reg.name, d->name, sizeof reg.name);
	long r = sys_drvproc_register(&reg);
	if (r < 0) {
		drv_dma_free(d->dev, &buffers);
		return (int)r;
	}
	dev = d;
	return 0;
}

void blk_complete(struct blk_req *r, int status)
{
	if (status == 0 && !r->write) {
		struct hako_drv_blkdata data = { .slot = r->slot, .to_kernel = 1,
						 .va = (uint64_t)(uintptr_t)r->buf };
		if (sys_drv_ctl(HAKO_DRV_BLK_DATA, &data) < 0)
			status = -EIO;
	}
	struct hako_drv_blkreq done = { .slot = r->slot, .status = status };
	sys_drv_ctl(HAKO_DRV_BLK_DONE, &done);
}

/* A driver process does not mark service times for the cost model, nor
 * wait for the host under it. */
void blk_service_time(struct blk_req *r, uint64_t ns)
{
}

void blk_host_wait(const volatile uint32_t *word, uint32_t mask, uint32_t value)
{
}

void blk_process_serve(void)
{
	struct hako_drv_blkreq q;
	while (dev && sys_drv_ctl(HAKO_DRV_BLK_TAKE, &q) == 0) {
		if (q.slot < 0 || q.slot >= HAKO_DRV_BLK_SLOTS)
			return;                      /* not the kernel's answer */
		struct blk_req *r = &reqs[q.slot];      /* free: the kernel hands out free slots only */
		r->slot = q.slot;
		r->block = q.block;
		r->write = q.write != 0;
		r->drv = NULL;
		int err = 0;
		if (r->write) {
			struct hako_drv_blkdata data = { .slot = r->slot, .to_kernel = 0,
							 .va = (uint64_t)(uintptr_t)r->buf };
			err = sys_drv_ctl(HAKO_DRV_BLK_DATA, &data) < 0 ? -EIO : 0;
		}
		if (err == 0)
			err = dev->ops->submit(dev, r);
		if (err < 0)
			blk_complete(r, err);
	}
}
