/*
 * test_iotest.c — paper 001's benchmark program, iotest (user/iotest/),
 * driven the way `./hako bench mp` drives it: one run of K workers on the
 * ramdisk in both drive modes, and the protocol between its parent and
 * its workers (READY, GO, DONE semaphores), which the parent's timing
 * hangs on: a worker must post DONE on every path after GO, or the
 * parent would wait for it for ever.
 */
#include <stdio.h>
#include <hako/sys.h>
#include <hako/test.h>
#include <hako_blk.h>
#include "blkdevs.h"

/* iotest DEV K LOOPS WAIT in drive MODE; its exit status. */
static int iotest_run(const char *dev, int mode, const char *k)
{
	struct hako_blk_info in;
	int d = blk_find(dev, &in);
	if (d < 0)
		return d;
	struct hako_blk_set s = { mode, HAKO_BLK_KEEP, HAKO_BLK_KEEP, 0 };
	long r = sys_blk_ctl(d, HAKO_BLK_SET, &s);
	if (r < 0)
		return (int)r;
	char *argv[] = { "iotest", (char *)dev, (char *)k, "3", "1", NULL };
	int status = spawn_wait("iotest", argv);
	struct hako_blk_set back = { HAKO_BLK_SYMMETRIC, HAKO_BLK_KEEP, HAKO_BLK_KEEP, 0 };
	sys_blk_ctl(d, HAKO_BLK_SET, &back);
	return status;
}

UTEST(iotest_runs_its_workers_in_both_modes)
{
	CHECK_EQ(iotest_run("ramdisk0", HAKO_BLK_SYMMETRIC, "3"), 0);
	CHECK_EQ(iotest_run("ramdisk0", HAKO_BLK_FUNNEL, "3"), 0);
	char *bad[] = { "iotest", "no-such-dev", "2", "1", "0", NULL };
	CHECK_EQ(spawn_wait("iotest", bad), 2);
	return 0;
}

/* iotest table2 --t2dev NAMES runs Table 2 on each device in turn: with
 * a second device that has no interrupt it gets that far and fails (1);
 * an empty name is a bad word (2). */
UTEST(iotest_table2_walks_every_device_it_is_given)
{
	char *one[] = { "iotest", "table2", "--ks", "1", "--t2loops", "1", "--t2wait", "0",
			"--t2dev", "testdev0,testdev0", NULL };
	CHECK_EQ(spawn_wait("iotest", one), 0);
	char *second_bad[] = { "iotest", "table2", "--ks", "1", "--t2loops", "1", "--t2wait",
			       "0", "--t2dev", "testdev0,ramdisk0", NULL };
	CHECK_EQ(spawn_wait("iotest", second_bad), 1);
	char *empty[] = { "iotest", "table2", "--t2dev", "testdev0,", NULL };
	CHECK_EQ(spawn_wait("iotest", empty), 2);
	return 0;
}

/* A worker given a device it cannot open still answers READY and, after
 * GO, DONE, then exits 1: the parent's count of DONE never falls short. */
UTEST(iotest_worker_that_fails_still_posts_done)
{
	int ready = (int)sys_sem_create(0), go = (int)sys_sem_create(0);
	int done = (int)sys_sem_create(0);
	CHECK(ready >= 0 && go >= 0 && done >= 0, "sem_create %d %d %d", ready, go, done);
	char sready[12], sgo[12], sdone[12];
	snprintf(sready, sizeof sready, "%d", ready);
	snprintf(sgo, sizeof sgo, "%d", go);
	snprintf(sdone, sizeof sdone, "%d", done);
	char *argv[] = { "iotest", "--worker", "999", "0", "2", "0", sready, sgo, sdone, "-1",
			 NULL };
	int pid = spawnv("iotest", argv);
	CHECK(pid > 0, "spawn %d", pid);
	CHECK_EQ(sys_sem_wait(ready), 0);
	CHECK_EQ(sys_sem_post(go), 0);
	CHECK_EQ(sys_sem_wait(done), 0);
	int status = -1;
	CHECK_EQ(waitpid(pid, &status), pid);
	CHECK_EQ(HAKO_WEXITCODE(status), 1);
	sys_sem_destroy(ready);
	sys_sem_destroy(go);
	sys_sem_destroy(done);
	return 0;
}
