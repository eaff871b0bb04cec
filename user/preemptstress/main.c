/*
 * preemptstress/main.c — paper 004's Table 2: the longest preemption-off
 * section per system call (and interrupt, kernel thread) under the cases
 * that stress it.  Needs irqtrace=on (perf_ctl HAKO_PERF_PREEMPT_GET).
 *
 *   preemptstress            every case but isoch, then the table
 *   preemptstress CASE...    the cases named (isoch among them)
 *   preemptstress --exit     end at once (a child with a big image)
 *   preemptstress --icas N T take N ICAs of the largest size and T threads, exit
 *   preemptstress --hog T    T threads spinning on CPU 0 until killed
 *
 * Cases: spawn (a child with a 16 MiB image, spawned and reaped), unmap
 * (128 MiB of heap touched, then brk shrinks it), exit (children with
 * many ICAs and threads exit), runq (ready queues hundreds of threads
 * long, every CPU balancing against them), isoch (eight periodic threads
 * on CPU 1 started and stopped one by one, three rounds: under isoch=table
 * each START and STOP rebuilds a reserved schedule of up to 1,230
 * entries over a 13.2 ms hyperperiod).  Result lines (kind
 * "preempt"): per case and context, the longest section in TSC ticks.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include <hako/thread.h>
#include <hako_perf.h>

#define BIG_IMAGE (16u << 20)
#define UNMAP_BYTES (128ull << 20)
#define HOG_CHILDREN 4
#define HOG_THREADS 60

static char big_image[BIG_IMAGE];	/* spawning us maps and zeroes all of it */
static struct hako_perf_preempt table;

static volatile uint64_t spins;

static void spin_forever(void *arg __attribute__((unused)))
{
	for (;;)
		spins++;
}

static void sleep_forever(void *arg __attribute__((unused)))
{
	for (;;)
		sys_sleep(1000000000ull);
}

static int role(int argc, char **argv)
{
	if (strcmp(argv[1], "--exit") == 0)
		return big_image[0];
	if (strcmp(argv[1], "--icas") == 0 && argc == 4) {
		int n = atoi(argv[2]), t = atoi(argv[3]);
		for (int i = 0; i < n; i++) {
			uint64_t va;
			long id = sys_ica_alloc(HAKO_ICA_MAX_PAGES, &va);
			if (id < 0)
				break;
			sys_ica_paste((int)id);
		}
		for (int i = 0; i < t; i++)
			thread_start(sleep_forever, NULL);
		sleep_ms(2);
		sys_exit(0);
	}
	if (strcmp(argv[1], "--hog") == 0 && argc == 3) {
		int t = atoi(argv[2]);
		sys_set_affinity(0, 1);
		for (int i = 0; i < t; i++) {
			int tid = thread_start(spin_forever, NULL);
			if (tid > 0)
				sys_set_affinity(tid, 1);
		}
		spin_forever(NULL);
	}
	printf("preemptstress: unknown role %s\n", argv[1]);
	return 2;
}

static void spawn_case(void)
{
	static char *argv[] = { "preemptstress", "--exit", NULL };
	for (int i = 0; i < 4; i++)
		spawn_wait("preemptstress", argv);
}

static void unmap_case(void)
{
	char *base = (char *)sys_brk(NULL);
	if ((long)sys_brk(base + UNMAP_BYTES) < 0) {
		printf("preemptstress: brk +%llu MiB refused\n", UNMAP_BYTES >> 20);
		return;
	}
	for (uint64_t off = 0; off < UNMAP_BYTES; off += 4096)
		base[off] = 1;
	sys_brk(base);
}

static void exit_case(void)
{
	static char *argv[] = { "preemptstress", "--icas", "32", "63", NULL };
	for (int i = 0; i < 2; i++)
		spawn_wait("preemptstress", argv);
}

static void runq_case(void)
{
	static char *argv[] = { "preemptstress", "--hog", "60", NULL };
	int pid[HOG_CHILDREN];
	for (int i = 0; i < HOG_CHILDREN; i++)
		pid[i] = spawnv("preemptstress", argv);
	sleep_ms(200);
	for (int i = 0; i < HOG_CHILDREN; i++)
		if (pid[i] > 0) {
			sys_kill(pid[i]);
			waitpid(pid[i], NULL);
		}
}

