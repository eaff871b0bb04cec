/*
 * iotest — paper 001's workload: K processes, each looping LOOPS times
 * over a 4 KiB raw read from a block of its own and a busy-wait of
 * WAIT x 1000 turns of a fixed loop; the elapsed guest time from the
 * start to the last exit.
 *
 *   iotest DEV K LOOPS WAIT     one run in the device's present mode and policy
 *   iotest table1 [OPTIONS]     Table 1: funnel and symmetric, interrupts to the master,
 *                               per device, wait count and K
 *   iotest table2 [OPTIONS]     Table 2: the seven delivery policies, symmetric
 *   iotest all [OPTIONS]        both
 *   iotest --worker ...         a worker (run.c)
 *
 * OPTIONS: --loops N (10), --longloops N (Table 1's loops at waits of 50
 * and more: the --loops value), --reps R (1: runs per cell), --ks 1,2,...
 * (1..10,12,15,20: the paper's columns), --waits 0,10,20 (the paper's
 * grid: 0,10,20,50,100,200), --devs NAME,... (Table 1:
 * ahci0,testdev0,ramdisk0, those present), --t2dev NAME,... (testdev0),
 * --t2wait N (100), --t2loops N (the --loops value), --t2iop on|off
 * (off: on sends Table 2's commands to the I/O processor, the kernel's
 * iop=N, which signals each completion to the CPU the policy picks then,
 * as the paper's HD subsystem did), --pin on|off (off: on pins worker i
 * to the (i + 1)-th CPU that schedules threads, run.c), --counts on|off
 * (off: on adds the device's counters over the run to its line), --pace
 * on|off (off: on paces the disks' completions, HAKO_BLK_PACE: each
 * disk command's interrupt held until its datasheet service time has
 * passed, so that under icount a boot repeats; a paced device's lines
 * carry "paced":true and "paced_late", the run's completions QEMU had
 * not finished in time, each a point where the boot may stop repeating).
 *
 * Every run prints a result line: {"kind":"iotest", table, dev, mode,
 * policy, k, loops, wait, rep, pinned, iop, elapsed_ns, delay_us, failed,
 * region, iters}; its region is global, so `--model` gives every CPU's work in
 * it.  With --counts on the line also has what the device's blk_ctl
 * counters gained during the run, read before the workers are made and
 * after the last is reaped (outside the timed region): per CPU "issued",
 * "completed", "interrupts", "lost", "left" and "empty" (arrays, one entry
 * per CPU), and "solo", "solo_on_issuer", "retargets" — where the requests
 * ran and where the interrupts went, to check a policy against what it
 * promises.
 * First a calibration line: what wait count 10 costs on one CPU.
 * testdev's delay is set to 17/20 of that (the paper's 17 ms against
 * its wait count 10 of about 20 ms).  The grids set each device's mode
 * and policy with blk_ctl HAKO_BLK_SET and restore them, and testdev's
 * delay, at the end.  Exit status 0, 1 if a run failed, 2 on bad words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "iotest.h"

#define MAX_LIST 24
#define MAX_DEVS 8

static const char *const mode_names[] = { "symmetric", "funnel" };
static const char *const policy_names[HAKO_BLK_POLICIES] = {
	"master", "fixed", "issuer", "idle", "busiest", "broadcast", "load",
};

struct options {
	int loops, longloops, reps, t2loops, t2wait;
	int pin, counts, t2iop, pace;
	int ks[MAX_LIST], nks;
	int waits[MAX_LIST], nwaits;
	char devs[MAX_DEVS][16];
	int ndevs;
	char t2devs[MAX_DEVS][16];
	int nt2devs;
};

/* Table 1's waits from this one on run --longloops loops. */
#define LONG_WAIT 50

static int next_slot;          /* the next run's region slot */
static int pin_workers;        /* --pin on */
static int iop_cpu = -1;       /* the kernel's I/O processor (iop=N); -1: none */
static int count_runs;         /* --counts on */
static int pace_disks;         /* --pace on */
static uint64_t testdev_delay_us;

static int find_dev(const char *s, struct hako_blk_info *info)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end != s && *end == 0)
		return sys_blk_ctl((int)v, HAKO_BLK_INFO, info) == 0 ? (int)v : -1;
	for (int id = 0; sys_blk_ctl(id, HAKO_BLK_INFO, info) == 0; id++)
		if (strcmp(info->name, s) == 0)
			return id;
	return -1;
}

