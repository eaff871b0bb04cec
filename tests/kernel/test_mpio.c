/*
 * test_mpio.c — paper 001's delivery layer (kernel/mpio/delivery.c) in the
 * kernel, where a test can choose when each CPU takes an interrupt.
 *
 * A leftover interrupt under issuer: QEMU's AHCI sends an MSI for every
 * command it completes, each to where the interrupt pointed then, and a
 * handler completes every finished command, so MSIs arrive on CPUs whose
 * requests were already completed elsewhere.  One that arrived after a
 * new request, issued alone on another CPU, had finished, used to
 * complete it there: ahci0 under issuer completed up to 7 of 11 alone
 * requests off their issuer.  The test makes such an interrupt on the
 * testdev, deterministically: the issuing CPU holds its interrupts off
 * while its request finishes (its MSI waits there), and the device's
 * vector is sent to a third CPU by IPI, as the stale MSI was.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <blk.h>
#include <cpu.h>
#include <driver.h>
#include <drvenv.h>
#include <ktest.h>
#include <mpio.h>
#include <pmm.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>
#include <thread.h>
#include <time.h>
#include <arch/arch.h>

#define EDU_IRQ_STATUS 0x24             /* the edu's raised, unacknowledged bits (testdev.c) */
#define DELAY_US       5000             /* the testdev's service time here */
#define WAIT_NS        200000000ull     /* the longest any step may take */
#define ISSUER         1                /* R's CPU, which holds its interrupts off */
#define BYSTANDER      2                /* the CPU the leftover is sent to */

static struct leftover_run {
	struct blkdev *d;
	struct blk_req q, r;                /* q from CPU 0 (issued first), r from ISSUER */
	struct mpio_trip trip_q, trip_r;
	int err_q, err_r;
	volatile int step;                  /* 1 q issued, 2 r issued, 3 ISSUER holds, 4 let go */
	bool r_done_early;                  /* r finished before ISSUER held its interrupts */
	bool raised;                        /* r's interrupt was raised while ISSUER held them */
	bool timed_out;
	uint64_t left_running, ran_running; /* leftover sent while q was in flight: left, ran */
	uint64_t left_alone;                /* ... and while r alone was in flight: left */
} run;

static struct blkdev *testdev(void)
{
	for (int i = 0; i < blk_count(); i++)
		if (strcmp(blk_get(i)->name, "testdev0") == 0)
			return blk_get(i);
	return NULL;
}

static bool wait_step(int step, uint64_t deadline)
{
	while (run.step < step && time_ns() < deadline)
		sched_yield();
	return run.step >= step;
}

static bool wait_done(struct blk_req *r, uint64_t deadline)
{
	while (!r->done && time_ns() < deadline)
		sched_yield();
	return r->done;
}

/* What BYSTANDER's interrupts have ended in: left, found nothing, or completed something. */
static uint64_t outcomes(const struct mpio *m)
{
	return m->left[BYSTANDER] + m->empty[BYSTANDER] + run.d->completed[BYSTANDER];
}

/* The device's vector on BYSTANDER, as a stale MSI; false if it was not dealt with in time. */
static bool send_leftover(struct mpio *m, uint64_t *left, uint64_t *ran)
{
	uint64_t l = m->left[BYSTANDER], e = m->empty[BYSTANDER], done = run.d->completed[BYSTANDER];
	uint64_t seen = outcomes(m), deadline = time_ns() + WAIT_NS;
	smp_send_ipi(BYSTANDER, run.d->dev->irq_vector);
	while (outcomes(m) == seen && time_ns() < deadline)
		sched_yield();
	*left = m->left[BYSTANDER] - l;
	*ran = (m->empty[BYSTANDER] - e) + (run.d->completed[BYSTANDER] - done);
	return outcomes(m) != seen;
}

/* CPU 0: issues q, then sends the two leftovers. */
static void on_cpu0(void *arg)
{
	struct mpio *m = &run.d->mp;
	uint64_t deadline = time_ns() + 4 * WAIT_NS;
	run.err_q = mpio_submit(run.d, &run.q, &run.trip_q);   /* the testdev's timer runs here */
	pop_off();                              /* mpio_submit's: no wait lock to take here */
	run.step = 1;
	bool ok = run.err_q == 0 && wait_step(2, deadline) && run.err_r == 0;
	/* r moved the interrupt to ISSUER; q, issued before, may have been
	 * announced to CPU 0: an interrupt anywhere must run the handler. */
	ok = ok && send_leftover(m, &run.left_running, &run.ran_running);
	ok = ok && wait_step(3, deadline);
	struct drv_mmio regs;
	if (ok && drv_mmio(run.d->dev, 0, &regs) == 0) {
		while (!(drv_read32(&regs, EDU_IRQ_STATUS) & 1) && time_ns() < deadline)
			sched_yield();
		run.raised = drv_read32(&regs, EDU_IRQ_STATUS) & 1;
	}
	/* r finished and its MSI waits on ISSUER; only r is in flight. */
	uint64_t ran;
	ok = ok && run.raised && send_leftover(m, &run.left_alone, &ran);
	run.timed_out = !ok;
	run.step = 4;
}

