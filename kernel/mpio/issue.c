/*
 * issue.c — paper 001's first switch: which CPU issues a block device's
 * commands.  This file is the switch; each path is a file of its own:
 *
 *   symmetric (1b)  issue_symmetric.c — the caller runs the driver's
 *                   submit where it is; the driver locks its own state;
 *   funnel (1a)     issue_funnel.c — OSF/1's unix_master: the caller moves
 *                   to the master CPU and submits there under the
 *                   device's lock;
 *   IOP             iop.c — a device set to use the I/O processor skips
 *                   both: its requests go to the IOP's mailboxes, whatever
 *                   the mode (the IOP is the device's funnel).
 *
 * Switching modes while I/O runs: a symmetric submit counts itself in
 * mp.inside before it looks at the mode again, and a switch to funnel
 * waits until the count is zero; so once mpio_set_mode returns, no CPU
 * but the master is inside the driver.  A request already submitted
 * completes wherever its interrupt lands.
 */
#include <stdint.h>
#include <blk.h>
#include <mpio.h>
#include "mpio_internal.h"

int mpio_submit(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip)
{
	struct mpio *m = &d->mp;
	trip->funnelled = false;
	if (__atomic_load_n(&m->iop, __ATOMIC_SEQ_CST))
		return iop_submit(d, r);         /* the IOP is the funnel: nobody moves */
	if (__atomic_load_n(&m->mode, __ATOMIC_SEQ_CST) == MPIO_SYMMETRIC)
		return mpio_submit_symmetric(d, r, trip);   /* funnels if switched meanwhile */
	return mpio_submit_funnelled(d, r, trip);
}

void mpio_set_mode(struct blkdev *d, int mode)
{
	__atomic_store_n(&d->mp.mode, mode, __ATOMIC_SEQ_CST);
	if (mode == MPIO_FUNNEL)
		mpio_symmetric_drain(d);
}
