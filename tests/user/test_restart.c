/*
 * tests/user/test_restart.c — faults and restart of driver processes
 * (paper 003): a driver process killed in the middle of
 * a flood is started again and every frame is accounted for; a hung one
 * is killed by the kernel's watchdog and started again; one crashing in
 * its own code (ring 3, or ring 0 with drvmode=super) ends alone and is
 * started again; a short
 * fault-injection run (user/faultinject) leaves the kernel and a
 * bystander running.  They need the hub's two cards with the e1000's
 * driver as a process (make test's drvproc boot); otherwise SKIP.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <hako/thread.h>

#define FLOOD       3000             /* frames the sender gets through */
#define RESTART_MS  3000             /* longest a test waits for a restart */

/* Frames go from tx (the e1000, whose driver is killed) to rx (the RTL8139, opened here). */
struct cards {
	int tx, rx;
	struct hako_nic_info tx_in, rx_in;
};

static bool find_cards(struct cards *c)
{
	struct hako_nic_info in;
	c->tx = c->rx = -1;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "e1000.0") == 0) {
			c->tx = i;
			c->tx_in = in;
		}
		if (strcmp(in.name, "rtl8139.0") == 0) {
			c->rx = i;
			c->rx_in = in;
		}
	}
	return c->tx >= 0 && c->rx >= 0;
}

static const char *tx_process(void)
{
	struct cards c;
	struct hako_drvproc_stat st;
	if (!find_cards(&c))
		return "no NIC pair (boot with --net hub)";
	if (sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &st) < 0 || !HAKO_DRVPROC_PLACED_IN_PROCESS(st.placement))
		return "the e1000's driver is in the kernel (boot with --drvproc rtl8139,e1000)";
	return NULL;
}

struct flood {
	struct cards c;
	volatile bool stop, stop_rx;
	volatile uint64_t ok, err, epipe, ok_after_epipe, received;
	uint64_t gap_ms;                     /* the sender's pause after each frame */
};

/* Frames to rx, at most WINDOW ahead of what arrived (the hub drops what the card cannot take). */
#define WINDOW 24

static void sender(void *arg)
{
	struct flood *fl = arg;
	uint8_t f[64];
	memset(f, 0, sizeof f);
	memcpy(f, fl->c.rx_in.mac, 6);
	memcpy(f + 6, fl->c.tx_in.mac, 6);
	f[12] = 0x88;
	f[13] = 0xb7;
	while (!fl->stop && fl->ok < FLOOD) {
		for (int i = 0; i < 20 && fl->ok > fl->received + WINDOW; i++)
			sleep_ms(1);
		long r = sys_nic_send(fl->c.tx, f, sizeof f);
		if (r == 0) {
			fl->ok++;
			if (fl->epipe)
				fl->ok_after_epipe++;
		} else if (r == -EPIPE) {
			fl->epipe++;
			sleep_ms(1);
		} else {
			fl->err++;
		}
		if (fl->gap_ms)
			sleep_ms(fl->gap_ms);
	}
}

static void receiver(void *arg)
{
	struct flood *fl = arg;
	uint8_t f[HAKO_NIC_FRAME_MAX];
	while (!fl->stop_rx) {
		long n = sys_nic_recv(fl->c.rx, f, sizeof f, HAKO_NIC_NONBLOCK);
		if (n == 64 && memcmp(f + 6, fl->c.tx_in.mac, 6) == 0 && f[13] == 0xb7)
			fl->received++;
		else if (n < 0)
			sleep_ms(1);
	}
}

/* Poll nic's counters into st until done(st, want) holds, for RESTART_MS at most: 0 or -1. */
static int wait_stat(int nic, struct hako_drvproc_stat *st,
		     bool (*done)(const struct hako_drvproc_stat *, uint64_t), uint64_t want)
{
	for (int i = 0; i < RESTART_MS; i++) {
		if (sys_drvproc_ctl(nic, HAKO_DRVPROC_STAT, st) == 0 && done(st, want))
			return 0;
		sleep_ms(1);
	}
	return -1;
}

static bool started(const struct hako_drvproc_stat *st, uint64_t gen)
{
	return st->generation >= gen && st->pid > 0;
}

