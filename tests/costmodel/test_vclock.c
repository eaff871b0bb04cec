/*
 * test_vclock.c — per-vCPU virtual clocks (vclock.h): parallel work takes
 * the time of one vCPU's share, work serialised by a lock the sum, spun
 * and paused instructions count as waiting (a spin that began before the
 * hold in time does not wait for it), a device serves its requests in
 * issue order whatever order their marks came in, an interrupt's handler runs
 * when the interrupt was raised (a request done before its issuer slept
 * still holds it to the device's end), a thread woken in its vCPU's future runs
 * then while the others go on around it (an interrupt then runs through its
 * stretch; a semaphore unit stored in its future likewise), and a region's elapsed time runs
 * from its starter's clock to its ender's.
 */
#include "check.h"
#include "vclock.h"
#include "../../kernel/uapi/hako_region.h"

#define REGION 42
#define GBEGIN HAKO_REGION_DISP(HAKO_REGION_GLOBAL_BEGIN, REGION)
#define GEND HAKO_REGION_DISP(HAKO_REGION_GLOBAL_END, REGION)

/* Each vCPU's cumulative work; cycles are 3 per instruction here. */
static struct cm_work w[8];

static struct cm_work run(unsigned vcpu, uint64_t insns)
{
	w[vcpu].insns += insns;
	w[vcpu].cycles += 3 * insns;
	return w[vcpu];
}

static void reset(void)
{
	for (unsigned i = 0; i < 8; i++)
		w[i] = (struct cm_work){ 0, 0 };
}

/*
 * vCPU 0 starts the region, wakes k workers (vCPUs 1..k), each does its
 * share of `total` instructions of independent work and posts its end;
 * vCPU 0 waits for every one and ends the region.
 */
static struct cm_work fork_join(unsigned k, uint64_t total)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(k + 1);
	run(0, 5000);                                        /* before: not in the region */
	for (unsigned i = 1; i <= k; i++)
		run(i, 777 * i);                             /* idle work before, then halted */
	for (unsigned i = 0; i <= k; i++)
		cm_vclock_now(vc, i, run(i, 0));             /* as the plugin does before a GLOBAL_BEGIN */
	cm_vclock_region(vc, GBEGIN, 0, run(0, 1));
	for (unsigned i = 1; i <= k; i++)
		cm_vclock_post(vc, 0, run(0, 0), HAKO_SYNC_THREAD, 0x1000 + i);
	for (unsigned i = 1; i <= k; i++) {          /* under icount: one after another */
		cm_vclock_wait(vc, i, run(i, 0), HAKO_SYNC_THREAD, 0x1000 + i);
		cm_vclock_post(vc, i, run(i, total / k), HAKO_SYNC_CALL, 0x2000 + i);
	}
	for (unsigned i = 1; i <= k; i++)
		cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_CALL, 0x2000 + i);
	cm_vclock_region(vc, GEND, 0, run(0, 1));
	struct cm_work e = cm_vclock_elapsed(vc, REGION, 0);
	cm_vclock_free(vc);
	return e;
}

TEST(parallel_work_takes_one_share)
{
	struct cm_work one = fork_join(1, 60000), four = fork_join(4, 60000);
	CHECK_EQ(one.insns, 60001);
	CHECK_EQ(one.cycles, 3 * 60001);
	CHECK_EQ(four.insns, 15001);                 /* 1/4, plus the END marker */
	CHECK_EQ(four.cycles, 3 * 15001);
}

