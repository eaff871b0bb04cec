/*
 * test_drvproc_blk.c — block drivers as processes (paper 003): a device
 * whose driver runs as a process (drvproc=ramdisk,ahci) moves the same
 * data as with the driver in the kernel.  A disk's lower blocks hold the
 * labels the harness wrote (tools/hakotool/disks.py: "HAKODISK", the block
 * number, zeros), which the driver process must read as they are; blocks
 * written in the upper half (beyond test_blk.c's) read back the same, one
 * by one and many in one call, and no request fails.  A block driver
 * process that is killed is started again and serves its device again.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <hako/sys.h>
#include "test.h"
#include <hako_blk.h>
#include "blkdevs.h"

#define BS HAKO_BLK_SIZE
#define LABEL "HAKODISK"
#define BATCH 16                     /* blocks in one call (64 KiB, HAKO_BLK_IO_MAX) */

static uint8_t out[HAKO_BLK_IO_MAX], in[HAKO_BLK_IO_MAX];

/* A driver process serves at least one block device: NULL, else why the test is skipped. */
static const char *block_process(void)
{
	struct hako_blk_info info;
	for (int dev = 0; dev < blk_ndevs(); dev++)
		if (sys_blk_ctl(dev, HAKO_BLK_INFO, &info) == 0 && info.in_process)
			return NULL;
	return "no block driver runs as a process (boot with --drvproc ramdisk,ahci)";
}

/* A disk's block b as the harness wrote it. */
static bool labelled(const uint8_t *p, uint64_t b)
{
	uint64_t n;
	memcpy(&n, p + 8, sizeof n);
	for (int i = 16; i < BS; i++)
		if (p[i])
			return false;
	return memcmp(p, LABEL, 8) == 0 && n == b;
}

static int check_device(int dev, const struct hako_blk_info *before)
{
	bool disk = strncmp(before->name, "ramdisk", 7) != 0;
	if (disk) {
		CHECK_EQ(sys_blk_read(dev, 0, in, BATCH * BS), BATCH * BS);
		for (uint64_t b = 0; b < BATCH; b++)
			CHECK(labelled(in + b * BS, b), "%s block %lu: not the harness's label", before->name,
			      (unsigned long)b);
	}
	uint64_t first = before->blocks * 3 / 4;
	for (uint64_t b = 0; b < BATCH; b++)
		blk_pattern(out + b * BS, dev, first + b, 77);
	for (uint64_t b = 0; b < 4; b++)            /* one block a call */
		CHECK_EQ(sys_blk_write(dev, (first + b) * BS, out + b * BS, BS), BS);
	CHECK_EQ(sys_blk_write(dev, (first + 4) * BS, out + 4 * BS, (BATCH - 4) * BS), (BATCH - 4) * BS);
	memset(in, 0, sizeof in);
	CHECK_EQ(sys_blk_read(dev, first * BS, in, BATCH * BS), BATCH * BS);
	for (uint64_t b = 0; b < BATCH; b++)
		CHECK(memcmp(out + b * BS, in + b * BS, BS) == 0, "%s block %lu differs", before->name,
		      (unsigned long)(first + b));
	struct hako_blk_info after;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &after), 0);
	CHECK_EQ(after.errors, before->errors);
	CHECK_EQ(after.writes - before->writes, BATCH);
	CHECK_EQ(after.reads - before->reads, BATCH + (disk ? BATCH : 0));
	return 0;
}

TEST_NEEDS(drvproc_block_devices_move_the_same_data_as_in_the_kernel, block_process)
{
	for (int dev = 0; dev < blk_ndevs(); dev++) {
		struct hako_blk_info before;
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &before), 0);
		if (!before.in_process)
			continue;
		CHECK_EQ(blk_open_number(dev), 0);
		if (check_device(dev, &before))
			return 1;
	}
	return 0;
}

#define RESTART_WAIT_MS 2000             /* the kernel restarts a driver within this */

/* Kill the driver process of device dev, wait for its successor, write and read a block. */
static int kill_and_use(int dev)
{
	struct hako_blk_info info;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &info), 0);
	CHECK(info.driver_pid > 0, "%s: no driver process serves it", info.name);
	CHECK_EQ(blk_open_number(dev), 0);
	int pid = info.driver_pid;
	CHECK_EQ(sys_kill(pid), 0);
	int ms = 0;
	for (; ms < RESTART_WAIT_MS; ms += 10) {
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &info), 0);
		if (info.driver_pid > 0 && info.driver_pid != pid)
			break;
		sys_sleep(10000000);
	}
	CHECK(ms < RESTART_WAIT_MS, "%s: driver pid %d killed, no new one after %d ms", info.name, pid, ms);
	uint64_t b = info.blocks * 3 / 4 + BATCH;
	blk_pattern(out, dev, b, 78);
	CHECK_EQ(sys_blk_write(dev, b * BS, out, BS), BS);
	memset(in, 0, BS);
	CHECK_EQ(sys_blk_read(dev, b * BS, in, BS), BS);
	CHECK(memcmp(out, in, BS) == 0, "%s block %lu differs after the restart", info.name,
	      (unsigned long)b);
	return 0;
}

TEST_NEEDS(drvproc_block_driver_killed_is_restarted_and_serves_again, block_process)
{
	struct hako_blk_info info;
	for (int dev = 0; dev < blk_ndevs(); dev++) {
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &info), 0);
		if (info.in_process && kill_and_use(dev))
			return 1;
	}
	return 0;
}