static int wait_generation(int nic, uint64_t gen, struct hako_drvproc_stat *st)
{
	return wait_stat(nic, st, started, gen);
}

#define D(f) (s1.f - s0.f)


/* A closed card has no interrupts: its driver reaps finished transmissions on its next
 * send.  Opening it polls the driver (nic_drain), which reaps and reports them. */
static void reap(int nic)
{
	struct hako_nic_info in = { .cpu = 0 };
	if (sys_nic_ctl(nic, HAKO_NIC_OPEN, &in) == 0)
		sys_nic_ctl(nic, HAKO_NIC_CLOSE, NULL);
	sleep_ms(10);
}

TEST_NEEDS(driver_killed_mid_flood_restarts_and_accounts_every_frame, tx_process)
{
	static struct flood fl;
	memset((void *)&fl, 0, sizeof fl);
	CHECK(find_cards(&fl.c), "the NIC pair is gone");
	struct hako_nic_info open = { .cpu = online_cpus() - 1 };
	CHECK_EQ(sys_nic_ctl(fl.c.rx, HAKO_NIC_OPEN, &open), 0);
	struct hako_drvproc_stat s0, s1, r0, r1;
	reap(fl.c.tx);                       /* nothing of an earlier test left in the device */
	CHECK_EQ(sys_drvproc_ctl(fl.c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	struct hako_nic_info t0, t1;
	CHECK_EQ(sys_nic_ctl(fl.c.tx, HAKO_NIC_INFO, &t0), 0);
	sys_drvproc_ctl(fl.c.rx, HAKO_DRVPROC_STAT, &r0);
	int tids[2] = { thread_start(sender, &fl), thread_start(receiver, &fl) };
	while (fl.ok < FLOOD / 3)
		sleep_ms(1);
	int killed = s0.pid;
	CHECK_EQ(sys_kill(killed), 0);
	struct hako_drvproc_stat mid;
	CHECK(wait_generation(fl.c.tx, s0.generation + 1, &mid) == 0,
	      "the driver was not started again in %d ms", RESTART_MS);
	for (int i = 0; i < 10000 && fl.ok < FLOOD; i++)
		sleep_ms(1);
	fl.stop = true;
	thread_join(tids[0]);
	sleep_ms(200);                       /* the last completions reported, the last frames in */
	fl.stop_rx = true;
	thread_join(tids[1]);
	sys_nic_ctl(fl.c.rx, HAKO_NIC_CLOSE, NULL);
	reap(fl.c.tx);
	CHECK_EQ(sys_drvproc_ctl(fl.c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	CHECK_EQ(sys_nic_ctl(fl.c.tx, HAKO_NIC_INFO, &t1), 0);
	sys_drvproc_ctl(fl.c.rx, HAKO_DRVPROC_STAT, &r1);
	struct hako_nic_info rin;
	sys_nic_ctl(fl.c.rx, HAKO_NIC_INFO, &rin);
	uint64_t accepted = D(send_ok) + D(txq_taken);
	int64_t in_device = (int64_t)accepted - (int64_t)(D(tx_done) + D(tx_unconfirmed));
	printf("selftest: kill mid-flood: %s's driver pid %d killed, now pid %d (generation %" PRIu64 ", "
	       "restarts %" PRIu64 ", kills %" PRIu64 ")\n", fl.c.tx_in.name, killed, s1.pid, s1.generation,
	       D(restarts), D(kills));
	printf("selftest: kill mid-flood: sender: ok %" PRIu64 ", refused %" PRIu64 ", epipe %" PRIu64 " (ok after the "
	       "restart %" PRIu64 "); kernel: sends %" PRIu64 " = ok %" PRIu64 " + refused %" PRIu64 " + epipe %" PRIu64 " (%" PRIu64 " taken by the "
	       "killed driver)\n", fl.ok, fl.err, fl.epipe, fl.ok_after_epipe, D(send_calls), D(send_ok),
	       D(send_err), D(send_epipe), D(send_epipe_active));
	printf("selftest: kill mid-flood: accepted %" PRIu64 " = reported sent %" PRIu64 " + unconfirmed at the kill "
	       "%" PRIu64 " + in the device %" PRId64 "; received by %s %" PRIu64 " (kernel drops %" PRIu64 ", card drops %" PRIu64 ")\n",
	       accepted, D(tx_done), D(tx_unconfirmed), in_device, fl.c.rx_in.name, fl.received,
	       r1.rx_kernel_dropped - r0.rx_kernel_dropped, rin.rx_dropped);
	CHECK(s1.pid != killed && s1.pid > 0, "driver pid %d after the kill of %d", s1.pid, killed);
	CHECK_EQ(D(restarts), 1);
	CHECK_EQ(D(kills), 1);
	CHECK(fl.ok == FLOOD, "only %" PRIu64 " of %d frames sent", fl.ok, FLOOD);
	CHECK(fl.ok_after_epipe > 0 || fl.epipe == 0, "no frame went after the restart");
	CHECK(D(send_calls) == fl.ok + fl.err + fl.epipe, "kernel counts %" PRIu64 " sends, sender %" PRIu64,
	      D(send_calls), fl.ok + fl.err + fl.epipe);
	CHECK(D(send_ok) == fl.ok && D(send_err) == fl.err && D(send_epipe) == fl.epipe,
	      "kernel ok/refused/epipe %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", sender %" PRIu64 "/%" PRIu64 "/%" PRIu64, D(send_ok), D(send_err),
	      D(send_epipe), fl.ok, fl.err, fl.epipe);
	CHECK(in_device == 0, "%" PRId64 " accepted frames unaccounted", in_device);
	/* The card's counters go on across the restart (the new driver's start from 0). */
	CHECK(t1.tx + t1.tx_errors - t0.tx - t0.tx_errors == D(tx_done),
	      "nic_ctl INFO counts %" PRIu64 " sent, the driver process %" PRIu64, t1.tx + t1.tx_errors - t0.tx - t0.tx_errors,
	      D(tx_done));
	/* On the wire: the frames reported sent arrived (or a drop was counted); the unconfirmed
	 * ones and the one the killed driver had taken may or may not have. */
	uint64_t drops = r1.rx_kernel_dropped - r0.rx_kernel_dropped + rin.rx_dropped;
	CHECK(fl.received + drops >= D(tx_done) && fl.received <= accepted + D(send_epipe_active),
	      "received %" PRIu64 ", reported sent %" PRIu64 ", accepted %" PRIu64, fl.received, D(tx_done), accepted);
	return 0;
}

TEST_NEEDS(driver_hung_is_killed_by_the_watchdog_and_restarted, tx_process)
{
	static struct flood fl;
	memset((void *)&fl, 0, sizeof fl);
	CHECK(find_cards(&fl.c), "the NIC pair is gone");
	fl.gap_ms = 1;
	fl.received = ~0ull >> 1;            /* no window: nobody receives */
	struct hako_drvproc_stat s0, s1;
	CHECK_EQ(sys_drvproc_ctl(fl.c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	struct hako_drvproc_inject in = { .kind = HAKO_INJECT_HANG };
	CHECK_EQ(sys_drvproc_ctl(fl.c.tx, HAKO_DRVPROC_INJECT, &in), 0);
	int tid = thread_start(sender, &fl);          /* work for the hung driver */
	int r = wait_generation(fl.c.tx, s0.generation + 1, &s1);
	uint64_t ok_at_restart = fl.ok;
	for (int i = 0; r == 0 && i < 1000 && fl.ok == ok_at_restart; i++)
		sleep_ms(1);
	fl.stop = true;
	thread_join(tid);
	CHECK_EQ(sys_drvproc_ctl(fl.c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	printf("selftest: watchdog: generation %" PRIu64 " -> %" PRIu64 ", watchdog kills %" PRIu64 ", sender ok %" PRIu64 " "
	       "(%" PRIu64 " before the restart) epipe %" PRIu64 "\n", s0.generation, s1.generation,
	       D(watchdog_kills), fl.ok, ok_at_restart, fl.epipe);
	CHECK(r == 0, "the hung driver was not restarted in %d ms", RESTART_MS);
	CHECK_EQ(D(watchdog_kills), 1);
	CHECK_EQ(D(injected[HAKO_INJECT_HANG]), 1);
	CHECK(fl.epipe > 0, "the call taken by the hung driver did not fail");
	CHECK(fl.ok > ok_at_restart, "no frame sent after the restart");
	return 0;
}

TEST(drvproc_inject_checks_its_arguments)
{
	struct hako_drvproc_inject in = { .kind = 99 };
	CHECK_EQ(sys_drvproc_ctl(99, HAKO_DRVPROC_INJECT, &in), -ENODEV);
	if (tx_process())
		return 0;
	struct cards c;
	find_cards(&c);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, &in), -EINVAL);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, (void *)16), -EFAULT);
	return 0;
}

TEST_NEEDS(driver_faults_leave_kernel_and_bystanders_running, tx_process)
{
	char *argv[] = { "faultinject", "200", "7", NULL };
	int status = spawn_wait("faultinject", argv);
	CHECK(status == 0, "faultinject ended with status %x", status);
	return 0;
}

/* One frame through tx, retried while its driver is away; 0 once one went. */
static int send_one(const struct cards *c, int ms)
{
	uint8_t f[64];
	memset(f, 0, sizeof f);
	memcpy(f, c->rx_in.mac, 6);
	memcpy(f + 6, c->tx_in.mac, 6);
	f[12] = 0x88;
	f[13] = 0xb8;
	for (int i = 0; i < ms; i++) {
		if (sys_nic_send(c->tx, f, sizeof f) == 0)
			return 0;
		sleep_ms(1);
	}
	return -1;
}

static bool given_up(const struct hako_drvproc_stat *st, uint64_t want __attribute__((unused)))
{
	return st->gave_up != 0;
}

static int wait_gave_up(int nic, struct hako_drvproc_stat *st)
{
	return wait_stat(nic, st, given_up, 0);
}

TEST_NEEDS(driver_failing_its_start_is_given_up_then_restarted_on_request, tx_process)
{
	struct cards c;
	CHECK(find_cards(&c), "the NIC pair is gone");
	struct hako_drvproc_stat s0, s1;
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_RESTART, NULL), -EBUSY);   /* not given up */
	struct hako_drvproc_inject bad = { .kind = HAKO_INJECT_FAIL_INIT, .seed = 17 };
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, &bad), -EINVAL);
	/* Two failed starts, then the third registers. */
	struct hako_drvproc_inject two = { .kind = HAKO_INJECT_FAIL_INIT, .seed = 2 };
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, &two), 0);
	CHECK_EQ(sys_kill(s0.pid), 0);
	CHECK(send_one(&c, RESTART_MS) == 0, "no frame went after two failed starts");
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	printf("selftest: failed starts: generation %" PRIu64 " -> %" PRIu64 ", exits %" PRIu64 ", restarts %" PRIu64 "\n",
	       s0.generation, s1.generation, D(exits), D(restarts));
	CHECK_EQ(D(exits), 2);
	CHECK_EQ(D(restarts), 3);
	CHECK_EQ(s1.gave_up, 0);
	/* Five in a row: given up, the card refuses; started again on request. */
	struct hako_drvproc_inject five = { .kind = HAKO_INJECT_FAIL_INIT, .seed = 5 };
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, &five), 0);
	CHECK_EQ(sys_kill(s1.pid), 0);
	struct hako_drvproc_stat s2;
	CHECK(wait_gave_up(c.tx, &s2) == 0, "not given up after five failed starts");
	CHECK(send_one(&c, 1) < 0, "a send went through a card given up");
	printf("selftest: given up after %" PRIu64 " more exits\n", s2.exits - s1.exits);
	CHECK_EQ(s2.exits - s1.exits, 5);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_RESTART, NULL), 0);
	CHECK(send_one(&c, RESTART_MS) == 0, "no frame went after the restart on request");
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s2), 0);
	CHECK_EQ(s2.gave_up, 0);
	return 0;
}

