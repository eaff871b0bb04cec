/*
 * selftest/test_restart.c — faults and restart of driver processes
 * (paper 003, issue 14 phase 2): a driver process killed in the middle of
 * a flood is started again and every frame is accounted for; a hung one
 * is killed by the kernel's watchdog and started again; a short
 * fault-injection run (user/faultinject) leaves the kernel and a
 * bystander running.  They need the hub's two cards with the RTL8139's
 * driver as a process (make test's drvproc boot); otherwise SKIP.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/test.h>
#include <hako/thread.h>

#define FLOOD       3000             /* frames the sender gets through */
#define RESTART_MS  3000             /* longest a test waits for a restart */

struct cards {
	int rtl, e1k;
	struct hako_nic_info rtl_in, e1k_in;
};

static bool find_cards(struct cards *c)
{
	struct hako_nic_info in;
	c->rtl = c->e1k = -1;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "rtl8139.0") == 0) {
			c->rtl = i;
			c->rtl_in = in;
		}
		if (strcmp(in.name, "e1000.0") == 0) {
			c->e1k = i;
			c->e1k_in = in;
		}
	}
	return c->rtl >= 0 && c->e1k >= 0;
}

static const char *rtl_process(void)
{
	struct cards c;
	struct hako_core_stat st;
	if (!find_cards(&c))
		return "no NIC pair (boot with --net hub)";
	if (sys_core_ctl(c.rtl, HAKO_CORE_STAT, &st) < 0 || st.placement != 1)
		return "the RTL8139's driver is in the kernel (boot with --drvproc rtl8139,e1000)";
	return NULL;
}

struct flood {
	struct cards c;
	volatile bool stop;
	volatile uint64_t ok, err, epipe, ok_after_epipe, received;
	volatile int phase;                  /* 0: before the kill, 1: after */
};

static void flood_sender(void *arg)
{
	struct flood *fl = arg;
	uint8_t f[64];
	memset(f, 0, sizeof f);
	memcpy(f, fl->c.e1k_in.mac, 6);
	memcpy(f + 6, fl->c.rtl_in.mac, 6);
	f[12] = 0x88;
	f[13] = 0xb7;
	while (!fl->stop && fl->ok < FLOOD) {
		long r = sys_nic_send(fl->c.rtl, f, sizeof f);
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
	}
}

static void flood_receiver(void *arg)
{
	struct flood *fl = arg;
	uint8_t f[HAKO_NIC_FRAME_MAX];
	while (!fl->stop) {
		long n = sys_nic_recv(fl->c.e1k, f, sizeof f, HAKO_NIC_NONBLOCK);
		if (n == 64 && memcmp(f + 6, fl->c.rtl_in.mac, 6) == 0 && f[13] == 0xb7)
			fl->received++;
		else if (n < 0)
			sleep_ms(1);
	}
}

static int wait_generation(int nic, uint64_t gen, struct hako_core_stat *st)
{
	for (int i = 0; i < RESTART_MS; i++) {
		if (sys_core_ctl(nic, HAKO_CORE_STAT, st) == 0 && st->generation >= gen && st->pid > 0) {
			struct hako_nic_info in;
			sys_nic_ctl(nic, HAKO_NIC_INFO, &in);
			return 0;
		}
		sleep_ms(1);
	}
	return -1;
}

#define D(f) (s1.f - s0.f)

UTEST_NEEDS(driver_killed_mid_flood_restarts_and_accounts_every_frame, rtl_process)
{
	static struct flood fl;
	memset((void *)&fl, 0, sizeof fl);
	CHECK(find_cards(&fl.c), "the NIC pair is gone");
	struct hako_nic_info open = { .cpu = 0 };
	CHECK_EQ(sys_nic_ctl(fl.c.e1k, HAKO_NIC_OPEN, &open), 0);
	struct hako_core_stat s0, s1, e0, e1;
	CHECK_EQ(sys_core_ctl(fl.c.rtl, HAKO_CORE_STAT, &s0), 0);
	sys_core_ctl(fl.c.e1k, HAKO_CORE_STAT, &e0);
	int tids[2] = { thread_start(flood_sender, &fl), thread_start(flood_receiver, &fl) };
	while (fl.ok < FLOOD / 3)
		sleep_ms(1);
	int killed = s0.pid;
	CHECK_EQ(sys_kill(killed), 0);
	struct hako_core_stat mid;
	CHECK(wait_generation(fl.c.rtl, s0.generation + 1, &mid) == 0,
	      "the driver was not started again in %d ms", RESTART_MS);
	for (int i = 0; i < 5000 && fl.ok < FLOOD; i++)
		sleep_ms(1);
	fl.stop = true;
	thread_join(tids[0]);
	sleep_ms(200);                       /* the last completions reported, the last frames in */
	fl.stop = true;
	thread_join(tids[1]);
	sys_nic_ctl(fl.c.e1k, HAKO_NIC_CLOSE, NULL);
	CHECK_EQ(sys_core_ctl(fl.c.rtl, HAKO_CORE_STAT, &s1), 0);
	sys_core_ctl(fl.c.e1k, HAKO_CORE_STAT, &e1);
	uint64_t accepted = D(send_ok) + D(txq_taken);
	int64_t in_device = (int64_t)accepted - (int64_t)(D(tx_done) + D(tx_unconfirmed));
	printf("selftest: kill mid-flood: pid %d killed, now pid %d (generation %lu, restarts %lu, "
	       "kills %lu)\n", killed, s1.pid, s1.generation, D(restarts), D(kills));
	printf("selftest: kill mid-flood: sender: ok %lu, refused %lu, epipe %lu (ok after the "
	       "restart %lu); kernel: sends %lu = ok %lu + refused %lu + epipe %lu (%lu taken by the "
	       "killed driver)\n", fl.ok, fl.err, fl.epipe, fl.ok_after_epipe, D(send_calls), D(send_ok),
	       D(send_err), D(send_epipe), D(send_epipe_active));
	printf("selftest: kill mid-flood: accepted %lu = reported sent %lu + unconfirmed at the kill "
	       "%lu + in the device %ld; received by %s %lu (its drops %lu)\n", accepted, D(tx_done),
	       D(tx_unconfirmed), in_device, fl.c.e1k_in.name, fl.received,
	       e1.rx_kernel_dropped - e0.rx_kernel_dropped);
	CHECK(s1.pid != killed && s1.pid > 0, "driver pid %d after the kill of %d", s1.pid, killed);
	CHECK_EQ(D(restarts), 1);
	CHECK_EQ(D(kills), 1);
	CHECK(fl.ok == FLOOD, "only %lu of %d frames sent", fl.ok, FLOOD);
	CHECK(fl.ok_after_epipe > 0 || fl.epipe == 0, "no frame went after the restart");
	CHECK(D(send_calls) == fl.ok + fl.err + fl.epipe, "kernel counts %lu sends, sender %lu",
	      D(send_calls), fl.ok + fl.err + fl.epipe);
	CHECK(D(send_ok) == fl.ok && D(send_err) == fl.err && D(send_epipe) == fl.epipe,
	      "kernel ok/refused/epipe %lu/%lu/%lu, sender %lu/%lu/%lu", D(send_ok), D(send_err),
	      D(send_epipe), fl.ok, fl.err, fl.epipe);
	CHECK(in_device == 0, "%ld accepted frames unaccounted", in_device);
	/* On the wire: every frame reported sent arrived (or was dropped and counted there); the
	 * unconfirmed ones and those the killed driver had taken may or may not have. */
	CHECK(fl.received + (e1.rx_kernel_dropped - e0.rx_kernel_dropped) >= D(tx_done) &&
	      fl.received <= accepted + D(send_epipe_active),
	      "received %lu, reported sent %lu, accepted %lu", fl.received, D(tx_done), accepted);
	return 0;
}

