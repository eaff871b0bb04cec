/*
 * isochbench/main.c — periodic threads measured (paper 004's isochronous
 * scheduler, kernel/sched/isoch.c):
 *
 *   isochbench                   everything below (or `all`)
 *   isochbench WORD...           the parts named, in the order below
 *   isochbench start             start and stop of cyclic execution, two other
 *                                media threads periodic on that CPU
 *   isochbench switch            thread switch periodic->periodic and normal->normal
 *   isochbench jitter            release latency histogram, one periodic thread per
 *                                CPU (at most 4), compute hogs on every CPU; then
 *                                with an interrupt flood (the hub's NICs, booted
 *                                with --net hub) handled sequentially, then packed;
 *                                then with ISPC traffic instead of the hogs (a
 *                                client per CPU calling the echo server)
 *
 * Figures are TSC ticks, which under QEMU icount (shift 0) are guest
 * instructions = nanoseconds; result lines of kind "bench" (min, median,
 * mean, max) and, for the histogram, kind "isoch_hist".  Every busy loop
 * pauses, as QEMU's round-robin icount needs (docs/design/qemu.md, "Unequal
 * vCPU time").
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/bench.h>
#include <hako/region.h>
#include <hako/ispc.h>
#include <hako/result.h>
#include <hako/sys.h>
#include <hako/thread.h>
#include <arch/tsc.h>
#include <echo/proto.h>

#define BENCH_CPU     1              /* where start and switch run */
#define START_ROUNDS  20
#define SWITCH_ROUNDS 200
/* The periodic switch's shared period and budgets: B spins (pausing, which
 * is slow under TCG) for its budget every period, so the period is short. */
#define SWITCH_PERIOD_NS   200000ull  /* 200 us */
#define SWITCH_A_BUDGET_NS  40000ull
#define SWITCH_B_BUDGET_NS 100000ull
#define JITTER_PERIOD_NS 1000000ull  /* 1 ms */
#define JITTER_BUDGET_NS 200000ull
#define JITTER_WORK_NS   20000ull
#define JITTER_PERIODS   500
#define MAXC 4

static int fail(const char *what, long err)
{
	printf("isochbench: %s: %s\n", what, err < 0 ? strerror((int)-err) : "failed");
	return err < 0 ? (int)err : -1;
}

static long make_periodic(int tid, int cpu, uint64_t period, uint64_t budget)
{
	struct hako_isoch st = { .period_ns = period, .budget_ns = budget, .cpu = cpu };
	return sys_isoch_ctl(HAKO_ISOCH_CREATE, tid, &st);
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = tsc_now() + ns;
	while (tsc_now() < end)
		cpu_pause();
}

/* ---- start / stop ------------------------------------------------------ */

/*
 * The paper's setting: a few continuous-media threads with periods of a
 * few ms share the CPU.  Two run on BENCH_CPU throughout (video 5 ms,
 * 1 ms; a control loop 10 ms, 1.5 ms; each a job of 60 % of its budget);
 * the measured one (audio 2 ms, 300 us) is periodic there and its START
 * and STOP are timed, the call each, with three jobs in between.  Under
 * isoch=table START and STOP rebuild the CPU's reserved schedule of the
 * started threads (a 10 ms hyperperiod) and hand it over; the new table is
 * in force from the end of the current hyperperiod, which the call does
 * not wait for.
 */
#define MEDIA_OTHERS 2
static const uint64_t media_period[MEDIA_OTHERS] = { 5000000, 10000000 };
static const uint64_t media_budget[MEDIA_OTHERS] = { 1000000, 1500000 };
#define START_PERIOD_NS 2000000ull
#define START_BUDGET_NS  300000ull
static volatile int media_stop, media_ready;

static void media_thread(void *arg)
{
	int k = (int)(long)arg;
	long r = make_periodic(0, BENCH_CPU, media_period[k], media_budget[k]);
	if (r == 0)
		r = sys_isoch_ctl(HAKO_ISOCH_START, 0, NULL);
	__atomic_add_fetch(&media_ready, r == 0 ? 1 : 100, __ATOMIC_RELAXED);
	while (r == 0 && !media_stop) {
		spin_ns(media_budget[k] * 6 / 10);
		r = sys_isoch_wait();
	}
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
}