/* Resetting the counters of a card whose driver was given up leaves it restartable:
 * RESTART is accepted and frames go again. */
TEST_NEEDS(counter_reset_keeps_a_given_up_driver_restartable, tx_process)
{
	struct cards c;
	CHECK(find_cards(&c), "the NIC pair is gone");
	struct hako_drvproc_stat s0, s1;
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	struct hako_drvproc_inject five = { .kind = HAKO_INJECT_FAIL_INIT, .seed = 5 };
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, &five), 0);
	CHECK_EQ(sys_kill(s0.pid), 0);
	CHECK(wait_gave_up(c.tx, &s1) == 0, "not given up after five failed starts");
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_RESET, NULL), 0);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	long r = sys_drvproc_ctl(c.tx, HAKO_DRVPROC_RESTART, NULL);
	CHECK(r == 0, "RESTART after a counter reset refused (%ld)", r);
	CHECK(s1.gave_up == 1, "the reset cleared the given-up state (gave_up %" PRIu64 ")", s1.gave_up);
	CHECK_EQ(s1.exits, 0);                       /* the counters did go */
	CHECK(send_one(&c, RESTART_MS) == 0, "no frame went after the restart on request");
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	CHECK_EQ(s1.gave_up, 0);
	return 0;
}

#define WILD_EACH 13                 /* the requests drvhost makes for one WILD event */

