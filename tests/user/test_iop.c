/*
 * test_iop.c — the I/O processor (kernel option iop=N, kernel/mpio/iop.c;
 * paper 001's HDC PU): every device through the IOP with checked data
 * from workers on the other CPUs, completions sent where the delivery
 * policy says, no thread ever running on the IOP, and switching the IOP
 * on and off while workers run losing no request.
 *
 * The tests need a boot with an IOP and at least two other CPUs
 * (`./hako boot --cmdline iop=3 -- selftest iop_...`); without one they
 * are skipped, except the one that checks that the IOP cannot be asked
 * for.  Each test leaves the devices off the IOP, symmetric, master.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <arch/tsc.h>
#include <hako_blk.h>
#include "blkdevs.h"

#define FAST_US 300                  /* testdev's delay in these tests */
#define SLOW_US 17000                /* and what it is otherwise */

static int the_iop(void)
{
	struct hako_blk_info in;
	return sys_blk_ctl(0, HAKO_BLK_INFO, &in) == 0 ? in.iop_cpu : -1;
}

static const char *need_iop(void)
{
	if (the_iop() < 0)
		return "no I/O processor (boot with iop=N)";
	return online_cpus() < 3 ? "needs an IOP and two other CPUs" : NULL;
}

static const char *need_testdev_no_iop(void)
{
	return the_iop() >= 0 ? "there is an I/O processor" : needs_testdev();
}

static long set(int dev, int policy, int fixed, int iop)
{
	struct hako_blk_set s = { HAKO_BLK_KEEP, policy, fixed, iop };
	return sys_blk_ctl(dev, HAKO_BLK_SET, &s);
}

static void restore(int dev)
{
	struct hako_blk_info in;
	if (sys_blk_ctl(dev, HAKO_BLK_INFO, &in) < 0)
		return;
	struct hako_blk_set s = { HAKO_BLK_SYMMETRIC, in.has_irq ? HAKO_BLK_MASTER : HAKO_BLK_KEEP,
				  HAKO_BLK_KEEP, HAKO_BLK_IOP_OFF };
	sys_blk_ctl(dev, HAKO_BLK_SET, &s);
	if (in.delay_us)
		sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)SLOW_US);
}

/* The CPUs other than the IOP, up to three. */
static int others(int *cpus)
{
	int n = 0, iop = the_iop();
	for (int c = 0; c < online_cpus() && n < 3; c++)
		if (c != iop)
			cpus[n++] = c;
	return n;
}

/* Workers on the other CPUs through the IOP, set to policy; counters into in. */
static int through_iop(int dev, int mode, int policy, int fixed, int count, int rounds,
		       struct hako_blk_info *in)
{
	int cpus[3], n = others(cpus);
	struct hako_blk_info d;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &d), 0);
	if (d.delay_us)
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)FAST_US), 0);
	struct hako_blk_set s = { mode, d.has_irq ? policy : HAKO_BLK_KEEP, fixed, HAKO_BLK_IOP_ON };
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_SET, &s), 0);
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_RESET, NULL), 0);
	struct run run = { .n = 0 };
	if (mpio_start(&run, dev, cpus, n, count, rounds, 0) || mpio_finish(&run))
		return 1;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, in), 0);
	uint64_t requests = (uint64_t)(n * count * rounds * 2);
	if (mpio_accounted(in, requests))
		return 1;
	int iop = the_iop();
	CHECK(in->iop == 1 && in->target == (in->has_irq ? iop : -1), "%s: iop %d, interrupt to %d",
	      in->name, in->iop, in->target);
	CHECK(in->iop_cmds == requests, "%s: the IOP executed %lu of %lu", in->name,
	      (unsigned long)in->iop_cmds, (unsigned long)requests);
	CHECK(in->issued[iop] == 0 && in->completed[iop] == 0, "%s: %lu issued, %lu completed on the IOP",
	      in->name, (unsigned long)in->issued[iop], (unsigned long)in->completed[iop]);
	for (int c = 0; c < online_cpus(); c++)
		CHECK(c == iop || in->interrupts[c] == 0, "%s: device interrupt on cpu %d, not the IOP",
		      in->name, c);
	return 0;
}

