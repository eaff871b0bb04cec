/*
 * iotest/run.c — one run of paper 001's workload: K worker processes,
 * each reading 4 KiB from a block of its own and busy-waiting, LOOPS
 * times; the parent times them from the start signal to the last exit.
 *
 * The workers are copies of iotest (`iotest --worker ...`), separate
 * processes as in the paper.  Each posts READY once loaded and waits on
 * GO, so process creation stays out of the time: the parent waits for K
 * READY, opens the run's global region, reads the clock, posts GO K
 * times, reaps the K workers, reads the clock and closes the region.
 * Unpinned (the default), the scheduler places the workers as it would
 * any process, and where they land changes from one K to the next.
 * Pinned (`--pin on`), worker i runs on CPU (i + 1) mod ncpus only: the
 * first workers fill the CPUs other than the master, one each, and only
 * from K = ncpus on do two share a CPU.  A funnelled driver call still
 * takes the worker to the master and back (mpio/funnel.c keeps its
 * affinity).  Each worker pins itself before it says READY, so the
 * placement is outside the time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/sys.h>
#include <hako/arch/x86_64/tsc.h>
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

int worker_main(int argc, char **argv)
{
	if (argc != 7)
		return 2;
	int dev = atoi(argv[0]), index = atoi(argv[1]), loops = atoi(argv[2]);
	unsigned long turns = strtoul(argv[3], NULL, 10) * IOTEST_WAIT_UNIT;
	int ready = atoi(argv[4]), go = atoi(argv[5]), cpu = atoi(argv[6]);

	if (cpu >= 0 && sys_set_affinity(0, 1ull << cpu) < 0)
		return 1;
	struct hako_blk_info info;
	if (sys_blk_ctl(dev, HAKO_BLK_INFO, &info) < 0 || sys_blk_open(info.name) != dev)
		return 1;
	if (sys_sem_post(ready) < 0 || sys_sem_wait(go) < 0)
		return 1;
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

/* The CPU worker INDEX is pinned to, -1 if the run pins nothing. */
static int worker_cpu(const struct run *r, int index)
{
	struct hako_sysinfo si;

	if (!r->pin || sys_sysinfo(&si) < 0 || si.ncpus < 1)
		return -1;
	return (index + 1) % si.ncpus;
}

static int spawn_worker(const struct run *r, int index, int ready, int go)
{
	char sdev[12], sidx[12], sloops[12], swait[12], sready[12], sgo[12], scpu[12];
	snprintf(sdev, sizeof sdev, "%d", r->dev);
	snprintf(sidx, sizeof sidx, "%d", index);
	snprintf(sloops, sizeof sloops, "%d", r->loops);
	snprintf(swait, sizeof swait, "%d", r->wait);
	snprintf(sready, sizeof sready, "%d", ready);
	snprintf(sgo, sizeof sgo, "%d", go);
	snprintf(scpu, sizeof scpu, "%d", worker_cpu(r, index));
	char *argv[] = { "iotest", "--worker", sdev, sidx, sloops, swait, sready, sgo, scpu, NULL };
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

int run_once(const struct run *r, struct run_result *out)
{
	int pids[IOTEST_MAX_K];
	int started = 0, err = 0;

	if (r->k < 1 || r->k > IOTEST_MAX_K || r->loops < 1 || r->wait < 0)
		return -22;
	int ready = (int)sys_sem_create(0), go = (int)sys_sem_create(0);
	if (ready < 0 || go < 0) {
		err = ready < 0 ? ready : go;
		goto out;
	}
	for (; started < r->k; started++) {
		pids[started] = spawn_worker(r, started, ready, go);
		if (pids[started] < 0) {
			err = pids[started];
			break;
		}
	}
	for (int i = 0; i < started; i++)
		sys_sem_wait(ready);
	if (err < 0) {
		for (int i = 0; i < started; i++)
			sys_sem_post(go);
		reap(pids, started);
		goto out;
	}

	iotest_region_global_begin(r->slot);
	uint64_t t0 = clock_ns();
	for (int i = 0; i < r->k; i++)
		sys_sem_post(go);
	int failed = reap(pids, r->k);
	uint64_t t1 = clock_ns();
	iotest_region_global_end(r->slot);

	out->elapsed_ns = t1 - t0;
	out->failed = failed;
out:
	if (ready >= 0)
		sys_sem_destroy(ready);
	if (go >= 0)
		sys_sem_destroy(go);
	return err;
}
