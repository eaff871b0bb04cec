/*
 * tests/user/test_intr.c — interrupt packaging (paper 000) and the network
 * cards from user space: argument checks, traffic from the kernel's
 * sender (the e1000) to a receiving process (the RTL8139) in each
 * interrupt mode, a flood far above the batch rate with nothing lost and
 * the receiving CPU still live, a full receive queue refilled in batches,
 * the cards opened and closed by many
 * threads while frames arrive and the interrupt mode changes, and the
 * cards given back when their owner is killed or ends.
 *
 * The card tests need `--net hub` (make test boots selftest so once);
 * without the two cards they are skipped.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <hako/thread.h>
#include <arch/tsc.h>

#define PERIOD_NS  10000000ull           /* the paper's 10 ms */
#define WAIT_NS    5000000000ull         /* longest a test waits for its frames */
#define MAX_SEQ    4096                  /* frames a flood check can follow */

struct pair {
	int rtl, e1k;                        /* card numbers; the RTL8139 receives */
	int rtl_dev;                         /* its intr_ctl device */
	int cpu;                             /* where its interrupts and the receiver go */
};

/* The hub's two cards, or 0 without them. */
static int hub_pair(struct pair *p)
{
	struct hako_nic_info in;
	p->rtl = p->e1k = -1;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "rtl8139.0") == 0) {
			p->rtl = i;
			p->rtl_dev = in.intr_dev;
		}
		if (strcmp(in.name, "e1000.0") == 0)
			p->e1k = i;
	}
	p->cpu = online_cpus() - 1;
	return p->rtl >= 0 && p->e1k >= 0;
}

/* What the card tests need (TEST_NEEDS). */
static const char *nic_pair(void)
{
	struct pair p;
	return hub_pair(&p) ? NULL : "no NIC pair (boot with --net hub)";
}

/* The tests that pack the RTL8139's interrupts also need its driver in the
 * kernel: interrupt packaging (paper 000) is for in-kernel drivers only, a
 * driver process's card is always sequential (paper 003, drvproc=). */
static const char *nic_pair_packaging(void)
{
	struct pair p;
	struct hako_drvproc_stat st;
	if (!hub_pair(&p))
		return "no NIC pair (boot with --net hub)";
	if (sys_drvproc_ctl(p.rtl, HAKO_DRVPROC_STAT, &st) == 0 && HAKO_DRVPROC_PLACED_IN_PROCESS(st.placement))
		return "the RTL8139's driver is a process (drvproc=): no interrupt packaging";
	return NULL;
}

static long set_mode(int dev, int mode, uint32_t n, uint64_t t_ns, uint32_t flags)
{
	struct hako_intr_set set = { .mode = mode, .n = n, .t_ns = t_ns, .flags = flags,
				     .bound_ns = 1000000 };
	return sys_intr_ctl(dev, HAKO_INTR_SET, &set);
}

static long open_card(int nic, int cpu)
{
	struct hako_nic_info in = { .cpu = cpu };
	return sys_nic_ctl(nic, HAKO_NIC_OPEN, &in);
}

static long send_frames(const struct pair *p, uint32_t per_period, uint32_t burst, uint64_t count)
{
	struct hako_traffic t = { .dst = p->rtl, .cpu = 0, .len = 64, .per_period = per_period,
				  .period_ns = PERIOD_NS, .count = count, .burst = burst };
	return sys_nic_traffic(p->e1k, &t);
}

static uint32_t frame_seq(const uint8_t *f)
{
	const struct hako_traffic_hdr *h = (const void *)f;
	return h->seq[0] | h->seq[1] << 8 | h->seq[2] << 16 | (uint32_t)h->seq[3] << 24;
}

static bool frame_from(const uint8_t *f, long len, const struct hako_nic_info *src)
{
	const struct hako_traffic_hdr *h = (const void *)f;
	return len == 64 && memcmp(h->src, src->mac, 6) == 0 && h->type[0] == 0x88 && h->type[1] == 0xb5;
}