/* k vCPUs each run `section` instructions under one lock, contended: spinning meanwhile. */
TEST(a_serialised_lock_sums)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(4);
	const uint64_t L = 0xffff800000123000ull;
	cm_vclock_acquire(vc, 0, run(0, 10), L);
	for (unsigned i = 1; i < 4; i++)
		cm_vclock_spin_begin(vc, i, run(i, 10));
	for (unsigned i = 1; i < 4; i++)
		run(i, 500);                             /* spinning: not work */
	cm_vclock_release(vc, 0, run(0, 1000), L);
	for (unsigned i = 1; i < 4; i++) {
		cm_vclock_spin_end(vc, i, run(i, 3), L);
		cm_vclock_acquire(vc, i, run(i, 0), L);
		cm_vclock_release(vc, i, run(i, 1000), L);
	}
	/* vCPU 3 took it last: three holds before its own, each 1,000 after a 10-instruction start */
	CHECK_EQ(cm_vclock_now(vc, 3, run(3, 0)).insns, 4010);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 2010);
	cm_vclock_free(vc);
}

TEST(an_acquire_after_the_hold_ended_does_not_wait)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	const uint64_t L = 0x5000;
	cm_vclock_acquire(vc, 0, run(0, 100), L);
	cm_vclock_release(vc, 0, run(0, 50), L);     /* held from 100 to 150 */
	cm_vclock_acquire(vc, 1, run(1, 60), L);     /* before the hold: would have won */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 60);
	cm_vclock_release(vc, 1, run(1, 10), L);     /* held 60 to 70 */
	cm_vclock_acquire(vc, 0, run(0, 1), L);      /* 151: long free */
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 151);
	cm_vclock_release(vc, 0, run(0, 100), L);    /* held 151 to 251 */
	run(1, 120);                                 /* vCPU 1 at 190: inside that hold */
	cm_vclock_acquire(vc, 1, run(1, 0), L);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 251);
	cm_vclock_free(vc);
}

/*
 * Under -icount's turns vCPU 1 spins on a lock vCPU 0 holds from 5,000 to
 * 7,000 on its clock.  vCPU 1 began spinning at 100, before that hold in
 * time, so it would have had the lock first: it does not wait, and its
 * earlier hold leaves the record to vCPU 0's.  vCPU 2, spinning from 6,000,
 * inside the hold, waits for its release.
 */
TEST(a_spin_that_began_before_the_hold_does_not_wait_for_it)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	const uint64_t L = 0xffff800000456000ull;
	cm_vclock_acquire(vc, 0, run(0, 5000), L);
	cm_vclock_spin_begin(vc, 1, run(1, 100));
	cm_vclock_spin_begin(vc, 2, run(2, 6000));
	cm_vclock_release(vc, 0, run(0, 2000), L);                  /* at 7,000 */
	cm_vclock_spin_end(vc, 1, run(1, 50), L);
	cm_vclock_acquire(vc, 1, run(1, 1), L);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 101);       /* the spin is waiting */
	cm_vclock_release(vc, 1, run(1, 10), L);                    /* at 111 */
	cm_vclock_spin_end(vc, 2, run(2, 50), L);
	CHECK_EQ(cm_vclock_now(vc, 2, run(2, 0)).insns, 7000);
	CHECK_EQ(cm_vclock_now(vc, 2, run(2, 0)).cycles, 3 * 7000);
	cm_vclock_free(vc);
}

TEST(a_pause_loop_is_waiting)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(1);
	cm_vclock_pause(vc, 0, run(0, 100), 0x7000);     /* the first turn counts */
	for (int i = 0; i < 50; i++)
		cm_vclock_pause(vc, 0, run(0, 4), 0x7000);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 100);
	cm_vclock_pause(vc, 0, run(0, 1000), 0x7000);    /* far apart: work in between */
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1100);
	cm_vclock_pause(vc, 0, run(0, 4), 0x7100);       /* another loop */
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1104);
	cm_vclock_free(vc);
}