/* Inject kind into nic's driver, retried while it is being restarted: 0 or the error. */
static long inject(int nic, int kind, uint64_t seed)
{
	struct hako_drvproc_inject in = { .kind = kind, .seed = seed };
	long r = -ESRCH;
	for (int i = 0; i < RESTART_MS && r == -ESRCH; i++) {
		r = sys_drvproc_ctl(nic, HAKO_DRVPROC_INJECT, &in);
		if (r == -ESRCH)
			sleep_ms(1);
	}
	return r;
}

/* nic's driver has received want WILD events in all. */
static bool wild_received(const struct hako_drvproc_stat *st, uint64_t want)
{
	return st->wild_events >= want;
}

/* The fault counters are the kernel's: bit flips in the driver cannot reach them, and each
 * stays within what was injected and what the driver asked for. */
TEST_NEEDS(fault_counters_are_the_kernels_and_stay_bounded, tx_process)
{
	struct cards c;
	CHECK(find_cards(&c), "the NIC pair is gone");
	struct hako_drvproc_stat s0, s1, mid;
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	CHECK_EQ(sys_kill(s0.pid), 0);           /* a fresh driver: no bit flipped in it */
	CHECK(wait_generation(c.tx, s0.generation + 1, &mid) == 0, "no restart");
	CHECK_EQ(inject(c.tx, HAKO_INJECT_WILD, 0), 0);
	CHECK(wait_stat(c.tx, &mid, wild_received, s0.wild_events + 1) == 0,
	      "the WILD event was not received");
	sleep_ms(5);                             /* its requests made */
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &mid), 0);
	printf("selftest: wild requests of an unflipped driver: %" PRIu64 " made, %" PRIu64 " refused, %" PRIu64 " "
	       "accepted\n", mid.wild_requests - s0.wild_requests, mid.wild_refused - s0.wild_refused,
	       mid.wild_accepted - s0.wild_accepted);
	CHECK_EQ(mid.wild_checked - s0.wild_checked, 1);
	CHECK_EQ(mid.wild_requests - s0.wild_requests, WILD_EACH);
	CHECK_EQ(mid.wild_refused - s0.wild_refused, WILD_EACH);
	/* Now bit flips in its data (where a count of its own would live), with wild requests. */
	int flips = 0, wilds = 1;
	for (int i = 0; i < 150; i++) {
		bool wild = i % 10 == 9;
		long r = inject(c.tx, wild ? HAKO_INJECT_WILD : HAKO_INJECT_DATA, 0x9e37ull * (i + 1));
		CHECK(r == 0, "inject %d: error %ld", i, r);
		wilds += wild;
		flips += !wild;
		sleep_ms(1);
	}
	sleep_ms(50);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	printf("selftest: after %d flips and %d wild events: requests %" PRIu64 ", refused %" PRIu64 "; wild events "
	       "%" PRIu64 " (checked %" PRIu64 "): %" PRIu64 " requests, %" PRIu64 " refused, %" PRIu64 " accepted; crashes %" PRIu64 "\n", flips,
	       wilds, D(requests), D(refused), D(wild_events), D(wild_checked), D(wild_requests),
	       D(wild_refused), D(wild_accepted), D(crashes));
	CHECK_EQ(D(injected[HAKO_INJECT_WILD]), (uint64_t)wilds);
	CHECK_EQ(D(injected[HAKO_INJECT_DATA]), (uint64_t)flips);
	CHECK(D(refused) <= D(requests), "refused %" PRIu64 " of %" PRIu64 " requests", D(refused), D(requests));
	CHECK(D(wild_events) <= (uint64_t)wilds, "%" PRIu64 " wild events of %d injected", D(wild_events),
	      wilds);
	CHECK(D(wild_checked) <= D(wild_events), "checked %" PRIu64 " of %" PRIu64, D(wild_checked),
	      D(wild_events));
	CHECK(D(wild_requests) == WILD_EACH * D(wild_checked), "%" PRIu64 " wild requests from %" PRIu64 " checked "
	      "events", D(wild_requests), D(wild_checked));
	CHECK(D(wild_requests) == D(wild_refused) + D(wild_accepted) && D(wild_accepted) == 0,
	      "wild requests %" PRIu64 ": refused %" PRIu64 ", accepted %" PRIu64, D(wild_requests), D(wild_refused),
	      D(wild_accepted));
	CHECK(D(wild_requests) <= D(requests), "more wild requests than requests");
	/* A flipped bit may leave the driver running but wrong: a fresh copy for what follows. */
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	if (s1.pid > 0)
		sys_kill(s1.pid);
	CHECK(wait_generation(c.tx, s1.generation + 1, &s1) == 0, "no fresh driver at the end");
	return 0;
}

