/*
 * fuzz — a system-call fuzzer: many threads and processes making random
 * calls of syscalls.def with valid and hostile arguments, while child
 * processes are spawned and killed, cards opened and closed, priorities
 * and affinities churned, control calls made: the standing soak.
 *
 *   fuzz CALLS SEED [THREADS [PROCS]] [--no LIST]
 *
 * The first process measures the free frames and ICA pages, starts the
 * runner (fuzz --run), waits for it and measures again.  The runner
 * fuzzes with THREADS threads (default 8) until they have made CALLS
 * calls between them; meanwhile its main thread posts the semaphores,
 * kills a child now and then (the only thread that kills one), churns
 * priorities and affinities, and PROCS threads (default 3) each keep a
 * child process (fuzz --child) alive, which fuzzes with threads of its
 * own: started again when it finishes, ends itself (exit), or is killed.
 * At the end the runner joins its threads, waits for its children, gives
 * back what it holds and writes its counts to the ramdisk's last blocks;
 * the first process reads them and prints one result line (kind "fuzz",
 * report.c) with ok: the runner finished, every child finished, ended
 * itself or was killed by the fuzzer (never by a fault), and the free
 * frames and ICA pages are back (read until they are, at most 2 s: the
 * serialising thread frees some after the runner's end).
 *
 * --no LIST leaves calls out (names from syscalls.def, comma-separated;
 * nic_open: nic_ctl OPEN and CLOSE only).  Everything follows from SEED:
 * under icount a run repeats exactly, and a failure is replayed by its
 * seed.  The fuzzer never dereferences a hostile pointer itself, so a
 * "killed" line on the console is the kernel's fault, not the fuzzer's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "fuzz.h"

#define CHILD_CALLS    6000
#define CHILD_THREADS  3
#define SETTLE_MS      2000
#define PROGRESS_NS    1000000000ull     /* the runner's progress line: every second of guest time */

_Static_assert(sizeof(struct fz_report) <= FZ_REPORT_BLOCKS * HAKO_BLK_SIZE,
	       "the report fits the ramdisk's last blocks");

static struct fz_counts counts[FZ_MAX_WORKERS + 1];
static struct fz_thread manager;
static uint64_t child_calls, spawned, finished, killed, self_ended, faulted, unprivileged;
static int64_t bad_status;
static int nprocs, child_threads;
static uint64_t seed;

static uint64_t mix(uint64_t x)                  /* splitmix64: seeds for threads and children */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (x ^ (x >> 31)) | 1;
}

/*
 * A child started unprivileged gives up every privilege before it fuzzes
 * (priv_drop), so its control calls meet the kernel's -EPERM path while
 * the runner's and the other children's meet the acting one.  A set that
 * is not empty afterwards is the kernel's failure: the child says so and
 * ends with FZ_CHILD_BAD, which the runner counts as a bad status.
 */
static void fz_drop_privileges(void)
{
	if (sys_priv_drop(HAKO_PRIV_ALL) != 0 || sys_priv_get() != 0) {
		printf("fuzz: pid %d: privileges left after priv_drop(all): %ld\n",
		       fz.pid, sys_priv_get());
		sys_exit(FZ_CHILD_BAD);
	}
}

static void worker(void *arg)
{
	struct fz_thread *t = arg;
	while (t->made < t->budget)
		fz_one_call(t);
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);      /* if a call left it periodic */
	t->done = true;
}

static int start_workers(int n, uint64_t calls)
{
	fz.nworkers = n;
	for (int i = 0; i < n; i++) {
		struct fz_thread *t = &fz.workers[i];
		*t = (struct fz_thread){ .index = i, .rng = mix(seed + (uint64_t)i),
					 .budget = calls / (uint64_t)n + (i == 0 ? calls % (uint64_t)n : 0),
					 .counts = &counts[i], .buf = fz_buffer(i) };
	}
	for (int i = 0; i < n; i++) {
		int tid = thread_start(worker, &fz.workers[i]);
		if (tid < 0)
			return tid;
		fz.workers[i].tid = tid;
		fz.worker_tids[i] = tid;
	}
	return 0;
}

