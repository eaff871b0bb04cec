/*
 * test_mpio.c — paper 001's two switches on the block devices (blk_ctl
 * HAKO_BLK_SET; kernel/mpio/): every device in every drive mode and
 * delivery policy, with worker processes pinned to the CPUs writing and
 * reading back checked data, and the per-CPU counters proving where
 * commands were issued and interrupts taken.  Also: the funnel moves a
 * caller to CPU 0 and back, issuer completes alone requests on their
 * issuing CPU, idle/busiest/load follow what the CPUs run, broadcast
 * reaches every CPU with one completion per request, and switching while
 * workers run loses no request.
 *
 * Only the upper half of a device is written (as test_blk.c does); every
 * test leaves the devices symmetric, policy master, testdev at 17 ms.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include <arch/tsc.h>
#include <hako_blk.h>
#include "blkdevs.h"

#define BS         HAKO_BLK_SIZE
#define FAST_US    300               /* testdev's delay in these tests */
#define SLOW_US    17000             /* and what it is otherwise */

static const char *const policy_names[HAKO_BLK_POLICIES] = {
	"master", "fixed", "issuer", "idle", "busiest", "broadcast", "load",
};

static int find_dev(const char *name)
{
	struct hako_blk_info in;
	return blk_find(name, &in);
}

static long set(int dev, int mode, int policy, int fixed)
{
	struct hako_blk_set s = { mode, policy, fixed, 0 };
	return sys_blk_ctl(dev, HAKO_BLK_SET, &s);
}

/* Back to how the kernel starts: symmetric, master (where there is an interrupt), 17 ms. */
static void restore(int dev)
{
	struct hako_blk_info in;
	if (sys_blk_ctl(dev, HAKO_BLK_INFO, &in) < 0)
		return;
	set(dev, HAKO_BLK_SYMMETRIC, in.has_irq ? HAKO_BLK_MASTER : HAKO_BLK_KEEP, HAKO_BLK_KEEP);
	if (in.delay_us)
		sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)SLOW_US);
}

/* The testdev runs fast in these tests. */
static void speed_up(int dev)
{
	struct hako_blk_info in;
	if (sys_blk_ctl(dev, HAKO_BLK_INFO, &in) == 0 && in.delay_us)
		sys_blk_ctl(dev, HAKO_BLK_DELAY, (void *)FAST_US);
}

uint64_t blk_sum(const uint64_t *v)
{
	uint64_t s = 0;
	for (int c = 0; c < HAKO_BLK_CPUS; c++)
		s += v[c];
	return s;
}

/*
 * A worker pinned to CPU argv[0]: blocks argv[2] .. +argv[3] of device
 * argv[1], argv[4] rounds, each block written then read back and
 * compared, argv[5] µs asleep after each call.  Every call must return on
 * the worker's CPU (exit 3 if not: the funnel did not bring it back).
 */
UROLE(mpio_worker)
{
	static uint8_t out[BS], in[BS];
	int cpu = atoi(argv[0]), dev = atoi(argv[1]), count = atoi(argv[3]), rounds = atoi(argv[4]);
	uint64_t first = (uint64_t)atol(argv[2]), gap_ns = (uint64_t)atol(argv[5]) * 1000;
	if (sys_set_affinity(0, 1ull << cpu) < 0 || sys_migrate(cpu) < 0 ||
	    blk_open_number(dev) < 0)
		return 2;
	for (int r = 0; r < rounds; r++) {
		for (int b = 0; b < count; b++) {
			uint64_t block = first + (uint64_t)b;
			blk_pattern(out, dev, block, (uint32_t)(cpu * 1000 + r));
			if (sys_blk_write(dev, block * BS, out, BS) != BS)
				return 1;
			if (sys_getcpu() != cpu)
				return 3;
			if (gap_ns)
				sleep_ns(gap_ns);
			memset(in, 0, BS);
			if (sys_blk_read(dev, block * BS, in, BS) != BS)
				return 1;
			if (sys_getcpu() != cpu)
				return 3;
			if (memcmp(in, out, BS) != 0)
				return 4;
			if (gap_ns)
				sleep_ns(gap_ns);
		}
	}
	return 0;
}