TEST(intr_and_nic_calls_check_arguments)
{
	struct hako_intr_dev d;
	struct hako_intr_probe pr = { .op = 9 };
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_GET, &d), -ENODEV);
	CHECK_EQ(sys_intr_ctl(100000, HAKO_INTR_GET, &d), -ENODEV);
	CHECK_EQ(sys_intr_ctl(0, HAKO_INTR_PROBE, (void *)8), -EFAULT);
	CHECK_EQ(sys_intr_ctl(0, HAKO_INTR_PROBE, &pr), -EINVAL);
	CHECK_EQ(sys_nic_ctl(100, HAKO_NIC_INFO, NULL), -ENODEV);
	CHECK_EQ(sys_nic_recv(100, NULL, 0, 0), -ENODEV);
	CHECK_EQ(sys_nic_send(100, NULL, 60), -ENODEV);
	CHECK_EQ(sys_nic_traffic(-1, NULL), -ENODEV);
	return 0;
}

/* The batch statistics are open and need no device; the grouping switch
 * takes 0 or 1 and nothing else, and is left on. */
TEST(intr_batch_statistics_and_grouping_switch)
{
	struct hako_intr_stats st;
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_STATS, &st), 0);
	CHECK_EQ(st.group, 1u);
	CHECK(st.runs >= st.batches, "%" PRIu64 " stretches in %" PRIu64
	       " batches", st.runs, st.batches);
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_STATS, (void *)8), -EFAULT);
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_GROUP, (void *)2), -EINVAL);
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_GROUP, (void *)0), 0);
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_STATS, &st), 0);
	CHECK_EQ(st.group, 0u);
	CHECK_EQ(sys_intr_ctl(-1, HAKO_INTR_GROUP, (void *)1), 0);
	return 0;
}

/* What the settings test needs: a device whose interrupts can be packaged. */
static const char *intr_device(void)
{
	struct hako_intr_dev d;
	return sys_intr_ctl(0, HAKO_INTR_GET, &d) == 0 ? NULL : "no interrupt-packaging device";
}

/*
 * A field the mode does not use may hold anything: sequential and packed
 * settings with the largest delay bound (only adaptive reads it) are taken,
 * adaptive ones refused, and the kernel stays up.  Each device gets its
 * own settings back.
 */
TEST_NEEDS(intr_set_unused_fields_may_hold_anything, intr_device)
{
	struct hako_intr_dev d;
	for (int dev = 0; sys_intr_ctl(dev, HAKO_INTR_GET, &d) == 0; dev++) {
		struct hako_intr_set seq = { .mode = HAKO_INTR_SEQUENTIAL, .n = ~0u, .t_ns = ~0ull,
					     .bound_ns = ~0ull };
		struct hako_intr_set packed = { .mode = HAKO_INTR_PACKED, .n = 1, .bound_ns = ~0ull };
		struct hako_intr_set adaptive = { .mode = HAKO_INTR_ADAPTIVE, .bound_ns = ~0ull };
		CHECK_EQ(sys_intr_ctl(dev, HAKO_INTR_SET, &seq), 0);
		long r = sys_intr_ctl(dev, HAKO_INTR_SET, &packed);
		CHECK(r == 0 || r == -EPERM, "dev %d: packed: %ld", dev, r);   /* -EPERM: a driver process's card */
		CHECK_EQ(sys_intr_ctl(dev, HAKO_INTR_SET, &adaptive), -EINVAL);
		CHECK_EQ(sys_intr_ctl(dev, HAKO_INTR_SET, &d.set), 0);
	}
	return 0;
}

/* Threads of one process start and stop the same card's sender at once. */
static struct pair churn_pair;
static volatile long churn_bad;

static void traffic_churn(void *arg)
{
	uint64_t x = (uint64_t)arg * 0x9e3779b97f4a7c15ull | 1;
	for (int i = 0; i < 300; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		struct hako_traffic t = { .dst = churn_pair.rtl, .cpu = (int32_t)(x % online_cpus()),
					  .len = 64, .per_period = 1 + x % 4, .period_ns = 10000 + x % 50000,
					  .count = 1 + x % 100, .burst = 1 + x % 16 };
		long r = sys_nic_traffic(churn_pair.e1k, x & 1 ? &t : NULL);
		if (r != 0 && r != -EBUSY)
			churn_bad = r;
	}
}

