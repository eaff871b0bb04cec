/*
 * tools/peer/linuxbench.c — the peer baseline: what Hako's sysbench and
 * ispcbench measure, measured the same way on Debian's Linux kernel in the
 * same QEMU configuration (`./hako bench peer`, tools/hakotool/peer.py).
 *
 * Built on the host with `gcc -static -O2` (glibc's libc.a) and packed as
 * /init of a small initramfs; no other file is in it.  As process 1 it
 * mounts /proc, /sys and /dev, prints what kernel and mitigations it runs
 * on, runs every benchmark, and ends the machine through QEMU's
 * isa-debug-exit port (/dev/port, offset 0xf4: status 1 passed, 3 failed),
 * or powers it off if that device is missing.
 *
 *   /init                every benchmark (as process 1)
 *   /init --exit         end at once (what spawn_exit_wait spawns)
 *
 * Method, as in user/sysbench and user/ispcbench: each sample is one
 * operation between two TSC reads (lfence; rdtsc, the pair included); a
 * figure is the min, median (middle sample after sorting), mean and max
 * of many samples after a few untimed runs, in TSC ticks — guest
 * instructions under QEMU -icount shift=0.  One-way figures are half a
 * round trip where sysbench halves one.  Result lines have Hako's bench
 * format: @@ {"kind":"bench","name":...,"unit":"tsc","min":...}.
 *
 * What stands for what:
 *   null_syscall           getppid() (Linux has no null call; lmbench's choice)
 *   getpid                 getpid() (glibc no longer caches it)
 *   process_switch_*       two processes on CPU 0, POSIX semaphores in shared
 *                          memory (futexes): post A, wait B; one way = rt / 2
 *   page_fault_first_touch first write to each page of a fresh 4 MiB anonymous
 *                          mapping (MADV_NOHUGEPAGE: 4 KiB faults, like Hako's)
 *   spawn_exit_wait        posix_spawn("/init --exit") + waitpid
 *   cross_cpu_wakeup       sem_post on CPU 0 to sem_wait's return on CPU 1
 *   pipe_4k_*              4 KiB written through a pipe and 4 KiB back
 *   unix_64b_*, unix_4k_*  the same through a Unix stream socket pair, 64 B or
 *                          4 KiB each way (Linux's answer to ISPC's request +
 *                          result without and with a 4 KiB data ICA)
 * each *_same_cpu with both processes on CPU 0, *_cross_cpu with the
 * server on CPU 1.
 *
 * Every timed operation is also a span of a cost-model region (Hako's
 * marker, <hako/region.h>; `./hako bench peer --model PROFILE`), marked
 * just outside the TSC reads as in sysbench: per CPU where everything runs
 * on CPU 0, global where the operation crosses CPUs (or, like spawn, may).
 * The Linux boot has the plugin to itself, so its ids start at 0
 * (enum region); the result line names the region and its spans.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <x86intrin.h>
#include <hako/region.h>
#include "sysinfo.h"

#define BENCH_CPU	0
#define OTHER_CPU	1
#define CALL_RUNS	10000
#define CALL_WARMUP	100
#define FAULT_PAGES	1000
#define SPAWN_RUNS	200
#define PINGPONG_ROUNDS	2000
#define WAKE_ROUNDS	1000
#define MSG_ROUNDS	1000
#define MSG_WARMUP	10
#define PAGE		4096ul
#define EXIT_PORT	0xf4		/* QEMU's isa-debug-exit (tools/hakotool/qemu.py) */

extern char **environ;

/* The cost-model regions of this boot, region_nth(REGION_BASE + k) (k < 16). */
#define REGION_BASE 0
enum region {
	R_NULL, R_GETPID, R_SWITCH, R_FAULT, R_SPAWN, R_WAKE,
	R_PIPE_SAME, R_UNIX64_SAME, R_UNIX4K_SAME, R_PIPE_CROSS, R_UNIX64_CROSS, R_UNIX4K_CROSS,
};
#define mark(op, k) REGION_NTH_(op, REGION_BASE, k)
#define region_on(k, global) do { \
		if (global) \
			mark(HAKO_REGION_GLOBAL_BEGIN, k); \
		else \
			mark(HAKO_REGION_BEGIN, k); \
	} while (0)
#define region_off(k, global) do { \
		if (global) \
			mark(HAKO_REGION_GLOBAL_END, k); \
		else \
			mark(HAKO_REGION_END, k); \
	} while (0)

/* ---- time and samples ---------------------------------------------------- */

static inline uint64_t tsc_now(void)
{
	_mm_lfence();
	return __rdtsc();
}

