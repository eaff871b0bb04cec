/*
 * test_core.c — the calls of drivers as processes (paper 003) from a
 * program that is not a driver: every driver-only call is refused with
 * -EPERM, a driver process (card) that does not exist is -ENODEV, a bad entry or
 * length -EINVAL, a bad pointer -EFAULT.
 */
#include <errno.h>
#include <string.h>
#include <hako/sys.h>
#include "test.h"

TEST(drvproc_driver_calls_refused_to_other_processes)
{
	struct hako_drv_info info;
	struct hako_drvproc_reg reg;
	static struct hako_drvproc_msg msg;
	uint8_t buf[64];
	memset(&reg, 0, sizeof reg);
	CHECK_EQ(sys_drv_ctl(HAKO_DRV_INFO, &info), -EPERM);
	CHECK_EQ(sys_drv_ctl(HAKO_DRV_MMIO, NULL), -EPERM);
	CHECK_EQ(sys_drv_ctl(HAKO_DRV_DMA_ALLOC, NULL), -EPERM);
	CHECK_EQ(sys_drvproc_register(&reg), -EPERM);
	CHECK_EQ(sys_drvproc_recv(&msg), -EPERM);
	CHECK_EQ(sys_drvproc_reply(1, 0), -EPERM);
	CHECK_EQ(sys_drvproc_copyin(1, 0, buf, sizeof buf), -EPERM);
	CHECK_EQ(sys_drvproc_copyout(1, 0, buf, sizeof buf), -EPERM);
	CHECK_EQ(sys_drvproc_rx(buf, sizeof buf), -EPERM);
	return 0;
}

TEST(drvproc_call_to_unknown_card_fails)
{
	uint8_t frame[64];
	struct hako_drvproc_stat st;
	memset(frame, 0, sizeof frame);
	CHECK_EQ(sys_drvproc_call(99, HAKO_DRVPROC_NET_SEND, frame, sizeof frame), -ENODEV);
	CHECK_EQ(sys_drvproc_call(-1, HAKO_DRVPROC_NET_SEND, frame, sizeof frame), -ENODEV);
	CHECK_EQ(sys_drvproc_ctl(99, HAKO_DRVPROC_STAT, &st), -ENODEV);
	if (sys_drvproc_ctl(0, HAKO_DRVPROC_STAT, &st) < 0)
		return 0;                        /* no card: nothing more to call */
	CHECK_EQ(sys_drvproc_call(0, 77, frame, sizeof frame), -EINVAL);
	CHECK_EQ(sys_drvproc_call(0, HAKO_DRVPROC_NET_SEND, frame, 5), -EINVAL);
	CHECK_EQ(sys_drvproc_call(0, HAKO_DRVPROC_NET_SEND, (void *)16, sizeof frame), -EFAULT);
	CHECK_EQ(sys_drvproc_ctl(0, HAKO_DRVPROC_STAT, (void *)16), -EFAULT);
	CHECK_EQ(sys_drvproc_ctl(0, 99, &st), -EINVAL);
	return 0;
}
