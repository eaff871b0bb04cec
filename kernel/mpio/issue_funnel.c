/*
 * funnel.c — paper 001's first switch: which CPU issues a block device's
 * commands.
 *
 * Symmetric (1b): the caller runs the driver's submit where it is; the
 * driver locks its own state.  Funnel (1a, OSF/1's unix_master): the
 * driver is treated as not MP-safe.  The calling thread is restricted to
 * the master CPU (its affinity becomes CPU 0 alone, which moves it
 * there), submits under the device's lock — the lock every run of the
 * device's interrupt handler holds too, so the driver does one thing at
 * a time — waits for the completion there, and is then moved back to the
 * CPU it came from with its old affinity.
 *
 * Switching modes while I/O runs: a symmetric submit counts itself in
 * mp.inside before it looks at the mode again, and a switch to funnel
 * waits until the count is zero; so once mpio_set_mode returns, no CPU
 * but the master is inside the driver.  A request already submitted
 * completes wherever its interrupt lands.
 *
 * A device that uses the I/O processor (iop.c) skips both: its requests
 * go to the IOP's mailboxes, whatever the mode.
 */
#include <stdbool.h>
#include <stdint.h>
#include <blk.h>
#include <cpu.h>
#include <mpio.h>
#include <sched.h>
#include <thread.h>
#include <arch/arch.h>

/* The running thread goes to the master and stays there until mpio_return. */
static void to_master(struct mpio_trip *trip)
{
	struct thread *me = thread_current();
	trip->funnelled = true;
	trip->home = cpu_id();
	trip->affinity = me->affinity;
	sched_set_affinity(me, 1ull << MPIO_MASTER);     /* not allowed here: moves now */
}

void mpio_return(struct mpio_trip *trip)
{
	if (!trip->funnelled)
		return;
	struct thread *me = thread_current();
	/* Allowed both on the master and at home, move, then the old set alone. */
	sched_set_affinity(me, trip->affinity | 1ull << MPIO_MASTER);
	sched_migrate(trip->home);
	sched_set_affinity(me, trip->affinity);
}

/* On the master, one thing at a time in the driver. */
static int submit_funnelled(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip)
{
	to_master(trip);
	spin_lock(&d->mp.lock);
	mpio_route(d, r);
	int err = d->ops->submit(d, r);
	spin_unlock(&d->mp.lock);
	return err;
}

int mpio_submit(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip)
{
	struct mpio *m = &d->mp;
	trip->funnelled = false;
	if (__atomic_load_n(&m->iop, __ATOMIC_SEQ_CST))
		return iop_submit(d, r);         /* the IOP is the funnel: nobody moves */
	if (__atomic_load_n(&m->mode, __ATOMIC_SEQ_CST) == MPIO_SYMMETRIC) {
		__atomic_fetch_add(&m->inside, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&m->mode, __ATOMIC_SEQ_CST) == MPIO_SYMMETRIC) {
			mpio_route(d, r);
			int err = d->ops->submit(d, r);
			__atomic_fetch_sub(&m->inside, 1, __ATOMIC_SEQ_CST);
			return err;
		}
		__atomic_fetch_sub(&m->inside, 1, __ATOMIC_SEQ_CST);   /* funnelled meanwhile */
	}
	return submit_funnelled(d, r, trip);
}

void mpio_set_mode(struct blkdev *d, int mode)
{
	struct mpio *m = &d->mp;
	__atomic_store_n(&m->mode, mode, __ATOMIC_SEQ_CST);
	if (mode != MPIO_FUNNEL)
		return;
	/* Symmetric submits never sleep: this waits microseconds. */
	while (__atomic_load_n(&m->inside, __ATOMIC_SEQ_CST) > 0) {
		arch_spin_hint();
		sched_yield();
	}
}