/* Start a worker on each CPU of cpus[] (n of them), each on its own blocks of dev. */
int mpio_start(struct run *run, int dev, const int *cpus, int n, int count, int rounds, int gap_us)
{
	struct hako_blk_info in;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
	uint64_t first = in.blocks / 2;
	CHECK((uint64_t)(n * count) <= in.blocks / 2, "%s: too small for %d workers", in.name, n);
	for (int w = 0; w < n; w++) {
		char c[8], d[8], f[24], k[8], r[8], g[12];
		snprintf(c, sizeof c, "%d", cpus[w]);
		snprintf(d, sizeof d, "%d", dev);
		snprintf(f, sizeof f, "%lu", (unsigned long)(first + (uint64_t)(w * count)));
		snprintf(k, sizeof k, "%d", count);
		snprintf(r, sizeof r, "%d", rounds);
		snprintf(g, sizeof g, "%d", gap_us);
		run->pids[run->n] = spawn_role("mpio_worker", c, d, f, k, r, g, NULL);
		CHECK(run->pids[run->n] > 0, "spawn %d", run->pids[run->n]);
		run->n++;
	}
	return 0;
}

int mpio_finish(struct run *run)
{
	int bad = 0;
	for (int w = 0; w < run->n; w++) {
		int status;
		CHECK_EQ(sys_wait(run->pids[w], &status), run->pids[w]);
		if (status != 0 && !bad)
			bad = status;
	}
	run->n = 0;
	CHECK(bad == 0, "a worker ended %d (1 I/O failed, 3 came back on another CPU, 4 data differ)", bad);
	return 0;
}

/* One worker on each of the first four CPUs (fewer CPUs: shared). */
static int cpus4[4];
static void four_cpus(void)
{
	for (int w = 0; w < 4; w++)
		cpus4[w] = w % online_cpus();
}

/* Every request accounted for: issued and completed once each, none failed. */
int mpio_accounted(const struct hako_blk_info *in, uint64_t requests)
{
	CHECK(in->reads + in->writes == requests, "%s: %lu requests done, expected %lu", in->name,
	      (unsigned long)(in->reads + in->writes), (unsigned long)requests);
	CHECK_EQ(in->errors, 0);
	CHECK(blk_sum(in->issued) == requests, "%s: issued %lu", in->name, (unsigned long)blk_sum(in->issued));
	CHECK(blk_sum(in->completed) == requests, "%s: completed %lu of %lu", in->name,
	      (unsigned long)blk_sum(in->completed), (unsigned long)requests);
	return 0;
}

/* All of the device's interrupts and completions on cpu; none left as a
 * leftover (only the policies that move the interrupt at each submit leave
 * one to the target). */
static int all_on(const struct hako_blk_info *in, int cpu, const char *why)
{
	CHECK(blk_sum(in->left) == 0, "%s %s: %lu interrupts left to a target", in->name, why,
	      (unsigned long)blk_sum(in->left));
	CHECK(in->interrupts[cpu] > 0 && in->interrupts[cpu] == blk_sum(in->interrupts),
	      "%s %s: %lu of %lu interrupts on cpu %d", in->name, why,
	      (unsigned long)in->interrupts[cpu], (unsigned long)blk_sum(in->interrupts), cpu);
	CHECK(in->completed[cpu] == blk_sum(in->completed), "%s %s: %lu of %lu completions on cpu %d",
	      in->name, why, (unsigned long)in->completed[cpu], (unsigned long)blk_sum(in->completed), cpu);
	return 0;
}

