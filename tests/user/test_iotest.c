/*
 * test_iotest.c — paper 001's benchmark program, iotest (user/iotest/),
 * driven the way `./hako bench mp` drives it: one run of K workers on the
 * ramdisk in both drive modes, and the protocol between its parent and
 * its workers (READY, GO, DONE, LEAVE semaphores), which the parent's
 * timing hangs on: a worker must post DONE on every path after GO, or the
 * parent would wait for it for ever, and must not end before LEAVE, or its
 * exit would be timed.
 */
#include <stdio.h>
#include <hako/sys.h>
#include "test.h"
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

TEST(iotest_runs_its_workers_in_both_modes)
{
	CHECK_EQ(iotest_run("ramdisk0", HAKO_BLK_SYMMETRIC, "3"), 0);
	CHECK_EQ(iotest_run("ramdisk0", HAKO_BLK_FUNNEL, "3"), 0);
	char *bad[] = { "iotest", "no-such-dev", "2", "1", "0", NULL };
	CHECK_EQ(spawn_wait("iotest", bad), 2);
	return 0;
}

/* iotest table2 --t2dev NAMES runs Table 2 on each device in turn: with
 * a second device that has no interrupt it gets that far and fails (1);
 * an empty name is a bad word (2).  Table 2's fixed policy needs a CPU
 * other than the master. */
TEST_NEEDS(iotest_table2_walks_every_device_it_is_given, needs_two_cpus)
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

/* The four semaphores of a worker's protocol, and the worker itself. */
struct worker_sems {
	int ready, go, done, leave;
};

static int sems_make(struct worker_sems *s)
{
	s->ready = (int)sys_sem_create(0);
	s->go = (int)sys_sem_create(0);
	s->done = (int)sys_sem_create(0);
	s->leave = (int)sys_sem_create(0);
	return s->ready >= 0 && s->go >= 0 && s->done >= 0 && s->leave >= 0 ? 0 : -1;
}

static void sems_drop(const struct worker_sems *s)
{
	sys_sem_destroy(s->ready);
	sys_sem_destroy(s->go);
	sys_sem_destroy(s->done);
	sys_sem_destroy(s->leave);
}

/* iotest --worker on device DEV (index 0, 2 loops, wait 0, not pinned). */
static int worker_spawn(const char *dev, const struct worker_sems *s)
{
	char sready[12], sgo[12], sdone[12], sleave[12];
	snprintf(sready, sizeof sready, "%d", s->ready);
	snprintf(sgo, sizeof sgo, "%d", s->go);
	snprintf(sdone, sizeof sdone, "%d", s->done);
	snprintf(sleave, sizeof sleave, "%d", s->leave);
	char *argv[] = { "iotest", "--worker", (char *)dev, "0", "2", "0", sready, sgo, sdone,
			 sleave, "-1", NULL };
	return spawnv("iotest", argv);
}

static int threads_now(void)
{
	struct hako_sysinfo si;
	return sys_sysinfo(&si) < 0 ? -1 : si.nthreads;
}

/* A worker given a device it cannot open still answers READY and, after
 * GO, DONE, then exits 1 once LEAVE comes: the parent's count of DONE
 * never falls short. */
TEST(iotest_worker_that_fails_still_posts_done)
{
	struct worker_sems s;
	CHECK_EQ(sems_make(&s), 0);
	int pid = worker_spawn("999", &s);
	CHECK(pid > 0, "spawn %d", pid);
	CHECK_EQ(sys_sem_wait(s.ready), 0);
	CHECK_EQ(sys_sem_post(s.go), 0);
	CHECK_EQ(sys_sem_wait(s.done), 0);
	CHECK_EQ(sys_sem_post(s.leave), 0);
	int status = -1;
	CHECK_EQ(waitpid(pid, &status), pid);
	CHECK_EQ(HAKO_WEXITCODE(status), 1);
	sems_drop(&s);
	return 0;
}

/* A worker that has posted DONE does not end before LEAVE: its exit (the
 * serialising thread frees its address space, ~35,000 instructions) must
 * stay out of the parent's timed region, which closes between the two.
 * A worker that exited at once would put its teardown inside the region
 * or not as the CPUs' turns came under icount: reruns of one cell would
 * differ by one teardown.  20 ms is far more than an exit and its teardown take. */
TEST(iotest_worker_stays_until_leave)
{
	struct hako_blk_info info;
	int id = blk_find("ramdisk0", &info);        /* none: a worker that fails waits too */
	char sdev[12];
	snprintf(sdev, sizeof sdev, "%d", id >= 0 ? id : 999);
	struct worker_sems s;
	CHECK_EQ(sems_make(&s), 0);
	int before = threads_now();
	int pid = worker_spawn(sdev, &s);
	CHECK(pid > 0, "spawn %d", pid);
	CHECK_EQ(sys_sem_wait(s.ready), 0);
	CHECK_EQ(sys_sem_post(s.go), 0);
	CHECK_EQ(sys_sem_wait(s.done), 0);
	sleep_ms(20);
	CHECK_EQ(threads_now(), before + 1);       /* the worker is still there */
	CHECK_EQ(sys_sem_post(s.leave), 0);
	int status = -1;
	CHECK_EQ(waitpid(pid, &status), pid);
	CHECK_EQ(HAKO_WEXITCODE(status), id >= 0 ? 0 : 1);
	CHECK_EQ(threads_now(), before);
	sems_drop(&s);
	return 0;
}