/*
 * A sender is started and stopped by several threads of its owner at the
 * same moment: each call does all of it or is refused with -EBUSY, and the
 * sender's timer is never armed or reset under another start, so the
 * CPUs' timer lists stay whole (the kernel stays up).
 */
TEST_NEEDS(nic_traffic_started_and_stopped_by_threads_at_once, nic_pair)
{
	CHECK(hub_pair(&churn_pair), "no pair");
	int tids[6];
	for (int i = 0; i < 6; i++)
		tids[i] = thread_start(traffic_churn, (void *)(uint64_t)(i + 1));
	for (int i = 0; i < 6; i++)
		CHECK(tids[i] > 0 && thread_join(tids[i]) == 0, "thread %d", i);
	CHECK_EQ(churn_bad, 0);
	long r;
	while ((r = sys_nic_traffic(churn_pair.e1k, NULL)) == -EBUSY)
		sleep_ms(1);
	CHECK_EQ(r, 0);
	return 0;
}

TEST_NEEDS(nic_calls_check_arguments_on_the_cards, nic_pair)
{
	struct hako_intr_dev d;
	struct hako_intr_set bad = { .mode = HAKO_INTR_PACKED, .n = 0, .flags = HAKO_INTR_TICK };
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	uint8_t frame[64] = { 0 };
	struct hako_traffic t = { .dst = p.rtl, .len = 64, .per_period = 1, .period_ns = PERIOD_NS,
				  .count = 1, .burst = 17 };
	CHECK_EQ(sys_intr_ctl(p.rtl_dev, HAKO_INTR_GET, (void *)8), -EFAULT);
	CHECK_EQ(sys_intr_ctl(p.rtl_dev, HAKO_INTR_SET, &bad), -EINVAL);
	CHECK_EQ(sys_intr_ctl(p.rtl_dev, 77, &d), -EINVAL);
	CHECK_EQ(sys_nic_ctl(p.rtl, HAKO_NIC_INFO, (void *)8), -EFAULT);
	CHECK_EQ(sys_nic_ctl(p.rtl, 9, NULL), -EINVAL);
	CHECK_EQ(open_card(p.rtl, 99), -EINVAL);
	CHECK_EQ(sys_nic_ctl(p.rtl, HAKO_NIC_CLOSE, NULL), -EPERM);
	CHECK_EQ(sys_nic_recv(p.rtl, frame, sizeof frame, HAKO_NIC_NONBLOCK), -EPERM);
	CHECK_EQ(sys_nic_recv(p.rtl, (void *)8, sizeof frame, 0), -EFAULT);
	CHECK_EQ(sys_nic_recv(p.rtl, frame, sizeof frame, 2), -EINVAL);
	CHECK_EQ(sys_nic_send(p.e1k, frame, 13), -EINVAL);
	CHECK_EQ(sys_nic_send(p.e1k, (void *)8, 64), -EFAULT);
	CHECK_EQ(sys_nic_traffic(p.e1k, &t), -EINVAL);
	t.burst = 1;
	t.period_ns = 1000;
	CHECK_EQ(sys_nic_traffic(p.e1k, &t), -EINVAL);
	return 0;
}

/* Receive count frames from the e1000 in order; the traffic is running. */
static int receive_in_order(const struct pair *p, uint64_t count)
{
	struct hako_nic_info e1k;
	uint8_t f[HAKO_NIC_FRAME_MAX];
	CHECK_EQ(sys_nic_ctl(p->e1k, HAKO_NIC_INFO, &e1k), 0);
	for (uint32_t seq = 0; seq < count; seq++) {
		long len = sys_nic_recv(p->rtl, f, sizeof f, 0);
		CHECK(len > 0, "frame %u: nic_recv %ld", seq, len);
		CHECK(frame_from(f, len, &e1k), "frame %u: not from the sender (%ld bytes)", seq, len);
		CHECK(frame_seq(f) == seq, "frame %u arrived as %u", seq, frame_seq(f));
	}
	return 0;
}