struct samples {
	uint64_t *v;
	unsigned n, cap;
};

static int failed;

static void samples_init(struct samples *s, unsigned cap)
{
	s->v = calloc(cap, sizeof s->v[0]);
	if (!s->v) {
		printf("linuxbench: no memory for %u samples\n", cap);
		exit(1);
	}
	s->n = 0;
	s->cap = cap;
}

static void samples_add(struct samples *s, uint64_t v)
{
	if (s->n < s->cap)
		s->v[s->n++] = v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sort, print the result line (naming region K, which covered ITERS
 * operations) and a readable one, free. */
static void report(const char *name, struct samples *s, const char *what, int k,
		   unsigned long iters)
{
	uint64_t sum = 0;

	if (s->n == 0) {
		printf("linuxbench: %s: no samples\n", name);
		failed = 1;
		free(s->v);
		return;
	}
	qsort(s->v, s->n, sizeof s->v[0], cmp_u64);
	for (unsigned i = 0; i < s->n; i++)
		sum += s->v[i];
	uint64_t min = s->v[0], med = s->v[s->n / 2], max = s->v[s->n - 1];
	printf("@@ {\"kind\":\"bench\",\"name\":\"%s\",\"unit\":\"tsc\",\"min\":%lu,\"median\":%lu,"
	       "\"mean\":%lu,\"max\":%lu,\"n\":%u,\"region\":%d,\"iters\":%lu}\n",
	       name, min, med, sum / s->n, max, s->n, REGION_BASE + k, iters);
	printf("linuxbench: %-28s min %7lu  median %7lu  max %9lu  n %5u  (ticks %s)\n",
	       name, min, med, max, s->n, what);
	fflush(stdout);
	free(s->v);
}

static int fail(const char *what)
{
	printf("linuxbench: %s: %s\n", what, strerror(errno));
	failed = 1;
	return -1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0)
		return fail("sched_setaffinity");
	if (sched_getcpu() != cpu) {
		printf("linuxbench: pinned to cpu %d but running on %d\n", cpu, sched_getcpu());
		failed = 1;
		return -1;
	}
	return 0;
}

/* ---- one process alone ---------------------------------------------------- */

static void time_calls(const char *name, long (*fn)(void), int k)
{
	struct samples s;

	if (pin(BENCH_CPU) < 0)
		return;
	samples_init(&s, CALL_RUNS);
	for (int i = 0; i < CALL_WARMUP; i++)
		fn();
	for (int i = 0; i < CALL_RUNS; i++) {
		region_on(k, 0);
		uint64_t t0 = tsc_now();
		fn();
		uint64_t t1 = tsc_now();
		region_off(k, 0);
		samples_add(&s, t1 - t0);
	}
	report(name, &s, "per call", k, s.n);
}

static long call_getppid(void) { return getppid(); }
static long call_getpid(void) { return getpid(); }

static void bench_page_fault(void)
{
	struct samples s;

	if (pin(BENCH_CPU) < 0)
		return;
	samples_init(&s, FAULT_PAGES);
	char *p = mmap(NULL, FAULT_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fail("mmap");
		return;
	}
	madvise(p, FAULT_PAGES * PAGE, MADV_NOHUGEPAGE);
	for (unsigned i = 0; i < FAULT_PAGES; i++) {
		volatile char *q = p + i * PAGE;
		region_on(R_FAULT, 0);
		uint64_t t0 = tsc_now();
		*q = 1;
		uint64_t t1 = tsc_now();
		region_off(R_FAULT, 0);
		samples_add(&s, t1 - t0);
	}
	munmap(p, FAULT_PAGES * PAGE);
	report("page_fault_first_touch", &s, "per first write to a page", R_FAULT, s.n);
}

static void bench_spawn(void)
{
	char *argv[] = { "/init", "--exit", NULL };
	struct samples s;

	if (pin(BENCH_CPU) < 0)
		return;
	samples_init(&s, SPAWN_RUNS);
	for (int i = 0; i < SPAWN_RUNS; i++) {
		pid_t pid;
		int status = 0;
		region_on(R_SPAWN, 1);
		uint64_t t0 = tsc_now();
		int r = posix_spawn(&pid, "/init", NULL, NULL, argv, environ);
		if (r == 0 && waitpid(pid, &status, 0) < 0)
			r = errno;
		uint64_t t1 = tsc_now();
		region_off(R_SPAWN, 1);
		if (r != 0 || status != 0) {
			errno = r;
			fail("posix_spawn /init --exit");
			break;
		}
		samples_add(&s, t1 - t0);
	}
	report("spawn_exit_wait", &s, "per spawn + exit + wait", R_SPAWN, s.n);
}

