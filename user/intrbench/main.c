/*
 * intrbench/main.c — the interrupt-packaging benchmark of paper 000: the
 * e1000 sends (the kernel's timed sender on CPU 0), the RTL8139 receives
 * with its interrupts on CPU 1, sequentially or packed, and the parts
 * measure what the paper measured.
 *
 *   intrbench                  every part
 *   intrbench PART...          the parts named (phases delay interference adaptive
 *                              grouping urgent time)
 *   intrbench --receive COUNT  the receiving process of parts 3 and 5
 *
 * Needs the two cards on one QEMU hub and two CPUs: `./hako bench intr`
 * boots `--net hub --smp 2`.  Result lines: kind "bench" (unit tsc) for
 * the phase figures, and "intr-total", "intr-breakeven", "intr-delay",
 * "intr-interference", "intr-adaptive", "intr-grouping", "intr-urgent",
 * "intr-time" for the tables of docs/results.md and the report.
 * Under icount every figure is a count of guest instructions and two runs
 * print the same bytes.  Exit status 0, 1 if something failed, 2 for an
 * unknown part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/thread.h>
#include "intrbench.h"

struct env env;

struct part {
	const char *name;
	int (*fn)(void);
};

static const struct part parts[] = {
	{ "phases", part_phases },
	{ "delay", part_delay },
	{ "interference", part_interference },
	{ "adaptive", part_adaptive },
	{ "grouping", part_grouping },
	{ "urgent", part_urgent },
	{ "time", part_time },
};
#define NPARTS (int)(sizeof parts / sizeof parts[0])

int fail(const char *what, long err)
{
	printf("intrbench: %s: %s\n", what, err < 0 ? strerror((int)-err) : "failed");
	return 1;
}

void pin(int cpu, int prio)
{
	sys_set_affinity(0, 1ull << cpu);
	sys_setprio(0, prio);
}

static int set(int dev, struct hako_intr_set *s)
{
	long r = sys_intr_ctl(dev, HAKO_INTR_SET, s);
	return r < 0 ? fail("intr_ctl set", r) : 0;
}

int set_sequential_on(int dev)
{
	struct hako_intr_set s = { .mode = HAKO_INTR_SEQUENTIAL };
	return set(dev, &s);
}

int set_packed_on(int dev, uint32_t n, uint64_t t_ns, bool tick)
{
	struct hako_intr_set s = { .mode = HAKO_INTR_PACKED, .n = n, .t_ns = t_ns,
				   .flags = tick ? HAKO_INTR_TICK : 0 };
	return set(dev, &s);
}

int set_sequential(void)
{
	return set_sequential_on(env.dev);
}

int set_packed(uint32_t n, uint64_t t_ns, bool tick)
{
	return set_packed_on(env.dev, n, t_ns, tick);
}

int set_adaptive(uint64_t bound_ns)
{
	struct hako_intr_set s = { .mode = HAKO_INTR_ADAPTIVE, .bound_ns = bound_ns,
				   .flags = HAKO_INTR_TICK };
	return set(env.dev, &s);
}

int get_dev_of(int dev, struct hako_intr_dev *d)
{
	long r = sys_intr_ctl(dev, HAKO_INTR_GET, d);
	return r < 0 ? fail("intr_ctl get", r) : 0;
}

int get_dev(struct hako_intr_dev *d)
{
	return get_dev_of(env.dev, d);
}

int reset_dev(int dev)
{
	long r = sys_intr_ctl(dev, HAKO_INTR_RESET, NULL);
	return r < 0 ? fail("intr_ctl reset", r) : 0;
}

long probe(int op, uint64_t buf, uint32_t max)
{
	struct hako_intr_probe pr = { .op = op, .max = max, .buf = buf };
	return sys_intr_ctl(env.dev, HAKO_INTR_PROBE, &pr);
}

int calibrate_rx(struct hako_intr_calib *cal)
{
	pin(RX_CPU, 8);                        /* the self-IPI lands where the card's interrupts do */
	long r = probe(HAKO_PROBE_CALIBRATE, (uint64_t)cal, 0);
	pin(SEND_CPU, 8);
	return r < 0 ? fail("calibrate", r) : 0;
}

int open_card(int card, int cpu)
{
	struct hako_nic_info open = { .cpu = cpu };
	long r = sys_nic_ctl(card, HAKO_NIC_OPEN, &open);
	return r < 0 ? fail("nic_ctl open", r) : 0;
}