/* Every frame handled, nothing left pending, the counters agree. */
static int counters_balance(const struct pair *p, const struct hako_intr_dev *d0, bool packed)
{
	struct hako_intr_dev d;
	CHECK_EQ(sys_intr_ctl(p->rtl_dev, HAKO_INTR_GET, &d), 0);
	uint64_t irqs = d.c.interrupts - d0->c.interrupts;
	CHECK(irqs > 0, "no interrupt");
	CHECK(d.pending == 0, "%u pending after close", d.pending);
	CHECK(d.c.handled - d0->c.handled == irqs, "handled %" PRIu64 " of %" PRIu64, d.c.handled - d0->c.handled, irqs);
	if (packed)
		CHECK(d.c.registered - d0->c.registered > 0, "nothing registered");
	return 0;
}

static int one_mode(const struct pair *p, int mode, uint32_t n)
{
	struct hako_intr_dev d0;
	CHECK_EQ(set_mode(p->rtl_dev, mode, n, 1000000, HAKO_INTR_TICK), 0);
	CHECK_EQ(sys_intr_ctl(p->rtl_dev, HAKO_INTR_GET, &d0), 0);
	CHECK_EQ(open_card(p->rtl, p->cpu), 0);
	CHECK_EQ(sys_set_affinity(0, 1ull << p->cpu), 0);
	CHECK_EQ(send_frames(p, 5, 1, 40), 0);
	int r = receive_in_order(p, 40);
	sys_set_affinity(0, ~0ull);
	sys_nic_traffic(p->e1k, NULL);
	CHECK_EQ(sys_nic_ctl(p->rtl, HAKO_NIC_CLOSE, NULL), 0);
	return r ? r : counters_balance(p, &d0, mode == HAKO_INTR_PACKED);
}

/* Sequential only: the same check with the driver in either placement. */
TEST_NEEDS(nic_frames_in_order_sequential, nic_pair)
{
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	return one_mode(&p, HAKO_INTR_SEQUENTIAL, 0);
}

TEST_NEEDS(nic_frames_in_order_in_each_mode, nic_pair_packaging)
{
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	int r = one_mode(&p, HAKO_INTR_SEQUENTIAL, 0);
	r = r ? r : one_mode(&p, HAKO_INTR_PACKED, 4);
	r = r ? r : one_mode(&p, HAKO_INTR_PACKED, 1);
	r = r ? r : one_mode(&p, HAKO_INTR_ADAPTIVE, 0);
	set_mode(p.rtl_dev, HAKO_INTR_SEQUENTIAL, 0, 0, 0);
	return r;
}

/* ---- the flood ------------------------------------------------------------- */

struct flood {
	const struct pair *p;
	struct hako_nic_info src;
	uint64_t count;
	volatile bool stop;
	volatile uint64_t got, loops, pings;
	volatile uint64_t ping_late_max;     /* ns a 1 ms sleep overran, at most */
	volatile int bad;                    /* first wrong frame's sequence + 1 */
	uint8_t seen[MAX_SEQ];
};

static void pin(int cpu, int prio)
{
	sys_set_affinity(0, 1ull << cpu);
	sys_setprio(0, prio);
}

static void receiver(void *arg)
{
	struct flood *fl = arg;
	uint8_t f[HAKO_NIC_FRAME_MAX];
	pin(fl->p->cpu, 8);
	while (fl->got < fl->count && !fl->stop) {
		long len = sys_nic_recv(fl->p->rtl, f, sizeof f, HAKO_NIC_NONBLOCK);
		if (len == -EAGAIN) {
			sleep_ns(50000);
			continue;
		}
		uint32_t seq = len > 0 ? frame_seq(f) : MAX_SEQ;
		if (len <= 0 || !frame_from(f, len, &fl->src) || seq >= fl->count || fl->seen[seq]++) {
			if (!fl->bad)
				fl->bad = len > 0 ? (int)seq + 1 : -1;
			return;
		}
		fl->got++;
	}
}