static int parse_list(const char *s, int *v, int max)
{
	int n = 0;
	while (*s && n < max) {
		char *end;
		v[n++] = (int)strtol(s, &end, 10);
		if (end == s)
			return -1;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* NAMES, comma-separated, into names[]; their count, or -1 for an empty
 * or too long name or more than MAX_DEVS of them. */
static int parse_names(const char *s, char names[MAX_DEVS][16])
{
	for (int n = 0;; n++) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (len == 0 || len >= sizeof names[0] || n == MAX_DEVS)
			return -1;
		memcpy(names[n], s, len);
		names[n][len] = 0;
		if (!comma)
			return n + 1;
		s = comma + 1;
	}
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .loops = 10, .reps = 1, .t2loops = 0, .t2wait = 100 };
	o->nks = parse_list("1,2,3,4,5,6,7,8,9,10,12,15,20", o->ks, MAX_LIST);
	o->nwaits = parse_list("0,10,20", o->waits, MAX_LIST);
	const char *devs = "ahci0,testdev0,ramdisk0", *t2devs = "testdev0";
	for (int i = 0; i < argc; i += 2) {
		if (i + 1 >= argc)
			return -1;
		const char *a = argv[i], *v = argv[i + 1];
		if (strcmp(a, "--loops") == 0)
			o->loops = atoi(v);
		else if (strcmp(a, "--longloops") == 0)
			o->longloops = atoi(v);
		else if (strcmp(a, "--reps") == 0)
			o->reps = atoi(v);
		else if (strcmp(a, "--t2loops") == 0)
			o->t2loops = atoi(v);
		else if (strcmp(a, "--t2wait") == 0)
			o->t2wait = atoi(v);
		else if (strcmp(a, "--ks") == 0)
			o->nks = parse_list(v, o->ks, MAX_LIST);
		else if (strcmp(a, "--waits") == 0)
			o->nwaits = parse_list(v, o->waits, MAX_LIST);
		else if (strcmp(a, "--devs") == 0)
			devs = v;
		else if (strcmp(a, "--pin") == 0 && (!strcmp(v, "on") || !strcmp(v, "off")))
			o->pin = strcmp(v, "on") == 0;
		else if (strcmp(a, "--counts") == 0 && (!strcmp(v, "on") || !strcmp(v, "off")))
			o->counts = strcmp(v, "on") == 0;
		else if (strcmp(a, "--t2iop") == 0 && (!strcmp(v, "on") || !strcmp(v, "off")))
			o->t2iop = strcmp(v, "on") == 0;
		else if (strcmp(a, "--pace") == 0 && (!strcmp(v, "on") || !strcmp(v, "off")))
			o->pace = strcmp(v, "on") == 0;
		else if (strcmp(a, "--t2dev") == 0)
			t2devs = v;
		else
			return -1;
	}
	if (o->t2loops == 0)
		o->t2loops = o->loops;
	if (o->longloops == 0)
		o->longloops = o->loops;
	o->ndevs = parse_names(devs, o->devs);
	o->nt2devs = parse_names(t2devs, o->t2devs);
	if (o->ndevs < 1 || o->nt2devs < 1)
		return -1;
	if (o->loops < 1 || o->longloops < 1 || o->reps < 1 || o->nks < 1 || o->nwaits < 1)
		return -1;
	for (int i = 0; i < o->nks; i++)
		if (o->ks[i] < 1 || o->ks[i] > IOTEST_MAX_K)
			return -1;
	return 0;
}

/* What wait count 10 costs on one CPU, once, pinned; sets testdev's delay
 * for the grids to 17/20 of it (at least 1 µs). */
/* Times of wait count 10 taken at boot; the smallest is the calibration. */
#define CALIB_TIMES 5

/*
 * What wait count 10 costs on one CPU, the smallest of CALIB_TIMES
 * timings (under TCG one timing is host time, and a host hiccup made one
 * sitting's testdev delay twice the others'); testdev's delay is 17/20
 * of it, the paper's 17 ms against its wait count 10 of about 20 ms.
 */
