/*
 * blkdevs.c — helpers of the block-device tests (blkdevs.h).
 */
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "blkdevs.h"

int blk_ndevs(void)
{
	struct hako_blk_info in;
	int n = 0;
	while (sys_blk_ctl(n, HAKO_BLK_INFO, &in) == 0)
		n++;
	return n;
}

int blk_find(const char *name, struct hako_blk_info *in)
{
	for (int dev = 0; sys_blk_ctl(dev, HAKO_BLK_INFO, in) == 0; dev++)
		if (strcmp(in->name, name) == 0)
			return sys_blk_open(name) == dev ? dev : -1;
	return -1;
}

const char *needs_testdev(void)
{
	struct hako_blk_info in;
	for (int dev = 0; sys_blk_ctl(dev, HAKO_BLK_INFO, &in) == 0; dev++)
		if (strcmp(in.name, "testdev0") == 0)
			return NULL;
	return "no testdev0 (the edu device is PCI: no PCI bus on this machine)";
}

int blk_open_number(int dev)
{
	struct hako_blk_info in;
	long r = sys_blk_ctl(dev, HAKO_BLK_INFO, &in);
	if (r < 0)
		return (int)r;
	r = sys_blk_open(in.name);
	return r < 0 ? (int)r : r == dev ? 0 : -ENODEV;
}

void blk_pattern(uint8_t *p, int dev, uint64_t block, uint32_t seed)
{
	uint32_t x = seed ^ (uint32_t)(dev * 7919) ^ (uint32_t)(block * 104729);
	for (int i = 0; i < HAKO_BLK_SIZE; i += 4) {
		x = x * 1664525u + 1013904223u;
		memcpy(p + i, &x, 4);
	}
}