/* A fault that leaves tx's driver answering but wrong, how the kernel must end it. */
struct breakage {
	const char *what;
	int kind;                            /* HAKO_INJECT_* */
	long want;                           /* what a send through the broken driver gives */
	int rounds;
	size_t kills;                        /* offsetof the counter each end adds to */
};

/* Round after round, inject b->kind into tx's driver, see a send come back b->want, and wait
 * for the kernel to replace the driver (sending on: a stuck driver is judged by the sends it
 * refuses); then a send must succeed.  0, or the failed round + 1. */
static int break_rounds(const struct cards *c, const struct breakage *b)
{
	uint8_t f[64];
	memset(f, 0, sizeof f);
	memcpy(f, c->rx_in.mac, 6);
	memcpy(f + 6, c->tx_in.mac, 6);
	f[12] = 0x88;
	f[13] = 0xb9;
	for (int k = 0; k < b->rounds; k++) {
		struct hako_drvproc_stat st;
		if (sys_drvproc_ctl(c->tx, HAKO_DRVPROC_STAT, &st) < 0 || inject(c->tx, b->kind, 0) < 0)
			return k + 1;
		uint64_t gen = st.generation;
		sleep_ms(5);                     /* the event received: its sends are refused now */
		long r = sys_nic_send(c->tx, f, sizeof f);
		if (r != b->want) {
			printf("selftest: round %d: a send through the broken driver gave %ld\n", k, r);
			return k + 1;
		}
		for (int i = 0; i < RESTART_MS && (st.generation == gen || st.pid <= 0); i++) {
			sys_nic_send(c->tx, f, sizeof f);
			sleep_ms(1);
			sys_drvproc_ctl(c->tx, HAKO_DRVPROC_STAT, &st);
		}
		if (st.generation == gen) {
			printf("selftest: round %d: the broken driver (generation %" PRIu64 ") was not replaced in "
			       "%d ms\n", k, gen, RESTART_MS);
			return k + 1;
		}
		if (send_one(c, RESTART_MS) < 0) {
			printf("selftest: round %d: no send succeeded after the restart\n", k);
			return k + 1;
		}
	}
	return 0;
}