static int bench_start(void)
{
	struct samples start, stop;
	int others[MEDIA_OTHERS];
	media_stop = media_ready = 0;
	for (int k = 0; k < MEDIA_OTHERS; k++)
		if ((others[k] = thread_start(media_thread, (void *)(long)k)) < 0)
			return fail("thread_start", others[k]);
	while (media_ready < MEDIA_OTHERS)
		cpu_pause();
	long r = media_ready == MEDIA_OTHERS ? make_periodic(0, BENCH_CPU, START_PERIOD_NS, START_BUDGET_NS)
					     : -EINVAL;
	if (r == 0 && (samples_init(&start, START_ROUNDS) < 0 || samples_init(&stop, START_ROUNDS) < 0))
		r = -ENOMEM;
	for (int i = 0; i < START_ROUNDS && r >= 0; i++) {
		region_begin(REGION_ISOCH_START);
		uint64_t t0 = tsc_now();
		r = sys_isoch_ctl(HAKO_ISOCH_START, 0, NULL);
		uint64_t t1 = tsc_now();
		region_end(REGION_ISOCH_START);
		samples_add(&start, t1 - t0);
		for (int j = 0; j < 3 && r >= 0; j++)
			r = sys_isoch_wait();
		region_begin(REGION_ISOCH_STOP);
		t0 = tsc_now();
		if (r >= 0)
			r = sys_isoch_ctl(HAKO_ISOCH_STOP, 0, NULL);
		t1 = tsc_now();
		region_end(REGION_ISOCH_STOP);
		samples_add(&stop, t1 - t0);
	}
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
	media_stop = 1;
	for (int k = 0; k < MEDIA_OTHERS; k++)
		thread_join(others[k]);
	if (r < 0)
		return fail("start/stop", r);
	bench_report_region("isoch_start", &start, "START call, two other media threads started",
			    REGION_ISOCH_START, start.n);
	bench_report_region("isoch_stop", &stop, "STOP call, two other media threads started",
			    REGION_ISOCH_STOP, stop.n);
	samples_free(&start);
	samples_free(&stop);
	return 0;
}

/* ---- thread switch ------------------------------------------------------ */

/*
 * Two threads on BENCH_CPU: the higher one (A) writes the TSC and a
 * sequence number and blocks; the lower one (B) spins until it sees the
 * new number and takes the difference: A's block to B running.
 *   periodic: both periodic with one period (200 us), A ranked first (made
 *     periodic first); B is started a little before A, so in every period
 *     B is released, spins, A's release preempts it, A's isoch_wait hands
 *     the CPU back to B (which then overruns its budget: expected);
 *   normal: A (priority 10) waits on a semaphore, B (8) posts it after
 *     each sample, A preempts B, stamps and waits again.
 * Both threads make themselves what they are; the caller starts them
 * from CPU 0.  For the cost model a region on the bench CPU runs from A's
 * stamp to B's: REGION_ISOCH_SWITCH + (0 periodic, 1 normal), begun by A
 * for the SWITCH_ROUNDS samples only (a region left open would run to the
 * end of the boot), ended by B.
 */
static struct {
	volatile uint64_t stamp;
	volatile int seq, stop, a_ready, b_ready;
	int sem;
	bool periodic;
	struct samples s;
} sw;

/* Onto the bench CPU: periodic with BUDGET, or a normal thread at PRIO. */
static long join_bench_cpu(uint64_t budget_ns, int prio)
{
	if (sw.periodic)
		return make_periodic(0, BENCH_CPU, SWITCH_PERIOD_NS, budget_ns);
	long r = sys_set_affinity(0, 1ull << BENCH_CPU);
	return r == 0 ? sys_setprio(0, prio) : r;
}

static void switch_a(void *arg)
{
	(void)arg;
	long r = join_bench_cpu(SWITCH_A_BUDGET_NS, 10);
	sw.a_ready = r == 0 ? 1 : -1;
	if (r < 0)
		return;
	sys_sem_wait(sw.sem);
	for (int i = 0; i < SWITCH_ROUNDS + 1 && !sw.stop; i++) {
		sw.seq++;
		if (i < SWITCH_ROUNDS)
			region_begin_nth(REGION_ISOCH_SWITCH, sw.periodic ? 0 : 1);
		sw.stamp = tsc_now();
		if (sw.periodic)
			sys_isoch_wait();
		else
			sys_sem_wait(sw.sem);
	}
}

static void switch_b(void *arg)
{
	(void)arg;
	long r = join_bench_cpu(SWITCH_B_BUDGET_NS, 8);
	sw.b_ready = r == 0 ? 1 : -1;
	int last = sw.seq;
	while (r == 0 && !sw.stop && sw.s.n < SWITCH_ROUNDS) {
		while (sw.seq == last && !sw.stop)
			cpu_pause();
		uint64_t now = tsc_now();
		region_end_nth(REGION_ISOCH_SWITCH, sw.periodic ? 0 : 1);
		if (sw.stop)
			break;
		last = sw.seq;
		samples_add(&sw.s, now - sw.stamp);
		if (!sw.periodic)
			sys_sem_post(sw.sem);
	}
	sw.stop = 1;
	sys_sem_post(sw.sem);
}