TEST(a_post_is_consumed_by_its_wait)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	cm_vclock_post(vc, 0, run(0, 900), HAKO_SYNC_THREAD, 0xabc);
	cm_vclock_post(vc, 0, run(0, 100), HAKO_SYNC_THREAD, 0xabc);   /* merged: the later */
	cm_vclock_wait(vc, 1, run(1, 10), HAKO_SYNC_THREAD, 0xabc);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).cycles, 3000);
	run(0, 5000);
	cm_vclock_wait(vc, 1, run(1, 1), HAKO_SYNC_THREAD, 0xabc);     /* nothing posted since */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).cycles, 3003);
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_CALL, 0xabc);       /* another kind, same address */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).cycles, 3003);
	CHECK_EQ(cm_vclock_dropped(vc), 0);
	cm_vclock_post(vc, 5, run(0, 0), HAKO_SYNC_THREAD, 1);          /* no such vCPU */
	CHECK_EQ(cm_vclock_dropped(vc), 1);
	cm_vclock_free(vc);
}

TEST(many_tokens_grow_the_table)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	for (uint64_t t = 0; t < 5000; t++)
		cm_vclock_post(vc, 0, run(0, 1), HAKO_SYNC_THREAD, t * 64);
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 4321 * 64);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 4322);
	CHECK_EQ(cm_vclock_dropped(vc), 0);
	cm_vclock_free(vc);
}

TEST(a_local_region_is_its_vcpus_clock_difference)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	cm_vclock_region(vc, HAKO_REGION_DISP(HAKO_REGION_BEGIN, 7), 1, run(1, 10));
	cm_vclock_post(vc, 0, run(0, 500), HAKO_SYNC_THREAD, 1);
	cm_vclock_wait(vc, 1, run(1, 20), HAKO_SYNC_THREAD, 1);          /* 30 -> 500 */
	cm_vclock_region(vc, HAKO_REGION_DISP(HAKO_REGION_END, 7), 1, run(1, 5));
	CHECK_EQ(cm_vclock_elapsed(vc, 7, 1).insns, 495);
	CHECK_EQ(cm_vclock_elapsed(vc, 7, 0).insns, 0);
	cm_vclock_free(vc);
}

TEST(a_semaphores_post_stays_for_every_wait)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	cm_vclock_post(vc, 0, run(0, 300), HAKO_SYNC_SEM, 0x9000);
	cm_vclock_wait(vc, 1, run(1, 10), HAKO_SYNC_SEM, 0x9000);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 300);
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_SEM, 0x9000);        /* the second unit: same post */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 300);
	cm_vclock_free(vc);
}

/* testdev: one request at a time, a fixed delay each; its waiter sees the end. */
TEST(a_device_serves_its_requests_in_turn)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	const struct cm_work delay = { 4000, 1000 };
	cm_vclock_service(vc, 0, run(0, 100), 1, 0xa0, delay);       /* ends at 1,100 */
	cm_vclock_service(vc, 1, run(1, 150), 1, 0xb0, delay);       /* queued: ends at 2,100 */
	cm_vclock_service(vc, 0, run(0, 5000), 2, 0xc0, delay);      /* another device: 6,100 */
	cm_vclock_wait(vc, 1, run(1, 10), HAKO_SYNC_IO, 0xb0);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 2100);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).cycles, 300 + 4000 + 4000);   /* 3 cycles an insn */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_IO, 0xc0);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 6100);
	cm_vclock_service(vc, 0, run(0, 0), HAKO_SYNC_DEVICES, 0xd0, delay);   /* no such device */
	CHECK_EQ(cm_vclock_dropped(vc), 1);
	cm_vclock_free(vc);
}

/*
 * A busy vCPU far ahead takes the interrupt of a request that ended at
 * 1,100: its handler runs from then (what it posts carries 1,100 plus its
 * own work), and the vCPU itself loses only the handler's work.
 */