static uint64_t counter(const struct hako_drvproc_stat *st, size_t off)
{
	return *(const uint64_t *)((const char *)st + off);
}

/* Each round broken, killed for it (the counter b->kills), restarted, sending again. */
static int broken_driver_is_replaced(const struct breakage *b)
{
	struct cards c;
	CHECK(find_cards(&c), "the NIC pair is gone");
	struct hako_drvproc_stat s0, s1;
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	int failed = break_rounds(&c, b);
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	uint64_t kills = counter(&s1, b->kills) - counter(&s0, b->kills);
	printf("selftest: %s: generation %" PRIu64 " -> %" PRIu64 ", its kills %" PRIu64 ", restarts %" PRIu64 ", sends refused "
	       "%" PRIu64 "\n", b->what, s0.generation, s1.generation, kills, D(restarts), D(send_err));
	CHECK(failed == 0, "round %d failed", failed - 1);
	CHECK_EQ(D(injected[b->kind]), (uint64_t)b->rounds);
	CHECK_EQ(kills, (uint64_t)b->rounds);
	CHECK_EQ(D(restarts), (uint64_t)b->rounds);
	return 0;
}

/* A driver left running but wrong (a flipped bit can make its copy-in ask for bytes outside
 * the call's buffer, and every send then comes back refused): the kernel kills it for
 * breaking the call protocol, starts a fresh copy, and sends succeed again. */