/* Broadcast: every online CPU took each interrupt, losers counted, one completion each. */
static int broadcast_ok(const struct hako_blk_info *in)
{
	int n = online_cpus();
	uint64_t each = in->interrupts[0];
	CHECK(each > 0, "%s: no interrupt on cpu 0", in->name);
	for (int c = 1; c < n; c++)
		CHECK(in->interrupts[c] == each, "%s broadcast: cpu %d took %lu interrupts, cpu 0 %lu",
		      in->name, c, (unsigned long)in->interrupts[c], (unsigned long)each);
	uint64_t runs = blk_sum(in->interrupts) - blk_sum(in->lost);
	CHECK(runs >= 1 && runs <= each, "%s broadcast: %lu handler runs for %lu interrupts", in->name,
	      (unsigned long)runs, (unsigned long)each);
	if (n > 1)
		CHECK(blk_sum(in->lost) >= (uint64_t)(n - 1) * each, "%s broadcast: only %lu races lost",
		      in->name, (unsigned long)blk_sum(in->lost));
	return 0;
}

static int fixed_cpu(void) { int n = online_cpus(); return n > 2 ? 2 : n - 1; }

TEST_NEEDS(mpio_ctl_checks_its_arguments, needs_testdev)
{
	int td = find_dev("testdev0"), rd = find_dev("ramdisk0");
	CHECK(td >= 0 && rd >= 0, "testdev0 %d, ramdisk0 %d", td, rd);
	struct hako_blk_info in;
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &in), 0);
	CHECK(in.mode == HAKO_BLK_SYMMETRIC && in.policy == HAKO_BLK_MASTER && in.has_irq == 1 &&
	      in.target == 0, "testdev0 starts mode %d policy %d irq %d target %d", in.mode, in.policy,
	      in.has_irq, in.target);
	CHECK_EQ(sys_blk_ctl(rd, HAKO_BLK_INFO, &in), 0);
	CHECK(in.has_irq == 0 && in.target == -1, "ramdisk0: irq %d target %d", in.has_irq, in.target);

	struct hako_blk_set s = { HAKO_BLK_KEEP, HAKO_BLK_KEEP, HAKO_BLK_KEEP, 0 };
	CHECK_EQ(sys_blk_ctl(99, HAKO_BLK_SET, &s), -ENODEV);
	CHECK_EQ(sys_blk_ctl(-1, HAKO_BLK_SET, &s), -ENODEV);
	CHECK_EQ(sys_blk_ctl(99, HAKO_BLK_RESET, NULL), -ENODEV);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_SET, NULL), -EFAULT);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_SET, (void *)0xffff800000000000ull), -EFAULT);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_SET, &s), 0);            /* keep everything */
	CHECK_EQ(set(td, 2, HAKO_BLK_KEEP, HAKO_BLK_KEEP), -EINVAL);
	CHECK_EQ(set(td, -2, HAKO_BLK_KEEP, HAKO_BLK_KEEP), -EINVAL);
	CHECK_EQ(set(td, HAKO_BLK_KEEP, HAKO_BLK_POLICIES, HAKO_BLK_KEEP), -EINVAL);
	CHECK_EQ(set(td, HAKO_BLK_KEEP, -2, HAKO_BLK_KEEP), -EINVAL);
	CHECK_EQ(set(td, HAKO_BLK_KEEP, HAKO_BLK_KEEP, online_cpus()), -EINVAL);
	CHECK_EQ(set(td, HAKO_BLK_KEEP, HAKO_BLK_KEEP, HAKO_BLK_CPUS), -EINVAL);
	CHECK_EQ(set(td, HAKO_BLK_KEEP, HAKO_BLK_KEEP, -5), -EINVAL);
	s.iop = 3;
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_SET, &s), -EINVAL);
	/* Checked before anything is done: a valid mode beside a bad policy changes nothing. */
	CHECK_EQ(set(td, HAKO_BLK_FUNNEL, 99, HAKO_BLK_KEEP), -EINVAL);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &in), 0);
	CHECK_EQ(in.mode, HAKO_BLK_SYMMETRIC);
	/* The ramdisk has no interrupt: modes apply, policies do not. */
	CHECK_EQ(set(rd, HAKO_BLK_KEEP, HAKO_BLK_MASTER, HAKO_BLK_KEEP), -EINVAL);
	CHECK_EQ(set(rd, HAKO_BLK_FUNNEL, HAKO_BLK_KEEP, HAKO_BLK_KEEP), 0);
	CHECK_EQ(set(rd, HAKO_BLK_SYMMETRIC, HAKO_BLK_KEEP, HAKO_BLK_KEEP), 0);
	/* Funnelled, the interrupt goes to the master whatever is set. */
	CHECK_EQ(set(td, HAKO_BLK_FUNNEL, HAKO_BLK_FIXED, fixed_cpu()), 0);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &in), 0);
	CHECK(in.mode == HAKO_BLK_FUNNEL && in.policy == HAKO_BLK_FIXED && in.effective == HAKO_BLK_MASTER &&
	      in.fixed_cpu == fixed_cpu() && in.target == 0, "funnel+fixed: mode %d policy %d effective %d "
	      "fixed %d target %d", in.mode, in.policy, in.effective, in.fixed_cpu, in.target);
	CHECK_EQ(set(td, HAKO_BLK_SYMMETRIC, HAKO_BLK_KEEP, HAKO_BLK_KEEP), 0);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &in), 0);
	CHECK(in.effective == HAKO_BLK_FIXED && in.target == fixed_cpu(), "symmetric+fixed: effective %d "
	      "target %d", in.effective, in.target);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_RESET, NULL), 0);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_INFO, &in), 0);
	CHECK(in.reads == 0 && in.writes == 0 && blk_sum(in.issued) == 0 && blk_sum(in.interrupts) == 0,
	      "counters left after reset");
	restore(td);
	return 0;
}

