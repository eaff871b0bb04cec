/*
 * user/vclockcheck/main.c — the cost model's per-vCPU clocks checked on
 * work whose parallel elapsed time is known (`./hako bench vclock`).
 *
 *     vclockcheck [K]        K CPUs (default: every CPU, at most 16)
 *
 * The same total work W (register-only arithmetic, no memory traffic, so
 * caches do not enter) runs three ways, each in a global region of its own:
 *
 *   one       one thread on CPU 0 does all of W;
 *   parallel  K threads, one pinned to each CPU 0..K-1, each W/K at once:
 *             the elapsed time should be one's divided by K;
 *   serial    the same K threads, each doing its W/K while holding one
 *             lock (a kernel semaphore of value 1): the elapsed time
 *             should be one's, the sum.
 *
 * The threads start together: each blocks on a semaphore the main thread
 * posts inside the region, and each posts "done" when finished, which the
 * main thread takes K times before it ends the region.  Start and end are
 * kernel wake-ups, so the plugin's happens-before edges carry the clocks.
 * A result line per way names its region; the harness reads the plugin's
 * elapsed time for it and judges the ratios (tools/hakotool/vclockcheck.py).
 *
 * Then, if the machine has an AHCI disk (ahci0), a fourth way:
 *
 *   disk      the main thread reads DISK_READS blocks from it one after
 *             another, its interrupt routed to the thread's own CPU: the
 *             elapsed time should be at least the requests' modelled
 *             service times summed (the driver marks each read's, ahci.c),
 *             and not much more.  Under icount QEMU's disk completes in
 *             host time, often before the thread has gone to sleep, and
 *             the interrupt then runs on the thread's CPU first: the
 *             completion's time must reach the thread without a wake-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/sys.h>
#include <hako/region.h>
#include <hako/result.h>
#include <hako/thread.h>
#include <hako_blk.h>
#include <arch/tsc.h>

#define MAX_CPUS   16
#define WORK       1200000u     /* iterations in all: K = 1..6, 8, 10, 12, 15, 16 divide it */
#define DISK       "ahci0"
#define DISK_READS 10

enum way { ONE, PARALLEL, SERIAL, DISK_WAY, WAYS };
static const char *const way_name[WAYS] = { "one", "parallel", "serial", "disk" };

static int main_cpu;                 /* where the main thread runs */

static struct {
	int go, done, lock;          /* semaphores */
	enum way way;
	unsigned share;              /* iterations per thread */
	volatile long err;
} run;

struct worker {
	int cpu;
	volatile uint64_t sink;
};

