/*
 * ramdisk.c — paper 001's "ramdisk": a block device that is a region of
 * memory (the paper's part of shared memory), with no hardware at all.
 *
 * A request is served at once, on the CPU that submits it: copy between
 * the region and the request's buffer, then complete.  So there is no
 * interrupt, and in paper 001's experiments the ramdisk shows what the
 * driver discipline (funnelled or symmetric) costs with nothing else in
 * the way.  The driver keeps no state a request changes, so any number of
 * CPUs may run it at once; two writes to one block at the same time leave
 * one of them, as on a disk.
 *
 * The region is the driver's DMA memory (drvenv.h), RAMDISK_BYTES long,
 * zeroed at boot.
 */
#include <stdint.h>
#include <string.h>
#include <blk_driver.h>
#include <drvenv.h>

#define RAMDISK_BYTES (1024 * 1024)     /* 256 blocks */

/* No PCI id: a device without hardware; its region is all it is granted. */
static const struct drv_manifest ramdisk_manifest = {
	.dma_bytes = RAMDISK_BYTES,
	.max_devices = 1,
};

static struct ramdisk {
	struct blkdev blk;
	struct drv_dma mem;
} ramdisk;

static int ramdisk_submit(struct blkdev *d, struct blk_req *r)
{
	struct ramdisk *rd = d->priv;
	uint8_t *block = (uint8_t *)rd->mem.va + r->block * BLK_SIZE;
	if (r->write)
		memcpy(block, r->buf, BLK_SIZE);
	else
		memcpy(r->buf, block, BLK_SIZE);
	blk_complete(r, 0);
	return 0;
}

static const struct blkdev_ops ramdisk_ops = { .submit = ramdisk_submit };

static int ramdisk_attach(struct drv_dev *dev)
{
	int err = drv_dma_alloc(dev, RAMDISK_BYTES, &ramdisk.mem);
	if (err < 0)
		return err;
	strlcpy(ramdisk.blk.name, "ramdisk0", sizeof ramdisk.blk.name);
	ramdisk.blk.blocks = RAMDISK_BYTES / BLK_SIZE;
	ramdisk.blk.ops = &ramdisk_ops;
	ramdisk.blk.priv = &ramdisk;
	ramdisk.blk.dev = dev;
	return blk_register(&ramdisk.blk);
}

DRIVER(ramdisk, 40, .class = DRV_CLASS_BLOCK, .manifest = &ramdisk_manifest,
       .attach = ramdisk_attach, .process = true);