/* Same priority as the receiver: it runs whenever interrupts leave it time
 * (pause: QEMU's round-robin icount then runs the sender's CPU on time). */
static void compute(void *arg)
{
	struct flood *fl = arg;
	pin(fl->p->cpu, 8);
	while (!fl->stop) {
		fl->loops++;
		cpu_pause();
	}
}

/* Above both: a 1 ms sleep and a console line must keep working. */
static void console(void *arg)
{
	struct flood *fl = arg;
	pin(fl->p->cpu, 9);
	while (!fl->stop) {
		uint64_t t0 = clock_ns();
		sleep_ns(1000000);
		uint64_t late = clock_ns() - t0 - 1000000;
		if (late > fl->ping_late_max)
			fl->ping_late_max = late;
		if (++fl->pings % 16 == 0)
			printf("selftest: flood: console alive, %" PRIu64 " frames in\n", fl->got);
	}
}

/* 16 frames back to back every 100 us from the kernel sender, far above any batch rate. */
static int flood_once(const struct pair *p, int mode, uint64_t count)
{
	static struct flood fl;
	memset(&fl, 0, sizeof fl);
	fl.p = p;
	fl.count = count;
	CHECK_EQ(sys_nic_ctl(p->e1k, HAKO_NIC_INFO, &fl.src), 0);
	CHECK_EQ(set_mode(p->rtl_dev, mode, 16, 1000000, HAKO_INTR_TICK), 0);
	CHECK_EQ(open_card(p->rtl, p->cpu), 0);
	int tids[3] = { thread_start(receiver, &fl), thread_start(compute, &fl), thread_start(console, &fl) };
	uint64_t start = clock_ns();
	long err = send_frames(p, 100, 16, count);
	uint64_t loops_at_start = fl.loops;
	while (err == 0 && fl.got < count && !fl.bad && clock_ns() - start < WAIT_NS)
		sleep_ns(2000000);
	uint64_t took = clock_ns() - start, loops = fl.loops - loops_at_start;
	fl.stop = true;
	for (int i = 0; i < 3; i++)
		thread_join(tids[i]);
	struct hako_nic_info rtl;
	sys_nic_ctl(p->rtl, HAKO_NIC_INFO, &rtl);
	sys_nic_traffic(p->e1k, NULL);
	sys_nic_ctl(p->rtl, HAKO_NIC_CLOSE, NULL);
	printf("selftest: flood (%s): %" PRIu64 " of %" PRIu64 " frames in %" PRIu64 " us, queue full %" PRIu64 " times, "
	       "compute %" PRIu64 " loops, 1 ms sleep late by %" PRIu64 " us at most\n",
	       mode ? "packed" : "sequential", fl.got, count, took / 1000, rtl.held, loops,
	       fl.ping_late_max / 1000);
	CHECK(err == 0, "nic_traffic %ld", err);
	CHECK(!fl.bad, "frame %d wrong, twice or unknown", fl.bad - 1);
	CHECK(fl.got == count, "%" PRIu64 " of %" PRIu64 " frames arrived", fl.got, count);
	CHECK(loops > 0, "the compute thread made no progress during the flood");
	CHECK(fl.pings > 0 && fl.ping_late_max < 50000000, "console thread stalled (%" PRIu64 " us late)",
	      fl.ping_late_max / 1000);
	return 0;
}

/* Sequential only: the flood with the driver in either placement. */
TEST_NEEDS(nic_flood_sequential_loses_nothing, nic_pair)
{
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	return flood_once(&p, HAKO_INTR_SEQUENTIAL, 3000);
}

TEST_NEEDS(nic_flood_loses_nothing_and_stays_live, nic_pair_packaging)
{
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	int r = flood_once(&p, HAKO_INTR_SEQUENTIAL, 3000);
	r = r ? r : flood_once(&p, HAKO_INTR_PACKED, 3000);
	set_mode(p.rtl_dev, HAKO_INTR_SEQUENTIAL, 0, 0, 0);
	return r;
}

#define BACKLOG 192

