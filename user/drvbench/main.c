/*
 * drvbench — paper 003's measurements (drivers as processes), for
 * `./hako bench drvproc`, which boots it three times: the network drivers in
 * the kernel, then both as processes (drvproc=rtl8139,e1000), then in the
 * kernel with paper 003's own experiment, an address-space switch inserted
 * into the RTL8139's paths (drvswitch=on: its interrupt handler runs in an
 * address space of its own, and a call goes there and back just before the
 * copy-in).  One CPU, like
 * the paper's Pentium 4, so every switch on a path happens on it and the
 * counts are the path's own.  Figures are TSC ticks: guest instructions
 * under icount; with --model the regions give modelled cycles and TLB
 * misses.  The RTL8139 (the paper's card) is the driver measured; the
 * e1000 only sends (its interrupts stay off: nobody opens it).
 *
 *   call      drvproc_call NET_SEND of a 60-byte frame on the RTL8139: the
 *             driver-call path (a process switch into the driver and back,
 *             or the kernel's entry called directly).
 *   copyin    drvproc_call NET_COPY of 4 and 1514 bytes: the copy-in alone as
 *             the kernel times it (Table 3: the driver's address space
 *             loaded and the caller's buffer reached through its page
 *             tables, or copy_from_user in the caller's own), and the whole
 *             call.
 *   irq       Table 2: the requester waits in nic_recv; the kernel sends one
 *             frame from the e1000 (nic_traffic); from the RTL8139's
 *             interrupt entering the kernel to its handler's end (in the
 *             kernel, or HAKO_DRV_IRQ_DONE from the process), then to the
 *             requester running again with the frame.
 *   frames    throughput: 2000 frames from the e1000's kernel sender as fast
 *             as it goes, received by this program: frames per second of
 *             guest time, instructions per frame, and how often this
 *             program's full receive queue held the card back ("held").
 * Each figure also gets its switch counts per operation (process switches
 * into and out of the driver process, address-space switches = CR3
 * loads), printed as "drvproc" result lines for the harness's tables.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <arch/tsc.h>
#include <hako/bench.h>
#include <hako/region.h>
#include <hako/result.h>
#include <hako/sys.h>

#define CALLS       200
#define IRQ_FRAMES  100
#define FLOOD       2000
#define FRAME       60

static int rtl = -1, e1k = -1, placement;   /* hako_drvproc_stat.placement: 0 .. 3 */
static const char *where[] = { "kernel", "process", "switch", "super" };
static uint8_t mac_rtl[6], mac_e1k[6];
static uint8_t buf[2048] __attribute__((aligned(4096)));

static struct hako_drvproc_stat stat(int card)
{
	struct hako_drvproc_stat st;
	memset(&st, 0, sizeof st);
	sys_drvproc_ctl(card, HAKO_DRVPROC_STAT, &st);
	return st;
}

/* Switches per operation between two snapshots of card's counters, as a result line. */
static void switches(const char *figure, const struct hako_drvproc_stat *a, const struct hako_drvproc_stat *b,
		     unsigned long ops)
{
	result_line("{\"kind\":\"drvproc\",\"figure\":\"%s\",\"placement\":\"%s\",\"ops\":%lu,"
		    "\"switches_in\":%" PRIu64 ",\"switches_out\":%" PRIu64 ",\"as_switches\":%" PRIu64 ",\"calls\":%" PRIu64 ","
		    "\"irqs\":%" PRIu64 "}",
		    figure, where[placement], ops, b->switches_in - a->switches_in,
		    b->switches_out - a->switches_out, b->as_loads - a->as_loads,
		    b->calls - a->calls, b->irqs - a->irqs);
	printf("drvbench: %s (%s): per op %" PRIu64 ".%02" PRIu64 " switches in, %" PRIu64 ".%02" PRIu64 " out, %" PRIu64 ".%02" PRIu64 " address-space\n",
	       figure, where[placement],
	       (b->switches_in - a->switches_in) / ops, (b->switches_in - a->switches_in) * 100 / ops % 100,
	       (b->switches_out - a->switches_out) / ops, (b->switches_out - a->switches_out) * 100 / ops % 100,
	       (b->as_loads - a->as_loads) / ops, (b->as_loads - a->as_loads) * 100 / ops % 100);
}