/*
 * Set dev to mode and policy (fixed: fixed_cpu()), zero its counters, run
 * a worker on each of four CPUs (count blocks, rounds, gap_us asleep after
 * each call) and read the counters into in.  The caller restores dev.
 */
static int four_workers(int dev, int mode, int policy, int count, int rounds, int gap_us,
			struct hako_blk_info *in)
{
	speed_up(dev);
	CHECK_EQ(set(dev, mode, policy, policy == HAKO_BLK_FIXED ? fixed_cpu() : HAKO_BLK_KEEP), 0);
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_RESET, NULL), 0);
	struct run run = { .n = 0 };
	four_cpus();
	if (mpio_start(&run, dev, cpus4, 4, count, rounds, gap_us) || mpio_finish(&run))
		return 1;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, in), 0);
	return mpio_accounted(in, (uint64_t)(4 * count * rounds * 2));
}

/* Workers on four CPUs, then what the mode and policy promise. */
static int one_setting(int dev, int mode, int policy)
{
	struct hako_blk_info in;
	if (four_workers(dev, mode, policy, 2, 1, 0, &in))
		return 1;
	if (mode == HAKO_BLK_FUNNEL) {
		CHECK(in.issued[0] == blk_sum(in.issued), "%s funnel: %lu of %lu submits on cpu 0", in.name,
		      (unsigned long)in.issued[0], (unsigned long)blk_sum(in.issued));
		return in.has_irq ? all_on(&in, 0, "funnel") : 0;
	}
	if (!in.has_irq)
		return 0;
	if (policy == HAKO_BLK_MASTER)
		return all_on(&in, 0, "master");
	if (policy == HAKO_BLK_FIXED)
		return all_on(&in, fixed_cpu(), "fixed");
	bool timed = strncmp(in.name, "testdev", 7) == 0;   /* a disk's completions come when the host's do */
	if (policy == HAKO_BLK_BROADCAST && timed)
		return broadcast_ok(&in);
	if (policy == HAKO_BLK_BROADCAST) {
		/* Close interrupts can share one relay IPI on a CPU: every CPU took some. */
		for (int c = 0; c < online_cpus(); c++)
			CHECK(in.interrupts[c] > 0, "%s broadcast: cpu %d took none", in.name, c);
		return 0;
	}
	/* Every alone request on its issuer, the disks' too: a leftover MSI
	 * (QEMU's AHCI sends one per command, each where the interrupt pointed
	 * then) no longer completes a request issued alone elsewhere
	 * (delivery.c: leftover). */
	if (policy == HAKO_BLK_ISSUER)
		CHECK(in.solo_on_issuer == in.solo, "%s issuer: %lu of %lu alone requests on their issuer "
		      "(%lu interrupts left)", in.name, (unsigned long)in.solo_on_issuer,
		      (unsigned long)in.solo, (unsigned long)blk_sum(in.left));
	CHECK(blk_sum(in.interrupts) > 0, "%s %s: no interrupt", in.name, policy_names[policy]);
	return 0;
}

