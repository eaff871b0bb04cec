/*
 * issue_symmetric.c — paper 001's symmetric issue path (1b): the caller
 * runs the driver's submit on the CPU it is on, concurrently with any
 * other CPU; the driver locks its own state.  issue.c chooses this path.
 *
 * A switch to funnel (mpio_set_mode) must know when no CPU but the master
 * is inside the driver: a submit here counts itself in mp.inside, then
 * looks at the mode again, and if the device was funnelled meanwhile it
 * leaves the count and takes the funnel path instead; the switch waits
 * (mpio_symmetric_drain) until the count is zero.
 */
#include <stdint.h>
#include <blk.h>
#include <mpio.h>
#include <sched.h>
#include <spinlock.h>
#include <arch/arch.h>
#include "mpio_internal.h"

int mpio_submit_symmetric(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip)
{
	struct mpio *m = &d->mp;
	__atomic_fetch_add(&m->inside, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&m->mode, __ATOMIC_SEQ_CST) == MPIO_SYMMETRIC) {
		push_off();                      /* kept until the caller waits (mpio.h) */
		mpio_route(d, r);
		int err = d->ops->submit(d, r);
		__atomic_fetch_sub(&m->inside, 1, __ATOMIC_SEQ_CST);
		return err;
	}
	__atomic_fetch_sub(&m->inside, 1, __ATOMIC_SEQ_CST);   /* funnelled meanwhile */
	return mpio_submit_funnelled(d, r, trip);
}

void mpio_symmetric_drain(struct blkdev *d)
{
	/* Symmetric submits never sleep: this waits microseconds. */
	while (__atomic_load_n(&d->mp.inside, __ATOMIC_SEQ_CST) > 0) {
		arch_spin_hint();
		sched_yield();
	}
}