static void frame_to(uint8_t *f, const uint8_t *dst, const uint8_t *src)
{
	memset(f, 0, FRAME);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
}

static int find_cards(void)
{
	struct hako_nic_info in;
	for (int i = 0; sys_nic_ctl(i, HAKO_NIC_INFO, &in) == 0; i++) {
		if (strcmp(in.name, "rtl8139.0") == 0) {
			rtl = i;
			memcpy(mac_rtl, in.mac, 6);
		}
		if (strcmp(in.name, "e1000.0") == 0) {
			e1k = i;
			memcpy(mac_e1k, in.mac, 6);
		}
	}
	return rtl >= 0 && e1k >= 0 ? 0 : -1;
}

static char name[48];

/* The region of figure fig (DRVSW_*) in this boot's placement.  The copy
 * alone is the kernel's copy for a driver process (drvproc_call.c), one
 * region for a process in ring 3 and one in supervisor mode. */
static int region_of(int fig)
{
	static const int base[] = { [DRVSW_COPYIN_4] = REGION_DRVPROC_COPYIN,
				    [DRVSW_COPYIN_1514] = REGION_DRVPROC_COPYIN + 2,
				    [DRVSW_CALL] = REGION_DRVPROC_CALL,
				    [DRVSW_COPYCALL_4] = REGION_DRVPROC_COPYCALL,
				    [DRVSW_COPYCALL_1514] = REGION_DRVPROC_COPYCALL + 2,
				    [DRVSW_IRQ] = REGION_DRVPROC_IRQ, [DRVSW_FRAMES] = REGION_DRVPROC_FRAMES };
	bool copy = fig == DRVSW_COPYIN_4 || fig == DRVSW_COPYIN_1514;
	if (placement == 2)
		return REGION_DRVPROC_SWITCHED + fig;
	if (placement == 3)
		return copy ? base[fig] + 1 : REGION_DRVPROC_SUPER + fig;
	return base[fig] + placement;
}

/* Global markers of figure fig's region (every CPU's work counts). */
static void mark_begin(int fig)
{
	int id = region_of(fig);
	if (id >= REGION_DRVPROC_SWITCHED)
		region_global_begin_nth(REGION_DRVPROC_SWITCHED, id - REGION_DRVPROC_SWITCHED);
	else
		region_global_begin_nth(REGION_DRVPROC, id - REGION_DRVPROC);
}

static void mark_end(int fig)
{
	int id = region_of(fig);
	if (id >= REGION_DRVPROC_SWITCHED)
		region_global_end_nth(REGION_DRVPROC_SWITCHED, id - REGION_DRVPROC_SWITCHED);
	else
		region_global_end_nth(REGION_DRVPROC, id - REGION_DRVPROC);
}

static const char *fig(const char *what)
{
	snprintf(name, sizeof name, "%s_%s", what, where[placement]);
	return name;
}

/* The driver-call path: NET_SEND, 60 bytes, round trip. */
static int bench_call(void)
{
	struct samples s;
	if (samples_init(&s, CALLS) < 0)
		return -1;
	uint8_t f[FRAME];
	frame_to(f, mac_e1k, mac_rtl);
	for (int i = 0; i < 10; i++)
		sys_drvproc_call(rtl, HAKO_DRVPROC_NET_SEND, f, FRAME);
	struct hako_drvproc_stat a = stat(rtl);
	for (int i = 0; i < CALLS; i++) {
		mark_begin(DRVSW_CALL);
		uint64_t t0 = tsc_now();
		long r = sys_drvproc_call(rtl, HAKO_DRVPROC_NET_SEND, f, FRAME);
		uint64_t t1 = tsc_now();
		mark_end(DRVSW_CALL);
		if (r < 0 && r != -EAGAIN) {
			printf("drvbench: drvproc_call NET_SEND: error %ld\n", r);
			return -1;
		}
		samples_add(&s, t1 - t0);
	}
	struct hako_drvproc_stat b = stat(rtl);
	bench_report_region(fig("call_send60"), &s, "drvproc_call NET_SEND, 60 bytes",
			    region_of(DRVSW_CALL), CALLS);
	switches(fig("call_send60"), &a, &b, CALLS);
	samples_free(&s);
	return 0;
}