TEST(mpio_every_device_in_every_mode_and_policy)
{
	for (int dev = 0; dev < blk_ndevs(); dev++) {
		struct hako_blk_info in;
		CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, &in), 0);
		speed_up(dev);
		for (int mode = HAKO_BLK_SYMMETRIC; mode <= HAKO_BLK_FUNNEL; mode++) {
			int policies = in.has_irq ? HAKO_BLK_POLICIES : 1;
			for (int p = 0; p < policies; p++) {
				int err = one_setting(dev, mode, in.has_irq ? p : HAKO_BLK_KEEP);
				if (err) {
					restore(dev);
					CHECK(0, "%s: mode %s, policy %s failed", in.name,
					      mode ? "funnel" : "symmetric", in.has_irq ? policy_names[p] : "n/a");
				}
			}
		}
		restore(dev);
	}
	return 0;
}

TEST_NEEDS(mpio_funnel_submits_on_the_master_and_returns_home, needs_testdev)
{
	const char *names[] = { "ramdisk0", "testdev0" };
	for (int i = 0; i < 2; i++) {
		int dev = find_dev(names[i]);
		CHECK(dev >= 0, "no %s", names[i]);
		struct hako_blk_info in;
		int err = four_workers(dev, HAKO_BLK_FUNNEL, HAKO_BLK_KEEP, 4, 2, 0, &in);
		restore(dev);
		CHECK(!err, "%s: the workers failed (exit 3: not back on their CPU)", names[i]);
		CHECK(in.issued[0] == 64, "%s: %lu of 64 submits on cpu 0", in.name, (unsigned long)in.issued[0]);
		/* The ramdisk completes in its submit, so on cpu 0 too; as a driver
		 * process (drvproc=ramdisk) it completes where that process runs. */
		CHECK(in.in_process || in.completed[0] == 64, "%s: %lu of 64 completions on cpu 0", in.name,
		      (unsigned long)in.completed[0]);
	}
	return 0;
}

/* One worker after another on four CPUs under policy: every request is alone. */
static int one_by_one(int dev, int policy, struct hako_blk_info *in)
{
	speed_up(dev);
	CHECK_EQ(set(dev, HAKO_BLK_SYMMETRIC, policy, HAKO_BLK_KEEP), 0);
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_RESET, NULL), 0);
	struct run run = { .n = 0 };
	four_cpus();
	for (int w = 0; w < 4; w++)
		if (mpio_start(&run, dev, cpus4 + w, 1, 2, 2, 0) || mpio_finish(&run))
			return 1;
	CHECK_EQ(sys_blk_ctl(dev, HAKO_BLK_INFO, in), 0);
	return mpio_accounted(in, 4 * 2 * 2 * 2);
}

