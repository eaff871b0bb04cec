/*
 * faultinject — fault injection into driver processes while traffic
 * flows (paper 003; in the spirit of MINIX 3's runs).
 *
 *   faultinject [FAULTS [SEED]]      (defaults 2000 and 1)
 *
 * Needs the hub's two cards (--net hub) with at least one driver as a
 * process (drvproc=): a sender thread sends 64-byte frames with
 * nic_send from the e1000 to the RTL8139 (which this program opens and a
 * receiver thread reads), a bystander thread counts, and the main thread
 * injects FAULTS faults (drvproc_ctl HAKO_DRVPROC_INJECT) into the cards'
 * driver processes, one every 0-3 ms, chosen by a PRNG seeded with SEED:
 * 45 % a bit flipped in the driver's text, 45 % in its data, 9.5 % wild
 * requests (bad pointers, MMIO and DMA outside its grant) the kernel must
 * refuse, 0.5 % a hang the watchdog must end.  Every count it prints is
 * the kernel's (drvproc_ctl STAT), none the driver's own: the wild requests
 * are counted by the kernel, and checked when the driver that made them
 * had no bit flipped.  Then traffic must flow
 * again, and it prints what was injected, the driver ends and restarts,
 * and the account of every frame; the exit status is 0 when every check
 * held (the account balanced, no wild request accepted, the bystander ran,
 * no driver given up, traffic flowing at the end).  Last, both driver
 * processes are killed once more, so fresh copies from the initrd serve
 * whatever runs next (a flipped bit may leave a driver running but wrong).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/result.h>
#include <hako/sys.h>
#include <hako/thread.h>

#define FRAME_LEN   64
#define SETTLE_MS   300
#define WINDOW      24                   /* frames sent ahead of those received */

struct card {
	int nic;
	struct hako_nic_info info;
	struct hako_drvproc_stat s0, s1;        /* before and after */
	bool process;
};

static struct card rtl, e1k;
static struct card *tx = &e1k, *rx = &rtl;       /* frames go from the e1000 to the RTL8139 */
static volatile bool stop_send, stop_all;
static volatile uint64_t sent_ok, sent_err, sent_epipe, received, bystander;

static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static bool find(struct card *c, const char *name)
{
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &c->info) == 0; i++)
		if (strcmp(c->info.name, name) == 0) {
			c->nic = i;
			struct hako_drvproc_stat st;
			c->process = sys_drvproc_ctl(i, HAKO_DRVPROC_STAT, &st) == 0 && HAKO_DRVPROC_PLACED_IN_PROCESS(st.placement);
			return true;
		}
	return false;
}

static void sender(void *arg __attribute__((unused)))
{
	uint8_t f[FRAME_LEN];
	memset(f, 0, sizeof f);
	memcpy(f, rx->info.mac, 6);
	memcpy(f + 6, tx->info.mac, 6);
	f[12] = 0x88;
	f[13] = 0xb6;
	while (!stop_send) {
		for (int i = 0; i < 20 && sent_ok > received + WINDOW; i++)
			sleep_ms(1);                 /* the hub drops what the card cannot take */
		long r = sys_nic_send(tx->nic, f, sizeof f);
		if (r == 0)
			sent_ok++;
		else if (r == -EPIPE)
			sent_epipe++;
		else
			sent_err++;
		if (r == -EPIPE || r == -EAGAIN)
			sleep_ms(1);
	}
}

static void receiver(void *arg __attribute__((unused)))
{
	uint8_t f[HAKO_NIC_FRAME_MAX];
	while (!stop_all) {
		long n = sys_nic_recv(rx->nic, f, sizeof f, HAKO_NIC_NONBLOCK);
		if (n == FRAME_LEN && memcmp(f + 6, tx->info.mac, 6) == 0 && f[13] == 0xb6)
			received++;
		else if (n < 0)
			sleep_ms(1);
	}
}