static void calibrate(void)
{
	uint64_t mask = 1ull << sys_getcpu(), best = ~0ull;
	sys_set_affinity(0, mask);
	region_begin(REGION_IOTEST_CALIB);
	for (int i = 0; i < CALIB_TIMES; i++) {
		uint64_t t0 = clock_ns();
		busy_wait(10 * IOTEST_WAIT_UNIT);
		uint64_t ns = clock_ns() - t0;
		if (ns < best)
			best = ns;
	}
	region_end(REGION_IOTEST_CALIB);
	sys_set_affinity(0, ~0ull);
	testdev_delay_us = best * 17 / 20 / 1000;
	if (testdev_delay_us < 1)
		testdev_delay_us = 1;
	result_line("{\"kind\":\"iotest_calib\",\"wait\":10,\"turns\":%d,\"ns\":%lu,"
		    "\"testdev_delay_us\":%lu,\"region\":%d,\"iters\":%d}",
		    10 * IOTEST_WAIT_UNIT, (unsigned long)best,
		    (unsigned long)testdev_delay_us, REGION_IOTEST_CALIB, CALIB_TIMES);
	printf("iotest: wait count 10 = %lu ns on one CPU (least of %d); testdev delay %lu us\n",
	       (unsigned long)best, CALIB_TIMES, (unsigned long)testdev_delay_us);
}

/* Set DEV's drive mode and policy, and its commands to the IOP (IOP 1) or
 * not (0); the fixed policy's CPU is CPU 1. */
static int set_mode(int dev, const struct hako_blk_info *info, int mode, int policy, int iop)
{
	struct hako_blk_set set = {
		.mode = mode,
		.policy = info->has_irq ? policy : HAKO_BLK_KEEP,
		.fixed_cpu = policy == HAKO_BLK_FIXED ? 1 : HAKO_BLK_KEEP,
		.iop = iop ? HAKO_BLK_IOP_ON : HAKO_BLK_IOP_OFF,
	};
	long r = sys_blk_ctl(dev, HAKO_BLK_SET, &set);
	if (r < 0)
		printf("iotest: %s: set mode %s policy %s: %s\n", info->name, mode_names[mode],
		       policy_names[policy], strerror((int)-r));
	return (int)r;
}

/* Append ",\"NAME\":[a1-b1,...]" for the first N CPUs to BUF at *LEN. */
static void add_array(char *buf, size_t size, size_t *len, const char *name,
		      const uint64_t *before, const uint64_t *after, int n)
{
	for (int c = 0; c < n && *len < size; c++)
		*len += (size_t)snprintf(buf + *len, size - *len, "%s%lu",
					 c ? "," : name, (unsigned long)(after[c] - before[c]));
	if (*len < size)
		*len += (size_t)snprintf(buf + *len, size - *len, "]");
}

/* The --counts fields of a run's line: what the counters gained between
 * B (before) and A (after); "" if they could not be read. */
static void count_fields(char *buf, size_t size, const struct hako_blk_info *b,
			 const struct hako_blk_info *a)
{
	struct hako_sysinfo si;
	int n = sys_sysinfo(&si) == 0 ? si.ncpus : 1;
	size_t len = 0;

	if (n > HAKO_BLK_CPUS)
		n = HAKO_BLK_CPUS;
	add_array(buf, size, &len, ",\"issued\":[", b->issued, a->issued, n);
	add_array(buf, size, &len, ",\"completed\":[", b->completed, a->completed, n);
	add_array(buf, size, &len, ",\"interrupts\":[", b->interrupts, a->interrupts, n);
	add_array(buf, size, &len, ",\"lost\":[", b->lost, a->lost, n);
	add_array(buf, size, &len, ",\"left\":[", b->left, a->left, n);
	add_array(buf, size, &len, ",\"empty\":[", b->empty, a->empty, n);
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len, ",\"solo\":%lu,\"solo_on_issuer\":%lu,"
			 "\"retargets\":%lu", (unsigned long)(a->solo - b->solo),
			 (unsigned long)(a->solo_on_issuer - b->solo_on_issuer),
			 (unsigned long)(a->retargets - b->retargets));
	if (len >= size)
		buf[0] = 0;                  /* cut short: leave the fields out */
}

/* Run one cell REPS times with its own region each (IOP: the device's
 * commands go to the I/O processor); 1 if a run failed. */
