/*
 * servers/ramdisk/proto.h — what the ramdisk server understands.
 *
 * Blocks are RD_BLOCK bytes, one page, so any data ICA holds one (a copy
 * made with HAKO_ISPC_COPY must be a whole block too).
 *
 *   RD_READ   copy block arg[0] into the data ICA; 0
 *   RD_WRITE  copy the data ICA's first RD_BLOCK bytes into block arg[0]; 0
 *   RD_SIZE   the number of blocks
 *
 * A block number out of range, or READ/WRITE without a block of data: -EINVAL.
 */
#ifndef SERVERS_RAMDISK_PROTO_H
#define SERVERS_RAMDISK_PROTO_H

#define RD_BLOCK 4096

enum rd_op {
	RD_READ = 1,
	RD_WRITE,
	RD_SIZE,
};

#endif
