/*
 * issue_funnel.c — paper 001's funnel issue path (1a, OSF/1's
 * unix_master): the driver is treated as not MP-safe.  The calling thread
 * is restricted to the master CPU (its affinity becomes CPU 0 alone,
 * which moves it there), submits under the device's lock — the lock
 * every run of the device's interrupt handler holds too, so the driver
 * does one thing at a time — waits for the completion there, and is then
 * moved back to the CPU it came from with its old affinity (mpio_return).
 * issue.c chooses this path.
 */
#include <stdbool.h>
#include <stdint.h>
#include <blk.h>
#include <cpu.h>
#include <mpio.h>
#include <sched.h>
#include <spinlock.h>
#include <thread.h>
#include "mpio_internal.h"

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
int mpio_submit_funnelled(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip)
{
	to_master(trip);
	push_off();                              /* kept until the caller waits (mpio.h) */
	spin_lock(&d->mp.lock);
	mpio_route(d, r);
	int err = d->ops->submit(d, r);
	spin_unlock(&d->mp.lock);
	return err;
}