TEST_NEEDS(iop_every_device_checked_data_from_the_other_cpus, need_iop)
{
	for (int dev = 0; dev < blk_ndevs(); dev++) {
		struct hako_blk_info in;
		for (int mode = HAKO_BLK_SYMMETRIC; mode <= HAKO_BLK_FUNNEL; mode++) {
			int err = through_iop(dev, mode, HAKO_BLK_MASTER, HAKO_BLK_KEEP, 2, 2, &in);
			restore(dev);
			CHECK(!err, "device %d, mode %d, through the IOP failed", dev, mode);
			/* The IOP is the funnel: nobody moved to CPU 0 to issue. */
			CHECK(in.issued[0] < blk_sum(in.issued), "%s: all issued on cpu 0", in.name);
		}
	}
	return 0;
}

/* Every completion signalled to cpu (and counted there). */
static int all_to(const struct hako_blk_info *in, int cpu, const char *why)
{
	uint64_t total = blk_sum(in->completed);
	CHECK(in->completed[cpu] == total && in->iop_ipis[cpu] == total && blk_sum(in->iop_ipis) == total,
	      "%s %s: %lu of %lu completions, %lu of %lu IPIs on cpu %d", in->name, why,
	      (unsigned long)in->completed[cpu], (unsigned long)total, (unsigned long)in->iop_ipis[cpu],
	      (unsigned long)blk_sum(in->iop_ipis), cpu);
	return 0;
}

TEST_NEEDS(iop_completions_follow_the_delivery_policy, need_iop)
{
	int td = blk_find("testdev0", &(struct hako_blk_info){ 0 }), iop = the_iop();
	CHECK(td >= 0, "no testdev0");
	int cpus[3];
	others(cpus);
	int fixed = cpus[2];
	CHECK_EQ(set(td, HAKO_BLK_FIXED, iop, HAKO_BLK_KEEP), -EINVAL);   /* never the IOP */
	struct hako_blk_info in;
	int err = through_iop(td, HAKO_BLK_SYMMETRIC, HAKO_BLK_MASTER, HAKO_BLK_KEEP, 2, 2, &in) ||
		  all_to(&in, 0, "master");
	err = err || through_iop(td, HAKO_BLK_SYMMETRIC, HAKO_BLK_FIXED, fixed, 2, 2, &in) ||
	      all_to(&in, fixed, "fixed");
	if (!err && !through_iop(td, HAKO_BLK_SYMMETRIC, HAKO_BLK_ISSUER, HAKO_BLK_KEEP, 2, 2, &in)) {
		/* Each completion goes back to its issuer, alone or not. */
		for (int c = 0; c < online_cpus(); c++)
			if (in.completed[c] != in.issued[c] || in.iop_ipis[c] != in.issued[c])
				err = 1;
		if (in.solo_on_issuer != in.solo)
			err = 1;
	} else
		err = 1;
	restore(td);
	CHECK(!err, "%s: completions did not follow the policy (issuer: %lu of %lu alone on the issuer)",
	      in.name, (unsigned long)in.solo_on_issuer, (unsigned long)in.solo);
	/* Broadcast: an IPI to every CPU but the IOP per completion, one completion each. */
	err = through_iop(td, HAKO_BLK_SYMMETRIC, HAKO_BLK_BROADCAST, HAKO_BLK_KEEP, 2, 2, &in);
	restore(td);
	CHECK(!err, "broadcast through the IOP failed");
	uint64_t total = blk_sum(in.completed);
	for (int c = 0; c < online_cpus(); c++)
		CHECK(in.iop_ipis[c] == (c == iop ? 0 : total), "broadcast: %lu IPIs to cpu %d for %lu",
		      (unsigned long)in.iop_ipis[c], c, (unsigned long)total);
	return 0;
}

