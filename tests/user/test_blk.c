/*
 * test_blk.c — block devices from processes (paper 001's raw device
 * access): what the kernel lists, every argument check of blk_read and
 * blk_write, data written and read back on every device, and several
 * processes on different CPUs doing it at once.
 *
 * Every device is written only in its upper half, so a disk's lower
 * blocks keep the labels the harness wrote (tools/hakotool/disks.py) for
 * the drivers' own tests; blocks are split among workers by number.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <hako_blk.h>
#include "blkdevs.h"

#define BS HAKO_BLK_SIZE

static uint8_t buf[HAKO_BLK_IO_MAX], back[HAKO_BLK_IO_MAX];

static uint64_t first_free_block(const struct hako_blk_info *in) { return in->blocks / 2; }

TEST(blk_devices_are_listed)
{
	int n = blk_ndevs();
	CHECK(n >= 1, "no block device (the ramdisk is always there)");
	struct hako_blk_info in;
	bool ramdisk = false;
	for (int i = 0; i < n; i++) {
		CHECK_EQ(sys_blk_ctl(i, HAKO_BLK_INFO, &in), 0);
		CHECK(in.name[0] && in.blocks > 0, "device %d: name '%s', %lu blocks", i, in.name,
		      (unsigned long)in.blocks);
		ramdisk |= strcmp(in.name, "ramdisk0") == 0;
	}
	CHECK(ramdisk, "no ramdisk0 among %d devices", n);
	CHECK_EQ(sys_blk_ctl(n, HAKO_BLK_INFO, &in), -ENODEV);
	CHECK_EQ(sys_blk_ctl(-1, HAKO_BLK_INFO, &in), -ENODEV);
	CHECK_EQ(sys_blk_ctl(0, 77, &in), -EINVAL);
	CHECK_EQ(sys_blk_ctl(0, HAKO_BLK_INFO, NULL), -EFAULT);
	CHECK_EQ(sys_blk_ctl(0, HAKO_BLK_INFO, (void *)0xffff800000000000ull), -EFAULT);
	return 0;
}

/* A child may not use its parent's open devices. */
UROLE(blk_read_unopened)
{
	static uint8_t b[BS];
	return sys_blk_read(atoi(argv[0]), 0, b, BS) == -EBADF ? 0 : 1;
}

TEST(blk_open_and_close)
{
	struct hako_blk_info in;
	CHECK_EQ(sys_blk_ctl(0, HAKO_BLK_INFO, &in), 0);
	CHECK_EQ(sys_blk_read(0, 0, buf, BS), -EBADF);            /* not opened yet */
	CHECK_EQ(sys_blk_write(0, 0, buf, BS), -EBADF);
	CHECK_EQ(sys_blk_close(0), -EBADF);
	CHECK_EQ(sys_blk_open("nosuchdev"), -ENOENT);
	CHECK_EQ(sys_blk_open(""), -ENOENT);
	CHECK_EQ(sys_blk_open("a-name-longer-than-sixteen-bytes"), -ENAMETOOLONG);
	CHECK_EQ(sys_blk_open(NULL), -EFAULT);
	CHECK_EQ(sys_blk_open((const char *)0xffff800000000000ull), -EFAULT);
	CHECK_EQ(sys_blk_open(in.name), 0);
	CHECK_EQ(sys_blk_open(in.name), 0);                        /* again: the same number */
	CHECK_EQ(sys_blk_read(0, 0, buf, BS), BS);
	CHECK_EQ(run_role("blk_read_unopened", "0", NULL), 0);     /* not inherited */
	CHECK_EQ(sys_blk_close(0), 0);
	CHECK_EQ(sys_blk_read(0, 0, buf, BS), -EBADF);             /* closed */
	CHECK_EQ(sys_blk_close(0), -EBADF);
	CHECK_EQ(sys_blk_close(99), -EBADF);
	CHECK_EQ(sys_blk_close(-1), -EBADF);
	return 0;
}