static bool workers_done(void)
{
	for (int i = 0; i < fz.nworkers; i++)
		if (!fz.workers[i].done)
			return false;
	return true;
}

/* The main thread while the workers run: semaphores posted (a waiter
 * always wakes), children killed now and then, priorities churned. */
static void manage(void)
{
	struct fz_thread *t = &manager;
	uint64_t next = clock_ns() + PROGRESS_NS;
	while (!workers_done()) {
		sleep_ms(1);
		if (fz.runner && clock_ns() >= next) {       /* a sign of life on the console */
			uint64_t made = 0;
			static struct fz_counts sum;
			memset(&sum, 0, sizeof sum);
			for (int i = 0; i < fz.nworkers; i++) {
				made += fz.workers[i].made;
				fz_add(&sum, &counts[i]);
			}
			char slow[128];
			fz_slowest(&sum, slow, sizeof slow);
			printf("fuzz: %" PRIu64 " calls, %" PRIu64 " children; most time in %s\n", made, spawned, slow);
			next += PROGRESS_NS;
		}
		fz_post_sems();
		uint64_t k = fz_below(&t->rng, 64);
		if (k == 0 && fz.runner && !fz.no[SYS_kill]) {   /* the only killer of children */
			int pid = fz.child_pids[fz_below(&t->rng, FZ_MAX_PROCS)];
			if (pid > 0)
				fz_call(t, SYS_kill, (uint64_t[6]){ (uint64_t)pid });
		} else if (k < 8) {
			int tid = fz.worker_tids[fz_below(&t->rng, (uint64_t)fz.nworkers)];
			uint64_t prio[6] = { (uint64_t)tid, 1 + fz_below(&t->rng, FZ_PRIO_MAX) };
			uint64_t mask[6] = { (uint64_t)tid,
					     1ull << fz_below(&t->rng, (uint64_t)fz.ncpus) | (k & 1 ? ~0ull : 0) };
			if (!fz_refused(SYS_setprio, prio))
				fz_call(t, SYS_setprio, prio);
			if (!fz_refused(SYS_set_affinity, mask))
				fz_call(t, SYS_set_affinity, mask);
		}
	}
	for (int i = 0; i < fz.nworkers; i++)
		thread_join(fz.workers[i].tid);
}

/* ---- the runner's children ----------------------------------------------- */

static struct spin tally_lock = SPIN_INIT;

static void tally(int status, bool unpriv)
{
	spin_lock(&tally_lock);
	if (status == 0) {
		finished++;
		child_calls += CHILD_CALLS;
	} else if (HAKO_WIFKILLED(status) && HAKO_WCAUSE(status) == HAKO_CAUSE_KILL)
		killed++;
	else if (!HAKO_WIFKILLED(status) && HAKO_WEXITCODE(status) == FZ_CHILD_EXIT)
		self_ended++;
	else {
		faulted++;
		if (!bad_status)
			bad_status = status ? status : -1;
	}
	unprivileged += unpriv;
	spin_unlock(&tally_lock);
}

/* One slot: a child alive at all times until the workers are done. */
static void child_slot(void *arg)
{
	int slot = (int)(uint64_t)arg;
	uint64_t rng = mix(seed ^ (0x5107ull << 32) ^ (uint64_t)slot);
	char sd[24], calls[24], threads[24];
	snprintf(calls, sizeof calls, "%d", CHILD_CALLS);
	snprintf(threads, sizeof threads, "%d", child_threads);
	while (!fz.stop) {
		bool unpriv = fz_below(&rng, 2);
		snprintf(sd, sizeof sd, "%" PRIu64, fz_rnd(&rng));
		char *argv[] = { "fuzz", "--child", sd, calls, threads, unpriv ? "1" : "0",
				 (char *)fz.no_list, NULL };
		int pid = spawnv("fuzz", argv);
		if (pid < 0) {
			sleep_ms(1);
			continue;
		}
		__atomic_fetch_add(&spawned, 1, __ATOMIC_RELAXED);
		fz.child_pids[slot] = pid;
		int status;
		int r = waitpid(pid, &status);
		fz.child_pids[slot] = 0;
		tally(r == pid ? status : -1, unpriv);
	}
}