TEST(an_interrupt_on_a_busy_vcpu_runs_when_it_was_raised)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	const struct cm_work delay = { 3000, 1000 };
	cm_vclock_service(vc, 0, run(0, 100), 1, 0xa0, delay);          /* ends at 1,100 */
	run(1, 50000);                                                  /* vCPU 1: busy, ahead */
	cm_vclock_irq_begin(vc, 1, run(1, 0));
	cm_vclock_wait(vc, 1, run(1, 40), HAKO_SYNC_IO, 0xa0);          /* 1,100 + 40 */
	cm_vclock_post(vc, 1, run(1, 20), HAKO_SYNC_THREAD, 0xb0);      /* the waiter, at 1,160 */
	cm_vclock_irq_end(vc, 1, run(1, 10));
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 50000 + 70);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).cycles, 3 * (50000 + 70));
	cm_vclock_wait(vc, 2, run(2, 5), HAKO_SYNC_THREAD, 0xb0);       /* vCPU 2 was idle */
	CHECK_EQ(cm_vclock_now(vc, 2, run(2, 0)).insns, 1160);
	CHECK_EQ(cm_vclock_now(vc, 2, run(2, 0)).cycles, 300 + 3000 + 3 * 60);
	cm_vclock_free(vc);
}

/*
 * The markers of a request the device completes before its issuer sleeps
 * (a disk completed in host time, its interrupt on the issuer's own CPU):
 * the handler's blk_finish waits for the device's end and posts it again,
 * and the issuer, finding the request done, waits for that post: it goes
 * on at the device's end plus the handler's work, as a woken one does.
 */
TEST(a_request_done_before_its_issuer_sleeps_still_takes_the_device_time)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	const struct cm_work delay = { 150000, 50000 };
	cm_vclock_service(vc, 0, run(0, 1000), 1, 0xa0, delay);         /* ends at 51,000 */
	cm_vclock_irq_begin(vc, 0, run(0, 200));                        /* at 1,200, early */
	cm_vclock_wait(vc, 0, run(0, 30), HAKO_SYNC_IO, 0xa0);          /* blk_finish: 51,030 */
	cm_vclock_post(vc, 0, run(0, 0), HAKO_SYNC_IO, 0xa0);           /* ... for the issuer */
	cm_vclock_irq_end(vc, 0, run(0, 70));
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1300);          /* the issuer runs on */
	cm_vclock_wait(vc, 0, run(0, 50), HAKO_SYNC_IO, 0xa0);          /* blk_io_frame: done */
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 51030);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).cycles, 3 * 1000 + 150000 + 3 * 30);
	/* The same request whose issuer slept: the wake-up carries the same time. */
	cm_vclock_service(vc, 0, run(0, 0), 1, 0xb0, delay);            /* 51,030 .. 101,030 */
	cm_vclock_post(vc, 0, run(0, 100), HAKO_SYNC_THREAD, 0xc0);     /* it sleeps */
	cm_vclock_irq_begin(vc, 1, run(1, 10));                         /* on another CPU */
	cm_vclock_wait(vc, 1, run(1, 30), HAKO_SYNC_IO, 0xb0);
	cm_vclock_post(vc, 1, run(1, 0), HAKO_SYNC_IO, 0xb0);
	cm_vclock_post(vc, 1, run(1, 20), HAKO_SYNC_THREAD, 0xc0);      /* woken at 101,080 */
	cm_vclock_irq_end(vc, 1, run(1, 10));
	cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_THREAD, 0xc0);
	cm_vclock_wait(vc, 0, run(0, 50), HAKO_SYNC_IO, 0xb0);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 101080 + 50);
	cm_vclock_free(vc);
}

/* Interrupts reach an idle vCPU out of their order: the later one's
 * handler does not hold back the earlier one's thread; a handler that
 * waits for nothing keeps the vCPU's own clock; nested handlers end with
 * the outermost. */
