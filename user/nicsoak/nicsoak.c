/*
 * nicsoak — the receiving end of the host-injected traffic soak:
 * boot with `./hako boot --mode tcg --net dgram -- nicsoak [MODE] [N]`.
 *
 * Opens the first network card, sets its interrupt handling to MODE
 * (sequential, packed: N 8, T 1 ms, tick; adaptive: bound 1 ms, tick;
 * unchanged if not given), prints "nicsoak: ready" — the harness's cue to
 * start sending — and takes frames with nic_recv until N (default 20000)
 * have arrived or none came for 2 s (5 s for the first).  Each frame is
 * checked against the format of tools/hakotool/soak.py: broadcast, source
 * 52:54:00:4b:4b:fe, type 0x88b6, then a little-endian sequence number, a
 * little-endian FNV-1a 32 of every other byte, and filler (seq + i) & 0xff.
 *
 * Prints a "soak" result line and a readable one.  Host timing decides
 * what arrives, so losses are reported, not failures: exit 0 unless a
 * frame was damaged or none came at all.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include <hako/thread.h>

#define FRAME_LEN   64
#define SOAK_TYPE   0x88b6
#define SEQ_AT      14
#define CHECK_AT    18
#define FILL_AT     22
#define FIRST_WAIT_NS 5000000000ull  /* for the first frame after "ready" */
#define IDLE_NS     2000000000ull     /* then: this long without a frame ends the run */
#define DEFAULT_N   20000

static const uint8_t src_mac[6] = { 0x52, 0x54, 0x00, 0x4b, 0x4b, 0xfe };
static const char *const modes[] = { "sequential", "packed", "adaptive" };

struct soak {
	int nic;
	uint64_t want;
	volatile uint64_t received, out_of_order, bad, highest, last_ns;
	volatile int seen_any;
	int64_t next;                      /* sequence number expected next */
};

static int fail(const char *what, long err)
{
	printf("nicsoak: %s: %s\n", what, err < 0 ? strerror((int)-err) : "bad argument");
	return 1;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t fnv1a(const uint8_t *p, size_t len, uint32_t h)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x01000193u;
	return h;
}

/* The frame's sequence number, or -1 if it is damaged (or not ours). */
static int64_t check_frame(const uint8_t *f, long len)
{
	if (len != FRAME_LEN || memcmp(f + 6, src_mac, 6) != 0)
		return -1;
	for (int i = 0; i < 6; i++)
		if (f[i] != 0xff)
			return -1;
	if ((f[12] << 8 | f[13]) != SOAK_TYPE)
		return -1;
	uint32_t h = fnv1a(f, CHECK_AT, 0x811c9dc5u);
	h = fnv1a(f + FILL_AT, FRAME_LEN - FILL_AT, h);
	if (h != le32(f + CHECK_AT))
		return -1;
	uint32_t seq = le32(f + SEQ_AT);
	for (int i = FILL_AT; i < FRAME_LEN; i++)
		if (f[i] != (uint8_t)(seq + i))
			return -1;
	return seq;
}

static void count_frame(struct soak *s, const uint8_t *f, long len)
{
	int64_t seq = check_frame(f, len);
	if (seq < 0) {
		s->bad++;
		return;
	}
	if (seq < s->next)
		s->out_of_order++;
	else
		s->next = seq + 1;
	if (!s->seen_any || (uint64_t)seq > s->highest)
		s->highest = (uint64_t)seq;
	s->seen_any = 1;
	s->received++;
}

/* The reader thread: until the card is closed under it. */
static void reader(void *arg)
{
	struct soak *s = arg;
	uint8_t frame[HAKO_NIC_FRAME_MAX];
	for (;;) {
		long n = sys_nic_recv(s->nic, frame, sizeof frame, 0);
		if (n == -EINTR)
			continue;
		if (n < 0)
			break;
		count_frame(s, frame, n);
		s->last_ns = clock_ns();
	}
}

/* -1 to leave the mode as it is, else HAKO_INTR_*; -2 for a bad word. */
static int parse_mode(const char *word)
{
	if (!word)
		return -1;
	for (int m = 0; m < 3; m++)
		if (strcmp(word, modes[m]) == 0)
			return m;
	return -2;
}