static int run(uint64_t calls, int threads)
{
	fz.runner = true;
	fz_setup();
	manager = (struct fz_thread){ .index = FZ_MAX_WORKERS, .rng = mix(seed ^ 0x3a3a3a3aull),
				      .counts = &counts[FZ_MAX_WORKERS],
				      .buf = fz_buffer(FZ_MAX_WORKERS) };
	if (fz.ramdisk < 0) {
		printf("fuzz: no ramdisk for the report\n");
		return 2;
	}
	int slots[FZ_MAX_PROCS];
	fz.long_tids[FZ_MAX_PROCS] = thread_self();
	for (int i = 0; i < nprocs; i++)
		fz.long_tids[i] = slots[i] = thread_start(child_slot, (void *)(uint64_t)i);
	if (start_workers(threads, calls) < 0) {
		printf("fuzz: cannot start the threads\n");
		return 2;
	}
	manage();
	fz.stop = true;
	for (int i = 0; i < nprocs; i++) {
		int pid = fz.child_pids[i];
		if (pid > 0)
			sys_kill(pid);
	}
	for (int i = 0; i < nprocs; i++)
		if (slots[i] > 0) {
			while (thread_join(slots[i]) == -EINTR)
				;
			int pid = fz.child_pids[i];    /* spawned after the kills above */
			if (pid > 0)
				sys_kill(pid);
		}
	fz_release(&manager);

	static struct fz_report rep;
	rep.magic = FZ_REPORT_MAGIC;
	for (int i = 0; i <= FZ_MAX_WORKERS; i++)
		fz_add(&rep.total, &counts[i]);
	for (int s = 0; s < FZ_SLOTS; s++)
		rep.calls += rep.total.calls[s];
	rep.calls += child_calls;
	rep.child_calls = child_calls;
	rep.spawned = spawned;
	rep.finished = finished;
	rep.killed = killed;
	rep.self_ended = self_ended;
	rep.faulted = faulted;
	rep.unprivileged = unprivileged;
	rep.helpers = fz.helpers;
	rep.bad_child_status = bad_status;
	static uint8_t block[FZ_REPORT_BLOCKS * HAKO_BLK_SIZE];
	memcpy(block, &rep, sizeof rep);
	long dev = sys_blk_open("ramdisk0");
	long w = dev < 0 ? dev : sys_blk_write((int)dev, (fz.ramdisk_blocks - FZ_REPORT_BLOCKS) *
					       HAKO_BLK_SIZE, block, sizeof block);
	sys_blk_close((int)dev);
	return w == (long)sizeof block ? 0 : 2;
}

static int child(uint64_t calls, int threads, bool unpriv)
{
	fz_setup();
	manager = (struct fz_thread){ .index = FZ_MAX_WORKERS, .rng = mix(seed ^ 0x3a3a3a3aull),
				      .counts = &counts[FZ_MAX_WORKERS],
				      .buf = fz_buffer(FZ_MAX_WORKERS) };
	fz.long_tids[FZ_MAX_PROCS] = thread_self();
	if (unpriv)
		fz_drop_privileges();
	if (start_workers(threads, calls) < 0)
		return 2;
	manage();
	fz_release(&manager);
	return 0;
}

/* ---- the first process --------------------------------------------------- */

static uint64_t free_frames(void)
{
	struct hako_sysinfo si;
	return sys_sysinfo(&si) < 0 ? 0 : si.free_frames;
}

static uint64_t ica_free_pages(void)
{
	struct hako_ica_stat st;
	return sys_ica_stat(&st) < 0 ? 0 : st.free_pages;
}

static int usage(void)
{
	printf("usage: fuzz CALLS SEED [THREADS [PROCS]] [--no CALL,...]\n");
	return 2;
}

