/*
 * tests/user/test_corecopy.c — a driver process's copy of a caller's data
 * (drvproc_copyin, paper 003) against the caller's other threads freeing the
 * page under it.
 *
 * The caller's sending thread drvproc calls NET_SEND on the e1000 (its driver
 * a process) with a 64-byte frame on the last page of its heap, while two
 * other threads shrink the heap below that page (its frame is freed) and
 * grow it again (a new frame, the frame written again), on other CPUs.
 * A second process, the squatter, grows its own heap, fills every page
 * with a frame of its own (the same header, another payload) and shrinks
 * it again, over and over, so a frame freed by the caller soon belongs to
 * it.  The RTL8139 receives what the e1000 sends.  A frame with the
 * squatter's payload on the wire is a driver's copy that read a frame
 * after it was freed and given to another process: the kernel must hold
 * the frame for the length of the copy.  Needs the hub's two cards with
 * the e1000's driver as a process (make test's drvproc boot); otherwise SKIP.
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

#define PAGE         4096ull
#define FRAME        64
#define OFFSET       (PAGE - 4 * FRAME)  /* the frame's place in the caller's page */
#define CALLS        120000              /* drvproc calls the sender makes */
#define SQUAT_PAGES  8                   /* pages the squatter takes at a time */
#define MALLOC_ROOM  (256u << 10)
#define TICK_NS      20000               /* the ticker's sleep */
#define ETHERTYPE_LO 0xb9                /* ours; the squatter's is one more */
#define OURS         'A'
#define THEIRS       'S'

struct copytest {
	int tx, rx;                          /* e1000 (driver process), RTL8139 */
	uint8_t tx_mac[6], rx_mac[6];
	uint64_t page;                       /* the caller's page (the heap's last) */
	volatile bool stop, stop_rx;
	volatile uint64_t calls, ok, efault, other, churns, ours, theirs, torn;
};

static struct copytest ct;

static void frame_image(uint8_t *f, const uint8_t *dst, const uint8_t *src, uint8_t fill)
{
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x88;
	f[13] = ETHERTYPE_LO + (fill == THEIRS);
	memset(f + 14, fill, FRAME - 14);
}

static bool find_pair(uint8_t *tx_mac, uint8_t *rx_mac, int *tx, int *rx)
{
	struct hako_nic_info in;
	*tx = *rx = -1;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "e1000.0") == 0) {
			*tx = i;
			memcpy(tx_mac, in.mac, 6);
		}
		if (strcmp(in.name, "rtl8139.0") == 0) {
			*rx = i;
			memcpy(rx_mac, in.mac, 6);
		}
	}
	return *tx >= 0 && *rx >= 0;
}

/* The squatter: frames of its own on every page it gets, until it is killed. */
UROLE(frame_squatter)
{
	uint8_t tx_mac[6], rx_mac[6], f[FRAME];
	int tx, rx;
	if (!find_pair(tx_mac, rx_mac, &tx, &rx))
		return 2;
	frame_image(f, rx_mac, tx_mac, THEIRS);
	uint64_t base = ((uint64_t)sys_brk(NULL) + PAGE - 1) & ~(PAGE - 1);
	for (;;) {
		if (sys_brk((void *)(base + SQUAT_PAGES * PAGE)) < 0)
			return 3;
		for (uint64_t p = base; p < base + SQUAT_PAGES * PAGE; p += FRAME)
			memcpy((void *)p, f, FRAME);
		sys_brk((void *)base);           /* the frames go back */
	}
}

static void sender(void *arg __attribute__((unused)))
{
	for (uint64_t i = 0; i < CALLS && !ct.stop; i++) {
		long r = sys_drvproc_call(ct.tx, HAKO_DRVPROC_NET_SEND, (void *)(ct.page + OFFSET), FRAME);
		ct.calls++;
		if (r == 0)
			ct.ok++;
		else if (r == -EFAULT)
			ct.efault++;
		else
			ct.other++;
	}
	ct.stop = true;
}

/* Shrink the heap below the caller's page and grow it back, the frame written again. */
static void churner(void *arg __attribute__((unused)))
{
	uint8_t f[FRAME];
	frame_image(f, ct.rx_mac, ct.tx_mac, OURS);
	while (!ct.stop) {
		sys_brk((void *)ct.page);
		sys_brk((void *)(ct.page + PAGE));
		memcpy((void *)(ct.page + OFFSET), f, FRAME);
		ct.churns++;
	}
}