TEST(blk_bad_arguments)
{
	struct hako_blk_info in;
	CHECK_EQ(sys_blk_ctl(0, HAKO_BLK_INFO, &in), 0);
	CHECK_EQ(sys_blk_open(in.name), 0);
	uint64_t end = in.blocks * BS;
	CHECK_EQ(sys_blk_read(99, 0, buf, BS), -ENODEV);
	CHECK_EQ(sys_blk_read(0, 1, buf, BS), -EINVAL);           /* offset not a block */
	CHECK_EQ(sys_blk_read(0, 0, buf, 100), -EINVAL);          /* length not a block */
	CHECK_EQ(sys_blk_read(0, 0, buf, 0), -EINVAL);
	CHECK_EQ(sys_blk_read(0, 0, buf, HAKO_BLK_IO_MAX + BS), -EINVAL);
	CHECK_EQ(sys_blk_read(0, end, buf, BS), -EINVAL);         /* past the end */
	CHECK_EQ(sys_blk_read(0, end - BS, buf, 2 * BS), -EINVAL);   /* runs past it */
	CHECK_EQ(sys_blk_read(0, UINT64_MAX - BS + 1, buf, BS), -EINVAL);
	CHECK_EQ(sys_blk_read(0, 0, NULL, BS), -EFAULT);
	CHECK_EQ(sys_blk_read(0, 0, (void *)0xffff800000000000ull, BS), -EFAULT);
	CHECK_EQ(sys_blk_write(0, 0, (void *)0x1000, BS), -EFAULT);
	CHECK_EQ(in.errors, 0);
	return 0;
}

/* Write count blocks from first (in one call), read them back, compare. */
static int write_read(int dev, uint64_t first, int count, uint32_t seed)
{
	for (int b = 0; b < count; b++)
		blk_pattern(buf + b * BS, dev, first + b, seed);
	CHECK_EQ(sys_blk_write(dev, first * BS, buf, (size_t)count * BS), (long)count * BS);
	memset(back, 0, sizeof back);
	CHECK_EQ(sys_blk_read(dev, first * BS, back, (size_t)count * BS), (long)count * BS);
	for (int b = 0; b < count; b++)
		CHECK(memcmp(buf + b * BS, back + b * BS, BS) == 0, "dev %d block %lu differs",
		      dev, (unsigned long)(first + b));
	return 0;
}

TEST(blk_every_device_reads_back_what_was_written)
{
	for (int dev = 0; dev < blk_ndevs(); dev++) {
		struct hako_blk_info before, after;
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &before), 0);
		CHECK_EQ(blk_open_number(dev), 0);
		uint64_t first = first_free_block(&before);
		CHECK(write_read(dev, first, 1, 1) == 0, "device %s, one block", before.name);
		CHECK(write_read(dev, first + 1, 16, 2) == 0, "device %s, 16 blocks", before.name);
		CHECK(write_read(dev, before.blocks - 1, 1, 3) == 0, "device %s, last block", before.name);
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &after), 0);
		CHECK_EQ(after.writes - before.writes, 18);
		CHECK_EQ(after.reads - before.reads, 18);
		CHECK_EQ(after.errors, before.errors);
	}
	return 0;
}

/* A worker: on CPU argv[0], blocks argv[2] .. +argv[3] of device argv[1], rounds argv[4]. */
UROLE(blk_worker)
{
	int cpu = atoi(argv[0]), dev = atoi(argv[1]), count = atoi(argv[3]), rounds = atoi(argv[4]);
	uint64_t first = (uint64_t)atol(argv[2]);
	if ((sys_migrate(cpu) < 0 && cpu < online_cpus()) || blk_open_number(dev) < 0)
		return 2;
	for (int r = 0; r < rounds; r++)
		for (int b = 0; b < count; b++)
			if (write_read(dev, first + (uint64_t)b, 1, (uint32_t)(cpu * 1000 + r)))
				return 1;
	return 0;
}

TEST(blk_processes_on_every_cpu_share_each_device)
{
	int cpus = online_cpus(), n = blk_ndevs();
	for (int dev = 0; dev < n; dev++) {
		struct hako_blk_info in;
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
		int pids[16], workers = cpus < 4 ? 4 : cpus;
		for (int w = 0; w < workers && w < 16; w++) {
			char c[8], d[8], f[24], k[8], r[8];
			snprintf(c, sizeof c, "%d", w % cpus);
			snprintf(d, sizeof d, "%d", dev);
			snprintf(f, sizeof f, "%lu", (unsigned long)(first_free_block(&in) + (uint64_t)w * 4));
			snprintf(k, sizeof k, "%d", 4);
			snprintf(r, sizeof r, "%d", 3);
			pids[w] = spawn_role("blk_worker", c, d, f, k, r, NULL);
			CHECK(pids[w] > 0, "spawn %d", pids[w]);
		}
		for (int w = 0; w < workers && w < 16; w++) {
			int status;
			CHECK_EQ(sys_wait(pids[w], &status), pids[w]);
			CHECK(status == 0, "device %s: worker %d ended %d", in.name, w, status);
		}
	}
	return 0;
}