/* N rounds of a register-only mix (xorshift), its result kept. */
static uint64_t spin_work(unsigned n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static long pin(int cpu)
{
	long r = sys_set_affinity(0, 1ull << cpu);

	if (r >= 0 && sys_getcpu() != cpu)
		r = -1;
	return r;
}

static void worker_main(void *arg)
{
	struct worker *w = arg;

	if (pin(w->cpu) < 0)
		run.err = -1;
	sys_sem_post(run.done);              /* pinned (or failed) */
	if (sys_sem_wait(run.go) < 0)
		run.err = -1;
	if (run.way == SERIAL && sys_sem_wait(run.lock) < 0)
		run.err = -1;
	w->sink = spin_work(run.share);
	if (run.way == SERIAL)
		sys_sem_post(run.lock);
	sys_sem_post(run.done);
}

/* One way with K threads: start them, let them settle, time them as one region. */
static int measure(enum way way, int k)
{
	static struct worker workers[MAX_CPUS];
	int tids[MAX_CPUS];

	run.way = way;
	run.share = WORK / (unsigned)k;
	for (int i = 0; i < k; i++) {
		workers[i].cpu = i;
		tids[i] = thread_start(worker_main, &workers[i]);
		if (tids[i] < 0) {
			printf("vclockcheck: thread_start: %s\n", strerror(-tids[i]));
			return -1;
		}
	}
	for (int i = 0; i < k; i++)          /* every worker pinned and about to wait */
		sys_sem_wait(run.done);
	for (int i = 0; i < k; i++) {        /* ...and asleep on go: its CPU idle */
		struct hako_cpustat st;
		while (i != main_cpu && sys_cpustat(i, &st) >= 0 && !st.idle)
			cpu_pause();
	}
	region_global_begin_nth(REGION_VCLOCK, (int)way);
	for (int i = 0; i < k; i++)
		sys_sem_post(run.go);
	for (int i = 0; i < k; i++)
		sys_sem_wait(run.done);
	region_global_end_nth(REGION_VCLOCK, (int)way);
	for (int i = 0; i < k; i++)
		thread_join(tids[i]);
	if (run.err) {
		printf("vclockcheck: %s: a worker failed\n", way_name[way]);
		return -1;
	}
	result_line("{\"kind\":\"vclock\",\"way\":\"%s\",\"k\":%d,\"work\":%u,"
		    "\"region\":%d,\"iters\":1}", way_name[way], k, WORK, REGION_VCLOCK + way);
	return 0;
}

static char block[HAKO_BLK_SIZE] __attribute__((aligned(HAKO_BLK_SIZE)));

/* The disk's number, opened, or -1 if the machine has none. */
static int open_disk(struct hako_blk_info *info)
{
	for (int dev = 0; sys_blk_ctl(dev, HAKO_BLK_INFO, info) == 0; dev++)
		if (strcmp(info->name, DISK) == 0)
			return sys_blk_open(DISK) == dev ? dev : -1;
	return -1;
}

/* DISK_READS reads on this CPU, its interrupt routed here; 0, 1 if it fails, 2 without a disk. */
static int measure_disk(void)
{
	struct hako_blk_info info;
	int dev = open_disk(&info);
	if (dev < 0) {
		printf("vclockcheck: no %s, the disk way skipped\n", DISK);
		return 2;
	}
	struct hako_blk_set here = { .mode = HAKO_BLK_SYMMETRIC, .policy = HAKO_BLK_FIXED,
				     .fixed_cpu = main_cpu, .iop = HAKO_BLK_IOP_OFF };
	long r = sys_blk_ctl(dev, HAKO_BLK_SET, &here);
	for (int i = 0; r >= 0 && i < 2; i++)       /* the driver's first use, outside the time */
		r = sys_blk_read(dev, (uint64_t)i * HAKO_BLK_SIZE, block, HAKO_BLK_SIZE);
	if (r < 0) {
		printf("vclockcheck: %s: %s\n", DISK, strerror((int)-r));
		return 1;
	}
	region_global_begin_nth(REGION_VCLOCK, (int)DISK_WAY);
	for (int i = 0; r >= 0 && i < DISK_READS; i++)
		r = sys_blk_read(dev, (uint64_t)i * HAKO_BLK_SIZE, block, HAKO_BLK_SIZE);
	region_global_end_nth(REGION_VCLOCK, (int)DISK_WAY);
	struct hako_blk_set back = { .mode = info.mode, .policy = info.policy,
				     .fixed_cpu = info.fixed_cpu, .iop = HAKO_BLK_KEEP };
	sys_blk_ctl(dev, HAKO_BLK_SET, &back);
	sys_blk_close(dev);
	if (r < 0) {
		printf("vclockcheck: %s: read: %s\n", DISK, strerror((int)-r));
		return 1;
	}
	result_line("{\"kind\":\"vclock\",\"way\":\"%s\",\"k\":1,\"dev\":\"%s\",\"reads\":%d,"
		    "\"region\":%d,\"iters\":1}", way_name[DISK_WAY], DISK, DISK_READS,
		    REGION_VCLOCK + DISK_WAY);
	return 0;
}

int main(int argc, char **argv)
{
	struct hako_sysinfo si;
	int cpus = sys_sysinfo(&si) < 0 ? 1 : (int)si.ncpus;
	int k = argc > 1 ? atoi(argv[1]) : cpus;

	if (k < 1 || k > cpus || k > MAX_CPUS || WORK % (unsigned)k) {
		printf("vclockcheck: K must be 1..%d and divide %u (got %s)\n",
		       cpus < MAX_CPUS ? cpus : MAX_CPUS, WORK, argc > 1 ? argv[1] : "-");
		return 2;
	}
	run.go = (int)sys_sem_create(0);
	run.done = (int)sys_sem_create(0);
	run.lock = (int)sys_sem_create(1);
	if (run.go < 0 || run.done < 0 || run.lock < 0) {
		printf("vclockcheck: sem_create failed\n");
		return 1;
	}
	/* The main thread stays on the last CPU, out of the workers' way where it can. */
	main_cpu = cpus - 1;
	pin(main_cpu);
	int failed = measure(ONE, 1) || measure(PARALLEL, k) || measure(SERIAL, k) ||
		     measure_disk() == 1;
	sys_sem_destroy(run.go);
	sys_sem_destroy(run.done);
	sys_sem_destroy(run.lock);
	return failed ? 1 : 0;
}
