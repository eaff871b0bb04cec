/*
 * tests/user/blkdevs.h — what the block-device tests (test_blk.c,
 * test_mpio.c) share: finding devices and the data pattern they write.
 */
#ifndef SELFTEST_BLKDEVS_H
#define SELFTEST_BLKDEVS_H

#include <stdint.h>
#include <hako_blk.h>

int blk_ndevs(void);                        /* devices blk_ctl INFO answers for */
/* The number of the device named name, its info in *in, opened for this
 * process (blk_open); -1 if there is none. */
int blk_find(const char *name, struct hako_blk_info *in);
/* For TEST_NEEDS: NULL if there is a testdev0 (QEMU's edu device, PCI:
 * the harness adds one to every pc guest), else why the test is skipped. */
const char *needs_testdev(void);
/* Open device number dev for this process (by its name): 0 or -errno. */
int blk_open_number(int dev);
/* Fill a block with a pattern that names the device, the block and a seed. */
void blk_pattern(uint8_t *p, int dev, uint64_t block, uint32_t seed);

/* Sum of a per-CPU counter. */
uint64_t blk_sum(const uint64_t *v);

/* test_mpio.c's workers (role mpio_worker), shared with test_iop.c. */
#define MPIO_MAX_WORKERS 16
struct run {
	int pids[MPIO_MAX_WORKERS];
	int n;
};
/* Start a worker on each CPU of cpus[] (n of them), each on its own blocks
 * of dev's upper half: count blocks, rounds, gap_us asleep after each call. */
int mpio_start(struct run *run, int dev, const int *cpus, int n, int count, int rounds, int gap_us);
int mpio_finish(struct run *run);           /* wait for them all: 0 if every one passed */
/* Every request accounted for: issued and completed once each, none failed. */
int mpio_accounted(const struct hako_blk_info *in, uint64_t requests);

#endif
