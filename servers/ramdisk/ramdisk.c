/*
 * servers/ramdisk/ramdisk.c — a disk of RAM: N blocks of 4 KiB in the
 * server's heap, read and written through the client's data ICA, which
 * the kernel pastes into this server for the request (no copy between
 * processes: one memcpy between the store and the ICA).  Protocol in
 * proto.h.
 *
 *     ramdisk [NAME] [--blocks N]
 *
 * It registers as NAME (default "ramdisk") and holds N blocks (default 256).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/args.h>
#include <hako/ispc.h>
#include "proto.h"

static uint8_t *store;
static int64_t nblocks;

/* Where block arg[0] is in the store, or NULL if the request is bad. */
static uint8_t *block_of(struct ispc_req *req)
{
	int64_t b = req->frame->arg[0];

	if (req->data_size < RD_BLOCK || b < 0 || b >= nblocks)
		return NULL;
	return store + b * RD_BLOCK;
}

static long do_read(struct ispc_req *req)
{
	uint8_t *blk = block_of(req);

	if (!blk)
		return -EINVAL;
	memcpy(req->data, blk, RD_BLOCK);
	return 0;
}

static long do_write(struct ispc_req *req)
{
	uint8_t *blk = block_of(req);

	if (!blk)
		return -EINVAL;
	memcpy(blk, req->data, RD_BLOCK);
	return 0;
}

static long do_size(struct ispc_req *req __attribute__((unused)))
{
	return nblocks;
}

static const struct ispc_handler ops[] = {
	{ RD_READ, do_read },
	{ RD_WRITE, do_write },
	{ RD_SIZE, do_size },
};

int main(int argc, char **argv)
{
	const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : "ramdisk";
	struct ispc_server srv = { .name = name, .ops = ops, .nops = sizeof ops / sizeof ops[0] };

	nblocks = arg_int(argc, argv, "--blocks", 256);
	store = nblocks > 0 && nblocks <= 65536 ? calloc((size_t)nblocks, RD_BLOCK) : NULL;
	if (!store) {
		printf("ramdisk: no room for %ld blocks\n", (long)nblocks);
		return 1;
	}
	return -ispc_serve(&srv);
}
