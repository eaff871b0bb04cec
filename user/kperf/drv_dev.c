/*
 * kperf/drv_dev.c — drivers of the device calls: interrupt packaging
 * (intr_ctl), the network cards (nic_*: `./hako bench kperf` boots with
 * --net hub; without cards they are not timed) and the block devices
 * (blk_*, on ramdisk0, which every boot has).
 */
#include <string.h>
#include "kperf.h"

#define FRAME 60

int kperf_drv_intr_ctl(struct kperf_run *run)
{
	struct hako_intr_dev d;
	long r = KPERF_TIME(run, sys_intr_ctl(0, HAKO_INTR_GET, &d), sys_intr_ctl(0, HAKO_INTR_GET, &d));
	run->note = "HAKO_INTR_GET, device 0";
	return r < 0 ? kperf_fail("intr_ctl", r) : 0;
}

static int no_cards(struct kperf_run *run)
{
	struct hako_nic_info info;
	if (sys_nic_ctl(0, HAKO_NIC_INFO, &info) >= 0 && sys_nic_ctl(1, HAKO_NIC_INFO, &info) >= 0)
		return 0;
	run->why = "needs two network cards (boot with --net hub)";
	return 1;
}

/* Open card NIC with its interrupts on KPERF_CPU; its MAC into MAC. */
static int open_card(int nic, uint8_t mac[6])
{
	struct hako_nic_info info;
	memset(&info, 0, sizeof info);
	info.cpu = KPERF_CPU;
	long r = sys_nic_ctl(nic, HAKO_NIC_OPEN, &info);
	if (r < 0 || (r = sys_nic_ctl(nic, HAKO_NIC_INFO, &info)) < 0)
		return kperf_fail("nic_ctl open", r);
	memcpy(mac, info.mac, 6);
	return 0;
}

/* A minimal frame from SRC to DST. */
static void frame(uint8_t *f, const uint8_t dst[6], const uint8_t src[6])
{
	memset(f, 0, FRAME);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x88;
	f[13] = 0xb5;		/* IEEE local experimental ethertype */
}

int kperf_drv_nic_ctl(struct kperf_run *run)
{
	struct hako_nic_info info;
	if (no_cards(run))
		return KPERF_NOT_TIMED;
	long r = KPERF_TIME(run, sys_nic_ctl(0, HAKO_NIC_INFO, &info), sys_nic_ctl(0, HAKO_NIC_INFO, &info));
	run->note = "HAKO_NIC_INFO";
	return r < 0 ? kperf_fail("nic_ctl", r) : 0;
}

int kperf_drv_nic_send(struct kperf_run *run)
{
	uint8_t f[FRAME], mac0[6], mac1[6];
	if (no_cards(run))
		return KPERF_NOT_TIMED;
	if (open_card(0, mac0) < 0)
		return -1;
	struct hako_nic_info info;
	sys_nic_ctl(1, HAKO_NIC_INFO, &info);
	memcpy(mac1, info.mac, 6);
	frame(f, mac1, mac0);
	long r = KPERF_TIME(run, sys_nic_send(0, f, FRAME), sys_nic_send(0, f, FRAME));
	sys_nic_ctl(0, HAKO_NIC_CLOSE, NULL);
	run->note = "a 60-byte frame from card 0 to card 1";
	return r < 0 ? kperf_fail("nic_send", r) : 0;
}

int kperf_drv_nic_recv(struct kperf_run *run)
{
	uint8_t f[FRAME], buf[HAKO_NIC_FRAME_MAX], mac0[6], mac1[6];
	if (no_cards(run))
		return KPERF_NOT_TIMED;
	if (open_card(0, mac0) < 0 || open_card(1, mac1) < 0)
		return -1;
	frame(f, mac1, mac0);
	sys_nic_send(0, f, FRAME);
	sys_nic_send(0, f, FRAME);
	sys_sleep(20000000ull);
	long r = KPERF_TIME(run, sys_nic_recv(1, buf, sizeof buf, 0),
			    sys_nic_recv(1, buf, sizeof buf, HAKO_NIC_NONBLOCK));
	sys_nic_ctl(0, HAKO_NIC_CLOSE, NULL);
	sys_nic_ctl(1, HAKO_NIC_CLOSE, NULL);
	run->note = "a 60-byte frame already queued";
	return r < 0 ? kperf_fail("nic_recv", r) : 0;
}

int kperf_drv_nic_traffic(struct kperf_run *run)
{
	uint8_t mac0[6];
	if (no_cards(run))
		return KPERF_NOT_TIMED;
	if (open_card(0, mac0) < 0)
		return -1;
	long r = KPERF_TIME(run, sys_nic_traffic(0, NULL), sys_nic_traffic(0, NULL));
	sys_nic_ctl(0, HAKO_NIC_CLOSE, NULL);
	run->note = "stop (NULL spec) with no sender running";
	return r < 0 ? kperf_fail("nic_traffic", r) : 0;
}

/* The ramdisk's device number, opened for kperf. */
static int ramdisk(void)
{
	long dev = sys_blk_open("ramdisk0");
	return dev < 0 ? kperf_fail("blk_open ramdisk0", dev) : (int)dev;
}

int kperf_drv_blk_open(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_blk_open("ramdisk0"), sys_blk_open("ramdisk0"));
	run->note = "ramdisk0, already open";
	return r < 0 ? kperf_fail("blk_open", r) : 0;
}

int kperf_drv_blk_close(struct kperf_run *run)
{
	int dev = ramdisk();
	if (dev < 0)
		return -1;
	long r = KPERF_TIME(run, (sys_blk_close(dev), sys_blk_open("ramdisk0")), sys_blk_close(dev));
	run->note = "ramdisk0, open";
	return r < 0 ? kperf_fail("blk_close", r) : 0;
}

int kperf_drv_blk_ctl(struct kperf_run *run)
{
	struct hako_blk_info info;
	int dev = ramdisk();
	if (dev < 0)
		return -1;
	long r = KPERF_TIME(run, sys_blk_ctl(dev, HAKO_BLK_INFO, &info),
			    sys_blk_ctl(dev, HAKO_BLK_INFO, &info));
	run->note = "HAKO_BLK_INFO, ramdisk0";
	return r < 0 ? kperf_fail("blk_ctl", r) : 0;
}

static uint8_t block[HAKO_BLK_SIZE];

int kperf_drv_blk_read(struct kperf_run *run)
{
	int dev = ramdisk();
	if (dev < 0)
		return -1;
	long r = KPERF_TIME(run, sys_blk_read(dev, 0, block, sizeof block),
			    sys_blk_read(dev, 0, block, sizeof block));
	run->note = "4 KiB from ramdisk0";
	return r < 0 ? kperf_fail("blk_read", r) : 0;
}

int kperf_drv_blk_write(struct kperf_run *run)
{
	int dev = ramdisk();
	if (dev < 0)
		return -1;
	long r = KPERF_TIME(run, sys_blk_write(dev, 0, block, sizeof block),
			    sys_blk_write(dev, 0, block, sizeof block));
	run->note = "4 KiB to ramdisk0";
	return r < 0 ? kperf_fail("blk_write", r) : 0;
}