/* BACKLOG frames from the e1000, each once, in any order (QEMU's hub may
 * deliver a frame the card refused after the next one). */
static int read_backlog(const struct pair *p)
{
	static uint8_t seen[BACKLOG];
	struct hako_nic_info e1k;
	uint8_t f[HAKO_NIC_FRAME_MAX];
	memset(seen, 0, sizeof seen);
	CHECK_EQ(sys_nic_ctl(p->e1k, HAKO_NIC_INFO, &e1k), 0);
	for (int i = 0; i < BACKLOG; i++) {
		long len = sys_nic_recv(p->rtl, f, sizeof f, 0);
		CHECK(len > 0 && frame_from(f, len, &e1k), "frame %d: nic_recv %ld or not the sender's", i, len);
		uint32_t seq = frame_seq(f);
		CHECK(seq < BACKLOG && !seen[seq]++, "frame %u unknown or twice", seq);
	}
	return 0;
}

/* A receiver that fell behind: its queue is full and holds the card back
 * (more frames wait in the card and in QEMU's hub).  Reading them out must
 * refill the queue in batches, not one frame per nic_recv: each refill's
 * ring pointer write lets the card take a waiting frame and interrupt
 * again, so a frame-by-frame refill costs an interrupt and a pass per frame. */
TEST_NEEDS(nic_full_queue_is_refilled_in_batches, nic_pair)
{
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	struct hako_nic_info a, b, e1k = { 0 };
	CHECK_EQ(open_card(p.rtl, p.cpu), 0);
	CHECK_EQ(sys_set_affinity(0, 1ull << p.cpu), 0);
	int r = (int)send_frames(&p, 1000, 16, BACKLOG);
	uint64_t start = clock_ns();
	do {
		sleep_ns(1000000);
		sys_nic_ctl(p.rtl, HAKO_NIC_INFO, &a);
		sys_nic_ctl(p.e1k, HAKO_NIC_INFO, &e1k);
	} while (r == 0 && (a.queued < HAKO_NIC_QUEUE || e1k.traffic_left) && clock_ns() - start < WAIT_NS);
	if (r == 0 && a.queued == HAKO_NIC_QUEUE)
		r = read_backlog(&p);
	sys_nic_ctl(p.rtl, HAKO_NIC_INFO, &b);
	sys_set_affinity(0, ~0ull);
	sys_nic_traffic(p.e1k, NULL);
	CHECK_EQ(sys_nic_ctl(p.rtl, HAKO_NIC_CLOSE, NULL), 0);
	CHECK(r == 0, "sending or receiving failed (%d)", r);
	CHECK(a.queued == HAKO_NIC_QUEUE && a.held > 0, "the queue never filled (%u frames)", a.queued);
	printf("selftest: backlog of %d frames read out: %" PRIu64 " interrupts, queue full %" PRIu64 " times\n",
	       BACKLOG, b.irqs - a.irqs, b.held - a.held);
	CHECK(b.irqs - a.irqs <= BACKLOG / 16, "%" PRIu64 " interrupts for %d frames: refilled frame by frame",
	      b.irqs - a.irqs, BACKLOG);
	CHECK(b.held - a.held <= BACKLOG / 16, "the queue filled %" PRIu64 " times", b.held - a.held);
	return 0;
}

/* ---- open and close under traffic -------------------------------------------- */

#define CHURN_NS      1000000000ull      /* how long the threads churn */
#define CHURN_OPENERS 6
#define MAX_PINGS     16                 /* one sleeper per CPU, at most */

struct churn {
	const struct pair *p;
	volatile bool stop;
	volatile uint64_t opens, closes, modes, frames;
	volatile uint64_t open_ns_max;       /* the slowest nic_ctl OPEN */
	volatile uint64_t late_ns_max;       /* a 1 ms sleep overran by this much, at most */
	volatile int late_cpu;
	volatile long bad;                   /* an error no race explains */
	volatile int next_cpu;
};

static uint32_t churn_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Open either card on some CPU, take a few frames, close it (any thread of
 * this process may close what another opened: they share the owner). */