static int cell(const char *table, int dev, const struct hako_blk_info *info, int mode,
		int policy, int iop, int k, int loops, int wait, int reps)
{
	int bad = 0;

	for (int rep = 0; rep < reps; rep++) {
		struct run r = { .dev = dev, .k = k, .loops = loops, .wait = wait,
				 .slot = next_slot < REGION_IOTEST_SLOTS ? next_slot : -1,
				 .pin = pin_workers, .iop_cpu = iop_cpu };
		struct run_result res = { 0 };
		struct hako_blk_info before, after;
		char counts[1536] = "", paced[64] = "";
		int counted = (count_runs || info->paced) && sys_blk_ctl(dev, HAKO_BLK_INFO, &before) == 0;
		next_slot++;
		int err = run_once(&r, &res);
		if (err < 0) {
			printf("iotest: %s k=%d: %s\n", info->name, k, strerror(-err));
			return 1;
		}
		if (counted && sys_blk_ctl(dev, HAKO_BLK_INFO, &after) == 0) {
			if (count_runs)
				count_fields(counts, sizeof counts, &before, &after);
			if (info->paced)
				snprintf(paced, sizeof paced, ",\"paced\":true,\"paced_late\":%lu",
					 (unsigned long)(after.paced_late - before.paced_late));
		}
		char name[24];
		result_line("{\"kind\":\"iotest\",\"table\":\"%s\",\"dev\":%s,\"mode\":\"%s\","
			    "\"policy\":\"%s\",\"k\":%d,\"loops\":%d,\"wait\":%d,\"rep\":%d,"
			    "\"pinned\":%s,\"iop\":%s,\"elapsed_ns\":%lu,\"delay_us\":%lu,\"failed\":%d,\"region\":%d%s%s,"
			    "\"iters\":1}",
			    table, json_quote(name, sizeof name, info->name), mode_names[mode],
			    info->has_irq ? policy_names[policy] : "none", k, loops, wait, rep,
			    pin_workers ? "true" : "false", iop ? "true" : "false",
			    (unsigned long)res.elapsed_ns, (unsigned long)info->delay_us,
			    res.failed, r.slot < 0 ? -1 : REGION_IOTEST + r.slot,
			    counts, paced);
		bad |= res.failed != 0;
	}
	return bad;
}

/* The device's settings before the grid, to put back after it. */
struct saved {
	int dev;
	struct hako_blk_info info;
};

static int open_dev(const char *name, struct saved *s)
{
	s->dev = find_dev(name, &s->info);
	if (s->dev < 0)
		return -1;
	if (s->info.delay_us)
		sys_blk_ctl(s->dev, HAKO_BLK_DELAY, (void *)(uintptr_t)testdev_delay_us);
	if (pace_disks)
		sys_blk_ctl(s->dev, HAKO_BLK_PACE, (void *)1);     /* -EINVAL: not a disk */
	sys_blk_ctl(s->dev, HAKO_BLK_INFO, &s->info);
	return 0;
}

static void restore_dev(struct saved *s, uint64_t delay_us, int paced_before)
{
	struct hako_blk_set set = {
		.mode = s->info.mode,
		.policy = s->info.has_irq ? s->info.policy : HAKO_BLK_KEEP,
		.fixed_cpu = s->info.has_irq ? s->info.fixed_cpu : HAKO_BLK_KEEP,
		.iop = s->info.iop ? HAKO_BLK_IOP_ON : HAKO_BLK_IOP_OFF,
	};
	sys_blk_ctl(s->dev, HAKO_BLK_SET, &set);
	if (delay_us)
		sys_blk_ctl(s->dev, HAKO_BLK_DELAY, (void *)(uintptr_t)delay_us);
	if (pace_disks)
		sys_blk_ctl(s->dev, HAKO_BLK_PACE, (void *)(uintptr_t)(paced_before != 0));
}