TEST(interrupts_out_of_order_do_not_delay_each_other)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	const struct cm_work delay = { 3000, 1000 };
	cm_vclock_service(vc, 0, run(0, 100), 1, 0xa0, delay);          /* ends at 1,100 */
	cm_vclock_service(vc, 0, run(0, 8900), 1, 0xb0, delay);         /* ends at 10,000 */
	cm_vclock_irq_begin(vc, 1, run(1, 10));                         /* 0xb0's first */
	cm_vclock_irq_begin(vc, 1, run(1, 5));                          /* nested */
	cm_vclock_irq_end(vc, 1, run(1, 5));
	cm_vclock_wait(vc, 1, run(1, 20), HAKO_SYNC_IO, 0xb0);          /* 10,030 */
	cm_vclock_irq_end(vc, 1, run(1, 30));
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 10 + 60);
	cm_vclock_irq_begin(vc, 1, run(1, 0));                          /* then 0xa0's */
	cm_vclock_wait(vc, 1, run(1, 20), HAKO_SYNC_IO, 0xa0);
	cm_vclock_post(vc, 1, run(1, 10), HAKO_SYNC_THREAD, 0xc0);      /* its thread, here */
	cm_vclock_irq_end(vc, 1, run(1, 0));
	cm_vclock_wait(vc, 1, run(1, 5), HAKO_SYNC_THREAD, 0xc0);       /* the switch */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 1100 + 30);
	cm_vclock_irq_begin(vc, 1, run(1, 0));
	cm_vclock_irq_end(vc, 1, run(1, 40));
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 1130 + 40);
	cm_vclock_irq_end(vc, 1, run(1, 0));                            /* unmatched: nothing */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 1170);
	cm_vclock_free(vc);
}

/*
 * vCPU 1 is at 100, busy with thread A, when vCPU 0 (ahead under icount's
 * turns) wakes thread B at 1,000 and B preempts A on vCPU 1.  B runs from
 * 1,000 for 10 and leaves; vCPU 1 goes back to 100, where A goes on: its
 * 2,000 more instructions run around B's stretch and end at 2,110, not at
 * 3,010 (A waiting for B's future run to end).  A second stretch booked
 * inside the first's span merges with it.
 */
TEST(a_thread_woken_in_a_vcpus_future_runs_then_and_the_others_go_on_around_it)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	run(1, 100);
	cm_vclock_post(vc, 0, run(0, 1000), HAKO_SYNC_THREAD, 0xb0);    /* B woken at 1,000 */
	cm_vclock_post(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);       /* A switched out at 100 */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xb0);       /* B in: at 1,000 */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 1000);
	cm_vclock_post(vc, 0, run(0, 500), HAKO_SYNC_CALL, 0xc0);       /* vCPU 0 at 1,500 */
	cm_vclock_post(vc, 1, run(1, 10), HAKO_SYNC_THREAD, 0xb0);      /* B out at 1,010 */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 100);
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);       /* A back in at 100 */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 800)).insns, 900);         /* before B's stretch */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 1200)).insns, 2110);       /* around it */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).cycles, 3 * 2100 + 30);
	/* C at 3,000 for 50, then D at 3,020 (inside C's span once A has moved on) */
	cm_vclock_post(vc, 0, run(0, 1500), HAKO_SYNC_THREAD, 0xd0);    /* 3,000 */
	cm_vclock_post(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xd0);
	cm_vclock_post(vc, 1, run(1, 50), HAKO_SYNC_THREAD, 0xd0);      /* C: 3,000-3,050 */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);       /* A at 2,110 */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 1000)).insns, 3160);      /* 2,110 + 1,000 + 50 */
	cm_vclock_free(vc);
}

/*
 * Thread W is woken at 100 on vCPU 1, where thread A runs: A was switched
 * in at 0, or (ahead) woken at 1,000 by vCPU 0 and run 10 there.  Then A
 * takes a semaphore unit that vCPU 0, ahead under icount's turns, stored
 * at `unit`: A runs on from it (it would have slept until then), 10 more,
 * and leaves; vCPU 1 goes back to 100, where W runs `work` around A's
 * stretches.  W's end, or 0 if A did not run from the unit and then
 * leave vCPU 1 at 100.
 */