/* Short sleeps: timer deadlines every TICK_NS, where the emulator switches vCPUs. */
static void ticker(void *arg __attribute__((unused)))
{
	while (!ct.stop)
		sleep_ns(TICK_NS);
}

static void receiver(void *arg __attribute__((unused)))
{
	uint8_t f[HAKO_NIC_FRAME_MAX];
	while (!ct.stop_rx) {
		long n = sys_nic_recv(ct.rx, f, sizeof f, HAKO_NIC_NONBLOCK);
		if (n < 0) {
			sleep_ms(1);
			continue;
		}
		if (n < FRAME || f[12] != 0x88 || (f[13] != ETHERTYPE_LO && f[13] != ETHERTYPE_LO + 1) ||
		    memcmp(f + 6, ct.tx_mac, 6))
			continue;
		int a = 0, s = 0;
		for (int i = 14; i < FRAME; i++) {
			a += f[i] == OURS;
			s += f[i] == THEIRS;
		}
		if (s || f[13] != ETHERTYPE_LO)
			ct.theirs++;                 /* a byte of the squatter's */
		else if (a == FRAME - 14)
			ct.ours++;
		else
			ct.torn++;                   /* read while the churner wrote it again */
	}
}

static const char *e1000_process(void)
{
	uint8_t a[6], b[6];
	int tx, rx;
	struct hako_drvproc_stat st;
	if (!find_pair(a, b, &tx, &rx))
		return "no NIC pair (boot with --net hub)";
	if (sys_drvproc_ctl(tx, HAKO_DRVPROC_STAT, &st) < 0 || !HAKO_DRVPROC_PLACED_IN_PROCESS(st.placement))
		return "the e1000's driver is in the kernel (boot with --drvproc rtl8139,e1000)";
	return needs_two_cpus();
}

TEST_NEEDS(drvproc_copy_from_a_page_freed_under_it_reads_no_other_process_frame, e1000_process)
{
	memset((void *)&ct, 0, sizeof ct);
	CHECK(find_pair(ct.tx_mac, ct.rx_mac, &ct.tx, &ct.rx), "the NIC pair is gone");
	struct hako_nic_info open = { .cpu = 0 };
	CHECK_EQ(sys_nic_ctl(ct.rx, HAKO_NIC_OPEN, &open), 0);
	/* malloc (thread_start, spawn, printf) keeps its own end of the heap: room on its free
	 * list now, so it never moves the break while the churner does. */
	free(malloc(MALLOC_ROOM));
	int squatter = spawn_role("frame_squatter", NULL);
	CHECK(squatter > 0, "no squatter (%d)", squatter);
	ct.page = ((uint64_t)sys_brk(NULL) + PAGE - 1) & ~(PAGE - 1);
	CHECK((long)sys_brk((void *)(ct.page + PAGE)) >= 0, "no heap page");
	frame_image((uint8_t *)(ct.page + OFFSET), ct.rx_mac, ct.tx_mac, OURS);
	int ncpu = online_cpus();
	int tids[4] = { thread_start(receiver, NULL), thread_start(churner, NULL),
			thread_start(sender, NULL), thread_start(ticker, NULL) };
	for (int i = 0; i < 4; i++)
		sys_set_affinity(tids[i], 1ull << (i % ncpu));
	thread_join(tids[2]);
	thread_join(tids[1]);
	thread_join(tids[3]);
	sleep_ms(100);                       /* the last frames in */
	ct.stop_rx = true;
	thread_join(tids[0]);
	sys_nic_ctl(ct.rx, HAKO_NIC_CLOSE, NULL);
	int status = kill_after(squatter, 0);
	printf("selftest: drvproc copy vs heap churn: %" PRIu64 " calls (ok %" PRIu64 ", efault %" PRIu64 ", other %" PRIu64 "), %" PRIu64 " "
	       "churns; received: ours %" PRIu64 " (torn %" PRIu64 "), with the squatter's bytes %" PRIu64 "\n", ct.calls,
	       ct.ok, ct.efault, ct.other, ct.churns, ct.ours, ct.torn, ct.theirs);
	CHECK(status >= 0, "the squatter was not reaped (%d)", status);
	CHECK(ct.theirs == 0, "a driver's copy-in read a freed frame: %" PRIu64 " frames with the "
	      "squatter's bytes went out", ct.theirs);
	CHECK(ct.ours > 0, "no frame arrived");
	return 0;
}