/* ISSUER: issues r while q is in service, then holds its interrupts off until told. */
static void on_issuer(void *arg)
{
	uint64_t deadline = time_ns() + 4 * WAIT_NS;
	if (!wait_step(1, deadline))
		return;
	run.err_r = mpio_submit(run.d, &run.r, &run.trip_r);
	pop_off();
	run.step = 2;
	if (run.err_r || !wait_done(&run.q, deadline))   /* q's interrupt comes here now */
		return;
	uint64_t flags = arch_irq_save();
	run.r_done_early = run.r.done;
	run.step = 3;
	while (run.step < 4 && time_ns() < deadline)
		arch_spin_hint();
	arch_irq_restore(flags);
}

static void request(struct blk_req *r, uint64_t block, uint64_t pa)
{
	*r = (struct blk_req){ .dev = run.d, .block = block, .buf = phys_to_virt(pa), .buf_addr = pa };
	waitq_init(&r->wq, "ktest-mpio", LOCK_WAITQ);
}

TEST(issuer_leaves_a_leftover_interrupt_to_the_issuing_cpu)
{
	struct blkdev *d = testdev();
	if (!d)
		SKIP("no testdev0");
	uint64_t cpus = 1 | 1ull << ISSUER | 1ull << BYSTANDER;
	if ((sched_cpu_mask() & cpus) != cpus)
		SKIP("needs CPUs 0, 1 and 2 scheduling");
	CHECK(d->dev->irq == DRV_IRQ_MSI, "testdev0 has no MSI (irq kind %d)", d->dev->irq);
	CHECK(d->mp.mode == MPIO_SYMMETRIC && !d->mp.iop, "testdev0 is not symmetric");
	uint64_t delay = d->delay_us, pq = pmm_alloc(), pr = pmm_alloc();
	CHECK(pq && pr, "no frames");
	run = (struct leftover_run){ .d = d };
	request(&run.q, 0, pq);
	request(&run.r, 1, pr);
	d->ops->set_delay(d, DELAY_US);
	mpio_set(d, MPIO_KEEP, MPIO_POL_ISSUER, MPIO_KEEP);
	struct thread *t0 = thread_create("ktest-mpio0", on_cpu0, NULL, PRIO_DEFAULT, 1);
	struct thread *t1 = thread_create("ktest-mpio1", on_issuer, NULL, PRIO_DEFAULT, 1ull << ISSUER);
	CHECK(t0 && t1, "no threads");
	thread_start(t0);
	thread_start(t1);
	thread_join(t0);
	thread_join(t1);
	bool done = wait_done(&run.q, time_ns() + WAIT_NS) && wait_done(&run.r, time_ns() + WAIT_NS);
	mpio_set(d, MPIO_KEEP, MPIO_POL_MASTER, MPIO_KEEP);
	d->ops->set_delay(d, delay);
	CHECK(done, "q done %d, r done %d: a request was never completed", run.q.done, run.r.done);
	mpio_return(&run.trip_q);
	mpio_return(&run.trip_r);
	pmm_free(pq);
	pmm_free(pr);
	CHECK(run.err_q == 0 && run.err_r == 0, "submits failed: %d %d", run.err_q, run.err_r);
	CHECK(!run.r_done_early, "r finished before cpu %d held its interrupts: nothing shown", ISSUER);
	CHECK(!run.timed_out, "a step timed out (r raised %d)", run.raised);
	CHECK(run.left_running == 0 && run.ran_running == 1, "with q in flight from before the move, "
		 "the leftover was left %lu times, ran %lu", run.left_running, run.ran_running);
	CHECK(run.r.done_cpu == ISSUER, "r completed on cpu %d, its issuer is cpu %d", run.r.done_cpu, ISSUER);
	CHECK(run.left_alone == 1, "with r alone in flight, the leftover was not left (%lu)", run.left_alone);
	CHECK(run.r.status == 0 && run.q.status == 0, "status q %d r %d", run.q.status, run.r.status);
	return 0;
}