static uint64_t w_after_a_took_a_later_unit(bool ahead, uint64_t unit, uint64_t work)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	if (!ahead) {
		cm_vclock_post(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);
		cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);       /* A in at 0 */
	}
	cm_vclock_post(vc, 1, run(1, 100), HAKO_SYNC_THREAD, 0xe0);     /* W woken at 100 */
	if (ahead) {
		cm_vclock_post(vc, 0, run(0, 1000), HAKO_SYNC_THREAD, 0xa0);
		cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);       /* A in at 1,000 */
		run(1, 10);
	}
	cm_vclock_post(vc, 0, run(0, unit - w[0].insns), HAKO_SYNC_SEM, 0x9000);
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_SEM, 0x9000);        /* A takes it */
	bool from_unit = cm_vclock_now(vc, 1, run(1, 0)).insns == unit;
	cm_vclock_post(vc, 1, run(1, 10), HAKO_SYNC_THREAD, 0xa0);      /* A out */
	bool back = cm_vclock_now(vc, 1, run(1, 0)).insns == 100;
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xe0);       /* W in at 100 */
	uint64_t end = cm_vclock_now(vc, 1, run(1, work)).insns;
	cm_vclock_free(vc);
	return from_unit && back ? end : 0;                           /* 0: A ran elsewhere */
}

/*
 * A's stretch is 1,000-1,010: W's 2,000 end at 2,110, not 3,010 (W waiting
 * for A's wait to end).  Ahead, A's stretches are 1,000-1,010 and
 * 3,000-3,010, the gap between them free: W's 3,500 end at 3,620, not
 * 5,610 (the gap booked as A's).
 */
TEST(a_semaphore_unit_stored_in_a_vcpus_future_lets_its_other_threads_run)
{
	CHECK_EQ(w_after_a_took_a_later_unit(false, 1000, 2000), 2110);
	CHECK_EQ(w_after_a_took_a_later_unit(true, 3000, 3500), 3620);
}

/*
 * Thread A woken at 1,000 ran on vCPU 1 from then to 2,000 (booked: vCPU 1
 * went back to its own clock, 100).  The interrupt of a request that ended
 * at 1,500 reaches vCPU 1 afterwards under icount's turns: its handler runs
 * at 1,500, interrupting A's stretch, and the thread it wakes on vCPU 0 goes
 * on at 1,500 plus the handler's work, not after A's stretch at 2,000.
 */
TEST(an_interrupt_inside_a_booked_stretch_runs_when_it_was_raised)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	run(1, 100);
	cm_vclock_post(vc, 2, run(2, 1000), HAKO_SYNC_THREAD, 0xa0);    /* A woken at 1,000 */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_THREAD, 0xa0);       /* A in at 1,000 */
	cm_vclock_post(vc, 1, run(1, 1000), HAKO_SYNC_THREAD, 0xa0);    /* A out at 2,000 */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 100);
	cm_vclock_post(vc, 2, run(2, 500), HAKO_SYNC_IO, 0xb0);         /* the request's end: 1,500 */
	cm_vclock_irq_begin(vc, 1, run(1, 0));                          /* at vCPU 1's 100 */
	cm_vclock_wait(vc, 1, run(1, 40), HAKO_SYNC_IO, 0xb0);          /* 1,540 */
	cm_vclock_post(vc, 1, run(1, 20), HAKO_SYNC_THREAD, 0xc0);      /* wakes C at 1,560 */
	cm_vclock_irq_end(vc, 1, run(1, 10));
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 100 + 70);      /* vCPU 1 lost 70 */
	cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_THREAD, 0xc0);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1560);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).cycles, 3 * 1500 + 3 * 60);
	cm_vclock_free(vc);
}

/*
 * Idle vCPU 1 (its clock standing at 100) takes its run queue's lock and
 * switches in thread A, woken at 5,000, before it releases the lock: it
 * held the lock at 5,000-5,010, not from 100.  vCPU 0 taking the lock at
 * 1,000 does not wait for 5,010; vCPU 2 taking it at 5,005 does.
 */