/* Busy on any CPU it may use for a while: exit 5 if it ever runs on argv[0]. */
UROLE(iop_busy)
{
	int iop = atoi(argv[0]);
	if (sys_set_affinity(0, (1ull << online_cpus()) - 1) < 0)
		return 2;
	for (int i = 0; i < 3000; i++) {
		if (sys_getcpu() == iop)
			return 5;
		for (int k = 0; k < 300; k++)
			cpu_pause();
	}
	return 0;
}

TEST_NEEDS(iop_runs_no_thread, need_iop)
{
	int iop = the_iop();
	CHECK_EQ(sys_set_affinity(0, 1ull << iop), -EINVAL);
	CHECK_EQ(sys_migrate(iop), -EINVAL);
	char c[8];
	snprintf(c, sizeof c, "%d", iop);
	int pids[6];
	for (int i = 0; i < 6; i++) {
		pids[i] = spawn_role("iop_busy", c, NULL);
		CHECK(pids[i] > 0, "spawn %d", pids[i]);
	}
	int bad = 0;
	for (int i = 0; i < 6; i++) {
		int status;
		CHECK_EQ(sys_wait(pids[i], &status), pids[i]);
		if (status)
			bad = status;
	}
	CHECK(bad == 0, "a busy process ended %d (5: it ran on the IOP, cpu %d)", bad, iop);
	return 0;
}

TEST_NEEDS(iop_switching_on_and_off_while_workers_run_loses_nothing, need_iop)
{
	int td = blk_find("testdev0", &(struct hako_blk_info){ 0 });
	int rd = blk_find("ramdisk0", &(struct hako_blk_info){ 0 });
	CHECK(td >= 0 && rd >= 0, "testdev0 %d ramdisk0 %d", td, rd);
	int cpus[3], n = others(cpus);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_DELAY, (void *)FAST_US), 0);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_RESET, NULL), 0);
	CHECK_EQ(sys_blk_ctl(rd, HAKO_BLK_RESET, NULL), 0);
	CHECK_EQ(set(td, HAKO_BLK_ISSUER, HAKO_BLK_KEEP, HAKO_BLK_KEEP), 0);
	struct run run = { .n = 0 };
	int err = mpio_start(&run, td, cpus, n, 4, 3, 0) || mpio_start(&run, rd, cpus, n, 4, 12, 0);
	for (int i = 0; i < 12 && !err; i++) {
		int iop = i % 2 ? HAKO_BLK_IOP_OFF : HAKO_BLK_IOP_ON;
		err |= set(td, HAKO_BLK_KEEP, HAKO_BLK_KEEP, iop) != 0;
		err |= set(rd, HAKO_BLK_KEEP, HAKO_BLK_KEEP, iop) != 0;
		sleep_ns(2000000);
	}
	err |= mpio_finish(&run);
	struct hako_blk_info t, r;
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &t), 0);
	CHECK_EQ(sys_blk_ctl(rd, HAKO_BLK_INFO, &r), 0);
	restore(td);
	restore(rd);
	CHECK(!err, "switching failed");
	if (mpio_accounted(&t, (uint64_t)(n * 4 * 3 * 2)) || mpio_accounted(&r, (uint64_t)(n * 4 * 12 * 2)))
		return 1;
	CHECK(t.iop_cmds > 0 && r.iop_cmds > 0, "the IOP executed %lu, %lu", (unsigned long)t.iop_cmds,
	      (unsigned long)r.iop_cmds);
	return 0;
}

TEST_NEEDS(iop_cannot_be_used_without_one, need_testdev_no_iop)
{
	int td = blk_find("testdev0", &(struct hako_blk_info){ 0 });
	CHECK(td >= 0, "no testdev0");
	CHECK_EQ(set(td, HAKO_BLK_KEEP, HAKO_BLK_KEEP, HAKO_BLK_IOP_ON), -EINVAL);
	CHECK_EQ(set(td, HAKO_BLK_KEEP, HAKO_BLK_KEEP, HAKO_BLK_IOP_OFF), 0);
	struct hako_blk_info in;
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &in), 0);
	CHECK(in.iop == 0 && in.iop_cpu == -1, "iop %d on cpu %d", in.iop, in.iop_cpu);
	return 0;
}