static void bystand(void *arg __attribute__((unused)))
{
	while (!stop_all) {
		bystander++;
		sleep_ms(1);
	}
}

static void stat_of(struct card *c, struct hako_drvproc_stat *s)
{
	memset(s, 0, sizeof *s);
	sys_drvproc_ctl(c->nic, HAKO_DRVPROC_STAT, s);
}

#define D(c, f) ((c)->s1.f - (c)->s0.f)

/* The kernel's account of one card's frames; false when it does not balance. */
static bool account(struct card *c, bool quiet_device)
{
	uint64_t calls = D(c, send_calls), ok = D(c, send_ok), err = D(c, send_err),
		 epipe = D(c, send_epipe), taken = D(c, txq_taken), done = D(c, tx_done),
		 unconf = D(c, tx_unconfirmed);
	int64_t in_device = (int64_t)(ok + taken) - (int64_t)(done + unconf);
	printf("faultinject: %s: sends %" PRIu64 " = ok %" PRIu64 " + refused %" PRIu64 " + epipe %" PRIu64 " (%" PRIu64 " taken by a driver "
	       "that ended); queued %" PRIu64 " = taken %" PRIu64 " + dropped %" PRIu64 "; accepted %" PRIu64 " = reported done %" PRIu64 " + "
	       "unconfirmed at an end %" PRIu64 " + in the device now %" PRId64 " (%" PRIu64 " over-reports, not believed); "
	       "received %" PRIu64 ", kernel drops %" PRIu64 "\n",
	       c->info.name, calls, ok, err, epipe, D(c, send_epipe_active), D(c, txq),
	       taken, D(c, txq_dropped), ok + taken, done, unconf, in_device, D(c, tx_overreported),
	       D(c, rx),
	       D(c, rx_kernel_dropped));
	bool good = calls == ok + err + epipe && D(c, txq) == taken + D(c, txq_dropped);
	if (quiet_device)
		good = good && in_device == 0;
	return good;
}