static void await(volatile int *flag)
{
	while (*flag == 0)
		cpu_pause();
}

static int one_switch(bool periodic, const char *name, const char *what)
{
	memset((void *)&sw, 0, sizeof sw);
	sw.periodic = periodic;
	long r = sys_set_affinity(0, 1);
	if (r < 0)
		return fail("set_affinity", r);
	if (samples_init(&sw.s, SWITCH_ROUNDS) < 0)
		return -ENOMEM;
	if ((sw.sem = (int)sys_sem_create(0)) < 0)
		return fail("sem_create", sw.sem);
	int a = thread_start(switch_a, NULL);
	if (a < 0)
		return fail("thread_start", a);
	await(&sw.a_ready);
	int b = thread_start(switch_b, NULL);
	if (b < 0)
		return fail("thread_start", b);
	await(&sw.b_ready);
	r = sw.a_ready < 0 || sw.b_ready < 0 ? -EINVAL : 0;
	if (r == 0 && periodic) {
		r = sys_isoch_ctl(HAKO_ISOCH_START, b, NULL);
		if (r == 0)
			r = sys_isoch_ctl(HAKO_ISOCH_START, a, NULL);
	}
	if (r < 0) {
		sw.stop = 1;
		fail("set-up", r);
	}
	sys_sem_post(sw.sem);            /* A goes */
	thread_join(b);
	sw.stop = 1;
	sys_sem_post(sw.sem);
	thread_join(a);
	sys_sem_destroy(sw.sem);
	sys_set_affinity(0, ~0ull);
	if (r == 0)
		bench_report_region(name, &sw.s, what, REGION_ISOCH_SWITCH + !periodic, sw.s.n);
	samples_free(&sw.s);
	return (int)r;
}

static int bench_switch(void)
{
	int r = one_switch(true, "switch_periodic_to_periodic", "isoch_wait of A to B running");
	if (r == 0)
		r = one_switch(false, "switch_normal_to_normal", "sem_wait of A to B running");
	return r;
}

/* ---- release jitter ------------------------------------------------------ */

static volatile int stop_hogs;
static volatile uint64_t hog_count[MAXC];

static void hog(void *arg)
{
	int cpu = (int)(long)arg;
	sys_set_affinity(0, 1ull << cpu);
	while (!stop_hogs) {
		hog_count[cpu]++;
		cpu_pause();
	}
}

struct jitter_job {
	int cpu;
	long err;
	struct hako_isoch st;
};

static void jitter_thread(void *arg)
{
	struct jitter_job *j = arg;
	j->err = make_periodic(0, j->cpu, JITTER_PERIOD_NS, JITTER_BUDGET_NS);
	if (!j->err)
		j->err = sys_isoch_ctl(HAKO_ISOCH_START, 0, NULL);
	for (int i = 0; !j->err && i < JITTER_PERIODS; i++) {
		spin_ns(JITTER_WORK_NS);
		long r = sys_isoch_wait();
		if (r < 0)
			j->err = r;
	}
	if (!j->err)
		j->err = sys_isoch_ctl(HAKO_ISOCH_INFO, 0, &j->st);
	sys_isoch_ctl(HAKO_ISOCH_DESTROY, 0, NULL);
}

/*
 * The interrupt flood: the e1000's kernel sender (on CPU 1) sends a 64-byte
 * frame every 10 us to the RTL8139, whose interrupts go to CPU 0 and are
 * packed (N 8, T 100 us, and the tick) or sequential; a receiver on CPU 0
 * drains it (and is that CPU's hog).
 */
#define FLOOD_CPU 0
static struct {
	int rtl, e1k, rtl_dev, rx_tid;
	volatile uint64_t frames;
} fl = { -1, -1, -1, -1, 0 };

static void flood_receiver(void *arg)
{
	(void)arg;
	uint8_t f[HAKO_NIC_FRAME_MAX];
	sys_set_affinity(0, 1ull << FLOOD_CPU);
	while (!stop_hogs) {
		if (sys_nic_recv(fl.rtl, f, sizeof f, HAKO_NIC_NONBLOCK) > 0)
			fl.frames++;
		else
			cpu_pause();
	}
}

