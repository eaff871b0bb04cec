/*
 * blk_process.h — a block device as a driver process sees it (paper 003);
 * the kernel's is blk.h.  Only blk_driver.h includes it.  struct blkdev
 * and struct blk_req hold only what a driver touches (blk_driver.h lists
 * it); blk_process.c implements the calls: blk_register becomes
 * drvproc_register, and each request is one the kernel queued for this
 * process, its data in a buffer of the process's DMA memory.
 */
#ifndef HAKO_BLK_PROCESS_H
#define HAKO_BLK_PROCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <blk_driver.h>

struct drv_dev;

struct blk_req {
	uint64_t block;              /* which 4 KiB block */
	bool write;
	void *buf;                   /* BLK_SIZE bytes of DMA memory: the driver's va ... */
	uint64_t buf_addr;           /* ... and the device's address */
	void *drv;                   /* the driver's, while the request is in flight */
	int slot;                    /* the kernel's name for it (HAKO_DRV_BLK_TAKE) */
};

struct blkdev {
	char name[16];               /* "ramdisk0", "ahci0" */
	uint64_t blocks;             /* size in BLK_SIZE blocks */
	const struct blkdev_ops *ops;
	void *priv;
	uint64_t delay_us;           /* not used by the process placement */
	bool paced;                  /* not used by the process placement (never paced) */
	uint64_t paced_late;
	struct drv_dev *dev;
};

/* main.c's side of blk_process.c. */
struct blkdev *blk_process_dev(void);     /* the device the driver registered, NULL */
void blk_process_serve(void);             /* take and start every request the kernel has queued */

#endif