TEST_NEEDS(driver_breaking_the_call_protocol_is_killed_and_sends_succeed_again, tx_process)
{
	static const struct breakage b = { "broken call protocol", HAKO_INJECT_BREAK, -EINVAL, 3,
					   offsetof(struct hako_drvproc_stat, protocol_kills) };
	return broken_driver_is_replaced(&b);
}

/* A driver that answers but refuses every send (-EAGAIN for ever, as a flipped bit can leave
 * it): no progress on the sends, so the watchdog kills it and a fresh copy sends again. */
TEST_NEEDS(driver_refusing_every_send_is_killed_by_the_watchdog, tx_process)
{
	static const struct breakage b = { "every send refused", HAKO_INJECT_STALL, -EAGAIN, 2,
					   offsetof(struct hako_drvproc_stat, watchdog_kills) };
	return broken_driver_is_replaced(&b);
}

/* A crash in the driver's own code (a write outside its memory): in ring 3 or in ring 0
 * (drvmode=super) the page fault ends that driver alone, the kernel starts it again, the
 * card sends again and the other card's driver goes on untouched. */
TEST_NEEDS(driver_crashing_in_its_own_code_is_killed_alone_and_restarted, tx_process)
{
	struct cards c;
	CHECK(find_cards(&c), "the NIC pair is gone");
	struct hako_drvproc_stat s0, s1, r0, r1;
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s0), 0);
	CHECK_EQ(sys_drvproc_ctl(c.rx, HAKO_DRVPROC_STAT, &r0), 0);
	struct hako_drvproc_inject in = { .kind = HAKO_INJECT_CRASH };
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_INJECT, &in), 0);
	CHECK(wait_generation(c.tx, s0.generation + 1, &s1) == 0,
	      "the crashed driver was not started again in %d ms", RESTART_MS);
	CHECK(send_one(&c, RESTART_MS) == 0, "no frame sent after the restart");
	CHECK_EQ(sys_drvproc_ctl(c.tx, HAKO_DRVPROC_STAT, &s1), 0);
	CHECK_EQ(sys_drvproc_ctl(c.rx, HAKO_DRVPROC_STAT, &r1), 0);
	printf("selftest: crash: %s's driver (placement %d) pid %d crashed, now pid %d; crashes %" PRIu64
	       ", restarts %" PRIu64 "\n", c.tx_in.name, s0.placement, s0.pid, s1.pid, D(crashes), D(restarts));
	CHECK_EQ(D(crashes), 1);
	CHECK_EQ(D(restarts), 1);
	CHECK_EQ(D(injected[HAKO_INJECT_CRASH]), 1);
	CHECK(s1.pid != s0.pid && s1.placement == s0.placement, "pid %d -> %d, placement %d -> %d",
	      s0.pid, s1.pid, s0.placement, s1.placement);
	CHECK(r1.generation == r0.generation && r1.pid == r0.pid, "the other card's driver changed");
	return 0;
}
