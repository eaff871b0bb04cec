/*
 * blk.h — block devices in the kernel: the registry of the devices found
 * at boot and the requests issued to them (blk.c); what a driver sees of
 * them is blk_driver.h.  Paper 001's devices
 * (ramdisk, testdev, a real disk) are block devices; processes reach them
 * raw, without a buffer cache, through blk_read/blk_write (syscall/sys_blk.c).
 *
 * A block is 4 KiB (BLK_SIZE) everywhere above the driver; a driver whose
 * hardware sectors are smaller converts.  A request carries one block: the
 * layer hands the driver a kernel buffer of BLK_SIZE bytes, page aligned
 * and physically contiguous, with the address the device uses for DMA.
 *
 * Driver side (blk_driver.h): a block driver (drvenv.h) embeds a struct
 * blkdev in its own state, fills in name, blocks and ops, and calls
 * blk_register() at the end of its attach.  ops->submit starts a request
 * and returns at once; the driver later calls blk_complete(req, status)
 * exactly once, from its interrupt handler on whatever CPU took the
 * interrupt, or from submit itself (the ramdisk).  A device whose driver
 * runs as a process has a proxy struct blkdev here
 * (kernel/drvproc/drvproc_blk.c), so every user works with either
 * placement.  submit may
 * be called on any CPU, concurrently (the layer serialises nothing unless
 * the device is funnelled: the driver locks its own state), with
 * interrupts on; it must not sleep.  A funnelled device's submit runs on
 * CPU 0 under the device's lock, interrupts off (mpio.h, paper 001).
 *
 * Kernel side: blk_io() issues one request and waits for it.
 */
#ifndef HAKO_BLK_H
#define HAKO_BLK_H

#include <stdbool.h>
#include <stdint.h>
#include <blk_driver.h>
#include <cpu.h>
#include <mpio.h>
#include <sched.h>

#define BLK_MAX   8                  /* devices in the registry */

struct blkdev;
struct drv_dev;

struct blk_req {
	struct blkdev *dev;
	uint64_t block;              /* which 4 KiB block */
	bool write;
	void *buf;                   /* BLK_SIZE bytes, page aligned: the driver's va */
	uint64_t buf_addr;           /* ... and the device's (DMA) address */
	int issuer;                  /* the CPU that called submit */
	/* Set by blk_complete: */
	int status;                  /* 0 or -errno (-EIO) */
	int done_cpu;                /* the CPU that completed it */
	volatile bool done;
	struct waitq wq;             /* the issuing thread waits here */
	void *drv;                   /* the driver's, while the request is in flight */
	uint64_t seq;                /* mpio: the device's submit count when it was issued */
	bool alone;                  /* mpio: no other request was in flight then */
	bool via_iop;                /* mpio: issued through the I/O processor (iop.c) ... */
	int iop_status;              /* ... the driver's status, until the completion IPI */
	struct blk_req *iop_next;    /* ... on one of iop.c's lists */
};

struct blkdev {
	/* Filled in by the driver before blk_register: */
	char name[16];               /* "ramdisk0", "ahci0", "nvme0", "testdev0" */
	uint64_t blocks;             /* size in BLK_SIZE blocks */
	const struct blkdev_ops *ops;
	void *priv;
	uint64_t delay_us;           /* a fixed-delay device's service time; 0 for the others */
	bool paced;                  /* a disk's: completions paced (ops->set_pace) ... */
	volatile uint64_t paced_late;   /* ... and those QEMU had not finished in time */
	struct drv_dev *dev;         /* the bound device (NULL without hardware: the ramdisk);
	                              * paper 001's delivery policies retarget its interrupt */
	/* The layer's: */
	bool in_process;             /* a driver process serves it (the proxy, drvproc_blk.c) ... */
	volatile int driver_pid;     /* ... this one; 0 while none does */
	int index;
	volatile uint64_t reads, writes, errors;
	volatile uint64_t issued[MAX_CPUS];     /* requests submitted on each CPU */
	volatile uint64_t completed[MAX_CPUS];  /* ... and completed (interrupts taken) on each */
	struct mpio mp;                         /* paper 001's switches (mpio.h) */
};

/* mpio: complete r on this CPU now (what blk_complete does but for an IOP
 * request, whose completion the IOP sends to a CPU of the policy's). */
void blk_finish(struct blk_req *r, int status);

/* Kernel side. */
int blk_count(void);
struct blkdev *blk_get(int i);                      /* NULL past the last */
/* One block between the device and buf (BLK_SIZE bytes, any kernel memory);
 * waits for the device.  -EINVAL past the end, -EIO, -ENOMEM. */
int blk_io(struct blkdev *d, uint64_t block, void *buf, bool write);
/* The same with a buffer the device can reach: one page-aligned frame at
 * physical address pa, mapped at va (no copy). */
int blk_io_frame(struct blkdev *d, uint64_t block, void *va, uint64_t pa, bool write);

#endif
