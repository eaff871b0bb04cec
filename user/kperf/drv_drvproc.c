/*
 * kperf/drv_drvproc.c — drivers of the calls of drivers as processes (paper
 * 003).  drvproc_call and drvproc_ctl are timed on card 0 (with --net hub; a
 * drvproc call into a driver process when the boot has drvproc=).  The other
 * calls belong to a driver process, which kperf is not: they would only
 * time their -EPERM refusal, so they are not timed here; drvbench (`./hako
 * bench drvproc`) measures the driver's side of the paths.
 */
#include <string.h>
#include "kperf.h"

#define FRAME 60

static int driver_only(struct kperf_run *run)
{
	run->why = "a driver process's call (kperf is not one): ./hako bench drvproc times the path";
	return KPERF_NOT_TIMED;
}

int kperf_drv_drv_ctl(struct kperf_run *run) { return driver_only(run); }
int kperf_drv_drvproc_register(struct kperf_run *run) { return driver_only(run); }
int kperf_drv_drvproc_recv(struct kperf_run *run) { return driver_only(run); }
int kperf_drv_drvproc_reply(struct kperf_run *run) { return driver_only(run); }
int kperf_drv_drvproc_copyin(struct kperf_run *run) { return driver_only(run); }
int kperf_drv_drvproc_copyout(struct kperf_run *run) { return driver_only(run); }
int kperf_drv_drvproc_rx(struct kperf_run *run) { return driver_only(run); }

static int two_cards(struct kperf_run *run, uint8_t mac0[6], uint8_t mac1[6])
{
	struct hako_nic_info info;
	if (sys_nic_ctl(0, HAKO_NIC_INFO, &info) < 0)
		goto none;
	memcpy(mac0, info.mac, 6);
	if (sys_nic_ctl(1, HAKO_NIC_INFO, &info) < 0)
		goto none;
	memcpy(mac1, info.mac, 6);
	return 0;
none:
	run->why = "needs two network cards (boot with --net hub)";
	return 1;
}

int kperf_drv_drvproc_call(struct kperf_run *run)
{
	uint8_t f[FRAME], mac0[6], mac1[6];
	if (two_cards(run, mac0, mac1))
		return KPERF_NOT_TIMED;
	struct hako_nic_info info;
	memset(&info, 0, sizeof info);
	info.cpu = KPERF_CPU;
	long r = sys_nic_ctl(0, HAKO_NIC_OPEN, &info);
	if (r < 0)
		return kperf_fail("nic_ctl open", r);
	memset(f, 0, FRAME);
	memcpy(f, mac1, 6);
	memcpy(f + 6, mac0, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	r = KPERF_TIME(run, sys_drvproc_call(0, HAKO_DRVPROC_NET_SEND, f, FRAME),
		       sys_drvproc_call(0, HAKO_DRVPROC_NET_SEND, f, FRAME));
	sys_nic_ctl(0, HAKO_NIC_CLOSE, NULL);
	run->note = "NET_SEND of a 60-byte frame on card 0";
	return r < 0 ? kperf_fail("drvproc_call", r) : 0;
}

int kperf_drv_drvproc_ctl(struct kperf_run *run)
{
	uint8_t mac0[6], mac1[6];
	struct hako_drvproc_stat st;
	if (two_cards(run, mac0, mac1))
		return KPERF_NOT_TIMED;
	long r = KPERF_TIME(run, sys_drvproc_ctl(0, HAKO_DRVPROC_STAT, &st), sys_drvproc_ctl(0, HAKO_DRVPROC_STAT, &st));
	run->note = "HAKO_DRVPROC_STAT, card 0";
	return r < 0 ? kperf_fail("drvproc_ctl", r) : 0;
}