static int first(int argc, char **argv)
{
	const char *no = "-";
	int n = 0;
	char *pos[4];
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no") == 0 && i + 1 < argc)
			no = argv[++i];
		else if (n < 4)
			pos[n++] = argv[i];
		else
			return usage();
	}
	if (n < 2)
		return usage();
	if (strcmp(no, "-") != 0 && !fz_parse_no(no)) {
		printf("fuzz: --no %s: not a call of syscalls.def (or nic_open)\n", no);
		return 2;
	}
	const char *threads = n > 2 ? pos[2] : "8", *procs = n > 3 ? pos[3] : "3";
	if (atoi(threads) < 1 || atoi(threads) > FZ_MAX_WORKERS || atoi(procs) < 0 ||
	    atoi(procs) > FZ_MAX_PROCS)
		return usage();
	static uint8_t block[FZ_REPORT_BLOCKS * HAKO_BLK_SIZE];
	memset(block, 0, sizeof block);                  /* touched before the count */
	long dev = sys_blk_open("ramdisk0");
	struct hako_blk_info bi;
	if (dev < 0 || sys_blk_ctl((int)dev, HAKO_BLK_INFO, &bi) < 0) {
		printf("fuzz: needs the ramdisk (ramdisk0) for the report\n");
		return 2;
	}
	uint64_t at = (bi.blocks - FZ_REPORT_BLOCKS) * HAKO_BLK_SIZE;
	sys_blk_write((int)dev, at, block, sizeof block);
	printf("fuzz: %s calls, seed %s, %s threads, %s child processes%s%s\n", pos[0], pos[1],
	       threads, procs, strcmp(no, "-") ? ", leaving out " : "", strcmp(no, "-") ? no : "");
	uint64_t fb = free_frames(), ib = ica_free_pages(), t0 = clock_ns();
	char *rargv[] = { "fuzz", "--run", pos[0], pos[1], (char *)threads, (char *)procs,
			  (char *)no, NULL };
	int status = spawn_wait("fuzz", rargv);
	uint64_t ms = (clock_ns() - t0) / 1000000;
	uint64_t fa = free_frames(), ia = ica_free_pages();
	for (int i = 0; i < SETTLE_MS / 10 && (fa < fb || ia < ib); i++) {
		sleep_ms(10);
		fa = free_frames();
		ia = ica_free_pages();
	}
	sys_blk_read((int)dev, at, block, sizeof block);
	sys_blk_close((int)dev);
	struct fz_report *rep = (struct fz_report *)block;
	bool have = rep->magic == FZ_REPORT_MAGIC;
	if (!have)
		memset(rep, 0, sizeof *rep);
	bool ok = status == 0 && have && rep->faulted == 0 && fa >= fb && ia >= ib;
	if (status != 0)
		printf("fuzz: the runner ended with status %#x\n", status);
	fz_print_result(rep, strtoull(pos[1], NULL, 0), ms, fb, fa, ib, ia, ok);
	printf("fuzz: %" PRIu64 " calls in %" PRIu64 " ms, %" PRIu64 " children (%" PRIu64 " killed, %" PRIu64 " faulted), frames %" PRIu64 " -> %" PRIu64 ": "
	       "%s\n", rep->calls, ms, rep->spawned, rep->killed, rep->faulted, fb, fa,
	       ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 7 && strcmp(argv[1], "--run") == 0) {
		seed = strtoull(argv[3], NULL, 0);
		nprocs = atoi(argv[5]);
		child_threads = CHILD_THREADS;
		if (strcmp(argv[6], "-") != 0)
			fz_parse_no(argv[6]);
		fz.no_list = argv[6];
		return run(strtoull(argv[2], NULL, 0), atoi(argv[4]));
	}
	if (argc >= 7 && strcmp(argv[1], "--child") == 0) {
		seed = strtoull(argv[2], NULL, 0);
		if (strcmp(argv[6], "-") != 0)
			fz_parse_no(argv[6]);
		fz.no_list = argv[6];
		return child(strtoull(argv[3], NULL, 0), atoi(argv[4]), argv[5][0] == '1');
	}
	return first(argc, argv);
}