/* The issuer checks on one device with an interrupt the policies move. */
static int issuer_alone(int dev)
{
	struct hako_blk_info in;
	/* At once, back to back: the requests overlap, the interrupt moves at
	 * each submit and MSIs arrive where it pointed before (a disk: one per
	 * command); the few alone requests still complete on their issuer. */
	int err = four_workers(dev, HAKO_BLK_SYMMETRIC, HAKO_BLK_ISSUER, 2, 2, 0, &in);
	restore(dev);
	CHECK(!err, "issuer run failed");
	CHECK(in.solo_on_issuer == in.solo, "%s at once: %lu of %lu alone requests on their issuer, "
	      "%lu interrupts left", in.name, (unsigned long)in.solo_on_issuer, (unsigned long)in.solo,
	      (unsigned long)blk_sum(in.left));
	/* At once, 3 ms asleep after each call: some requests are alone (how many
	 * depends on how the vCPUs run; on 2 CPUs, often none). */
	err = four_workers(dev, HAKO_BLK_SYMMETRIC, HAKO_BLK_ISSUER, 2, 2, 3000, &in);
	restore(dev);
	CHECK(!err, "issuer run failed");
	CHECK(in.solo_on_issuer == in.solo, "%s: %lu of %lu alone requests completed on their issuer",
	      in.name, (unsigned long)in.solo_on_issuer, (unsigned long)in.solo);
	/* One worker after another: every request alone, every one on its issuer ... */
	err = one_by_one(dev, HAKO_BLK_ISSUER, &in);
	restore(dev);
	CHECK(!err, "sequential issuer run failed");
	CHECK(in.solo == 32 && in.solo_on_issuer == 32, "%s sequential issuer: %lu of %lu on the issuer",
	      in.name, (unsigned long)in.solo_on_issuer, (unsigned long)in.solo);
	for (int c = 0; c < online_cpus() && c < 4; c++)
		CHECK(in.interrupts[c] > 0 && in.completed[c] == in.issued[c], "%s issuer: cpu %d issued %lu, "
		      "completed %lu, took %lu interrupts", in.name, c, (unsigned long)in.issued[c],
		      (unsigned long)in.completed[c], (unsigned long)in.interrupts[c]);
	/* ... and the counter can tell: under master only CPU 0's are. */
	err = one_by_one(dev, HAKO_BLK_MASTER, &in);
	restore(dev);
	CHECK(!err, "sequential master run failed");
	CHECK(in.solo == 32 && in.solo_on_issuer == in.issued[0], "%s sequential master: %lu of %lu on "
	      "the issuer, %lu issued on cpu 0", in.name, (unsigned long)in.solo_on_issuer,
	      (unsigned long)in.solo, (unsigned long)in.issued[0]);
	return 0;
}

/* testdev0, and ahci0 where the boot has one (--disk ahci|both): its MSIs
 * come when QEMU's host threads finish the commands, one per command.  A
 * disk whose driver is a process (drvproc=ahci) is left out: its interrupt
 * goes to that process, where the kernel's delivery policies do not move it. */
TEST_NEEDS(mpio_issuer_completes_alone_requests_on_the_issuing_cpu, needs_testdev)
{
	struct hako_blk_info din;
	int td = find_dev("testdev0"), disk = blk_find("ahci0", &din);
	if (disk >= 0 && din.in_process)
		disk = -1;
	CHECK(td >= 0, "no testdev0");
	CHECK(issuer_alone(td) == 0, "testdev0 failed");
	CHECK(disk < 0 || issuer_alone(disk) == 0, "ahci0 failed");
	return 0;
}

TEST_NEEDS(mpio_broadcast_every_cpu_takes_each_interrupt, needs_testdev)
{
	int dev = find_dev("testdev0");
	CHECK(dev >= 0, "no testdev0");
	struct hako_blk_info in;
	int err = four_workers(dev, HAKO_BLK_SYMMETRIC, HAKO_BLK_BROADCAST, 4, 2, 0, &in);
	restore(dev);
	CHECK(!err, "workers failed");
	return broadcast_ok(&in);
}

/* Spins on CPU argv[0] at priority argv[1] until killed. */
UROLE(mpio_spinner)
{
	int cpu = atoi(argv[0]);
	if (sys_set_affinity(0, 1ull << cpu) < 0 || sys_migrate(cpu) < 0 || sys_setprio(0, atoi(argv[1])) < 0)
		return 2;
	for (;;)
		cpu_pause();
}

static int spin_on(int cpu, int prio)
{
	char c[8], p[8];
	snprintf(c, sizeof c, "%d", cpu);
	snprintf(p, sizeof p, "%d", prio);
	return spawn_role("mpio_spinner", c, p, NULL);
}

static const char *need_four_cpus(void)
{
	return online_cpus() >= 4 ? NULL : "needs 4 CPUs";
}