static int set_mode(int dev, int mode)
{
	struct hako_intr_set set = { .mode = mode };
	if (mode == HAKO_INTR_PACKED) {
		set.n = 8;
		set.t_ns = 1000000;
		set.flags = HAKO_INTR_TICK;
	} else if (mode == HAKO_INTR_ADAPTIVE) {
		set.bound_ns = 1000000;
		set.flags = HAKO_INTR_TICK;
	}
	long r = sys_intr_ctl(dev, HAKO_INTR_SET, &set);
	return r < 0 ? fail("intr_ctl set", r) : 0;
}

/* The card opened, its interrupts on the last CPU, in the mode asked for. */
static int open_card(int mode, struct hako_nic_info *in)
{
	struct hako_sysinfo si;
	long r = sys_sysinfo(&si);
	if (r < 0)
		return fail("sysinfo", r);
	in->cpu = (int32_t)si.ncpus - 1;
	r = sys_nic_ctl(0, HAKO_NIC_OPEN, in);
	if (r < 0)
		return fail("nic_ctl open (boot with --net dgram)", r);
	sys_nic_ctl(0, HAKO_NIC_INFO, in);
	return mode >= 0 ? set_mode(in->intr_dev, mode) : 0;
}

/* Until want frames arrived or the line went quiet. */
static void wait_done(struct soak *s)
{
	uint64_t start = clock_ns();
	for (;;) {
		sleep_ms(10);
		uint64_t now = clock_ns();
		if (s->received >= s->want)
			return;
		if (s->last_ns ? now - s->last_ns >= IDLE_NS : now - start >= FIRST_WAIT_NS)
			return;
	}
}

static void report(const struct soak *s, const struct hako_nic_info *in, const char *mode)
{
	int64_t lost = s->seen_any ? (int64_t)(s->highest + 1) - (int64_t)s->received : 0;
	result_line("{\"kind\":\"soak\",\"mode\":\"%s\",\"received\":%" PRIu64 ",\"lost\":%" PRId64 ","
		    "\"out_of_order\":%" PRIu64 ",\"bad\":%" PRIu64 ",\"highest\":%" PRId64 ",\"rx_dropped\":%" PRIu64 ","
		    "\"irqs\":%" PRIu64 ",\"held\":%" PRIu64 "}", mode, s->received, lost, s->out_of_order, s->bad,
		    s->seen_any ? (int64_t)s->highest : -1, in->rx_dropped, in->irqs, in->held);
	printf("nicsoak: %s: received %" PRIu64 " of seq 0..%" PRId64 ", lost %" PRId64 ", out of order %" PRIu64 ", "
	       "damaged %" PRIu64 "; card: %" PRIu64 " missed for ring space, %" PRIu64 " interrupts, queue full %" PRIu64 " times\n",
	       mode, s->received, s->seen_any ? (int64_t)s->highest : -1, lost, s->out_of_order,
	       s->bad, in->rx_dropped, in->irqs, in->held);
}

int main(int argc, char **argv)
{
	int mode = parse_mode(argc > 1 ? argv[1] : NULL);
	struct soak s = { .nic = 0, .want = argc > 2 ? strtoull(argv[2], NULL, 10) : DEFAULT_N };
	struct hako_nic_info in = { 0 };
	if (mode == -2 || s.want == 0) {
		printf("usage: nicsoak [sequential|packed|adaptive] [FRAMES]\n");
		return 2;
	}
	if (open_card(mode, &in))
		return 1;
	struct hako_intr_dev d;
	const char *mode_name = sys_intr_ctl(in.intr_dev, HAKO_INTR_GET, &d) == 0 &&
				d.set.mode >= 0 && d.set.mode <= 2 ? modes[d.set.mode] : "?";
	int tid = thread_start(reader, &s);
	if (tid < 0)
		return fail("thread_start", tid);
	printf("nicsoak: ready\n");
	wait_done(&s);
	sys_nic_ctl(0, HAKO_NIC_INFO, &in);
	sys_nic_ctl(0, HAKO_NIC_CLOSE, NULL);      /* wakes the reader */
	thread_join(tid);
	report(&s, &in, mode_name);
	return s.bad == 0 && s.received > 0 ? 0 : 1;
}
