/*
 * iotest/run.c — one run of paper 001's workload: K worker processes,
 * each reading 4 KiB from a block of its own and busy-waiting, LOOPS
 * times; the parent times them from the start signal to the last one's
 * end of its loops.
 *
 * The workers are copies of iotest (`iotest --worker ...`), separate
 * processes as in the paper.  Each posts READY once loaded and waits on
 * GO, so process creation stays out of the time: the parent waits for K
 * READY, opens the run's global region, reads the clock, posts GO K
 * times, waits for K DONE, reads the clock, closes the region, posts
 * LEAVE K times and only then reaps the K workers.  Process exit stays
 * out of the time as creation does: the paper timed its programs to
 * their end, but its loop counts made an exit negligible; at ours (10
 * loops) a worker's end (its address space freed by the serialising
 * thread, sched/serialiser.c) is about 35,000 instructions, a third of
 * its work at wait 0.  So a worker that has posted DONE sleeps on LEAVE
 * and exits only once the region is closed.  (A worker that exited right
 * after DONE would put an early finisher's end inside the region, and
 * the last one's end in it or not, depending on whether its CPU ran
 * the serialising thread before the parent's CPU got its turn under
 * icount: reruns of one cell would move by one teardown on one CPU, and
 * any layout change would move the makespan bound by tens of percent.)
 * Unpinned (the default), the scheduler places the workers as it would
 * any process, and where they land changes from one K to the next.
 * Pinned (`--pin on`), worker i runs on the CPU numbered (i + 1) mod n
 * among the n CPUs that schedule threads (all but the I/O processor, if
 * the kernel has one, counted in order, the IOP skipped): the
 * first workers fill the CPUs other than the master, one each, and only
 * from K = n on do two share a CPU.  A funnelled driver call still
 * takes the worker to the master and back (mpio/issue_funnel.c keeps its
 * affinity).  Each worker pins itself before it says READY, so the
 * placement is outside the time.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "iotest.h"

static char buf[HAKO_BLK_SIZE] __attribute__((aligned(HAKO_BLK_SIZE)));

/*
 * One turn of the busy loop is one step of a 64-bit linear congruential
 * generator kept in a register: imul, add, then the loop's inc, cmp and
 * branch — five instructions (docs/results.md has the calibration).
 * keep_value keeps gcc from folding the loop away.
 */
void busy_wait(unsigned long n)
{
	uint64_t x = 1;

	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		keep_value(&x);
	}
}

/* The timed part: LOOPS times a 4 KiB read of block INDEX and TURNS
 * turns of the busy loop. */
static int worker_loops(int dev, int index, int loops, unsigned long turns)
{
	for (int i = 0; i < loops; i++) {
		long r = sys_blk_read(dev, (uint64_t)index * HAKO_BLK_SIZE, buf, HAKO_BLK_SIZE);
		if (r != HAKO_BLK_SIZE) {
			printf("iotest: worker %d: blk_read: %ld\n", index, r);
			return 1;
		}
		busy_wait(turns);
	}
	return 0;
}

int worker_main(int argc, char **argv)
{
	if (argc != 9)
		return 2;
	int dev = atoi(argv[0]), index = atoi(argv[1]), loops = atoi(argv[2]);
	unsigned long turns = strtoul(argv[3], NULL, 10) * IOTEST_WAIT_UNIT;
	int ready = atoi(argv[4]), go = atoi(argv[5]), done = atoi(argv[6]);
	int leave = atoi(argv[7]), cpu = atoi(argv[8]);

	/* Every path posts READY once and, after GO, DONE once: the parent
	 * counts both, so a worker that fails must still say so.  After DONE
	 * it waits for LEAVE: its exit stays out of the timed region. */
	struct hako_blk_info info;
	bool set = (cpu < 0 || sys_set_affinity(0, 1ull << cpu) >= 0) &&
		   sys_blk_ctl(dev, HAKO_BLK_INFO, &info) >= 0 && sys_blk_open(info.name) == dev;
	sys_sem_post(ready);
	if (sys_sem_wait(go) < 0)
		return 1;
	int rc = set ? worker_loops(dev, index, loops, turns) : 1;
	sys_sem_post(done);
	if (sys_sem_wait(leave) < 0)
		return 1;
	return rc;
}