/* ---- two processes through semaphores -------------------------------------- */

struct shared {
	sem_t a, b;
};

static void bench_process_switch(void)
{
	struct samples rt, ow;
	struct shared *sh = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED || pin(BENCH_CPU) < 0) {
		fail("mmap");
		return;
	}
	sem_init(&sh->a, 1, 0);
	sem_init(&sh->b, 1, 0);
	pid_t pid = fork();
	if (pid == 0) {
		/* Pinned like the parent (inherited); says it is ready. */
		sem_post(&sh->b);
		for (int i = 0; i < PINGPONG_ROUNDS; i++) {
			sem_wait(&sh->a);
			sem_post(&sh->b);
		}
		sem_wait(&sh->a);        /* its exit falls outside the timing */
		_exit(0);
	}
	if (pid < 0) {
		fail("fork");
		return;
	}
	samples_init(&rt, PINGPONG_ROUNDS);
	samples_init(&ow, PINGPONG_ROUNDS);
	sem_wait(&sh->b);
	for (int i = 0; i < PINGPONG_ROUNDS; i++) {
		region_on(R_SWITCH, 0);
		uint64_t t0 = tsc_now();
		sem_post(&sh->a);
		sem_wait(&sh->b);
		uint64_t t1 = tsc_now();
		region_off(R_SWITCH, 0);
		samples_add(&rt, t1 - t0);
		samples_add(&ow, (t1 - t0) / 2);
	}
	sem_post(&sh->a);
	waitpid(pid, NULL, 0);
	munmap(sh, PAGE);
	report("process_switch_oneway", &ow, "per switch, round trip / 2", R_SWITCH, 2ul * ow.n);
	report("process_switch_roundtrip", &rt, "per post + wait round trip", R_SWITCH, rt.n);
}

/* ---- a wake-up across CPUs ------------------------------------------------- */

static struct {
	sem_t go, ready;
	volatile uint64_t posted, delta;
	volatile unsigned woken;
} ws;