/* 0, or why not (no NIC pair: a negative errno). */
static long flood_start(int mode)
{
	struct hako_nic_info in;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "rtl8139.0") == 0)
			fl.rtl = i, fl.rtl_dev = in.intr_dev;
		if (strcmp(in.name, "e1000.0") == 0)
			fl.e1k = i;
	}
	if (fl.rtl < 0 || fl.e1k < 0)
		return -ENODEV;
	struct hako_intr_set set = { .mode = mode, .n = 8, .t_ns = 100000,
				     .flags = HAKO_INTR_TICK, .bound_ns = 1000000 };
	long r = sys_intr_ctl(fl.rtl_dev, HAKO_INTR_SET, &set);
	struct hako_nic_info open = { .cpu = FLOOD_CPU };
	if (r == 0)
		r = sys_nic_ctl(fl.rtl, HAKO_NIC_OPEN, &open);
	fl.frames = 0;
	if (r == 0 && (fl.rx_tid = thread_start(flood_receiver, NULL)) < 0)
		r = fl.rx_tid;
	struct hako_traffic t = { .dst = fl.rtl, .cpu = 1, .len = 64, .per_period = 100,
				  .period_ns = 1000000, .count = 10000000, .burst = 1 };
	if (r == 0)
		r = sys_nic_traffic(fl.e1k, &t);
	return r;
}

/* After stop_hogs: the sender stopped, the card closed; frames received. */
static uint64_t flood_stop(void)
{
	sys_nic_traffic(fl.e1k, NULL);
	if (fl.rx_tid > 0)
		thread_join(fl.rx_tid);
	sys_nic_ctl(fl.rtl, HAKO_NIC_CLOSE, NULL);
	return fl.frames;
}

/*
 * ISPC traffic: instead of a hog, each CPU runs a client that calls the
 * echo server (ECHO_NULL, synchronous) as fast as it can; the server's
 * thread runs wherever the scheduler puts it.
 */
static volatile uint64_t ispc_calls;
static int echo_pid;

static void ispc_client(void *arg)
{
	int cpu = (int)(long)arg;
	struct ispc_call call;
	sys_set_affinity(0, 1ull << cpu);
	if (ispc_call_open(&call, 0) < 0)
		return;
	while (!stop_hogs) {
		ispc_call_op(&call, ECHO_NULL, 0, 0, NULL, 0);
		if (ispc_call(echo_pid, &call, 0) >= 0)
			__atomic_fetch_add(&ispc_calls, 1, __ATOMIC_RELAXED);
	}
	ispc_call_close(&call);
}

static void print_hist(const char *load, int n, struct jitter_job *jobs)
{
	printf("# isochbench: release latency histogram, %s, period %llu us, "
	       "1 us buckets (icount: ns = instructions)\n", load,
	       (unsigned long long)(JITTER_PERIOD_NS / 1000));
	printf("# Histogram\n");
	for (int b = 0; b < HAKO_ISOCH_HIST; b++) {
		uint64_t any = 0;
		for (int c = 0; c < n; c++)
			any += jobs[c].st.hist[b];
		if (!any)
			continue;
		printf("%06d", b);
		for (int c = 0; c < n; c++)
			printf(" %06llu", (unsigned long long)jobs[c].st.hist[b]);
		printf("%s\n", b == HAKO_ISOCH_HIST - 1 ? "  (and over)" : "");
	}
	const char *rows[] = { "Total:", "Min Latencies:", "Avg Latencies:", "Max Latencies:",
			       "Missed releases:", "Overruns:" };
	for (int k = 0; k < 6; k++) {
		printf("# %-17s", rows[k]);
		for (int c = 0; c < n; c++) {
			struct hako_isoch *s = &jobs[c].st;
			uint64_t v[] = { s->lat_count, s->lat_min_ns,
					 s->lat_count ? s->lat_sum_ns / s->lat_count : 0,
					 s->lat_max_ns, s->missed, s->overruns };
			printf(" %06llu", (unsigned long long)v[k]);
		}
		printf("%s\n", k >= 1 && k <= 3 ? "  (ns)" : "");
	}
	for (int c = 0; c < n; c++) {
		struct hako_isoch *s = &jobs[c].st;
		char hist[HAKO_ISOCH_HIST * 12], *p = hist;
		for (int b = 0; b < HAKO_ISOCH_HIST; b++)
			p += snprintf(p, sizeof hist - (size_t)(p - hist), "%s%llu", b ? "," : "",
				      (unsigned long long)s->hist[b]);
		result_line("{\"kind\":\"isoch_hist\",\"load\":\"%s\",\"cpu\":%d,\"releases\":%llu,"
			    "\"missed\":%llu,\"overruns\":%llu,\"lat_count\":%llu,\"lat_min_ns\":%llu,"
			    "\"lat_max_ns\":%llu,"
			    "\"lat_mean_ns\":%llu,\"bucket_ns\":%d,\"hist\":[%s]}", load, c,
			    (unsigned long long)s->releases, (unsigned long long)s->missed,
			    (unsigned long long)s->overruns, (unsigned long long)s->lat_count,
			    (unsigned long long)s->lat_min_ns, (unsigned long long)s->lat_max_ns,
			    (unsigned long long)(s->lat_count ? s->lat_sum_ns / s->lat_count : 0),
			    HAKO_ISOCH_HIST_NS, hist);
	}
}