/* Table 3: the copy-in of len bytes, alone (kernel-timed) and as a whole call. */
static int bench_copy(uint64_t len)
{
	struct samples copy, call;
	if (samples_init(&copy, CALLS) < 0 || samples_init(&call, CALLS) < 0)
		return -1;
	memset(buf, 0x5a, sizeof buf);
	for (int i = 0; i < 10; i++)
		sys_drvproc_call(rtl, HAKO_DRVPROC_NET_COPY, buf, len);
	bool big = len > 4;
	int fig_call = big ? DRVSW_COPYCALL_1514 : DRVSW_COPYCALL_4;
	struct hako_drvproc_stat a = stat(rtl);
	for (int i = 0; i < CALLS; i++) {
		mark_begin(fig_call);
		uint64_t t0 = tsc_now();
		long r = sys_drvproc_call(rtl, HAKO_DRVPROC_NET_COPY, buf, len);
		uint64_t t1 = tsc_now();
		mark_end(fig_call);
		if (r != (long)len) {
			printf("drvbench: drvproc_call NET_COPY %" PRIu64 ": %ld\n", len, r);
			return -1;
		}
		samples_add(&call, t1 - t0);
		samples_add(&copy, stat(rtl).last_copy_tsc);
	}
	struct hako_drvproc_stat b = stat(rtl);
	char what[48];
	snprintf(what, sizeof what, "copyin_%" PRIu64, len);
	bench_report_region(fig(what), &copy, "the copy-in alone (kernel-timed)",
			    region_of(big ? DRVSW_COPYIN_1514 : DRVSW_COPYIN_4), CALLS);
	snprintf(what, sizeof what, "copycall_%" PRIu64, len);
	bench_report_region(fig(what), &call, "drvproc_call NET_COPY round trip",
			    region_of(fig_call), CALLS);
	/* the stat calls in between are not part of a figure: counts from the whole loop */
	switches(fig(what), &a, &b, CALLS);
	samples_free(&copy);
	samples_free(&call);
	return 0;
}

static int open_rtl(void)
{
	struct hako_nic_info in;
	memset(&in, 0, sizeof in);
	in.cpu = 0;
	long r = sys_nic_ctl(rtl, HAKO_NIC_OPEN, &in);
	if (r < 0)
		printf("drvbench: nic_ctl open: error %ld\n", r);
	return (int)r;
}

/* Table 2: one frame at a time to a requester waiting in nic_recv. */
static int bench_irq(void)
{
	struct samples handler, wake, total;
	if (samples_init(&handler, IRQ_FRAMES) < 0 || samples_init(&wake, IRQ_FRAMES) < 0 ||
	    samples_init(&total, IRQ_FRAMES) < 0 || open_rtl() < 0)
		return -1;
	struct hako_traffic one = { .dst = rtl, .cpu = 0, .len = FRAME, .per_period = 1,
				    .period_ns = 200000, .count = 1, .burst = 1 };
	struct hako_drvproc_stat a = stat(rtl), b;
	for (int i = 0; i < IRQ_FRAMES + 5; i++) {
		if (i == 5)
			a = stat(rtl);
		if (i >= 5)
			mark_begin(DRVSW_IRQ);
		long r = sys_nic_traffic(e1k, &one);
		if (r == 0)
			r = sys_nic_recv(rtl, buf, sizeof buf, 0);
		uint64_t now = tsc_now();
		if (i >= 5)
			mark_end(DRVSW_IRQ);
		if (r < 0) {
			printf("drvbench: frame %d: error %ld\n", i, r);
			return -1;
		}
		b = stat(rtl);
		if (i < 5)
			continue;
		samples_add(&handler, b.last_done_tsc - b.last_irq_tsc);
		samples_add(&wake, now - b.last_done_tsc);
		samples_add(&total, now - b.last_irq_tsc);
	}
	sys_nic_ctl(rtl, HAKO_NIC_CLOSE, NULL);
	bench_report(fig("irq_handler"), &handler, "interrupt entry to handler done");
	bench_report(fig("irq_wake"), &wake, "handler done to requester running");
	bench_report_region(fig("irq_path"), &total, "interrupt entry to requester running",
			    region_of(DRVSW_IRQ), IRQ_FRAMES);
	switches(fig("irq_path"), &a, &b, IRQ_FRAMES);
	samples_free(&handler);
	samples_free(&wake);
	samples_free(&total);
	return 0;
}

