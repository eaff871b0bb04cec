/*
 * intrbench/interference.c — part 3, the paper's Fig. 6: a compute loop
 * on CPU 1 counts its iterations for 1 s of guest time while a process of
 * higher priority on the same CPU receives 1..10 frames (interrupts) per
 * 10 ms, sequential and packed, plus the baseline without any I/O; the
 * loop counts and the improvement of packed over sequential in %.
 *
 * As in the paper the packed batch runs at the 10 ms tick (N 32, no T),
 * so each batch holds the k interrupts of one tick period.  The receiver
 * is a process of its own (`intrbench --receive COUNT`): it opens the
 * RTL8139 with its interrupts on CPU 1 and takes COUNT frames, blocking
 * between them.  The compute loop is this program's main thread, moved to
 * CPU 1 at a lower priority for the second it counts.
 *
 * Under icount the second is 10^9 instructions of all CPUs together:
 * what the loop does not get went to interrupts, to the receiver, or to
 * CPU 0 (the kernel sender, the same in both modes).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "intrbench.h"

#define LOOP_NS     1000000000ull    /* the paper's 1 s */
#define K_MAX       10
#define INNER       200              /* LCG steps per counted loop */

static volatile uint64_t sink;

uint64_t count_loops(uint64_t ticks)
{
	uint64_t end = tsc_now() + ticks, loops = 0, x = loops + 1;
	while (tsc_now() < end) {
		for (int i = 0; i < INNER; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		sink = x;
		loops++;
		cpu_pause();                   /* lets QEMU run CPU 0's timers on time (icount) */
	}
	return loops;
}

/* `intrbench --receive COUNT`: open the card on CPU 1, take COUNT frames. */
int receiver_main(uint64_t count)
{
	uint8_t frame[HAKO_NIC_FRAME_MAX];
	struct hako_nic_info in = { .cpu = RX_CPU };
	pin(RX_CPU, 9);
	if (sys_nic_ctl(env.rtl, HAKO_NIC_OPEN, &in) < 0)
		return 2;
	uint64_t got = 0;
	while (got < count) {
		long n = sys_nic_recv(env.rtl, frame, sizeof frame, 0);
		if (n < 0)
			return 3;
		got++;
	}
	sys_nic_ctl(env.rtl, HAKO_NIC_CLOSE, NULL);
	return 0;
}

int receiver_spawn(uint64_t count)
{
	char arg[24];
	snprintf(arg, sizeof arg, "%" PRIu64, count);
	char *argv[] = { "intrbench", "--receive", arg, NULL };
	int pid = spawnv("intrbench", argv);
	if (pid < 0)
		return fail("spawn receiver", pid);
	struct hako_nic_info in;
	while (sys_nic_ctl(env.rtl, HAKO_NIC_INFO, &in) == 0 && in.owner != pid)
		sleep_ms(1);                   /* until it has the card */
	return pid;
}

int receiver_wait(int pid)
{
	int status;
	waitpid(pid, &status);
	return status == 0 ? 0 : fail("receiver", -status);
}

/* The loop count for one second with k frames per 10 ms (k = 0: no I/O). */
static int one_case(uint32_t k, uint64_t *loops)
{
	uint64_t frames = k * (LOOP_NS / PERIOD_NS + 2);
	int pid = 0;
	if (k) {
		pid = receiver_spawn(frames);
		if (pid < 0 || traffic_start(k, PERIOD_NS, frames))
			return 1;
	}
	pin(RX_CPU, 7);
	*loops = count_loops(LOOP_NS);
	pin(SEND_CPU, 8);
	if (k && receiver_wait(pid))
		return 1;
	traffic_wait();
	return 0;
}

int part_interference(void)
{
	printf("\nintrbench: part 3, interference (Fig. 6): loops in 1 s on CPU 1 with k interrupts "
	       "per 10 ms\n");
	sys_nic_ctl(env.rtl, HAKO_NIC_CLOSE, NULL);        /* the receiver process opens it */
	uint64_t base, seq[K_MAX + 1], pack[K_MAX + 1];
	if (set_sequential() || one_case(0, &base))
		return 1;
	printf("intrbench: no I/O: %" PRIu64 " loops\n", base);
	result_line("{\"kind\":\"intr-interference\",\"k\":0,\"mode\":\"none\",\"loops\":%" PRIu64 "}", base);
	printf("   k  sequential      packed   improvement   loops lost (seq, packed)  cut\n");
	for (uint32_t k = 1; k <= K_MAX; k++) {
		if (set_sequential() || one_case(k, &seq[k]) || set_packed(32, 0, true) ||
		    one_case(k, &pack[k]))
			return 1;
		long imp = ((long)pack[k] - (long)seq[k]) * 100000 / (long)seq[k];
		long lost_s = (long)base - (long)seq[k], lost_p = (long)base - (long)pack[k];
		long less = lost_s > 0 ? (lost_s - lost_p) * 100 / lost_s : 0;
		printf("  %2u  %10" PRIu64 "  %10" PRIu64 "   %s%ld.%03ld %%     %6ld  %6ld   %3ld %%\n", k, seq[k], pack[k],
		       imp < 0 ? "-" : "", (imp < 0 ? -imp : imp) / 1000, (imp < 0 ? -imp : imp) % 1000,
		       lost_s, lost_p, less);
		result_line("{\"kind\":\"intr-interference\",\"k\":%u,\"mode\":\"sequential\",\"loops\":%" PRIu64 "}",
			    k, seq[k]);
		result_line("{\"kind\":\"intr-interference\",\"k\":%u,\"mode\":\"packed\",\"loops\":%" PRIu64 ","
			    "\"improvement_x1000\":%ld,\"loss_cut_pct\":%ld}", k, pack[k], imp, less);
	}
	set_sequential();
	return open_card(env.rtl, RX_CPU);
}