int main(int argc, char **argv)
{
	uint64_t faults = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000;
	uint64_t seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
	rnd_state = seed * 0x9e3779b97f4a7c15ull | 1;
	if (!find(&rtl, "rtl8139.0") || !find(&e1k, "e1000.0")) {
		printf("faultinject: needs the hub's two cards (--net hub)\n");
		return 2;
	}
	struct card *targets[2];
	int ntargets = 0;
	if (rtl.process)
		targets[ntargets++] = &rtl;
	if (e1k.process)
		targets[ntargets++] = &e1k;
	if (!ntargets) {
		printf("faultinject: no driver runs as a process (boot with --drvproc rtl8139,e1000)\n");
		return 2;
	}
	struct hako_nic_info open = { .cpu = 0 };
	long r = sys_nic_ctl(rx->nic, HAKO_NIC_OPEN, &open);
	if (r < 0) {
		printf("faultinject: cannot open %s (error %ld)\n", rx->info.name, r);
		return 2;
	}
	stat_of(&rtl, &rtl.s0);
	stat_of(&e1k, &e1k.s0);
	uint64_t t0 = clock_ns();
	int tids[3] = { thread_start(sender, NULL), thread_start(receiver, NULL),
			thread_start(bystand, NULL) };
	uint64_t tries = 0, busy = 0, by0 = bystander;
	for (uint64_t i = 0; i < faults; tries++) {
		struct card *c = targets[rnd() % ntargets];
		uint64_t k = rnd() % 1000;
		struct hako_drvproc_inject in = {
			.kind = k < 450 ? HAKO_INJECT_TEXT : k < 900 ? HAKO_INJECT_DATA :
				k < 995 ? HAKO_INJECT_WILD : HAKO_INJECT_HANG,
			.seed = rnd(),
		};
		r = sys_drvproc_ctl(c->nic, HAKO_DRVPROC_INJECT, &in);
		if (r == 0)
			i++;
		else if (r == -ESRCH)
			busy++;                      /* its driver is being restarted */
		else {
			printf("faultinject: inject: error %ld\n", r);
			return 2;
		}
		sleep_ms(rnd() % 4);
	}
	uint64_t t_inject = clock_ns() - t0;
	/* Traffic must flow again: wait for the restarts, then count new frames. */
	sleep_ms(1500);
	uint64_t ok_before = sent_ok;
	sleep_ms(200);
	bool flowing = sent_ok > ok_before;
	stop_send = true;
	thread_join(tids[0]);
	sleep_ms(SETTLE_MS);
	stop_all = true;
	thread_join(tids[1]);
	thread_join(tids[2]);
	sys_nic_ctl(rx->nic, HAKO_NIC_CLOSE, NULL);
	struct hako_nic_info poll = { .cpu = 0 };    /* the closed sender's driver reaps (nic_drain) */
	if (sys_nic_ctl(tx->nic, HAKO_NIC_OPEN, &poll) == 0)
		sys_nic_ctl(tx->nic, HAKO_NIC_CLOSE, NULL);
	sleep_ms(10);
	stat_of(&rtl, &rtl.s1);
	stat_of(&e1k, &e1k.s1);

	uint64_t inj[HAKO_INJECT_KINDS] = { 0 }, crashes = 0, kills = 0, exits = 0, wd = 0, broke = 0,
		 restarts = 0, gave_up = 0, refused = 0, requests = 0, wild_ok = 0, wild_ev = 0,
		 wild_checked = 0, wild_req = 0, wild_refused = 0;
	for (int t = 0; t < ntargets; t++) {
		struct card *c = targets[t];
		for (int k = 0; k < HAKO_INJECT_KINDS; k++)
			inj[k] += D(c, injected[k]);
		crashes += D(c, crashes);
		kills += D(c, kills);
		exits += D(c, exits);
		wd += D(c, watchdog_kills);
		broke += D(c, protocol_kills);
		restarts += D(c, restarts);
		gave_up += c->s1.gave_up;
		refused += D(c, refused);
		requests += D(c, requests);
		wild_ok += D(c, wild_accepted);
		wild_ev += D(c, wild_events);
		wild_checked += D(c, wild_checked);
		wild_req += D(c, wild_requests);
		wild_refused += D(c, wild_refused);
	}
	printf("faultinject: %" PRIu64 " faults in %" PRIu64 " ms (seed %" PRIu64 "): text %" PRIu64 ", data %" PRIu64 ", wild %" PRIu64 ", hang %" PRIu64 "; "
	       "%" PRIu64 " tries found a driver restarting\n", faults, t_inject / 1000000, seed, inj[0],
	       inj[1], inj[2], inj[3], busy);
	printf("faultinject: driver ends: %" PRIu64 " crashes, %" PRIu64 " kills (%" PRIu64 " by the watchdog, %" PRIu64 " for breaking "
	       "the call protocol), %" PRIu64 " exits; %" PRIu64 " restarts; %" PRIu64 " given up\n", crashes, kills, wd, broke,
	       exits, restarts, gave_up);
	/* The kernel's counts, bounded by what was injected and what the drivers asked. */
	bool sane = refused <= requests && wild_checked <= wild_ev && wild_ev <= inj[HAKO_INJECT_WILD] &&
		    wild_req == wild_refused + wild_ok && wild_req <= requests;
	printf("faultinject: driver requests (the kernel's count): %" PRIu64 ", %" PRIu64 " refused; wild events "
	       "%" PRIu64 " (%" PRIu64 " to a driver with no bit flipped): %" PRIu64 " wild requests, %" PRIu64 " refused, %" PRIu64 " "
	       "accepted; counts %s\n", requests, refused, wild_ev, wild_checked, wild_req,
	       wild_refused, wild_ok, sane ? "consistent" : "INCONSISTENT");
	bool ok_rtl = account(&rtl, false), ok_e1k = account(&e1k, false);
	bool mine = D(tx, send_ok) == sent_ok && D(tx, send_epipe) == sent_epipe &&
		    D(tx, send_err) == sent_err;
	uint64_t accepted = sent_ok, unconf = D(tx, tx_unconfirmed);
	printf("faultinject: frames: sent %" PRIu64 ": ok %" PRIu64 ", refused %" PRIu64 ", epipe %" PRIu64 " (sender's own count %s "
	       "the kernel's); received by %s %" PRIu64 "; accepted and not received %" PRId64 " (unconfirmed at a "
	       "driver's end %" PRIu64 ", %s drops %" PRIu64 ")\n", sent_ok + sent_err + sent_epipe, sent_ok, sent_err,
	       sent_epipe, mine ? "equals" : "DIFFERS FROM", rx->info.name, received,
	       (int64_t)accepted - (int64_t)received, unconf, rx->info.name,
	       D(rx, rx_kernel_dropped));
	printf("faultinject: bystander %" PRIu64 " loops; traffic %s at the end; kernel alive\n",
	       bystander - by0, flowing ? "flowing" : "NOT flowing");
	bool good = ok_rtl && ok_e1k && mine && wild_ok == 0 && sane && bystander > by0 &&
		    gave_up == 0 && flowing;
	result_line("{\"kind\":\"faults\",\"faults\":%" PRIu64 ",\"seed\":%" PRIu64 ",\"ms\":%" PRIu64 ",\"text\":%" PRIu64 ","
		    "\"data\":%" PRIu64 ",\"wild\":%" PRIu64 ",\"hang\":%" PRIu64 ",\"crashes\":%" PRIu64 ",\"kills\":%" PRIu64 ","
		    "\"watchdog\":%" PRIu64 ",\"protocol\":%" PRIu64 ",\"exits\":%" PRIu64 ",\"restarts\":%" PRIu64 ",\"gave_up\":%" PRIu64 ","
		    "\"refused\":%" PRIu64 ",\"requests\":%" PRIu64 ",\"wild_events\":%" PRIu64 ",\"wild_checked\":%" PRIu64 ","
		    "\"wild_requests\":%" PRIu64 ",\"wild_refused\":%" PRIu64 ",\"wild_accepted\":%" PRIu64 ",\"sent\":%" PRIu64 ","
		    "\"ok\":%" PRIu64 ",\"err\":%" PRIu64 ",\"epipe\":%" PRIu64 ",\"epipe_active\":%" PRIu64 ",\"reported_done\":%" PRIu64 ",\"unconfirmed\":%" PRIu64 ","
		    "\"received\":%" PRIu64 ",\"rx_drops\":%" PRIu64 ",\"bystander\":%" PRIu64 ",\"flowing\":%d,\"ok_all\":%d}",
		    faults, seed, t_inject / 1000000, inj[0], inj[1], inj[2], inj[3], crashes, kills, wd,
		    broke, exits, restarts, gave_up, refused, requests, wild_ev, wild_checked, wild_req,
		    wild_refused, wild_ok, sent_ok + sent_err + sent_epipe, sent_ok,
		    sent_err, sent_epipe, D(tx, send_epipe_active), D(tx, tx_done), unconf, received,
		    D(rx, rx_kernel_dropped), bystander - by0, flowing, good);
	printf("faultinject: %s\n", good ? "ok" : "FAILED");
	/* A flipped bit may leave a driver running but wrong: start both afresh for what follows. */
	for (int t = 0; t < ntargets; t++) {
		struct hako_drvproc_stat st;
		stat_of(targets[t], &st);
		uint64_t gen = st.generation;
		if (st.pid > 0)
			sys_kill(st.pid);
		for (int i = 0; i < 3000 && (st.generation == gen || st.pid <= 0); i++) {
			sleep_ms(1);
			stat_of(targets[t], &st);
		}
	}
	return good ? 0 : 1;
}