int traffic_from(int from, int to, uint32_t per_period, uint64_t period_ns, uint64_t count)
{
	struct hako_traffic t = { .dst = to, .cpu = SEND_CPU, .len = FRAME_LEN,
				  .per_period = per_period, .period_ns = period_ns, .count = count,
				  .burst = 1 };
	long r = sys_nic_traffic(from, &t);
	return r < 0 ? fail("nic_traffic", r) : 0;
}

int traffic_start(uint32_t per_period, uint64_t period_ns, uint64_t count)
{
	return traffic_from(env.e1k, env.rtl, per_period, period_ns, count);
}

/* Until the senders of both cards have sent all their frames. */
void traffic_wait(void)
{
	struct hako_nic_info in;
	for (int card = 0; card < 2; card++)
		while (sys_nic_ctl(card ? env.rtl : env.e1k, HAKO_NIC_INFO, &in) == 0 &&
		       in.traffic_left > 0)
			sleep_ms(1);
}

void traffic_stop(void)
{
	sys_nic_traffic(env.e1k, NULL);
}

static void reader(void *arg)
{
	struct reader *r = arg;
	uint8_t frame[HAKO_NIC_FRAME_MAX];
	int card = r->e1k ? env.e1k : env.rtl;
	pin(r->cpu, r->prio);
	while (r->got < r->want) {
		long n = sys_nic_recv(card, frame, sizeof frame, 0);
		if (n < 0 && n != -EINTR)
			break;
		r->got += n > 0;
	}
}

int reader_start(struct reader *r)
{
	r->got = 0;
	r->tid = thread_start(reader, r);
	return r->tid < 0 ? fail("thread_start", r->tid) : 0;
}

int reader_join(struct reader *r)
{
	thread_join(r->tid);
	return r->got == r->want ? 0 : fail("reader: frames missing", 0);
}

int drain_queue(void)
{
	uint8_t frame[HAKO_NIC_FRAME_MAX];
	int n = 0;
	for (int card = 0; card < 2; card++)
		while (sys_nic_recv(card ? env.e1k : env.rtl, frame, sizeof frame, HAKO_NIC_NONBLOCK) > 0)
			n++;
	return n;
}

/* The hub's cards. */
static int find_cards(void)
{
	struct hako_nic_info in;
	env.rtl = env.e1k = -1;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "rtl8139.0") == 0) {
			env.rtl = i;
			env.dev = in.intr_dev;
		} else if (strcmp(in.name, "e1000.0") == 0) {
			env.e1k = i;
			env.e1k_dev = in.intr_dev;
		}
	}
	if (env.rtl < 0 || env.e1k < 0)
		return fail("no rtl8139.0 and e1000.0 (boot with --net hub)", 0);
	return 0;
}

/* The cards, the RTL8139 opened with its interrupts on RX_CPU. */
static int setup(void)
{
	if (find_cards())
		return 1;
	struct hako_sysinfo si;
	if (sys_sysinfo(&si) < 0 || si.ncpus < 2)
		return fail("needs two CPUs", 0);
	pin(SEND_CPU, 8);
	return open_card(env.rtl, RX_CPU);
}

static const struct bench_target targets[] = { { NULL, 0, NULL } };

int main(int argc, char **argv)
{
	bench_set_program("intrbench");
	if (argc == 3 && strcmp(argv[1], "--receive") == 0)
		return find_cards() ? 1 : receiver_main(strtoull(argv[2], NULL, 10));
	for (int i = 1; i < argc; i++) {
		int known = 0;
		for (int p = 0; p < NPARTS; p++)
			known |= strcmp(argv[i], parts[p].name) == 0;
		if (!known) {
			printf("intrbench: unknown part %s (phases delay interference adaptive grouping"
			       " urgent time)\n", argv[i]);
			return 2;
		}
	}
	if (setup())
		return 1;
	printf("intrbench: figures are TSC ticks = guest instructions under icount (1 ms = 1000000)\n");
	int failed = 0;
	for (int p = 0; p < NPARTS; p++) {
		bool chosen = argc == 1;
		for (int i = 1; i < argc; i++)
			chosen |= strcmp(argv[i], parts[p].name) == 0;
		if (chosen)
			failed |= parts[p].fn();
	}
	set_sequential();
	sys_nic_ctl(env.rtl, HAKO_NIC_CLOSE, NULL);
	bench_summary(targets, 0);
	return failed ? 1 : 0;
}