static void churn_opener(void *arg)
{
	struct churn *ch = arg;
	uint32_t x = 0x9e3779b9u ^ (uint32_t)thread_self() * 2654435761u;
	int cpus = online_cpus();
	uint8_t f[HAKO_NIC_FRAME_MAX];
	sys_set_affinity(0, 1ull << (thread_self() % cpus));
	while (!ch->stop) {
		int nic = churn_rand(&x) % 4 ? ch->p->rtl : ch->p->e1k;
		uint64_t t0 = clock_ns();
		long r = open_card(nic, (int)(churn_rand(&x) % (uint32_t)cpus));
		uint64_t took = clock_ns() - t0;
		if (took > ch->open_ns_max)
			ch->open_ns_max = took;
		if (r == 0)
			ch->opens++;
		else if (r != -EBUSY)
			ch->bad = r;
		for (int i = (int)(churn_rand(&x) % 8); i > 0; i--)
			if (sys_nic_recv(nic, f, sizeof f, HAKO_NIC_NONBLOCK) > 0)
				ch->frames++;
		r = sys_nic_ctl(nic, HAKO_NIC_CLOSE, NULL);
		if (r == 0)
			ch->closes++;
		else if (r != -EBUSY && r != -EPERM)
			ch->bad = r;
	}
}

/* Sequential, packed (N 1 and 4) and adaptive in turn, and counter resets. */
static void churn_modes(void *arg)
{
	struct churn *ch = arg;
	uint32_t x = 12345;
	sys_set_affinity(0, 1ull << (online_cpus() - 1));
	while (!ch->stop) {
		uint32_t k = churn_rand(&x) % 5;
		long r = k == 4 ? sys_intr_ctl(ch->p->rtl_dev, HAKO_INTR_RESET, NULL)
			 : set_mode(ch->p->rtl_dev, k == 3 ? HAKO_INTR_ADAPTIVE : k ? HAKO_INTR_PACKED
				    : HAKO_INTR_SEQUENTIAL, k == 1 ? 1 : 4, 200000, HAKO_INTR_TICK);
		if (r == 0)
			ch->modes++;
		else if (r != -EBUSY)
			ch->bad = r;
		sleep_ns(50000 + churn_rand(&x) % 200000);
	}
}

/* Above the others on its CPU: 1 ms sleeps, late only if the CPU kept interrupts off. */
static void churn_ping(void *arg)
{
	struct churn *ch = arg;
	int cpu = __atomic_fetch_add(&ch->next_cpu, 1, __ATOMIC_RELAXED);
	pin(cpu, 9);
	while (!ch->stop) {
		uint64_t t0 = clock_ns();
		sleep_ns(1000000);
		uint64_t late = clock_ns() - t0 - 1000000;
		if (late > ch->late_ns_max) {
			ch->late_ns_max = late;
			ch->late_cpu = cpu;
		}
	}
}

/*
 * Threads on every CPU open and close both cards (their interrupts
 * attached to and detached from a vector, on a line the two may share)
 * while the kernel's senders flood both ways and another thread switches
 * the RTL8139 between sequential, packed and adaptive handling.  The
 * kernel must survive it, no CPU may keep interrupts off for long (a
 * sleeper on each CPU wakes on time: opening a card empties what queued
 * up while it was closed, a bounded pass at a time), and the card must
 * work as before afterwards: frames in order, every interrupt handled.
 */