/* Throughput: FLOOD frames from the e1000's kernel sender, as fast as it goes. */
/* Times card's receive queue was full and held the card back (nic_ctl INFO). */
static uint64_t held(int card)
{
	struct hako_nic_info in;
	memset(&in, 0, sizeof in);
	return sys_nic_ctl(card, HAKO_NIC_INFO, &in) == 0 ? in.held : 0;
}

static int bench_frames(void)
{
	if (open_rtl() < 0)
		return -1;
	struct hako_traffic flood = { .dst = rtl, .cpu = 0, .len = FRAME, .per_period = 16,
				      .period_ns = 100000, .count = FLOOD, .burst = 16 };
	struct hako_drvproc_stat a = stat(rtl);
	uint64_t held0 = held(rtl);
	long t0 = sys_clock();
	uint64_t c0 = tsc_now();
	mark_begin(DRVSW_FRAMES);
	long r = sys_nic_traffic(e1k, &flood);
	int got = 0;
	while (r == 0 && got < FLOOD) {
		r = sys_nic_recv(rtl, buf, sizeof buf, 0);
		if (r > 0) {
			got++;
			r = 0;
		}
	}
	mark_end(DRVSW_FRAMES);
	uint64_t c1 = tsc_now();
	long t1 = sys_clock();
	struct hako_drvproc_stat b = stat(rtl);
	uint64_t held1 = held(rtl);
	sys_nic_traffic(e1k, NULL);
	sys_nic_ctl(rtl, HAKO_NIC_CLOSE, NULL);
	if (r < 0) {
		printf("drvbench: flood: error %ld after %d frames\n", r, got);
		return -1;
	}
	uint64_t ns = (uint64_t)(t1 - t0), per = (c1 - c0) / FLOOD;
	uint64_t fps = ns ? (uint64_t)FLOOD * 1000000000ull / ns : 0;
	result_line("{\"kind\":\"drvproc\",\"figure\":\"%s\",\"placement\":\"%s\",\"frames\":%d,"
		    "\"ns\":%" PRIu64 ",\"frames_per_s\":%" PRIu64 ",\"per_frame\":%" PRIu64 ",\"held\":%" PRIu64 ",\"region\":%d,\"iters\":%d}",
		    fig("frames"), where[placement], FLOOD, ns, fps, per, held1 - held0,
		    region_of(DRVSW_FRAMES), FLOOD);
	printf("drvbench: frames (%s): %d frames in %" PRIu64 " us of guest time: %" PRIu64 " frames/s, %" PRIu64 " instructions/frame\n",
	       where[placement], FLOOD, ns / 1000, fps, per);
	switches(fig("frames"), &a, &b, FLOOD);
	return 0;
}

int main(void)
{
	bench_set_program("drvbench");
	if (find_cards() < 0) {
		printf("drvbench: needs the RTL8139 and the e1000 (boot with --net hub)\n");
		return 1;
	}
	placement = stat(rtl).placement;
	if (placement < 0 || placement > 3)
		placement = 0;
	static const char *how[] = { "in the kernel", "as a process (drvproc=)",
				     "in the kernel, an address-space switch inserted (drvswitch=on)",
				     "as a process in supervisor mode (drvproc=, drvmode=super)" };
	printf("drvbench: the RTL8139's driver runs %s\n", how[placement]);
	if (bench_call() < 0 || bench_copy(4) < 0 || bench_copy(1514) < 0 || bench_irq() < 0 ||
	    bench_frames() < 0)
		return 1;
	bench_summary(NULL, 0);
	return 0;
}