TEST(a_hold_across_a_switch_in_begins_at_the_switched_in_time)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	run(1, 100);
	cm_vclock_post(vc, 2, run(2, 5000), HAKO_SYNC_THREAD, 0xa0);    /* A woken at 5,000 */
	cm_vclock_acquire(vc, 1, run(1, 0), 0x10);                      /* at 100 */
	cm_vclock_wait(vc, 1, run(1, 5), HAKO_SYNC_THREAD, 0xa0);       /* A in: 5,000 */
	cm_vclock_release(vc, 1, run(1, 10), 0x10);                     /* at 5,010 */
	cm_vclock_acquire(vc, 0, run(0, 1000), 0x10);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1000);
	cm_vclock_release(vc, 0, run(0, 10), 0x10);                     /* 1,000-1,010 */
	cm_vclock_acquire(vc, 2, run(2, 5), 0x10);                      /* at 5,005: held */
	CHECK_EQ(cm_vclock_now(vc, 2, run(2, 0)).insns, 5010);
	cm_vclock_free(vc);
}

/* vCPU 2 ran work nobody waited for: a global region begun on vCPU 0
 * starts every clock at vCPU 2's, so a worker woken there counts none of it. */
TEST(a_global_region_begins_at_one_moment_for_every_vcpu)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	cm_vclock_post(vc, 2, run(2, 9000), HAKO_SYNC_THREAD, 0x70);   /* a teardown, unwaited */
	cm_vclock_region(vc, GBEGIN, 0, run(0, 100));
	cm_vclock_post(vc, 0, run(0, 10), HAKO_SYNC_THREAD, 0x80);
	cm_vclock_wait(vc, 2, run(2, 0), HAKO_SYNC_THREAD, 0x80);
	cm_vclock_post(vc, 2, run(2, 500), HAKO_SYNC_CALL, 0x90);
	cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_CALL, 0x90);
	cm_vclock_region(vc, GEND, 0, run(0, 0));
	CHECK_EQ(cm_vclock_elapsed(vc, REGION, 0).insns, 10 + 500);      /* the wake, the work */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 9000);        /* idle, brought up too */
	cm_vclock_free(vc);
}

/*
 * Three requests issued at 100, 150 and 180 on three vCPUs: whatever order
 * their marks reach the plugin in (icount's turns), each is served in
 * issue order once a completion is waited for: 100..200, 200..300, 300..400.
 */
static void serve_three_in_mark_order(const unsigned order[3], uint64_t ends[3])
{
	static const uint64_t issue[3] = { 100, 150, 180 };
	const struct cm_work delay = { 300, 100 };
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	for (unsigned i = 0; i < 3; i++) {
		unsigned r = order[i];
		cm_vclock_service(vc, r, run(r, issue[r] - w[r].insns), 1, 0xa0 + r, delay);
	}
	for (unsigned i = 0; i < 3; i++) {
		unsigned r = order[2 - i];                            /* waited for in reverse */
		cm_vclock_wait(vc, r, run(r, 0), HAKO_SYNC_IO, 0xa0 + r);
		ends[r] = cm_vclock_now(vc, r, run(r, 0)).insns;
	}
	cm_vclock_free(vc);
}