TEST_NEEDS(nic_open_close_under_traffic_survives, nic_pair_packaging)
{
	static struct churn ch;
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	memset(&ch, 0, sizeof ch);
	ch.p = &p;
	struct hako_traffic to_rtl = { .dst = p.rtl, .cpu = 0, .len = 64, .per_period = 100,
				       .period_ns = 10000000, .count = 10000000, .burst = 16 };
	struct hako_traffic to_e1k = to_rtl;
	to_e1k.dst = p.e1k;
	to_e1k.cpu = online_cpus() > 1 ? 1 : 0;
	CHECK_EQ(sys_nic_traffic(p.e1k, &to_rtl), 0);
	CHECK_EQ(sys_nic_traffic(p.rtl, &to_e1k), 0);
	int cpus = online_cpus(), nt = 0;
	int tids[CHURN_OPENERS + 1 + MAX_PINGS];
	for (int i = 0; i < CHURN_OPENERS; i++)
		tids[nt++] = thread_start(churn_opener, &ch);
	tids[nt++] = thread_start(churn_modes, &ch);
	for (int i = 0; i < cpus && i < MAX_PINGS; i++)
		tids[nt++] = thread_start(churn_ping, &ch);
	sleep_ns(CHURN_NS);
	ch.stop = true;
	for (int i = 0; i < nt; i++)
		thread_join(tids[i]);
	sys_nic_traffic(p.e1k, NULL);
	sys_nic_traffic(p.rtl, NULL);
	sys_nic_ctl(p.rtl, HAKO_NIC_CLOSE, NULL);
	sys_nic_ctl(p.e1k, HAKO_NIC_CLOSE, NULL);
	printf("selftest: churn: %" PRIu64 " opens, %" PRIu64 " closes, %" PRIu64 " mode switches, %" PRIu64 " frames taken, "
	       "slowest open %" PRIu64 " us, 1 ms sleep late by %" PRIu64 " us at most (cpu %d)\n", ch.opens, ch.closes,
	       ch.modes, ch.frames, ch.open_ns_max / 1000, ch.late_ns_max / 1000, ch.late_cpu);
	CHECK(ch.bad == 0, "unexpected error %ld", ch.bad);
	CHECK(ch.late_ns_max < 200000000, "cpu %d kept interrupts off: a 1 ms sleep came %" PRIu64 " us late",
	      ch.late_cpu, ch.late_ns_max / 1000);
	CHECK(ch.opens > 0 && ch.modes > 0, "no open or no mode switch went through");
	sleep_ns(20000000);                  /* frames in flight from the senders arrive */
	int r = one_mode(&p, HAKO_INTR_PACKED, 4);
	r = r ? r : one_mode(&p, HAKO_INTR_SEQUENTIAL, 0);
	set_mode(p.rtl_dev, HAKO_INTR_SEQUENTIAL, 0, 0, 0);
	return r;
}

/* ---- owners ---------------------------------------------------------------- */

UROLE(nic_owner)
{
	struct pair p;
	hub_pair(&p);
	if (open_card(p.rtl, p.cpu) < 0 || send_frames(&p, 1, 1, 1000000) < 0)
		return 2;
	if (strcmp(argv[0], "wait") == 0) {
		uint8_t f[HAKO_NIC_FRAME_MAX];
		sys_nic_traffic(p.e1k, NULL);
		for (;;)
			sys_nic_recv(p.rtl, f, sizeof f, 0);      /* no frame comes: killed here */
	}
	return 0;                            /* ends with the card open and the sender running */
}

TEST_NEEDS(nic_owner_end_gives_card_back, nic_pair)
{
	struct pair p;
	CHECK(hub_pair(&p), "the NIC pair is gone");
	CHECK_EQ(run_role("nic_owner", "exit", NULL), 0);
	int pid = spawn_role("nic_owner", "wait", NULL);
	CHECK(pid > 0, "spawn %d", pid);
	sleep_ms(20);
	int status = kill_after(pid, 0);
	CHECK(HAKO_WIFKILLED(status), "status %x: the waiting owner was not killed", status);
	struct hako_nic_info rtl, e1k;
	CHECK_EQ(sys_nic_ctl(p.rtl, HAKO_NIC_INFO, &rtl), 0);
	CHECK_EQ(sys_nic_ctl(p.e1k, HAKO_NIC_INFO, &e1k), 0);
	CHECK(rtl.owner == 0 && rtl.cpu == -1, "card still owned by %d", rtl.owner);
	CHECK(e1k.traffic_left == 0, "the sender still has %" PRIu64 " to send", e1k.traffic_left);
	CHECK_EQ(open_card(p.rtl, 0), 0);
	CHECK_EQ(sys_nic_ctl(p.rtl, HAKO_NIC_CLOSE, NULL), 0);
	return 0;
}
