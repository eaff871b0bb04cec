/*
 * selftest/blkdevs.h — what the block-device tests (test_blk.c,
 * test_mpio.c) share: finding devices and the data pattern they write.
 */
#ifndef SELFTEST_BLKDEVS_H
#define SELFTEST_BLKDEVS_H

#include <stdint.h>
#include <hako_blk.h>

int blk_ndevs(void);                        /* devices blk_ctl INFO answers for */
/* The number of the device named name, its info in *in; -1 if there is none. */
int blk_find(const char *name, struct hako_blk_info *in);
/* Fill a block with a pattern that names the device, the block and a seed. */
void blk_pattern(uint8_t *p, int dev, uint64_t block, uint32_t seed);

#endif