TEST(a_device_serves_requests_in_issue_order_whatever_order_they_are_marked_in)
{
	static const unsigned orders[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	for (unsigned o = 0; o < 6; o++) {
		uint64_t ends[3];
		serve_three_in_mark_order(orders[o], ends);
		CHECK_EQ(ends[0], 200);
		CHECK_EQ(ends[1], 300);
		CHECK_EQ(ends[2], 400);
	}
}

/*
 * The waited-for request and those issued before it are placed; one
 * issued after it waits for its own completion, so a request issued
 * between them but marked later still goes before it.  A request whose
 * waiter comes after every earlier one has been placed takes the first
 * gap at or after its issue, and is counted as late.
 */
TEST(a_request_is_placed_when_its_completion_is_first_waited_for)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(3);
	const struct cm_work delay = { 300, 100 };
	cm_vclock_service(vc, 0, run(0, 1000), 1, 0xa0, delay);       /* issued at 1,000 */
	cm_vclock_service(vc, 1, run(1, 500), 1, 0xb0, delay);        /* 500 .. 600 */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_IO, 0xb0);         /* 0xa0 not placed */
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 600);
	cm_vclock_service(vc, 2, run(2, 950), 1, 0xc0, delay);        /* 950 .. 1,050 */
	cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_IO, 0xa0);         /* 1,050 .. 1,150 */
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1150);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).cycles, 3 * 1050 + 300);
	cm_vclock_wait(vc, 2, run(2, 0), HAKO_SYNC_IO, 0xc0);
	CHECK_EQ(cm_vclock_now(vc, 2, run(2, 0)).insns, 1050);
	CHECK_EQ(cm_vclock_late(vc), 0);
	cm_vclock_service(vc, 1, run(1, 0), 1, 0xd0, delay);          /* at 600: a gap to 950 */
	CHECK_EQ(cm_vclock_late(vc), 1);                              /* after 0xa0 was placed */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_IO, 0xd0);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 700);
	for (unsigned i = 0; i < 100; i++) {                          /* more than it remembers */
		cm_vclock_service(vc, 0, run(0, 0), 1, 0x100 + i, delay);
		cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_IO, 0x100 + i);
	}
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1150 + 100 * 100);
	CHECK_EQ(cm_vclock_late(vc), 1);
	cm_vclock_free(vc);
}

/* More requests waiting to be placed than the device holds: the earliest
 * issued is placed to make room, and all are still served in issue order. */
TEST(a_device_with_many_requests_unplaced_serves_them_in_issue_order)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	const struct cm_work delay = { 30, 10 };
	for (unsigned i = 0; i < 100; i++)                            /* issued at 1,000 .. 1,099 */
		cm_vclock_service(vc, 0, run(0, i ? 1 : 1000), 1, 0x100 + i, delay);
	cm_vclock_service(vc, 1, run(1, 500), 1, 0x90, delay);        /* at 500: first */
	cm_vclock_wait(vc, 1, run(1, 0), HAKO_SYNC_IO, 0x90);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 510);
	cm_vclock_wait(vc, 0, run(0, 0), HAKO_SYNC_IO, 0x100 + 99);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 1000 + 100 * 10);
	CHECK_EQ(cm_vclock_dropped(vc), 0);
	cm_vclock_free(vc);
}

TEST(markers_dispatch_by_their_op)
{
	reset();
	struct cm_vclock *vc = cm_vclock_new(2);
	const struct cm_work none = { 0, 0 };
	cm_vclock_marker(vc, HAKO_REGION_DISP(HAKO_SYNC_POST, HAKO_SYNC_THREAD), 0, run(0, 700), 0x10, none);
	cm_vclock_marker(vc, HAKO_REGION_DISP(HAKO_SYNC_WAIT, HAKO_SYNC_THREAD), 1, run(1, 5), 0x10, none);
	CHECK_EQ(cm_vclock_now(vc, 1, run(1, 0)).insns, 700);
	cm_vclock_marker(vc, HAKO_REGION_DISP(HAKO_SYNC_SERVICE, 3), 1, run(1, 0), 0x20,
			 (struct cm_work){ 90, 30 });
	cm_vclock_marker(vc, HAKO_REGION_DISP(HAKO_SYNC_WAIT, HAKO_SYNC_IO), 0, run(0, 0), 0x20, none);
	CHECK_EQ(cm_vclock_now(vc, 0, run(0, 0)).insns, 730);
	cm_vclock_marker(vc, HAKO_REGION_DISP(HAKO_REGION_BEGIN, 1), 0, run(0, 0), 0, none);
	CHECK_EQ(cm_vclock_dropped(vc), 1);                            /* not a sync op */
	cm_vclock_free(vc);
}