static void *sleeper(void *arg)
{
	(void)arg;
	pin(OTHER_CPU);
	sem_post(&ws.ready);
	for (int i = 0; i < WAKE_ROUNDS; i++) {
		sem_wait(&ws.go);
		uint64_t now = tsc_now();
		region_off(R_WAKE, 1);
		ws.delta = now - ws.posted;
		__atomic_store_n(&ws.woken, ws.woken + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* The sleeper's thread state from /proc: 'S' once it sleeps in sem_wait. */
static char task_state(pid_t tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

static volatile pid_t sleeper_tid;

static void *sleeper_main(void *arg)
{
	sleeper_tid = gettid();
	return sleeper(arg);
}

/* Wait until the sleeper is asleep and its CPU has had time to go idle
 * (`pause` hands QEMU's round robin to the other vCPUs, as in sysbench). */
static void wait_asleep(void)
{
	while (task_state(sleeper_tid) != 'S')
		_mm_pause();
	for (int i = 0; i < 200; i++)
		_mm_pause();
}

static void bench_cross_cpu(void)
{
	struct samples s;
	pthread_t t;

	if (pin(BENCH_CPU) < 0)
		return;
	sem_init(&ws.go, 0, 0);
	sem_init(&ws.ready, 0, 0);
	ws.woken = 0;
	if (pthread_create(&t, NULL, sleeper_main, NULL) != 0) {
		fail("pthread_create");
		return;
	}
	sem_wait(&ws.ready);
	samples_init(&s, WAKE_ROUNDS);
	for (int i = 0; i < WAKE_ROUNDS; i++) {
		wait_asleep();
		unsigned woken = ws.woken;
		region_on(R_WAKE, 1);
		ws.posted = tsc_now();
		sem_post(&ws.go);
		while (__atomic_load_n(&ws.woken, __ATOMIC_ACQUIRE) == woken)
			_mm_pause();
		samples_add(&s, ws.delta);
	}
	pthread_join(t, NULL);
	report("cross_cpu_wakeup", &s, "from sem_post on cpu 0 to sem_wait's return on cpu 1",
	       R_WAKE, s.n);
}

/* ---- round trips through pipes and Unix sockets ----------------------------- */

/* Read exactly LEN bytes. */
static int read_all(int fd, char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = read(fd, buf, len);
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The client writes LEN bytes to TO and reads LEN back from FROM; the
 * server (a child pinned to SERVER_CPU) echoes them.  SERVER_TO and
 * SERVER_FROM are the server's ends.  Round trips: MSG_WARMUP untimed,
 * then MSG_ROUNDS timed, from before the write to after the read.
 */
static void round_trips(const char *name, int k, size_t len, int server_cpu,
			int to, int from, int server_from, int server_to, int *close_fds)
{
	int global = server_cpu != BENCH_CPU;
	static char buf[2][PAGE];
	struct samples s;

	memset(buf, 0x5a, sizeof buf);
	if (pin(BENCH_CPU) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; close_fds[i] >= 0; i++)
			close(close_fds[i]);
		if (pin(server_cpu) < 0)
			_exit(1);
		while (read_all(server_from, buf[1], len) == 0)
			if (write_all(server_to, buf[1], len) < 0)
				_exit(1);
		_exit(0);
	}
	if (pid < 0) {
		fail("fork");
		return;
	}
	close(server_from);
	close(server_to);
	samples_init(&s, MSG_ROUNDS);
	for (int i = 0; i < MSG_WARMUP + MSG_ROUNDS; i++) {
		if (i >= MSG_WARMUP)
			region_on(k, global);
		uint64_t t0 = tsc_now();
		int r = write_all(to, buf[0], len);
		if (r == 0)
			r = read_all(from, buf[0], len);
		uint64_t t1 = tsc_now();
		if (i >= MSG_WARMUP)
			region_off(k, global);
		if (r < 0) {
			fail(name);
			break;
		}
		if (i >= MSG_WARMUP)
			samples_add(&s, t1 - t0);
	}
	close(to);
	if (from != to)
		close(from);
	int status = 0;
	waitpid(pid, &status, 0);
	if (status != 0) {
		printf("linuxbench: %s: the server ended with status 0x%x\n", name, status);
		failed = 1;
	}
	report(name, &s, global ? "per round trip, server on cpu 1" : "per round trip, one CPU",
	       k, s.n);
}

static void bench_pipe(const char *name, int k, int server_cpu)
{
	int up[2], down[2];

	if (pipe(up) < 0 || pipe(down) < 0) {
		fail("pipe");
		return;
	}
	int close_fds[] = { up[1], down[0], -1 };
	round_trips(name, k, PAGE, server_cpu, up[1], down[0], up[0], down[1], close_fds);
}

static void bench_unix(const char *name, int k, size_t len, int server_cpu)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		fail("socketpair");
		return;
	}
	int close_fds[] = { sv[0], -1 };
	/* The server's two ends are the same socket: duplicate it so each
	 * side's close in round_trips leaves the other working. */
	int server = sv[1], server2 = dup(sv[1]);
	round_trips(name, k, len, server_cpu, sv[0], sv[0], server, server2, close_fds);
}

/* ---- the end ------------------------------------------------------------------ */

/* Through isa-debug-exit (QEMU exits with status VALUE * 2 + 1), else off. */
static void machine_exit(int value)
{
	unsigned char v = (unsigned char)value;
	int fd = open("/dev/port", O_WRONLY);

	fflush(stdout);
	tcdrain(STDOUT_FILENO);          /* the console's last lines out first */
	if (fd >= 0 && pwrite(fd, &v, 1, EXIT_PORT) == 1)
		pause();
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static void mount_all(void)
{
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--exit") == 0)
		return 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getpid() == 1)
		mount_all();
	print_system();
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	printf("linuxbench: %ld cpus; figures in TSC ticks, a TSC read pair included in each\n",
	       cpus);
	time_calls("null_syscall", call_getppid, R_NULL);
	time_calls("getpid", call_getpid, R_GETPID);
	bench_process_switch();
	bench_page_fault();
	bench_spawn();
	if (cpus >= 2)
		bench_cross_cpu();
	bench_pipe("pipe_4k_same_cpu", R_PIPE_SAME, BENCH_CPU);
	bench_unix("unix_64b_same_cpu", R_UNIX64_SAME, 64, BENCH_CPU);
	bench_unix("unix_4k_same_cpu", R_UNIX4K_SAME, PAGE, BENCH_CPU);
	if (cpus >= 2) {
		bench_pipe("pipe_4k_cross_cpu", R_PIPE_CROSS, OTHER_CPU);
		bench_unix("unix_64b_cross_cpu", R_UNIX64_CROSS, 64, OTHER_CPU);
		bench_unix("unix_4k_cross_cpu", R_UNIX4K_CROSS, PAGE, OTHER_CPU);
	}
	printf("@@ {\"kind\":\"peer-done\",\"failed\":%d}\n", failed);
	printf("linuxbench: %s\n", failed ? "some benchmarks FAILED" : "done");
	if (getpid() == 1)
		machine_exit(failed ? 1 : 0);
	return failed;
}