static void stop_servers(int pids[2])
{
	for (int i = 1; i >= 0; i--)
		if (pids[i] > 0) {
			sys_kill(pids[i]);
			waitpid(pids[i], NULL);
		}
}

enum load { LOAD_HOGS, LOAD_NIC_SEQUENTIAL, LOAD_NIC_PACKED, LOAD_ISPC };

static int bench_jitter(enum load what)
{
	int mode = what == LOAD_NIC_SEQUENTIAL ? HAKO_INTR_SEQUENTIAL
		 : what == LOAD_NIC_PACKED ? HAKO_INTR_PACKED : -1;
	struct hako_sysinfo si;
	int n = sys_sysinfo(&si) < 0 ? 1 : (int)si.ncpus;
	if (n > MAXC)
		n = MAXC;
	static struct jitter_job jobs[MAXC];
	int hogs[MAXC], tids[MAXC];
	const char *loads[] = { "hogs", "hogs+nic-sequential", "hogs+nic-packed", "ispc" };
	const char *load = loads[what];
	void (*busy)(void *) = what == LOAD_ISPC ? ispc_client : hog;
	int servers[2] = { -1, -1 };
	if (what == LOAD_ISPC) {
		char *ns_argv[] = { "nameserver", NULL }, *echo_argv[] = { "echo", NULL };
		servers[0] = spawnv("nameserver", ns_argv);
		servers[1] = servers[0] < 0 ? -1 : spawnv("echo", echo_argv);
		echo_pid = servers[1] < 0 ? servers[1] : ns_wait("echo", 1000);
		if (echo_pid < 0) {
			stop_servers(servers);
			return fail("echo server", echo_pid);
		}
	}
	ispc_calls = 0;
	stop_hogs = 0;
	if (mode >= 0) {
		long r = flood_start(mode);
		if (r == -ENODEV) {
			printf("isochbench: no NIC pair (boot with --net hub): no flood\n");
			return 0;
		}
		if (r < 0) {
			stop_hogs = 1;
			flood_stop();
			return fail("flood", r);
		}
	}
	for (int c = 0; c < n; c++)
		hogs[c] = mode >= 0 && c == FLOOD_CPU ? 0 : thread_start(busy, (void *)(long)c);
	for (int c = 0; c < n; c++) {
		jobs[c] = (struct jitter_job){ .cpu = c };
		tids[c] = thread_start(jitter_thread, &jobs[c]);
	}
	for (int c = 0; c < n; c++)
		if (tids[c] > 0)
			thread_join(tids[c]);
	stop_hogs = 1;
	for (int c = 0; c < n; c++)
		if (hogs[c] > 0)
			thread_join(hogs[c]);
	if (what == LOAD_ISPC) {
		stop_servers(servers);
		printf("isochbench: ispc: %llu echo calls meanwhile\n",
		       (unsigned long long)ispc_calls);
	}
	if (mode >= 0)
		printf("isochbench: %s: %llu frames received on cpu %d meanwhile\n", load,
		       (unsigned long long)flood_stop(), FLOOD_CPU);
	for (int c = 0; c < n; c++)
		if (jobs[c].err)
			return fail("periodic thread", jobs[c].err);
	print_hist(load, n, jobs);
	return 0;
}

/* Whether the command line asks for part WHAT: named, or `all`, or nothing. */
static bool wanted(int argc, char **argv, const char *what)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], what) == 0 || strcmp(argv[i], "all") == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	bench_set_program("isochbench");
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "all") && strcmp(argv[i], "start") &&
		    strcmp(argv[i], "switch") && strcmp(argv[i], "jitter")) {
			printf("usage: isochbench [all | start | switch | jitter]...\n");
			return 2;
		}
	int err = 0;
	if (wanted(argc, argv, "start"))
		err = bench_start();
	if (!err && wanted(argc, argv, "switch"))
		err = bench_switch();
	if (!err && wanted(argc, argv, "jitter")) {
		for (enum load l = LOAD_HOGS; l <= LOAD_ISPC && !err; l++)
			err = bench_jitter(l);
	}
	if (!err)
		bench_summary(NULL, 0);
	return err ? 1 : 0;
}
