/*
 * uapi/hako_blk.h — block devices for user programs (paper 001's raw
 * device access): blk_ctl, blk_read, blk_write.
 *
 * Devices are numbered 0 .. n-1 in the order the kernel found them;
 * blk_ctl(dev, HAKO_BLK_INFO, &info) names each and says its size, and
 * returns -ENODEV past the last.  blk_read/blk_write move whole 4 KiB
 * blocks: offset and len must be multiples of HAKO_BLK_SIZE (-EINVAL),
 * len at most HAKO_BLK_IO_MAX, the range inside the device (-EINVAL),
 * buf the caller's memory (-EFAULT).  They return the bytes moved, or
 * -EIO when the device failed.  There is no buffer cache: each call
 * reaches the device.
 */
#ifndef HAKO_UAPI_BLK_H
#define HAKO_UAPI_BLK_H

#include <stdint.h>

#define HAKO_BLK_SIZE    4096
#define HAKO_BLK_IO_MAX  (64 * 1024)      /* bytes per blk_read/blk_write */
#define HAKO_BLK_CPUS    16

/* blk_ctl operations. */
#define HAKO_BLK_INFO    0               /* fill struct hako_blk_info */
#define HAKO_BLK_DELAY   1               /* arg = µs: a fixed-delay device's service time
                                          * (testdev; 1 .. 10 s); -EINVAL for the others */

struct hako_blk_info {
	char name[16];                   /* "ramdisk0", "ahci0", ... */
	uint64_t blocks;                 /* size in 4 KiB blocks */
	uint64_t reads, writes, errors;  /* requests done, by kind; failed ones */
	uint64_t delay_us;               /* testdev's service time per request; 0: not such a device */
	uint64_t issued[HAKO_BLK_CPUS];  /* requests submitted on each CPU */
	uint64_t completed[HAKO_BLK_CPUS];  /* requests completed on each CPU */
};

#endif