TEST_NEEDS(blk_testdev_answers_after_its_delay, needs_testdev)
{
	struct hako_blk_info in;
	int dev = blk_find("testdev0", &in);
	CHECK(dev >= 0, "no testdev0 (the harness gives every guest a second edu device)");
	CHECK_EQ(in.delay_us, 17000);
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)0), -EINVAL);
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)10000001), -EINVAL);
	struct hako_blk_info rin;
	int rd = blk_find("ramdisk0", &rin);
	CHECK(rd >= 0, "no ramdisk0");
	CHECK_EQ(sys_blk_ctl(rd, HAKO_BLK_DELAY, (void *)1000), -EINVAL);   /* the ramdisk has none */
	uint64_t t0 = sys_clock();
	CHECK_EQ(sys_blk_read(dev, 0, buf, BS), BS);
	uint64_t slow = sys_clock() - t0;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)1000), 0);
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
	CHECK_EQ(in.delay_us, 1000);
	t0 = sys_clock();
	CHECK_EQ(sys_blk_read(dev, 0, buf, 4 * BS), 4 * BS);
	uint64_t fast = sys_clock() - t0;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)17000), 0);
	CHECK(slow >= 17000000 && slow < 40000000, "one block at 17 ms took %lu ns", (unsigned long)slow);
	CHECK(fast >= 4000000 && fast < 17000000, "four blocks at 1 ms took %lu ns", (unsigned long)fast);
	return 0;
}

/* For TEST_NEEDS: NULL if there is a disk (ahci0 or nvme0), else why not. */
static const char *needs_disk(void)
{
	struct hako_blk_info in;
	return blk_find("ahci0", &in) >= 0 || blk_find("nvme0", &in) >= 0 ? NULL :
	       "no disk (the harness adds them with --disk)";
}

/* The datasheet read time a disk's driver paces with (ahci.c, nvme.c), in ns. */
static uint64_t disk_read_ns(const char *name)
{
	return strncmp(name, "ahci", 4) == 0 ? 50000 : 20000;
}

/*
 * HAKO_BLK_PACE: a disk in the kernel paces its completions (each read
 * takes at least its service time on the guest's clock, the data is the
 * disk's), a disk whose driver runs as a process and a device that is not
 * a disk refuse it, and pacing goes off again.
 */
TEST_NEEDS(blk_paced_disks_take_their_service_time, needs_disk)
{
	for (int dev = 0; dev < blk_ndevs(); dev++) {
		struct hako_blk_info in;
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
		bool disk = strncmp(in.name, "ahci", 4) == 0 || strncmp(in.name, "nvme", 4) == 0;
		CHECK_EQ(in.paced, 0);
		if (!disk || in.in_process) {
			CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_PACE, (void *)1), -EINVAL);
			continue;
		}
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_PACE, (void *)2), -EINVAL);
		CHECK_EQ(blk_open_number(dev), 0);
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_PACE, (void *)1), 0);
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
		CHECK_EQ(in.paced, 1);
		uint64_t t0 = sys_clock();
		long got = sys_blk_read(dev, 0, back, 4 * BS);      /* the harness's labelled blocks */
		uint64_t took = sys_clock() - t0;
		bool labelled = got == 4 * BS;
		for (uint64_t b = 0; b < 4; b++)
			labelled &= memcmp(back + b * BS, "HAKODISK", 8) == 0 &&
				    memcmp(back + b * BS + 8, &b, 8) == 0;
		int rw = write_read(dev, first_free_block(&in) + 32, 2, 4);
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_PACE, (void *)0), 0);
		CHECK_EQ(got, 4 * BS);
		CHECK(labelled, "%s: the paced reads' blocks lack their labels", in.name);
		CHECK(took >= 4 * disk_read_ns(in.name), "%s: four paced reads took %lu ns", in.name,
		      (unsigned long)took);
		CHECK(rw == 0, "%s: paced write and read back", in.name);
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
		CHECK_EQ(in.paced, 0);
	}
	return 0;
}