/* Periods (us) whose hyperperiod is 13.2 ms and holds 615 jobs; 10 us each. */
#define ISOCH_THREADS 8
static const uint64_t isoch_period_us[ISOCH_THREADS] = { 100, 110, 120, 150, 200, 300, 400, 600 };
static volatile int isoch_done;

static void isoch_waiter(void *arg __attribute__((unused)))
{
	while (!isoch_done)
		if (sys_isoch_wait() < 0)
			sleep_ms(1);
}

static void isoch_case(void)
{
	int tid[ISOCH_THREADS];
	isoch_done = 0;
	for (int i = 0; i < ISOCH_THREADS; i++) {
		struct hako_isoch st = { .period_ns = isoch_period_us[i] * 1000, .budget_ns = 10000,
					 .cpu = 1 };
		tid[i] = thread_start(isoch_waiter, NULL);
		long r = tid[i] > 0 ? sys_isoch_ctl(HAKO_ISOCH_CREATE, tid[i], &st) : tid[i];
		if (r < 0)
			printf("preemptstress: isoch CREATE: %s\n", strerror((int)-r));
	}
	for (int round = 0; round < 3; round++)
		for (int op = HAKO_ISOCH_START; op <= HAKO_ISOCH_STOP; op++)
			for (int i = 0; i < ISOCH_THREADS; i++) {
				long r = sys_isoch_ctl(op, tid[i], NULL);
				if (r < 0)
					printf("preemptstress: isoch op %d: %s\n", op, strerror((int)-r));
				sleep_ms(1);
			}
	for (int i = 0; i < ISOCH_THREADS; i++)
		sys_isoch_ctl(HAKO_ISOCH_DESTROY, tid[i], NULL);
	isoch_done = 1;
	for (int i = 0; i < ISOCH_THREADS; i++)
		if (tid[i] > 0)
			thread_join(tid[i]);
}

static const struct {
	const char *name;
	void (*run)(void);
	bool named_only;                 /* run only when named */
} cases[] = {
	{ "spawn", spawn_case, false },
	{ "unmap", unmap_case, false },
	{ "exit", exit_case, false },
	{ "runq", runq_case, false },
	{ "isoch", isoch_case, true },
};

static bool wanted(unsigned i, int argc, char **argv)
{
	if (argc < 2)
		return !cases[i].named_only;
	for (int a = 1; a < argc; a++)
		if (strcmp(argv[a], cases[i].name) == 0)
			return true;
	return false;
}

static void report(const char *name)
{
	long r = sys_perf_ctl(HAKO_PERF_PREEMPT_GET, &table);
	if (r < 0) {
		printf("preemptstress: perf_ctl: %s\n", strerror((int)-r));
		return;
	}
	char q[64], hq[64];
	for (int k = 0; k < HAKO_PERF_NCTX; k++) {
		const struct hako_perf_section *s = &table.ctx[k];
		if (!s->count)
			continue;
		result_line("{\"kind\":\"preempt\",\"case\":\"%s\",\"ctx\":%d,\"max\":%" PRIu64 ","
			    "\"count\":%" PRIu64 ",\"cpu\":%d,\"site\":%s,\"wait\":%" PRIu64 ",\"held\":%" PRIu64 ","
			    "\"held_cpu\":%d,\"held_site\":%s}", name, k, s->max, s->count,
			    s->cpu, json_quote(q, sizeof q, s->sym), s->wait, s->held, s->held_cpu,
			    json_quote(hq, sizeof hq, s->held_sym));
	}
}

int main(int argc, char **argv)
{
	if (argc >= 2 && argv[1][0] == '-')
		return role(argc, argv);
	if (sys_perf_ctl(HAKO_PERF_PREEMPT_GET, &table) < 0 || !table.enabled) {
		printf("preemptstress: needs irqtrace=on\n");
		return 1;
	}
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (!wanted(i, argc, argv))
			continue;
		sys_perf_ctl(HAKO_PERF_PREEMPT_RESET, NULL);
		cases[i].run();
		report(cases[i].name);
		printf("preemptstress: %s done\n", cases[i].name);
	}
	return 0;
}