/* CPU 0 issues, CPU 1 is idle, CPUs 2 and 3 spin (3 at a higher priority). */
TEST_NEEDS(mpio_idle_busiest_and_load_follow_what_the_cpus_run, need_four_cpus)
{
	int dev = find_dev("testdev0");
	CHECK(dev >= 0, "no testdev0");
	int s2 = spin_on(2, 8), s3 = spin_on(3, 12);
	CHECK(s2 > 0 && s3 > 0, "spinners %d %d", s2, s3);
	sleep_ms(20);                            /* both spinning */
	speed_up(dev);
	const int policies[3] = { HAKO_BLK_IDLE, HAKO_BLK_BUSIEST, HAKO_BLK_LOAD };
	const int expect[3] = { 1, 3, 1 };
	struct hako_blk_info in[3];
	int err = 0;
	for (int i = 0; i < 3 && !err; i++) {
		const int zero = 0;
		struct run run = { .n = 0 };
		err = set(dev, HAKO_BLK_SYMMETRIC, policies[i], HAKO_BLK_KEEP) != 0 ||
		      sys_blk_ctl(dev, HAKO_BLK_RESET, NULL) != 0 ||
		      mpio_start(&run, dev, &zero, 1, 4, 2, 0) || mpio_finish(&run) ||
		      sys_blk_ctl(dev, HAKO_BLK_INFO, &in[i]) != 0;
	}
	restore(dev);
	sys_kill(s2);
	sys_kill(s3);
	sys_wait(s2, NULL);
	sys_wait(s3, NULL);
	CHECK(!err, "a run failed");
	for (int i = 0; i < 2; i++)
		if (mpio_accounted(&in[i], 16) || all_on(&in[i], expect[i], policy_names[policies[i]]))
			return 1;
	/* load reads the run queues at each submit: when CPU 1 briefly runs
	 * something (a disk boot's other interrupts and threads), a pick ties
	 * among busy CPUs on recent interrupts.  Mostly the idle CPU 1. */
	const struct hako_blk_info *l = &in[2];
	if (mpio_accounted(l, 16))
		return 1;
	CHECK(4 * l->interrupts[1] >= 3 * blk_sum(l->interrupts), "load: %lu of %lu interrupts on cpu 1",
	      (unsigned long)l->interrupts[1], (unsigned long)blk_sum(l->interrupts));
	return 0;
}

/* Workers on four CPUs on the testdev and the ramdisk while the settings keep changing. */
TEST_NEEDS(mpio_switching_while_workers_run_loses_no_request, needs_testdev)
{
	int td = find_dev("testdev0"), rd = find_dev("ramdisk0");
	CHECK(td >= 0 && rd >= 0, "testdev0 %d, ramdisk0 %d", td, rd);
	speed_up(td);
	CHECK_EQ(sys_blk_ctl(td, HAKO_BLK_RESET, NULL), 0);
	CHECK_EQ(sys_blk_ctl(rd, HAKO_BLK_RESET, NULL), 0);
	struct run run = { .n = 0 };
	four_cpus();
	int err = mpio_start(&run, td, cpus4, 4, 4, 3, 0) || mpio_start(&run, rd, cpus4, 4, 4, 12, 0);
	int switches = 0;
	for (int i = 0; i < 60 && !err; i++, switches++) {
		int policy = i % HAKO_BLK_POLICIES, mode = (i / 3) % 2;
		err = set(td, mode, policy, policy == HAKO_BLK_FIXED ? fixed_cpu() : HAKO_BLK_KEEP) != 0 ||
		      set(rd, 1 - mode, HAKO_BLK_KEEP, HAKO_BLK_KEEP) != 0;
		sleep_ns(700000);
	}
	err |= mpio_finish(&run);
	struct hako_blk_info t, r;
	sys_blk_ctl(td, HAKO_BLK_INFO, &t);
	sys_blk_ctl(rd, HAKO_BLK_INFO, &r);
	restore(td);
	restore(rd);
	CHECK(!err, "a worker or a switch failed after %d switches", switches);
	if (mpio_accounted(&t, 4 * 4 * 3 * 2) || mpio_accounted(&r, 4 * 4 * 12 * 2))
		return 1;
	return 0;
}