/* The CPU worker INDEX is pinned to, -1 if the run pins nothing. */
static int worker_cpu(const struct run *r, int index)
{
	struct hako_sysinfo si;

	if (!r->pin || sys_sysinfo(&si) < 0 || si.ncpus < 1)
		return -1;
	int n = si.ncpus - (r->iop_cpu >= 0 && r->iop_cpu < si.ncpus);
	if (n < 1)
		return -1;
	int cpu = (index + 1) % n;
	return r->iop_cpu >= 0 && cpu >= r->iop_cpu ? cpu + 1 : cpu;
}

/* The four semaphores a run's workers and parent share. */
struct run_sems {
	int ready, go, done, leave;
};

static int spawn_worker(const struct run *r, int index, const struct run_sems *s)
{
	char sdev[12], sidx[12], sloops[12], swait[12], sready[12], sgo[12], sdone[12];
	char sleave[12], scpu[12];
	snprintf(sdev, sizeof sdev, "%d", r->dev);
	snprintf(sidx, sizeof sidx, "%d", index);
	snprintf(sloops, sizeof sloops, "%d", r->loops);
	snprintf(swait, sizeof swait, "%d", r->wait);
	snprintf(sready, sizeof sready, "%d", s->ready);
	snprintf(sgo, sizeof sgo, "%d", s->go);
	snprintf(sdone, sizeof sdone, "%d", s->done);
	snprintf(sleave, sizeof sleave, "%d", s->leave);
	snprintf(scpu, sizeof scpu, "%d", worker_cpu(r, index));
	char *argv[] = { "iotest", "--worker", sdev, sidx, sloops, swait, sready, sgo, sdone,
			 sleave, scpu, NULL };
	return spawnv("iotest", argv);
}

/* Reap the first N of PIDS; the count of those that did not exit 0. */
static int reap(const int *pids, int n)
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		int status = 0;
		if (waitpid(pids[i], &status) < 0 || HAKO_WIFKILLED(status) ||
		    HAKO_WEXITCODE(status) != 0)
			failed++;
	}
	return failed;
}

static void sems_destroy(const struct run_sems *s)
{
	if (s->ready >= 0)
		sys_sem_destroy(s->ready);
	if (s->go >= 0)
		sys_sem_destroy(s->go);
	if (s->done >= 0)
		sys_sem_destroy(s->done);
	if (s->leave >= 0)
		sys_sem_destroy(s->leave);
}

/* Post SEM N times, or wait on it N times. */
static void sem_post_n(int sem, int n)
{
	for (int i = 0; i < n; i++)
		sys_sem_post(sem);
}

static void sem_wait_n(int sem, int n)
{
	for (int i = 0; i < n; i++)
		sys_sem_wait(sem);
}

int run_once(const struct run *r, struct run_result *out)
{
	int pids[IOTEST_MAX_K];
	int started = 0, err = 0;

	if (r->k < 1 || r->k > IOTEST_MAX_K || r->loops < 1 || r->wait < 0)
		return -22;
	struct run_sems s = { (int)sys_sem_create(0), (int)sys_sem_create(0),
			      (int)sys_sem_create(0), (int)sys_sem_create(0) };
	if (s.ready < 0 || s.go < 0 || s.done < 0 || s.leave < 0) {
		err = s.ready < 0 ? s.ready : s.go < 0 ? s.go : s.done < 0 ? s.done : s.leave;
		goto out;
	}
	for (; started < r->k; started++) {
		pids[started] = spawn_worker(r, started, &s);
		if (pids[started] < 0) {
			err = pids[started];
			break;
		}
	}
	sem_wait_n(s.ready, started);
	if (err < 0) {
		sem_post_n(s.go, started);
		sem_post_n(s.leave, started);
		reap(pids, started);
		goto out;
	}

	iotest_region_global_begin(r->slot);
	uint64_t t0 = clock_ns();
	sem_post_n(s.go, r->k);
	sem_wait_n(s.done, r->k);
	uint64_t t1 = clock_ns();
	iotest_region_global_end(r->slot);
	sem_post_n(s.leave, r->k);      /* only now may the workers end */

	out->elapsed_ns = t1 - t0;
	out->failed = reap(pids, r->k);
out:
	sems_destroy(&s);
	return err;
}
