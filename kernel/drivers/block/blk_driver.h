/*
 * blk_driver.h — the driver side of a block device, the part that does not
 * depend on where the driver runs (paper 003): the block size, the
 * operations a driver offers and the calls it makes.  A block driver
 * includes this header (and drvenv.h) and nothing else of the kernel.
 *
 * struct blkdev and struct blk_req come from the placement's header,
 * included at the end: the kernel's blk.h (the registry, the waiting
 * issuer, paper 001's mpio state) or a driver process's blk_process.h.
 * A driver uses only these fields of them:
 *   struct blkdev   name, blocks, ops, priv, dev, delay_us (set before
 *                   blk_register); paced, paced_late (a disk's, below)
 *   struct blk_req  block, write, buf, buf_addr (read), drv (the driver's
 *                   own link while the request is in flight)
 * blk_register, blk_complete and blk_service_time are implemented by blk.c in the kernel and
 * by blk_process.c in a driver process.
 *
 * The contract (both placements): ops->submit starts a request and
 * returns at once (0, or an -errno if it could not start it: the request
 * then fails with that); the driver later calls blk_complete(req, status)
 * exactly once, from its interrupt handler or from submit itself for a
 * device that works synchronously (the ramdisk).  submit must not sleep.
 */
#ifndef HAKO_BLK_DRIVER_H
#define HAKO_BLK_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#define BLK_SIZE  4096               /* bytes of a block, everywhere above the driver */

struct blkdev;
struct blk_req;

struct blkdev_ops {
	int (*submit)(struct blkdev *d, struct blk_req *r);
	/* Optional: set the service time of a device that has one (testdev), in µs. */
	int (*set_delay)(struct blkdev *d, uint64_t us);
	/* Optional (the disks): pace completions (uapi/hako_blk.h, HAKO_BLK_PACE)
	 * or not, with no request in flight.  The driver keeps d->paced and
	 * counts d->paced_late: each look at the end of a service time (or
	 * BLK_PACE_TRIES - 1 more, one service time apart) that found QEMU
	 * still working on the command. */
	int (*set_pace)(struct blkdev *d, bool on);
};

#define BLK_PACE_TRIES 1000           /* looks before a paced disk lets the interrupt through */

int blk_register(struct blkdev *d);                 /* -ENOSPC when the registry is full */
void blk_complete(struct blk_req *r, int status);   /* once per request, any context */
/* A device with a fixed service time (testdev) takes r and will serve it
 * for ns, after the requests it took before: the cost model's clocks
 * (tools/costmodel/vclock.h) charge that time to r's issuer.  The disks
 * (AHCI, NVMe) give a datasheet's latency here: QEMU completes their
 * requests when its host threads do, which no clock of the model sees. */
void blk_service_time(struct blk_req *r, uint64_t ns);
/* A paced disk's service time is up and it is about to look whether QEMU
 * finished the command: under the cost model, hold this vCPU (host time, no
 * guest instruction) until the device has written (*word & mask) == value
 * to guest memory, so the look finds it done in every run (the plugin's
 * HAKO_SYNC_HOST_WAIT).  Without the plugin it does nothing. */
void blk_host_wait(const volatile uint32_t *word, uint32_t mask, uint32_t value);

/* struct blkdev and struct blk_req, as the placement defines them. */
#ifdef HAKO_DRVENV_PROCESS
#include <blk_process.h>
#else
#include <blk.h>
#endif

#endif