static void slow_sender(void *arg)
{
	struct flood *fl = arg;
	uint8_t f[64];
	memset(f, 0, sizeof f);
	memcpy(f, fl->c.e1k_in.mac, 6);
	memcpy(f + 6, fl->c.rtl_in.mac, 6);
	f[12] = 0x88;
	f[13] = 0xb7;
	while (!fl->stop) {
		long r = sys_nic_send(fl->c.rtl, f, sizeof f);
		if (r == 0)
			fl->ok++;
		else if (r == -EPIPE)
			fl->epipe++;
		else
			fl->err++;
		sleep_ms(1);
	}
}

UTEST_NEEDS(driver_hung_is_killed_by_the_watchdog_and_restarted, rtl_process)
{
	static struct flood fl;
	memset((void *)&fl, 0, sizeof fl);
	CHECK(find_cards(&fl.c), "the NIC pair is gone");
	struct hako_core_stat s0, s1;
	CHECK_EQ(sys_core_ctl(fl.c.rtl, HAKO_CORE_STAT, &s0), 0);
	struct hako_core_inject in = { .kind = HAKO_INJECT_HANG };
	CHECK_EQ(sys_core_ctl(fl.c.rtl, HAKO_CORE_INJECT, &in), 0);
	int tid = thread_start(slow_sender, &fl);     /* work for the hung driver */
	int r = wait_generation(fl.c.rtl, s0.generation + 1, &s1);
	for (int i = 0; r == 0 && i < 1000 && !fl.ok_after_epipe; i++) {
		if (fl.epipe && fl.ok)
			break;
		sleep_ms(1);
	}
	uint64_t ok_at_restart = fl.ok;
	sleep_ms(50);
	fl.stop = true;
	thread_join(tid);
	CHECK_EQ(sys_core_ctl(fl.c.rtl, HAKO_CORE_STAT, &s1), 0);
	printf("selftest: watchdog: generation %lu -> %lu, watchdog kills %lu, sender ok %lu "
	       "epipe %lu\n", s0.generation, s1.generation, D(watchdog_kills), fl.ok, fl.epipe);
	CHECK(r == 0, "the hung driver was not restarted in %d ms", RESTART_MS);
	CHECK_EQ(D(watchdog_kills), 1);
	CHECK_EQ(D(injected[HAKO_INJECT_HANG]), 1);
	CHECK(fl.epipe > 0, "the call taken by the hung driver did not fail");
	CHECK(fl.ok > 0 && (ok_at_restart > 0 || fl.ok > ok_at_restart), "no frame sent after the restart");
	return 0;
}

UTEST(core_inject_checks_its_arguments)
{
	struct hako_core_inject in = { .kind = 99 };
	CHECK_EQ(sys_core_ctl(99, HAKO_CORE_INJECT, &in), -ENODEV);
	if (rtl_process())
		return 0;
	struct cards c;
	find_cards(&c);
	CHECK_EQ(sys_core_ctl(c.rtl, HAKO_CORE_INJECT, &in), -EINVAL);
	CHECK_EQ(sys_core_ctl(c.rtl, HAKO_CORE_INJECT, (void *)16), -EFAULT);
	return 0;
}

UTEST_NEEDS(driver_faults_leave_kernel_and_bystanders_running, rtl_process)
{
	char *argv[] = { "faultinject", "200", "7", NULL };
	int status = spawn_wait("faultinject", argv);
	CHECK(status == 0, "faultinject ended with status %x", status);
	return 0;
}