static int table1(const struct options *o)
{
	int bad = 0;

	for (int d = 0; d < o->ndevs; d++) {
		struct saved s;
		struct hako_blk_info before;
		if (find_dev(o->devs[d], &before) < 0) {
			printf("iotest: table1: no %s, skipped\n", o->devs[d]);
			continue;
		}
		open_dev(o->devs[d], &s);
		for (int w = 0; w < o->nwaits; w++) {
			int loops = o->waits[w] >= LONG_WAIT ? o->longloops : o->loops;
			for (int i = 0; i < o->nks; i++)
				for (int mode = HAKO_BLK_FUNNEL; mode >= HAKO_BLK_SYMMETRIC; mode--) {
					if (set_mode(s.dev, &s.info, mode, HAKO_BLK_MASTER, 0) < 0)
						return 1;
					bad |= cell("t1", s.dev, &s.info, mode, HAKO_BLK_MASTER, 0,
						    o->ks[i], loops, o->waits[w], o->reps);
				}
		}
		s.info.mode = before.mode;
		s.info.policy = before.policy;
		s.info.fixed_cpu = before.fixed_cpu;
		s.info.iop = before.iop;
		restore_dev(&s, before.delay_us, before.paced);
	}
	return bad;
}

static int table2_on(const struct options *o, const char *name)
{
	struct saved s;
	struct hako_blk_info before;
	int bad = 0;

	if (find_dev(name, &before) < 0 || !before.has_irq) {
		printf("iotest: table2: %s is not a device with an interrupt\n", name);
		return 1;
	}
	open_dev(name, &s);
	for (int i = 0; i < o->nks; i++)
		for (int p = 0; p < HAKO_BLK_POLICIES; p++) {
			if (set_mode(s.dev, &s.info, HAKO_BLK_SYMMETRIC, p, o->t2iop) < 0)
				return 1;
			bad |= cell("t2", s.dev, &s.info, HAKO_BLK_SYMMETRIC, p, o->t2iop,
				    o->ks[i], o->t2loops, o->t2wait, o->reps);
		}
	s.info.mode = before.mode;
	s.info.policy = before.policy;
	s.info.fixed_cpu = before.fixed_cpu;
	s.info.iop = before.iop;
	restore_dev(&s, before.delay_us, before.paced);
	return bad;
}

static int table2(const struct options *o)
{
	int bad = 0;
	for (int d = 0; d < o->nt2devs; d++)
		bad |= table2_on(o, o->t2devs[d]);
	return bad;
}

static int usage(void)
{
	printf("usage: iotest DEV K LOOPS WAIT | iotest table1|table2|all [--loops N] [--longloops N]\n"
	       "       [--reps R] [--ks LIST] [--waits LIST] [--devs NAMES] [--t2dev NAMES]"
	       " [--t2wait N] [--t2loops N] [--t2iop on|off] [--pin on|off] [--counts on|off]"
	       " [--pace on|off]\n");
	return 2;
}

static int one_run(char **argv)
{
	struct hako_blk_info info;
	int dev = find_dev(argv[0], &info);
	if (dev < 0) {
		printf("iotest: no device %s\n", argv[0]);
		return 2;
	}
	iop_cpu = info.iop_cpu;
	return cell("run", dev, &info, info.mode, info.policy, info.iop, atoi(argv[1]),
		    atoi(argv[2]), atoi(argv[3]), 1);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--worker") == 0)
		return worker_main(argc - 2, argv + 2);
	if (argc == 5 && strcmp(argv[1], "table1") && strcmp(argv[1], "table2") &&
	    strcmp(argv[1], "all"))
		return one_run(argv + 1);
	struct options o;
	if (argc < 2 || parse_options(argc - 2, argv + 2, &o) < 0)
		return usage();
	int t1 = strcmp(argv[1], "table1") == 0 || strcmp(argv[1], "all") == 0;
	int t2 = strcmp(argv[1], "table2") == 0 || strcmp(argv[1], "all") == 0;
	if (!t1 && !t2)
		return usage();
	pin_workers = o.pin;
	count_runs = o.counts;
	pace_disks = o.pace;
	struct hako_blk_info any;
	if (sys_blk_ctl(0, HAKO_BLK_INFO, &any) == 0)
		iop_cpu = any.iop_cpu;
	if (o.t2iop && t2 && iop_cpu < 0) {
		printf("iotest: --t2iop on needs the kernel's I/O processor (iop=N)\n");
		return 2;
	}
	calibrate();
	int bad = 0;
	if (t1)
		bad |= table1(&o);
	if (t2)
		bad |= table2(&o);
	printf("iotest: %d runs, %s\n", next_slot, bad ? "some failed" : "all passed");
	return bad;
}
