/*
 * mpio_internal.h — what the files of kernel/mpio share and nobody else
 * needs: the switch of who issues commands (issue.c) and its two paths
 * (issue_symmetric.c, issue_funnel.c), and delivery.c's routing, which
 * every path calls (iop.c's too).  The rest of the kernel uses mpio.h.
 */
#ifndef HAKO_MPIO_INTERNAL_H
#define HAKO_MPIO_INTERNAL_H

#include <mpio.h>

struct blkdev;
struct blk_req;

/* issue.c, for delivery.c's mpio_set: waits out symmetric submits when funnelling. */
void mpio_set_mode(struct blkdev *d, int mode);

/* The two issue paths; each returns the driver's submit's result. */
/* issue_symmetric.c: here, concurrently; takes the funnel path if the
 * device was funnelled since the caller looked at the mode. */
int mpio_submit_symmetric(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip);
/* issue_symmetric.c: returns once no symmetric submit is inside the driver. */
void mpio_symmetric_drain(struct blkdev *d);
/* issue_funnel.c: on the master CPU under d->mp.lock; mpio_return brings the caller back. */
int mpio_submit_funnelled(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip);

/* delivery.c, for every path: decide where r's interrupt goes and
 * retarget; sets r->issuer (caller may hold d->mp.lock). */
void mpio_route(struct blkdev *d, struct blk_req *r);

#endif
